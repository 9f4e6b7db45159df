"""Strength of a golf4 or Seven Diamonds level against the game's basic player (issue 12 items 4, 5).

Usage: python benchmarks/bots_games.py --game golf4|seven_diamonds --level LEVEL --matches N
       [--procs P] [--seed S] [--seats K] [--rounds R] [--untimed]

Plays N whole matches through each game's interface (``dineri.games``: every player gets only its
seat's view, the public events and its own private events, and its legal action objects, as at a
table; one player object per seat for the whole match). Matches come in mirrored pairs dealt the
same shuffles: LEVEL holds seat 0 (golf4: alone against basic players; Seven Diamonds: side 0,
seats 0 and 2) in one and the other seats in the other, so the luck of the cards cancels out.
A match is won when LEVEL finishes alone best (golf4: its total strictly lowest, G15; a shared
win is counted apart) or its side wins (S16). Prints the win rate with its 95% Wilson interval
and LEVEL's time per move (wall clock: median, max), and ends with exactly one line:

    LEVEL vs basic: W/N won (P%, 95% CI L–U%); move time median X s, max Y s
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import wilson

from dineri.players.levels import STRATEGY_NAMES, make_player


def _game(name: str) -> Any:
    if name == "golf4":
        from dineri.games.golf4 import Golf4Game

        return Golf4Game()
    from dineri.games.seven_diamonds import SevenDiamondsGame

    return SevenDiamondsGame()


def _codes(name: str) -> list[str]:
    if name == "golf4":
        from dineri.golf4 import CODE as GOLF4_CODES

        return list(GOLF4_CODES)
    from dineri.seven_diamonds import CODE as SD_CODES

    return list(SD_CODES)


def play_match(game_name: str, options: dict[str, Any], players: list[Any], first_dealer: int,
               decks: list[list[str]]) -> tuple[Any, list[list[float]]]:
    """One match; ``players[seat]`` plays ``seat``. Returns the final match and each seat's move
    times (s). Raises ``RuntimeError`` if a player's action is refused or the match stalls."""
    game = _game(game_name)
    match, events = game.new_match(options, [f"p{s}" for s in range(len(players))], first_dealer, decks)
    n = len(players)
    seen: list[list[dict[str, Any]]] = [list(events) for _ in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    steps = 0
    while not match.over:
        steps += 1
        if steps > 50_000:
            raise RuntimeError("the match did not end")
        if match.needs_deck():
            match, events = match.add_deck(None)
            for s in range(n):
                seen[s].extend(events)
            continue
        immediate = match.immediate_action()
        if immediate is not None:
            seat, action = immediate
            match, events = match.apply(seat, action, auto=True)
        else:
            waiting = match.waiting_for()
            if not waiting:
                raise RuntimeError(f"nobody to move in phase {match.phase}")
            seat = waiting[0]
            legal = [a for a in match.legal_actions(seat) if a.get("type") != "forfeit"]
            t0 = time.perf_counter()
            action = players[seat].choose(match.seat_view(seat), list(seen[seat]), legal)
            times[seat].append(time.perf_counter() - t0)
            match, events = match.apply(seat, action)
        private = match.private_events()
        for s in range(n):
            seen[s].extend(events)
            seen[s].extend(private.get(s, []))
    return match, times


def play_pair(job: tuple[str, str, int, int, int, int, bool]) -> tuple[int, int, list[float]]:
    """The two mirrored matches of pair ``i``; returns LEVEL's wins, its shared wins, its move times."""
    game_name, level, seed, i, seats, rounds, timed = job
    rng = random.Random(f"bots-games-{game_name}-{seed}-{i}")
    codes = _codes(game_name)
    decks = []
    for _ in range(80):
        d = list(codes)
        rng.shuffle(d)
        decks.append(d)
    options: dict[str, Any] = {"seats": seats, "rounds": rounds} if game_name == "golf4" else \
        {"seats": 4, "target": 500}
    n = seats if game_name == "golf4" else 4
    first_dealer = i % n
    wins = shared = 0
    times: list[float] = []
    for mirror in (0, 1):
        level_seats = {mirror} if game_name == "golf4" else ({0, 2} if mirror == 0 else {1, 3})
        players = [make_player(level if s in level_seats else "basic",
                               seed * 100_003 + i * 16 + s * 2 + mirror, timed=timed, game=game_name)
                   for s in range(n)]
        match, t = play_match(game_name, options, players, first_dealer, decks)
        result = match.result() or {}
        if game_name == "golf4":
            winners = set(result.get("winners") or [])
            me = next(iter(level_seats))
            wins += winners == {me}
            shared += me in winners and len(winners) > 1
        else:
            wins += result.get("winner") == (next(iter(level_seats)) % 2)
        for s in level_seats:
            times += t[s]
    return wins, shared, times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, choices=("golf4", "seven_diamonds"))
    p.add_argument("--level", required=True, choices=STRATEGY_NAMES)
    p.add_argument("--matches", type=int, required=True, help="matches to play (rounded up to even)")
    p.add_argument("--procs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seats", type=int, default=2, help="golf4: seats (2-8; LEVEL alone against basic)")
    p.add_argument("--rounds", type=int, default=9, choices=(9, 18), help="golf4: rounds (G15)")
    p.add_argument("--untimed", action="store_true", help="no time caps (strength without the load)")
    args = p.parse_args()
    pairs = (args.matches + 1) // 2
    jobs = [(args.game, args.level, args.seed, i, args.seats, args.rounds, not args.untimed)
            for i in range(pairs)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.game}: {args.level} vs basic, {2 * pairs} matches in {pairs} mirrored pairs, "
          f"{args.procs} process(es){', untimed' if args.untimed else ''}; load average at start {load:.2f} "
          f"on {os.cpu_count()} cores", flush=True)
    wins = shared = 0
    times: list[float] = []
    started = time.perf_counter()
    with Pool(args.procs) as pool:
        for done, (w, sh, t) in enumerate(pool.imap_unordered(play_pair, jobs), start=1):
            wins, shared = wins + w, shared + sh
            times += t
            if done % max(1, pairs // 10) == 0 or done == pairs:
                print(f"  {2 * done} matches: {wins} won, {time.perf_counter() - started:.0f} s", flush=True)
    n = 2 * pairs
    lo, hi = wilson(wins, n)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"moves timed: {len(times)}; shared wins (golf4, not counted as won): {shared}; "
          f"load average at end {load:.2f}")
    print(f"{args.level} vs basic: {wins}/{n} won ({100 * wins / n:.1f}%, "
          f"95% CI {100 * lo:.1f}–{100 * hi:.1f}%); "
          f"move time median {statistics.median(times):.3f} s, max {max(times):.3f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
