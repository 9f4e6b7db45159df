"""Engine benchmark: random legal playouts and record replays, 2 and 4 seats, one core.

Usage: python benchmarks/engine.py [--rounds N] [--seed S] [--warmup W]

Prints full rounds per second and microseconds per action for
(a) random legal play: each round starts from a new match on a random deck and
every action (cut, keep/table, redeal proposals and answers, plays, claims) is
drawn uniformly from ``legal_actions`` minus ``Forfeit``, so enumeration is
included; and (b) replaying the recorded actions of those same rounds from their
records (``replay``: JSON parse + validate + apply), checked to reach the same
round results. Building the records (``action_to_json``) is not timed. The
engine's memos start cold unless ``--warmup`` rounds are played first.
Goal (issue 2): at least 10,000 random 2-seat rounds per second.

Then the computer players' simulator (``dineri.players.chkobba``, issue 12; goal: 20,000 random
legal 2-seat rounds/s on one core): (c) the same random legal rounds (a new match on a random
shuffle, a random cut, keep or table, redeal proposals and answers, then every play or claim
drawn uniformly among the legal ones) in the simulator, after ``--sim-warmup`` untimed rounds
(its capture memo warm, as in a running server: a search worker plays about a thousand playouts
per move, so 100,000 rounds is its first few minutes; the memo's size is printed); and
(d) the search's playouts per second:
ISMCTS iterations (determinize, descend, roll out to the round's end, back up) from the first
move of random deals.
"""

from __future__ import annotations

import argparse
import random
import time

from dineri.engine import (
    FULL_DECK,
    Action,
    Card,
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


def shuffled(rng: random.Random) -> list[Card]:
    """A uniformly random deck order: the 40 cards sorted by independent random keys
    (a tie has probability below 2**-42). Several times cheaper than ``rng.shuffle``, whose
    39 ``randrange`` calls would otherwise cost about 7% of a round."""
    keys = [rng.random() for _ in FULL_DECK]
    return sorted(FULL_DECK, key=keys.__getitem__)


def random_round(seats: int, rng: random.Random) -> tuple[MatchState, list[Action]]:
    """Play one round with random legal actions (redeal proposals included); return the
    final state and the actions taken."""
    state = new_match(Options(seats=seats, target=31, best_of=1), 0, [shuffled(rng)])
    actions = []
    random = rng.random
    while state.round == 1:
        phase = state.phase
        if phase == "over":
            break
        if phase == "shuffle":  # a redeal was accepted
            state = add_deck(state, shuffled(rng))
            continue
        seat = state.turn if phase != "redeal_vote" else (state.pending_redeal + 1) % seats  # type: ignore[operator]
        assert seat is not None
        options = legal_actions(state, seat)
        # Uniform over every action but the last (always Forfeit): floor(random() * n), the
        # classic way of random.choice, biased by less than n * 2**-53; rng.randrange costs
        # about a sixth of an engine move.
        action = options[int(random() * (len(options) - 1))]
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


def to_record(options: Options, decks: tuple[tuple[Card, ...], ...], actions: list[Action]) -> MatchRecord:
    """The record of a played round (built outside the timed loops)."""
    return MatchRecord(options=options, first_dealer=0, decks=decks,
                       actions=tuple(action_to_json(a) for a in actions))


def bench(seats: int, rounds: int, seed: int, warmup: int) -> None:
    """Time ``rounds`` random rounds, then the replay of their records; print both rates.

    ``warmup`` rounds are played and replayed first, untimed (other seeds), so that the
    engine's memos are in the steady state of a long-running server.
    """
    for rec in [to_record(s.options, s.decks, a) for s, a in
                (random_round(seats, random.Random(-1 - i)) for i in range(warmup))]:
        replay(rec)
    rng = random.Random(seed)
    played = []
    t0 = time.perf_counter()
    for _ in range(rounds):
        state, actions = random_round(seats, rng)
        # Keep what the records need, not every final state (as a server would not).
        played.append((state.options, state.decks, actions, state.rounds))
    play = time.perf_counter() - t0
    n_actions = sum(len(actions) for _, _, actions, _ in played)
    records = [to_record(options, decks, actions) for options, decks, actions, _ in played]
    t0 = time.perf_counter()
    replays = [replay(rec) for rec in records]
    rep = time.perf_counter() - t0
    for r, (_, _, actions, results) in zip(replays, played, strict=True):
        assert r.error is None and r.applied == len(actions) and r.state.rounds == results
    print(f"{seats} seats, {rounds} rounds, {n_actions} actions")
    print(f"  random legal play: {rounds / play:10.0f} rounds/s  {play / n_actions * 1e6:7.2f} us/action")
    print(f"  record replay:     {rounds / rep:10.0f} rounds/s  {rep / n_actions * 1e6:7.2f} us/action")


def bench_simulator(seats: int, rounds: int, seed: int, warmup: int) -> None:
    """Time ``rounds`` random legal rounds in the simulator (after ``warmup`` untimed ones), in
    pure Python and, when ``scripts/build_fast.py`` has built them, with the compiled playouts."""
    from dineri.players.chkobba import playout
    from dineri.players.chkobba.captures import CAPTURES
    from dineri.players.chkobba.fast import compiled_playout
    from dineri.players.chkobba.sim import Sim

    variants = [("pure Python", playout)]
    fast = compiled_playout()
    if fast is not None:
        variants.append(("compiled playouts", fast))
    print(f"{seats} seats, simulator, {rounds} rounds after {warmup} warm-up rounds")
    for label, mod in variants:
        rng = random.Random(seed)
        rnd = rng.random
        for _ in range(warmup):
            mod.random_round(Sim(seats, 31, 1, 0), rnd)
        t0 = time.process_time()
        for _ in range(rounds):
            mod.random_round(Sim(seats, 31, 1, 0), rnd)
        dt = time.process_time() - t0
        print(f"  random legal play: {rounds / dt:10.0f} rounds/s (CPU time, {label}; "
              f"{len(CAPTURES)} tables in the capture memo)")
    if fast is None:
        print("  (no compiled playouts: python scripts/build_fast.py builds them)")


def bench_ratio(reps: int, seed: int) -> None:
    """The simulator's speed over the engine's on 2-seat random legal rounds, interleaved in short
    turns (CPU time) so that both see the same machine: on a shared, loaded machine this ratio
    times the engine's quiet figure (README) estimates the simulator's quiet figure."""
    from dineri.players.chkobba import playout
    from dineri.players.chkobba.sim import Sim

    rng = random.Random(seed)
    rnd = rng.random
    engine_t = sim_t = 0.0
    engine_n = sim_n = 0
    for _ in range(reps):
        t0 = time.process_time()
        for _ in range(100):
            random_round(2, rng)
        engine_t += time.process_time() - t0
        engine_n += 100
        t0 = time.process_time()
        for _ in range(1000):
            playout.random_round(Sim(2, 31, 1, 0), rnd)
        sim_t += time.process_time() - t0
        sim_n += 1000
    e, s = engine_n / engine_t, sim_n / sim_t
    print(f"interleaved, 2 seats: engine {e:.0f} rounds/s, simulator {s:.0f} rounds/s (pure Python): "
          f"simulator / engine = {s / e:.2f}")


def bench_search(iterations: int, positions: int, seed: int) -> None:
    """ISMCTS iterations per second from the first move of ``positions`` random 2-seat deals."""
    from dineri.engine import seat_view
    from dineri.players.chkobba.fast import use_compiled
    from dineri.players.chkobba.info import seat_info, sim_actions
    from dineri.players.chkobba.world import ChkobbaModel
    from dineri.players.ismcts import search

    compiled = use_compiled()
    rng = random.Random(seed)
    done, spent = 0, 0.0
    for i in range(positions):
        state = new_match(Options(seats=2, target=11, best_of=1), 0, [shuffled(rng)])
        state, _ = apply(state, legal_actions(state, 1)[rng.randrange(40)])
        state, _ = apply(state, legal_actions(state, 1)[0])  # keep
        info = seat_info(seat_view(state, 1), [])
        t0 = time.process_time()
        result = search(ChkobbaModel(info, set(sim_actions(info)) - {-3}), iterations=iterations, seed=i)
        spent += time.process_time() - t0
        done += result.iterations
    print(f"search: {done} ISMCTS iterations from {positions} first moves")
    label = "compiled playouts" if compiled else "pure Python"
    print(f"  playouts:          {done / spent:10.0f} playouts/s (CPU time, one core, {label})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--warmup", type=int, default=0, help="untimed rounds first (default 0: cold memos)")
    p.add_argument("--sim-rounds", type=int, default=20000)
    p.add_argument("--sim-warmup", type=int, default=100000)
    p.add_argument("--ratio-reps", type=int, default=20, help="turns of the interleaved comparison")
    p.add_argument("--search-iterations", type=int, default=1500)
    p.add_argument("--search-positions", type=int, default=10)
    args = p.parse_args()
    for seats in (2, 4):
        bench(seats, args.rounds, args.seed, args.warmup)
    for seats in (2, 4):
        bench_simulator(seats, args.sim_rounds, args.seed, args.sim_warmup)
    bench_ratio(args.ratio_reps, args.seed)
    bench_search(args.search_iterations, args.search_positions, args.seed)


if __name__ == "__main__":
    main()
