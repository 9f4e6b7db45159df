"""Engine benchmark: random legal playouts and record replays, 2 and 4 seats, one core.

Usage: python benchmarks/engine.py [--rounds N] [--seed S]

Prints full rounds per second and microseconds per action for
(a) random legal play, where every action is chosen from ``legal_actions``
(so enumeration is included), and (b) replaying the recorded actions of
those same rounds from their records (parse + validate + apply).
Goal (issue 2): at least 10,000 random 2-seat rounds per second.
"""

from __future__ import annotations

import argparse
import random
import time

from dineri.engine import (
    Action,
    MatchRecord,
    MatchState,
    Options,
    action_to_json,
    add_deck,
    apply,
    legal_actions,
    new_match,
    replay,
)


def random_round(seats: int, rng: random.Random) -> tuple[MatchState, list[Action]]:
    """Play one round with random legal actions (redeal proposals included); return the
    final state and the actions taken."""
    deck = list(range(40))
    rng.shuffle(deck)
    state = new_match(Options(seats=seats, target=31, best_of=1), 0, [deck])
    actions = []
    while state.round == 1 and state.phase != "over":
        if state.phase == "shuffle":  # a redeal was accepted
            deck = list(range(40))
            rng.shuffle(deck)
            state = add_deck(state, deck)
            continue
        seat = state.turn if state.phase != "redeal_vote" else (state.pending_redeal + 1) % seats  # type: ignore[operator]
        assert seat is not None
        options = legal_actions(state, seat)
        action = options[rng.randrange(len(options) - 1)]  # the last one is always Forfeit
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


def to_record(state: MatchState, actions: list[Action]) -> MatchRecord:
    """The record of a played round (built outside the timed play loop)."""
    return MatchRecord(options=state.options, first_dealer=0, decks=state.decks,
                       actions=tuple(action_to_json(a) for a in actions))


def bench(seats: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    played = [random_round(seats, rng) for _ in range(rounds)]
    play = time.perf_counter() - t0
    n_actions = sum(len(actions) for _, actions in played)
    records = [to_record(state, actions) for state, actions in played]
    t0 = time.perf_counter()
    for rec in records:
        r = replay(rec)
        assert r.error is None
    rep = time.perf_counter() - t0
    print(f"{seats} seats, {rounds} rounds, {n_actions} actions")
    print(f"  random legal play: {rounds / play:10.0f} rounds/s  {play / n_actions * 1e6:7.2f} us/action")
    print(f"  record replay:     {rounds / rep:10.0f} rounds/s  {rep / n_actions * 1e6:7.2f} us/action")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    for seats in (2, 4):
        bench(seats, args.rounds, args.seed)


if __name__ == "__main__":
    main()
