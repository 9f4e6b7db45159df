"""Actions a seat may take, and their JSON form (``match-record.md``, Actions).

Each action is a small frozen dataclass that checks its own form when built
(R18: a card 0–39, no card named twice, a cut position 0–39 …), raising
``RuleError("malformed")``, so a malformed action cannot exist; the seat's upper
bound depends on the table and is checked by ``apply``. ``auto`` marks an
action the server made for a player (a turn clock that ran out). :func:`action_from_json` turns a
record's action object into one, raising ``malformed`` (R18) for any other form.

Speed (``benchmarks/engine.py``): building a frozen dataclass costs about as
much as applying a move, so the actions that recur (every lay, cut, keep and
forfeit of each seat, and each capture once seen) are built once and shared;
they are immutable values, so sharing is invisible except to ``is``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dineri.engine.cards import BY_CODE, CODE, Card, card_codes, parse_card
from dineri.engine.errors import RuleError, shown


def _malformed(message: str) -> RuleError:
    return RuleError("malformed", message)


def _check_seat_auto(seat: object, auto: object) -> None:
    # The upper bound of a seat depends on the table: apply() checks it (R4).
    if type(seat) is not int or seat < 0:
        raise _malformed(f"seat must be a non-negative integer, got {shown(seat)}")
    if type(auto) is not bool:
        raise _malformed("auto must be true or false")


def _check_cards(card: object, capture: object) -> None:
    if type(card) is not int or not 0 <= card < 40:
        raise _malformed(f"a card is a number from 0 to 39, got {shown(card)}")
    if type(capture) is not tuple or not all(type(c) is int and 0 <= c < 40 for c in capture):
        raise _malformed("capture must be a tuple of card numbers 0-39")
    if len(set(capture)) != len(capture):
        raise _malformed("a card is named twice in capture")


@dataclass(frozen=True, slots=True)
class Cut:
    """R8: the cutter cuts the pack at position ``at`` (0–39)."""

    seat: int
    at: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)
        if type(self.at) is not int or not 0 <= self.at <= 39:
            raise _malformed(f"cut position must be an integer from 0 to 39, got {shown(self.at)}")


@dataclass(frozen=True, slots=True)
class Keep:
    """R9: the cutter keeps the drawn card (and takes the next 2)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class TableDrawn:
    """R9: the cutter puts the drawn card (and the next 3) on the table. JSON type ``table``."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class ProposeRedeal:
    """R10: propose a redeal (3+ of the 4 first table cards share a value)."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)


@dataclass(frozen=True, slots=True)
class AnswerRedeal:
    """R10: an opponent of the proposer accepts or refuses the redeal."""

    seat: int
    accept: bool
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)
        if type(self.accept) is not bool:
            raise _malformed("accept must be true or false")


@dataclass(frozen=True, slots=True)
class Claim:
    """R19–R22: claim the card just laid and the cards it could have taken."""

    seat: int
    card: Card
    capture: tuple[Card, ...]
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)
        _check_cards(self.card, self.capture)
        if not self.capture:
            raise _malformed("a claim must name the cards it takes")


@dataclass(frozen=True, slots=True)
class Play:
    """R13–R18: play ``card``, capturing ``capture`` (empty: lay it on the table)."""

    seat: int
    card: Card
    capture: tuple[Card, ...] = ()
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)
        _check_cards(self.card, self.capture)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """R33: the seat's side gives up the match."""

    seat: int
    auto: bool = False

    def __post_init__(self) -> None:
        _check_seat_auto(self.seat, self.auto)


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


SEATS = range(4)
#: LAYS[seat][card]: the shared ``Play(seat, card)`` that lays the card (R13, R17).
LAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(seat, card) for card in range(40)) for seat in SEATS)
#: CUTS[seat]: the 40 shared ``Cut(seat, at)`` actions (R8).
CUTS: tuple[tuple[Cut, ...], ...] = tuple(tuple(Cut(seat, at) for at in range(40)) for seat in SEATS)
KEEPS: tuple[Keep, ...] = tuple(Keep(seat) for seat in SEATS)
TABLE_DRAWNS: tuple[TableDrawn, ...] = tuple(TableDrawn(seat) for seat in SEATS)
FORFEITS: tuple[Forfeit, ...] = tuple(Forfeit(seat) for seat in SEATS)
#: CAPTURE_PLAYS[seat][card][capture]: the shared ``Play(seat, card, capture)``
#: once built by :func:`capture_play`.
CAPTURE_PLAYS: tuple[tuple[dict[tuple[Card, ...], Play], ...], ...] = tuple(
    tuple({} for _ in range(40)) for _ in SEATS
)
_CAPTURES_LIMIT = 1 << 10  # captures kept per (seat, card); more are built but not kept


def capture_play(seat: int, card: Card, capture: tuple[Card, ...]) -> Play:
    """The shared ``Play(seat, card, capture)`` (R13–R16) for a seat 0–3 and a card 0–39;
    built on first use."""
    memo = CAPTURE_PLAYS[seat][card]
    play = memo.get(capture)
    if play is None:
        play = Play(seat, card, capture)
        if len(memo) < _CAPTURES_LIMIT:
            memo[capture] = play
    return play


_card_of = BY_CODE.__getitem__


def _capture_list(raw: object, *, required: bool) -> tuple[Card, ...]:
    if type(raw) is list and raw:
        # Fast path for well-formed codes; anything unusual takes the checked path below.
        try:
            cards = tuple(map(_card_of, raw))
        except (KeyError, TypeError):
            pass
        else:
            if len(cards) == 1 or len(set(cards)) == len(cards):
                return cards
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
    auto = False
    if "auto" in raw:
        auto = raw["auto"]
        if type(auto) is not bool:
            raise RuleError("malformed", "auto must be true or false")
    kind = raw.get("type")
    if kind == "play":
        code: Any = raw.get("card")
        try:
            card = BY_CODE[code]
        except (KeyError, TypeError):  # not a code, or an unusual one: parse_card explains or accepts
            card = parse_card(code)
        capture = raw.get("capture")
        if auto or seat >= 4:  # no shared instances for these
            return Play(seat, card, () if capture is None else _capture_list(capture, required=False), auto)
        if capture is None:
            return LAYS[seat][card]
        capture = _capture_list(capture, required=False)
        return capture_play(seat, card, capture) if capture else LAYS[seat][card]
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
    raise RuleError("malformed",
                    f"unknown action type {shown(kind)}; expected one of {', '.join(ACTION_TYPES)}")


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
            out["card"] = CODE[card]
            out["capture"] = card_codes(capture)
        case Play(card=card, capture=capture):
            out["type"] = "play"
            out["card"] = CODE[card]
            if capture:
                out["capture"] = card_codes(capture)
        case Forfeit():
            out["type"] = "forfeit"
    if action.auto:
        out["auto"] = True
    return out
