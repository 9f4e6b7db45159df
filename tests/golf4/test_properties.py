"""Property tests over random legal play, 2–8 seats (issue 10, Tests).

Hypothesis draws the seat count, the rounds and a seed; the seed drives every shuffle and every
choice of a random legal player, so a failing example replays exactly. At every step:

- the 52 cards are conserved: hands + stock + discard pile + the held card;
- ``apply`` never changes the state it was given (a pickled snapshot), accepted or refused;
- ``legal_actions`` is exact (at a sample of positions): every candidate action of every seat that it
  does not list is refused, and every one it lists is accepted;
- no view lists a face-down card, a card under the top discard, or another seat's drawn card;
- the totals are the sums of the finished rounds' points, each round's points its cards plus
  penalty, and a penalty only for a knocker beaten strictly (G13, G14);
- the record written from the play replays (also through JSON text) to the live state, and its
  steps agree with the replay.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dineri.golf4 import (
    CODE,
    FULL_DECK,
    Action,
    Discard,
    Draw,
    Forfeit,
    Knock,
    MatchRecord,
    MatchState,
    Options,
    Peek,
    RuleError,
    SkipPeek,
    Step,
    Swap,
    Take,
    add_deck,
    apply,
    legal_actions,
    load_record,
    new_match,
    public_view,
    replay,
    seat_view,
    steps,
    summary,
)


def _shuffled(rng: random.Random) -> tuple[int, ...]:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return tuple(deck)


def _candidates(seat: int) -> list[Action]:
    return [Peek(seat), SkipPeek(seat), Draw(seat), Take(seat), Discard(seat), Knock(seat),
            *(Swap(seat, k) for k in range(4))]


def _codes(view: object) -> set[str]:
    if isinstance(view, dict):
        return set().union(*(_codes(v) for v in view.values())) if view else set()
    if isinstance(view, list):
        return set().union(*(_codes(v) for v in view)) if view else set()
    return {view} if isinstance(view, str) and view in CODE else set()


def _check_views(state: MatchState) -> None:
    deal = state.deal
    if deal is None:
        return
    hidden = {CODE[c] for h in deal.hands for c in h} | {CODE[c] for c in deal.stock}
    hidden |= {CODE[c] for c in deal.discard[:-1]}
    drawn = CODE[deal.held.card] if deal.held is not None and deal.held.source == "stock" else None
    over = state.phase == "over"
    for seat in (*range(state.seats), None):
        view = seat_view(state, seat) if seat is not None else public_view(state)
        shown = _codes({k: v for k, v in view.items() if k != "rounds"})
        assert view["rounds"] == [r.to_json() for r in state.rounds]
        if not over:
            assert not shown & hidden, (seat, shown & hidden)
        if drawn is not None and seat != state.turn:
            assert drawn not in shown


def _check_scores(state: MatchState) -> None:
    for s in range(state.seats):
        assert state.totals[s] == sum(r.points[s] for r in state.rounds)
    for r in state.rounds:
        assert all(0 <= c <= 40 for c in r.cards)
        assert r.points == tuple(c + p for c, p in zip(r.cards, r.penalty, strict=True))
        for s, p in enumerate(r.penalty):
            beaten = r.knocker is not None and any(c < r.cards[r.knocker] for t, c in enumerate(r.cards)
                                                   if t != r.knocker)
            assert p == (10 if s == r.knocker and beaten else 0)


def _conserved(state: MatchState) -> None:
    d = state.deal
    if d is None:
        return
    cards = [c for h in d.hands for c in h] + list(d.stock) + list(d.discard)
    if d.held is not None:
        cards.append(d.held.card)
    assert sorted(cards) == list(FULL_DECK)
    assert all(len(h) == 4 for h in d.hands)


def _pick(rng: random.Random, options: list[Action]) -> Action:
    plain = [a for a in options if not isinstance(a, Forfeit)]
    if rng.random() < 0.003 or not plain:
        return options[-1]
    knocks = [a for a in plain if isinstance(a, Knock)]
    if knocks and rng.random() < 0.12:
        return knocks[0]
    rest = [a for a in plain if not isinstance(a, Knock)] or plain
    return rng.choice(rest)


def _as_recorded(state: MatchState) -> MatchState:
    """``state`` with only the decks it used: a deck known up front but never used (the match
    forfeited first) is not in the record (``decks``: every shuffle that happened,
    match-record-golf4.md), so not in its replay."""
    return dataclasses.replace(state, decks=state.decks[: state.decks_used])


def playout(seats: int, rounds: int, seed: int, *, exact: bool = True) -> tuple[MatchState, MatchRecord]:
    """Play a random legal match; check every invariant on the way; return the end and its record."""
    rng = random.Random(seed)
    options = Options(seats, rounds)
    dealer = rng.randrange(seats)
    # some decks are known up front, the rest supplied when asked (both paths of G11 and the deal)
    decks = [_shuffled(rng) for _ in range(rng.randrange(3))]
    state, _ = new_match(options, dealer, decks)
    actions = []
    for _ in range(20000):
        if state.phase == "over":
            break
        if state.phase == "shuffle":
            deck = _shuffled(rng)
            decks.append(deck)
            state, _ = add_deck(state, deck)
            continue
        _conserved(state)
        _check_views(state)
        _check_scores(state)
        legal = {s: legal_actions(state, s) for s in range(seats)}
        if exact and rng.random() < 0.3:  # a sample of the positions: the check costs 10 applies per seat
            snapshot = pickle.dumps(state)
            for s in range(seats):
                for cand in _candidates(s):
                    try:
                        apply(state, cand)
                    except RuleError:
                        assert cand not in legal[s]
                    else:
                        assert cand in legal[s], cand
                    assert pickle.dumps(state) == snapshot
        movers = [s for s in range(seats) if any(not isinstance(a, Forfeit) for a in legal[s])]
        assert movers, summary(state)
        seat = rng.choice(movers)
        action = _pick(rng, legal[seat])
        before = pickle.dumps(state)
        new, _ = apply(state, action)
        assert pickle.dumps(state) == before
        actions.append(action)
        state = new
    assert state.phase == "over"
    _conserved(state)
    _check_scores(state)
    assert state.winners
    rec = MatchRecord(options=options, first_dealer=dealer, decks=tuple(decks)[: state.decks_used])
    for a in actions:
        rec = rec.with_action(a)
    return state, rec


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(2, 8), rounds=st.sampled_from([9, 18]), seed=st.integers(0, 2**32))
def test_random_legal_play_conserves_cards_and_scores_and_replays(seats: int, rounds: int, seed: int) -> None:
    state, rec = playout(seats, rounds, seed, exact=seats <= 4)
    out = replay(load_record(json.loads(rec.dumps())))
    assert out.error is None and out.state == _as_recorded(state)
    assert summary(replay(rec).state) == summary(state)
    items = list(steps(rec))
    assert all(isinstance(s, Step) for s in items[:-1]) and len(items) == len(rec.actions) + 1
    last = items[-2]
    assert isinstance(last, Step) and last.state == _as_recorded(state)
    assert len(state.rounds) == rounds or state.forfeited


@settings(max_examples=6, deadline=None)
@given(seats=st.integers(5, 8), seed=st.integers(0, 2**32))
def test_legal_actions_are_exact_with_many_seats(seats: int, seed: int) -> None:
    state, rec = playout(seats, 9, seed, exact=True)
    assert replay(rec).state == _as_recorded(state)
