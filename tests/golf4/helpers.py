"""Helpers for the golf4 engine tests: stacked decks and compact actions.

A *stacked deck* places chosen cards in chosen slots (G5: deck card ``k < 4N`` goes to seat
``(dealer + 1 + k) mod N``, slot ``k div N``), then the first discard, then the stock top first;
every other card follows in ``FULL_DECK`` order.

A *compact action* is one line: ``"0 peek"``, ``"1 skip"`` (skip_peek), ``"0 draw"``, ``"0 take"``,
``"0 swap 2"``, ``"0 discard"``, ``"0 knock"``, ``"0 forfeit"``, optionally ending in ``auto``. It
goes through the record's JSON form and ``action_from_json``, the path of a replay.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from dineri.golf4 import (
    CODE,
    FULL_DECK,
    Card,
    MatchState,
    Options,
    RuleError,
    action_from_json,
    apply,
    new_match,
    parse_card,
)

Event = dict[str, Any]
_NAMES = {"skip": "skip_peek"}


def codes(text: str) -> list[Card]:
    """``codes("7H ks")`` -> the card ints, in order (G3)."""
    return [parse_card(c) for c in text.split()]


def stacked(seats: int, dealer: int, hands: dict[int, str] | None = None, discard: str | None = None,
            stock: str = "") -> tuple[Card, ...]:
    """A 52-card deck dealing ``hands[seat]`` (4 codes, slots 0–3) to the seats named, ``discard``
    as the first discard and ``stock`` (codes, top first) on top of the stock; the rest in order."""
    fixed: dict[int, Card] = {}
    for seat, text in (hands or {}).items():
        for slot, card in enumerate(codes(text)):
            fixed[slot * seats + (seat - dealer - 1) % seats] = card
    if discard is not None:
        fixed[4 * seats] = parse_card(discard)
    for i, card in enumerate(codes(stock)):
        fixed[4 * seats + 1 + i] = card
    assert len(set(fixed.values())) == len(fixed), "a card is placed twice"
    rest = iter(c for c in FULL_DECK if c not in fixed.values())
    return tuple(fixed[k] if k in fixed else next(rest) for k in range(52))


def raw(line: str) -> dict[str, Any]:
    """The record form of a compact action."""
    words = line.split()
    doc: dict[str, Any] = {"seat": int(words[0]), "type": _NAMES.get(words[1], words[1])}
    rest = words[2:]
    if rest and rest[-1] == "auto":
        doc["auto"] = True
        rest = rest[:-1]
    if doc["type"] == "swap":
        doc["slot"] = int(rest[0])
    return doc


def act(state: MatchState, *lines: str) -> tuple[MatchState, list[Event]]:
    """Apply compact actions in order; return the last state and all their events."""
    events: list[Event] = []
    for line in lines:
        state, evs = apply(state, action_from_json(raw(line), state.seats))
        events += evs
    return state, events


def refused(state: MatchState, line: str | dict[str, Any], code: str) -> RuleError:
    """Assert the action is refused with ``code`` and the state is unchanged (G12)."""
    before = pickle.dumps(state)
    doc = raw(line) if isinstance(line, str) else line
    with pytest.raises(RuleError) as info:
        apply(state, action_from_json(doc, state.seats))
    assert info.value.code == code, info.value
    assert pickle.dumps(state) == before
    return info.value


def begin(seats: int, dealer: int = 0, decks: Sequence[Sequence[Card]] = (), *, rounds: int = 9,
          peek: bool = True) -> MatchState:
    """A match with ``decks`` (a stacked default deck when none) past the peek (every seat skips,
    seat order) unless ``peek`` is False."""
    state, _ = new_match(Options(seats, rounds), dealer, decks or [stacked(seats, dealer)])
    if peek:
        state, _ = act(state, *(f"{s} skip" for s in range(seats)))
    return state


def with_deal(state: MatchState, **changes: Any) -> MatchState:
    """``state`` with its deal's fields changed (to set up a position directly)."""
    assert state.deal is not None
    return replace(state, deal=replace(state.deal, **changes))


def card_set(state: MatchState) -> list[str]:
    """Every card of the round in progress (hands, stock, discard, held), as sorted codes."""
    d = state.deal
    assert d is not None
    cards = [c for h in d.hands for c in h] + list(d.stock) + list(d.discard)
    if d.held is not None:
        cards.append(d.held.card)
    return sorted(CODE[c] for c in cards)
