"""Properties of random legal play (hypothesis): the 32 cards are conserved, scores agree with the
rounds (S13–S16), the engine accepts exactly its legal actions, and it is deterministic."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dineri.seven_diamonds import (
    POINTS,
    RANK,
    Bid,
    Forfeit,
    MatchState,
    Options,
    Pass,
    Play,
    RuleError,
    apply,
    legal_actions,
    new_match,
)
from tests.seven_diamonds.helpers import random_decks


def _cards_in_play(state: MatchState) -> list[int]:
    table = [s * 8 + r for s in range(4) for r in range(state.table[s])]
    return sorted([c for h in state.hands for c in h] + table)


def _check_invariants(state: MatchState) -> None:
    if state.phase != "shuffle":
        assert _cards_in_play(state) == list(range(32))  # S1, S4: nothing lost, nothing doubled
    if state.phase == "bidding":
        assert all(len(h) == 8 for h in state.hands) and state.table == (0, 0, 0, 0)
    assert state.scores == (sum(r.points[0] for r in state.rounds), sum(r.points[1] for r in state.rounds))
    for r in state.rounds:
        side = r.out % 2
        assert r.left[r.out] == () and r.left[(r.out + 2) % 4] is None
        assert r.card_points == sum(POINTS[c] for s in range(4) if s % 2 != side for c in r.left[s] or ())
        assert r.bonus == (200 if RANK[r.last_card] == 0 else 0)
        assert r.points[side] == r.card_points * r.multiplier + r.bonus and r.points[1 - side] == 0
        calls = [c for _, c in r.bids]
        assert r.multiplier == 1 + ("double" in calls) + ("three" in calls)  # S5-S7
    if state.phase == "over" and state.forfeited is None:
        assert state.scores[state.winner] >= 500 > state.scores[1 - state.winner]  # S16, no tie
    else:
        before = state.scores if state.phase != "over" else (0, 0)
        assert all(s < 500 for s in before)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_s1_s16_random_legal_play_conserves_the_cards_and_keeps_scores_consistent(seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(Options(), rng.randrange(4), random_decks(rng, 60))
    steps = 0
    while state.phase != "over":
        _check_invariants(state)
        assert state.turn is not None
        acts = [a for a in legal_actions(state, state.turn) if not isinstance(a, Forfeit)]
        state, _ = apply(state, rng.choice(acts))
        steps += 1
        assert steps < 20000
    _check_invariants(state)
    assert state.winner in (0, 1) and state.turn is None


def _every_action(seat: int) -> list:
    return ([Bid(seat, c) for c in ("pass", "double", "three")] + [Play(seat, c) for c in range(32)]
            + [Pass(seat), Forfeit(seat)])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_s12_the_engine_accepts_exactly_the_legal_actions(seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(Options(), rng.randrange(4), random_decks(rng, 60))
    for _ in range(80):
        if state.phase == "over":
            break
        for seat in range(4):
            legal = set(legal_actions(state, seat))
            for action in _every_action(seat):
                try:
                    apply(state, action)
                    accepted = True
                except RuleError:
                    accepted = False
                assert accepted == (action in legal), (action, state.phase, state.turn)
        acts = [a for a in legal_actions(state, state.turn) if not isinstance(a, Forfeit)]
        state, _ = apply(state, rng.choice(acts))


@pytest.mark.parametrize("seed", [1, 2])
def test_deterministic_given_the_decks(seed: int) -> None:
    def play() -> list[MatchState]:
        rng = random.Random(seed)
        state = new_match(Options(), 0, random_decks(rng, 60))
        seen = [state]
        while state.phase != "over":
            acts = [a for a in legal_actions(state, state.turn) if not isinstance(a, Forfeit)]
            state, _ = apply(state, rng.choice(acts))
            seen.append(state)
        return seen

    assert play() == play()
