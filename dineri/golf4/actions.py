"""Actions and their record form (``match-record-golf4.md``, Actions; G6, G8–G10).

Each action is a frozen dataclass that checks its own form when built, so a
malformed action cannot exist; the seat's upper bound depends on the table and
is checked by :func:`action_from_json` and :func:`dineri.golf4.rules.apply`.
``auto`` marks an action the server made for a player (turn clock, out seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dineri.golf4.errors import RuleError, shown

SLOTS = range(4)


def _check(seat: object, auto: object) -> None:
    if type(seat) is not int or seat < 0:
        raise RuleError("malformed", f"seat must be a non-negative integer, got {shown(seat)}")
    if type(auto) is not bool:
        raise RuleError("malformed", "auto must be true or false")


@dataclass(frozen=True, slots=True)
class Peek:
    """G6: look once at one's slots 2 and 3."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class SkipPeek:
    """G6: decline to look (the server sends it with ``auto`` when the time limit passes)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class Draw:
    """G8: take the top stock card into one's hand (held, seen by the drawer alone)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class Take:
    """G9: take the top discard into one's hand (held, face up)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class Swap:
    """G8, G9: the held card goes face down into ``slot`` (0–3); the card there goes face up on
    the discard pile; the turn ends."""

    seat: int
    slot: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)
        if type(self.slot) is not int or self.slot not in SLOTS:
            raise RuleError("malformed", f"slot must be an integer from 0 to 3, got {shown(self.slot)}")


@dataclass(frozen=True, slots=True)
class Discard:
    """G8: the card drawn from the stock goes face up on the discard pile; the turn ends."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class Knock:
    """G10: knock instead of drawing, if nobody has knocked this round; the turn ends."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The seat is out of the match and cannot win (``match-record-golf4.md``, forfeit)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check(self.seat, self.auto)


Action = Peek | SkipPeek | Draw | Take | Swap | Discard | Knock | Forfeit

_SIMPLE: dict[str, type[Peek | SkipPeek | Draw | Take | Discard | Knock | Forfeit]] = {
    "peek": Peek, "skip_peek": SkipPeek, "draw": Draw, "take": Take,
    "discard": Discard, "knock": Knock, "forfeit": Forfeit,
}
TYPE_OF: dict[type, str] = {cls: name for name, cls in _SIMPLE.items()} | {Swap: "swap"}
ACTION_TYPES = ("peek", "skip_peek", "draw", "take", "swap", "discard", "knock", "forfeit")


def action_from_json(raw: object, seats: int) -> Action:
    """Build an action from its record form, e.g. ``{"seat": 1, "type": "swap", "slot": 2}``.

    Checks, in the record page's order: an object; ``seat`` an integer ``0..seats-1`` (booleans are
    not integers); a known ``type``; for ``swap`` an integer ``slot`` 0–3; ``auto`` (optional) a
    boolean. Other keys are ignored. Raises :class:`RuleError` ``malformed``.
    """
    if not isinstance(raw, dict):
        raise RuleError("malformed", "an action must be a JSON object")
    seat = raw.get("seat")
    if type(seat) is not int or not 0 <= seat < seats:
        raise RuleError("malformed", f"seat must be an integer from 0 to {seats - 1}, got {shown(seat)}")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise RuleError("malformed", f"unknown action type {shown(kind)}; expected one of "
                                     f"{', '.join(ACTION_TYPES)}")
    if kind == "swap":
        slot = raw.get("slot")
        if type(slot) is not int or slot not in SLOTS:
            raise RuleError("malformed", f"swap needs a slot from 0 to 3, got {shown(slot)}")
    auto = raw.get("auto", False)
    if type(auto) is not bool:
        raise RuleError("malformed", "auto must be true or false")
    if kind == "swap":
        return Swap(seat, raw["slot"], auto)
    return _SIMPLE[kind](seat, auto)


def action_to_json(action: Action) -> dict[str, Any]:
    """The record form of an action (inverse of :func:`action_from_json`)."""
    out: dict[str, Any] = {"seat": action.seat, "type": TYPE_OF[type(action)]}
    if isinstance(action, Swap):
        out["slot"] = action.slot
    if action.auto:
        out["auto"] = True
    return out
