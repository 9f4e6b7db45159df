"""Helpers for the Seven Diamonds engine tests: stacked decks and compact actions.

A *stacked deck* is built from the hands a test wants (card codes per seat): since the deal
gives deck card ``k`` to seat ``(dealer + 1 + k) mod 4`` (S4), ``deck_for`` lays the wanted
hands out in that order; hands given short are filled with the unused cards in ``FULL_DECK``
order.

A *compact action* is one line of text, converted to the record form and then through
``action_from_json`` (the replay path):

    "1 double"   Bid(1, "double")   S5
    "2 three"    Bid(2, "three")    S6
    "0 pass"     a pass: Bid in bidding, Pass (jella) in play    S5, S10
    "3 play 7D"  Play(3, 7D)        S8, S9
    "0 forfeit"  Forfeit(0)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from dineri.seven_diamonds import (
    CODE,
    FULL_DECK,
    Action,
    Card,
    MatchState,
    Options,
    action_from_json,
    apply,
    legal_actions,
    new_match,
    parse_card,
)

Event = dict[str, Any]


def cards(text: str) -> tuple[Card, ...]:
    """``cards("7D th")`` -> the card ints, in order."""
    return tuple(parse_card(c) for c in text.split())


def deck_for(dealer: int, *hands: str) -> tuple[Card, ...]:
    """A deck that deals ``hands[seat]`` (codes separated by spaces, up to 8) to each seat (S4)."""
    wanted = [list(cards(h)) for h in hands] + [[] for _ in range(4 - len(hands))]
    used = [c for h in wanted for c in h]
    assert len(used) == len(set(used)), "a card is wanted twice"
    rest = iter(c for c in FULL_DECK if c not in used)
    for h in wanted:
        assert len(h) <= 8
        h.extend(next(rest) for _ in range(8 - len(h)))
    return tuple(wanted[(dealer + 1 + k) % 4][k // 4] for k in range(32))


def to_json(line: str, state: MatchState | None = None) -> dict[str, Any]:
    """The record form of a compact action; ``pass`` is a call in ``bidding``, else a play pass."""
    seat, kind, *rest = line.split()
    doc: dict[str, Any] = {"seat": int(seat)}
    if kind in ("double", "three") or (kind == "pass" and state is not None and state.phase == "bidding"):
        doc.update(type="bid", call=kind)
    elif kind == "play":
        doc.update(type="play", card=rest[0])
    else:
        doc["type"] = kind
    return doc


def act(line: str, state: MatchState) -> Action:
    """The engine action of a compact line (through the record form)."""
    return action_from_json(to_json(line, state))


def run(state: MatchState, *lines: str) -> tuple[MatchState, list[Event]]:
    """Apply compact actions in order; the final state and every event."""
    events: list[Event] = []
    for line in lines:
        state, evs = apply(state, act(line, state))
        events += evs
    return state, events


def start(dealer: int, *hands: str) -> MatchState:
    """A match whose first round deals ``hands`` (see :func:`deck_for`)."""
    return new_match(Options(), dealer, [deck_for(dealer, *hands)])


def all_pass(state: MatchState) -> MatchState:
    """Four passes from the seat after the dealer (S5): play begins at multiplier 1."""
    d = state.dealer
    state, _ = run(state, *(f"{(d + i) % 4} pass" for i in (1, 2, 3, 4)))
    return state


def random_decks(rng: random.Random, n: int) -> list[tuple[Card, ...]]:
    """``n`` random decks of the 32 cards."""
    out = []
    for _ in range(n):
        d = list(FULL_DECK)
        rng.shuffle(d)
        out.append(tuple(d))
    return out


def random_play(state: MatchState, rng: random.Random, limit: int = 5000,
                forfeit: bool = False) -> tuple[MatchState, list[tuple[Action, list[Event]]]]:
    """Random legal actions (never a forfeit unless ``forfeit``) until over or out of decks."""
    log: list[tuple[Action, list[Event]]] = []
    for _ in range(limit):
        if state.phase in ("over", "shuffle"):
            break
        assert state.turn is not None
        acts = [a for a in legal_actions(state, state.turn) if forfeit or type(a).__name__ != "Forfeit"]
        action = rng.choice(acts)
        state, events = apply(state, action)
        log.append((action, events))
    return state, log


def codes(cs: Iterable[Card]) -> list[str]:
    """Codes of cards."""
    return [CODE[c] for c in cs]


def hand_codes(state: MatchState, seat: int) -> Sequence[str]:
    """The codes of a seat's hand."""
    return codes(state.hands[seat])


def autoplay(state: MatchState, upto_rounds: int | None = None) -> tuple[MatchState, list[Event]]:
    """Play on with the first legal card in hand order (or the pass), bidding ``pass``, until the
    match has ``upto_rounds`` finished rounds (default: one more than now) or is over / waits."""
    target = len(state.rounds) + 1 if upto_rounds is None else upto_rounds
    events: list[Event] = []
    while state.phase in ("bidding", "play") and len(state.rounds) < target:
        assert state.turn is not None
        action = legal_actions(state, state.turn)[0]
        state, evs = apply(state, action)
        events += evs
    return state, events
