"""Actions a seat may take, and their record form (``match-record-seven-diamonds.md``, Actions).

Each action is a frozen dataclass that checks its own form when built (a seat 0–3,
a call of the three, a card 0–31), raising ``RuleError("malformed")``, so a malformed
action cannot exist. ``auto`` marks an action the server made for a player.
:func:`action_from_json` reads a record's action object in the check order of the
record page: not an object, the seat, the type, then the type's own key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dineri.seven_diamonds.cards import CODE, Card, parse_card
from dineri.seven_diamonds.errors import RuleError, shown

SEATS = 4
CALLS = ("pass", "double", "three")
ACTION_TYPES = ("bid", "play", "pass", "forfeit")


def _malformed(message: str) -> RuleError:
    return RuleError("malformed", message)


def _check_seat_auto(seat: object, auto: object) -> None:
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise _malformed(f"seat must be an integer from 0 to 3, got {shown(seat)}")
    if type(auto) is not bool:
        raise _malformed("auto must be true or false")


@dataclass(frozen=True, slots=True)
class Bid:
    """S5–S6: ``call`` is ``"pass"``, ``"double"`` or ``"three"``."""

    seat: int
    call: str
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)
        if type(self.call) is not str or self.call not in CALLS:
            raise _malformed(f"call must be one of pass, double, three, got {shown(self.call)}")


@dataclass(frozen=True, slots=True)
class Play:
    """S8–S9: play ``card`` onto its suit's pile."""

    seat: int
    card: Card
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)
        if type(self.card) is not int or not 0 <= self.card < 32:
            raise _malformed(f"a card is a number from 0 to 31, got {shown(self.card)}")


@dataclass(frozen=True, slots=True)
class Pass:
    """S10: pass the turn holding no legal card (announced as *jella*)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The seat's side gives up the match; the other side wins it."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)


Action = Bid | Play | Pass | Forfeit


def action_from_json(raw: object) -> Action:
    """Build an action from its record form, e.g. ``{"seat": 1, "type": "bid", "call": "double"}``.

    Raises :class:`RuleError` ``malformed`` (the first check of the record page fails): not an
    object; ``seat`` not an integer 0–3 (booleans are not integers); ``auto`` not a boolean;
    unknown or missing ``type``; a ``bid`` whose ``call`` is not exactly ``pass``/``double``/``three``;
    a ``play`` whose ``card`` is not a code of S1 (either case). Other keys are ignored.
    """
    if not isinstance(raw, dict):
        raise _malformed("an action must be a JSON object")
    seat = raw.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise _malformed(f"seat must be an integer from 0 to 3, got {shown(seat)}")
    auto = raw.get("auto", False)
    if type(auto) is not bool:
        raise _malformed("auto must be true or false")
    kind = raw.get("type")
    if kind == "bid":
        return Bid(seat, raw.get("call"), auto)  # type: ignore[arg-type]  # Bid checks the call
    if kind == "play":
        return Play(seat, parse_card(raw.get("card")), auto)
    if kind == "pass":
        return Pass(seat, auto)
    if kind == "forfeit":
        return Forfeit(seat, auto)
    raise _malformed(f"unknown action type {shown(kind)}; expected one of {', '.join(ACTION_TYPES)}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The record form of an action (the inverse of :func:`action_from_json`)."""
    out: dict[str, Any] = {"seat": action.seat}
    match action:
        case Bid(call=call):
            out["type"] = "bid"
            out["call"] = call
        case Play(card=card):
            out["type"] = "play"
            out["card"] = CODE[card]
        case Pass():
            out["type"] = "pass"
        case Forfeit():
            out["type"] = "forfeit"
    if action.auto:
        out["auto"] = True
    return out
