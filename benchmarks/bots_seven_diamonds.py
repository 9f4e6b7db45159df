"""Seven Diamonds computer players against each other: matches to 500 on the pure engine.

Usage: python benchmarks/bots_seven_diamonds.py [--matches N] [--seed S] [--a basic] [--b random]

Side A plays strategy ``--a`` and side B ``--b``; A sits on side 0 in even matches and on side 1
in odd ones (so seat order and the first dealer favour nobody). Every player decides from its own
seat view and the public events only (``dineri.players.seven_diamonds_basic``), exactly as at a
table. Prints A's share of matches and rounds won, the mean points per round of each, the
doubles/threes called, a 95% interval for the match share, and the time per match.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from dineri.players.seven_diamonds_basic import Memory, choose
from dineri.seven_diamonds import (
    FULL_DECK,
    Options,
    action_from_json,
    add_deck,
    apply,
    new_match,
    seat_view,
)


def play_match(strategies: list[str], rng: random.Random) -> tuple[int, list[tuple[int, int]], int]:
    """One match: the winning side, each round's (out side, points), and the raises called."""
    state = new_match(Options(), rng.randrange(4))
    memories = [Memory(seat) for seat in range(4)]
    raises = 0
    while state.phase != "over":
        if state.phase == "shuffle":
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            state = add_deck(state, deck)
            for m in memories:
                m.on_event({"type": "deal"})
            continue
        seat = state.turn
        assert seat is not None
        view = seat_view(state, seat)
        memories[seat].on_view(view)
        action = choose(view, memories[seat], strategies[seat], rng)
        assert action is not None
        raises += action.get("call") in ("double", "three")
        state, events = apply(state, action_from_json({**action, "seat": seat}))
        for event in events:
            for m in memories:
                m.on_event(event)
    rounds = [(r.out % 2, max(r.points)) for r in state.rounds]
    assert state.winner is not None
    return state.winner, rounds, raises


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--a", default="basic")
    p.add_argument("--b", default="random")
    args = p.parse_args()
    rng = random.Random(args.seed)
    won = rounds_a = rounds_n = 0
    points = [0, 0]
    raises = 0
    start = time.perf_counter()
    for i in range(args.matches):
        a_side = i % 2
        strategies = [args.a if seat % 2 == a_side else args.b for seat in range(4)]
        winner, rounds, r = play_match(strategies, rng)
        raises += r
        won += winner == a_side
        for side, pts in rounds:
            rounds_n += 1
            rounds_a += side == a_side
            points[0 if side == a_side else 1] += pts
    elapsed = time.perf_counter() - start
    n = args.matches
    share = won / n
    half = 1.96 * math.sqrt(share * (1 - share) / n)
    print(f"{n} matches to 500, A = {args.a}, B = {args.b} (seed {args.seed})")
    print(f"A wins {won}/{n} matches = {share:.1%} (95% ±{half:.1%}); "
          f"{rounds_a}/{rounds_n} rounds = {rounds_a / rounds_n:.1%}")
    print(f"points per round: A {points[0] / rounds_n:.1f}, B {points[1] / rounds_n:.1f}; "
          f"raises called {raises} ({raises / rounds_n:.2f} per round)")
    print(f"{elapsed / n * 1000:.1f} ms per match ({rounds_n / n:.1f} rounds per match)")


if __name__ == "__main__":
    main()
