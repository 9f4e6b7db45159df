"""Actions a seat may take, and their JSON form (``match-record.md``, Actions).

Each action is a small frozen dataclass. ``auto`` marks an action the server
made for a player (a turn clock that ran out). :func:`action_from_json` turns a
record's action object into one, raising ``malformed`` (R18) for any other form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dineri.engine.cards import Card, card_codes, parse_card
from dineri.engine.errors import RuleError


@dataclass(frozen=True, slots=True)
class Cut:
    """R8: the cutter cuts the pack at position ``at`` (0–39)."""

    seat: int
    at: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Keep:
    """R9: the cutter keeps the drawn card (and takes the next 2)."""

    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class TableDrawn:
    """R9: the cutter puts the drawn card (and the next 3) on the table. JSON type ``table``."""

    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class ProposeRedeal:
    """R10: propose a redeal (3+ of the 4 first table cards share a value)."""

    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class AnswerRedeal:
    """R10: an opponent of the proposer accepts or refuses the redeal."""

    seat: int
    accept: bool
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Claim:
    """R19–R22: claim the card just laid and the cards it could have taken."""

    seat: int
    card: Card
    capture: tuple[Card, ...]
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Play:
    """R13–R18: play ``card``, capturing ``capture`` (empty: lay it on the table)."""

    seat: int
    card: Card
    capture: tuple[Card, ...] = ()
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Forfeit:
    """R33: the seat's side gives up the match."""

    seat: int
    auto: bool = False


Action = Cut | Keep | TableDrawn | ProposeRedeal | AnswerRedeal | Claim | Play | Forfeit

ACTION_TYPES = (
    "cut",
    "keep",
    "table",
    "propose_redeal",
    "answer_redeal",
    "claim",
    "play",
    "forfeit",
)


def _capture_list(raw: object, *, required: bool) -> tuple[Card, ...]:
    if raw is None and not required:
        return ()
    if not isinstance(raw, list):
        raise RuleError("malformed", "capture must be a list of card codes")
    cards = tuple(parse_card(c) for c in raw)
    if len(set(cards)) != len(cards):
        raise RuleError("malformed", "a card is named twice in capture")
    if required and not cards:
        raise RuleError("malformed", "a claim must name the cards it takes")
    return cards


def action_from_json(raw: object, seats: int) -> Action:
    """Build an action from its record form, e.g. ``{"seat": 1, "type": "cut", "at": 0}``.

    ``seats`` is the table size (2 or 4); ``seat`` must be in ``0..seats-1``.
    Raises :class:`RuleError` ``malformed`` for anything not of the documented form:
    an unknown type, a missing or mistyped key, a bad card code, a card named twice.
    """
    if not isinstance(raw, dict):
        raise RuleError("malformed", "an action must be a JSON object")
    seat = raw.get("seat")
    if type(seat) is not int or not 0 <= seat < seats:
        raise RuleError("malformed", f"seat must be an integer from 0 to {seats - 1}")
    auto = raw.get("auto", False)
    if type(auto) is not bool:
        raise RuleError("malformed", "auto must be true or false")
    kind = raw.get("type")
    if kind == "play":
        card = parse_card(raw.get("card"))
        return Play(seat, card, _capture_list(raw.get("capture"), required=False), auto)
    if kind == "claim":
        card = parse_card(raw.get("card"))
        return Claim(seat, card, _capture_list(raw.get("capture"), required=True), auto)
    if kind == "cut":
        at = raw.get("at")
        if type(at) is not int or not 0 <= at <= 39:
            raise RuleError("malformed", "cut position 'at' must be an integer from 0 to 39")
        return Cut(seat, at, auto)
    if kind == "keep":
        return Keep(seat, auto)
    if kind == "table":
        return TableDrawn(seat, auto)
    if kind == "propose_redeal":
        return ProposeRedeal(seat, auto)
    if kind == "answer_redeal":
        accept = raw.get("accept")
        if type(accept) is not bool:
            raise RuleError("malformed", "answer_redeal needs accept: true or false")
        return AnswerRedeal(seat, accept, auto)
    if kind == "forfeit":
        return Forfeit(seat, auto)
    raise RuleError("malformed", f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The record form of an action (inverse of :func:`action_from_json`)."""
    out: dict[str, Any] = {"seat": action.seat}
    match action:
        case Cut(at=at):
            out["type"] = "cut"
            out["at"] = at
        case Keep():
            out["type"] = "keep"
        case TableDrawn():
            out["type"] = "table"
        case ProposeRedeal():
            out["type"] = "propose_redeal"
        case AnswerRedeal(accept=accept):
            out["type"] = "answer_redeal"
            out["accept"] = accept
        case Claim(card=card, capture=capture):
            out["type"] = "claim"
            out["card"] = card_codes((card,))[0]
            out["capture"] = card_codes(capture)
        case Play(card=card, capture=capture):
            out["type"] = "play"
            out["card"] = card_codes((card,))[0]
            if capture:
                out["capture"] = card_codes(capture)
        case Forfeit():
            out["type"] = "forfeit"
    if action.auto:
        out["auto"] = True
    return out
