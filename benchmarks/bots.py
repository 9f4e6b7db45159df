"""Strength of a computer player level against greedy (issue 12, item 5).

Usage: python benchmarks/bots.py --level LEVEL --matches N [--procs P] [--seed S] [--target T]

Plays N 1v1 Chkobba matches (to 11 by default, best of 1) of LEVEL against the greedy player
on the public engine (``dineri.players.chkobba.arena``: each player sees only its seat's JSON).
Matches come in pairs dealt the same shuffles (mirrored decks: every deal is played twice, the
seats swapped), so the seats alternate and the luck of the cards cancels out. Prints the win rate
with its 95% Wilson confidence interval and LEVEL's time per move (median, max; each match runs
in one process, one core each), and ends with exactly one line:

    LEVEL vs greedy: W/N won (P%, 95% CI L–U%); move time median X s, max Y s

Run it with ``--procs 1`` or 2 on a shared machine, and say how loaded it was. ``--untimed``
drops the levels' time caps (each search then runs its whole iteration budget, as it would on an
idle core: its strength without the machine's load; the move times are then not the level's).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool

from dineri.engine import FULL_DECK, Options
from dineri.players.chkobba.arena import play_match
from dineri.players.levels import STRATEGY_NAMES, make_player


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96), as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_pair(job: tuple[str, int, int, int, bool]) -> tuple[int, list[float], float, list[float]]:
    """Play the two mirrored matches of pair ``i``: LEVEL at seat 0, then at seat 1, on the same
    shuffles. Returns LEVEL's wins, its move times (s, wall), the CPU seconds the pair took and
    LEVEL's CPU seconds per move."""
    level, seed, i, target, timed = job
    from dineri.players.chkobba.fast import use_compiled

    use_compiled()  # the compiled playouts, when scripts/build_fast.py built them (as the server)
    cache: dict[int, list[int]] = {}

    def deck(k: int) -> list[int]:
        if k not in cache:
            d = list(FULL_DECK)
            random.Random(f"bots-{seed}-{i}-{k}").shuffle(d)
            cache[k] = d
        return cache[k]

    cpu = time.process_time()
    wins, times, cpu_moves = 0, [], []
    for me in (0, 1):
        mine = make_player(level, seed * 100_003 + i * 2 + me, timed=timed)
        greedy = make_player("greedy", seed * 7 + i)
        players = [mine, greedy] if me == 0 else [greedy, mine]
        out = play_match(players, Options(2, target, 1), i % 2, deck)
        wins += out.winner == me
        times += out.move_times[me]
        cpu_moves += out.move_cpu[me]
    return wins, times, time.process_time() - cpu, cpu_moves


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", required=True, choices=STRATEGY_NAMES)
    p.add_argument("--matches", type=int, required=True, help="matches to play (rounded up to even)")
    p.add_argument("--procs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=int, default=11, choices=(11, 21, 31))
    p.add_argument("--untimed", action="store_true", help="no time caps (strength without the load)")
    args = p.parse_args()
    pairs = (args.matches + 1) // 2
    jobs = [(args.level, args.seed, i, args.target, not args.untimed) for i in range(pairs)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.level} vs greedy: {2 * pairs} matches to {args.target} in {pairs} mirrored pairs, "
          f"{args.procs} process(es){', untimed' if args.untimed else ''}; "
          f"load average at start {load:.2f} on {os.cpu_count()} cores", flush=True)
    wins, times, cpu, cpu_moves = 0, [], 0.0, []
    started = time.perf_counter()
    with Pool(args.procs) as pool:
        for done, (w, t, c, cm) in enumerate(pool.imap_unordered(play_pair, jobs), start=1):
            wins, cpu = wins + w, cpu + c
            times += t
            cpu_moves += cm
            if done % max(1, pairs // 10) == 0 or done == pairs:
                print(f"  {2 * done} matches: {wins} won, {time.perf_counter() - started:.0f} s", flush=True)
    n = 2 * pairs
    lo, hi = wilson(wins, n)
    median, longest = statistics.median(times), max(times)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"moves timed: {len(times)}; CPU {cpu:.0f} s; load average at end {load:.2f}")
    print(f"CPU time per move (what one idle core would take): median {statistics.median(cpu_moves):.3f} s, "
          f"max {max(cpu_moves):.3f} s")
    print(f"{args.level} vs greedy: {wins}/{n} won ({100 * wins / n:.1f}%, "
          f"95% CI {100 * lo:.1f}–{100 * hi:.1f}%); move time median {median:.3f} s, max {longest:.3f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
