"""The golf4 computer player (``dineri.players.golf4_basic``): it sees only what its seat sees
(public events, its own private peek event, its seat view), what it remembers is true, it always
acts legally, and it plays better than chance."""

from __future__ import annotations

import random

import pytest

from dineri.golf4 import (
    CODE,
    FULL_DECK,
    MatchState,
    Options,
    Peek,
    action_from_json,
    add_deck,
    apply,
    legal_actions,
    new_match,
    peek_slots,
    seat_view,
)
from dineri.players.golf4_basic import Golf4Memory, choose


def _deck(rng: random.Random) -> tuple[int, ...]:
    d = list(FULL_DECK)
    rng.shuffle(d)
    return tuple(d)


def _check_memory(state: MatchState, memory: Golf4Memory) -> None:
    deal = state.deal
    if deal is None or state.phase == "over" or not memory.known:
        return
    for seat, slots in enumerate(memory.known):
        for slot, code in enumerate(slots):
            if code is not None:
                assert CODE[deal.hands[seat][slot]] == code, (memory.seat, seat, slot)


def play(seats: int, seed: int, bots: set[int], rounds: int = 9) -> MatchState:
    """A match where the seats in ``bots`` play :func:`choose` and the others random legal moves."""
    rng = random.Random(seed)
    state, events = new_match(Options(seats, rounds), rng.randrange(seats), [_deck(rng)])
    memories = {s: Golf4Memory(s, seats) for s in bots}
    for m in memories.values():
        for e in events:
            m.on_event(e)
    for _ in range(50000):
        if state.phase == "over":
            break
        if state.phase == "shuffle":
            state, events = add_deck(state, _deck(rng))
        else:
            seat = state.turn if state.phase == "play" else next(
                s for s in range(seats) if state.deal is not None and state.deal.peeks[s] is None)
            assert seat is not None
            if seat in bots:
                doc = choose(memories[seat], seat_view(state, seat))
                assert doc is not None
                action = action_from_json({**doc, "seat": seat}, seats)
                assert action in legal_actions(state, seat)
            else:
                action = rng.choice(legal_actions(state, seat, forfeit=False))
            before = state
            state, events = apply(state, action)
            if isinstance(action, Peek) and seat in memories:
                a, b = peek_slots(before.deal, seat)  # type: ignore[arg-type]
                memories[seat].on_event({"type": "peek_cards", "slots": {"2": CODE[a], "3": CODE[b]}})
        for m in memories.values():
            for e in events:
                m.on_event(e)
            if state.phase != "over":
                m.on_view(seat_view(state, m.seat))
            _check_memory(state, m)
    assert state.phase == "over"
    return state


@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_bots_play_legal_whole_matches_and_remember_only_true_cards(seats: int) -> None:
    state = play(seats, 1000 + seats, set(range(seats)))
    assert state.phase == "over" and len(state.rounds) == 9 and state.winners


def test_the_bot_remembers_its_peek_and_its_own_swaps() -> None:
    m = Golf4Memory(1, 3)
    m.on_event({"type": "deal", "round": 1, "dealer": 0, "discard": "5D", "stock_left": 39})
    m.on_event({"type": "peek_cards", "slots": {"2": "KS", "3": "9C"}})
    assert m.known[1] == [None, None, "KS", "9C"]
    assert m.worst_slot()[0] == 3  # the 9 is worse than an unknown card (about 6.5)
    m.on_view({"round": 1, "totals": [0, 0, 0], "turn": 1, "held": "AH", "holding": {"from": "stock"}})
    m.on_event({"type": "swap", "seat": 1, "slot": 3, "from": "stock", "card": "9C"})
    assert m.known[1] == [None, None, "KS", "AH"] and m.held is None
    m.on_event({"type": "take", "seat": 2, "card": "9C"})
    m.on_event({"type": "swap", "seat": 2, "slot": 0, "from": "discard", "card": "QD"})
    assert m.known[2][0] == "9C" and {"9C", "QD", "5D"} <= m.seen
    m.on_event({"type": "deal", "round": 2, "dealer": 1, "discard": "2D", "stock_left": 39})
    assert m.known[1] == [None] * 4


def test_the_bot_never_discards_a_taken_card_and_knocks_low() -> None:
    m = Golf4Memory(0, 2)
    view = {"phase": "play", "round": 1, "turn": 0, "totals": [0, 0], "peeks": ["peek", "peek"],
            "holding": {"from": "discard", "card": "QS"}, "held": None, "knocker": None, "stock_left": 30,
            "discard_top": None}
    assert choose(m, view)["type"] == "swap"  # type: ignore[index]
    m.known[0] = ["KS", "KD", "AH", "AS"]
    view = {**view, "holding": None, "discard_top": "9D"}
    assert choose(m, view) == {"type": "knock"}
    view = {**view, "knocker": 1}
    assert choose(m, view) == {"type": "draw"}


def test_the_bot_beats_random_play() -> None:
    wins = 0
    diff = 0
    for seed in range(12):
        state = play(2, seed, {seed % 2})
        bot = seed % 2
        diff += state.totals[1 - bot] - state.totals[bot]
        wins += bot in (state.winners or ())
    assert wins >= 10 and diff > 0
