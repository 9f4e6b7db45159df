"""The fast playouts play exactly the simulator's (and so the engine's) rules (issue 12).

Each playout logs its actions; they must be legal, one by one, in the step-by-step simulator and
in the public engine, and reach the same round result in both (R11, R13–R29).
"""

from __future__ import annotations

import random

import pytest

from dineri.engine import FULL_DECK, Options, add_deck, apply, legal_actions, new_match
from dineri.players.chkobba import playout
from dineri.players.chkobba.cards import FROM_ENGINE
from dineri.players.chkobba.differential import _result, engine_facts, sim_facts, to_sim
from dineri.players.chkobba.fast import compiled_playout
from dineri.players.chkobba.playout import random_round
from dineri.players.chkobba.sim import PLAY, Sim


def _start(rng: random.Random, seats: int) -> tuple[object, Sim]:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    st = add_deck(new_match(Options(seats, 11, 1), 0), deck)
    sim = Sim(seats, 11, 1, 0)
    sim.add_deck([FROM_ENGINE[c] for c in deck])
    at = rng.randrange(40)
    keep = rng.random() < 0.5
    for pick in (at, 0 if keep else 1):
        action = legal_actions(st, 1)[pick]
        st, _ = apply(st, action)
        sim.apply(1, to_sim(action))
    return st, sim


IMPLEMENTATIONS = [playout, *([m] if (m := compiled_playout()) is not None else [])]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("seats", [2, 4])
def test_playouts_replay_in_the_simulator_and_the_engine(policy: str, seats: int, impl: object) -> None:
    """Pure Python, and the compiled twin when ``scripts/build_fast.py`` built it."""
    random_round_plays, greedy_round_plays = impl.random_round_plays, impl.greedy_round_plays  # type: ignore[attr-defined]
    rng = random.Random(f"{policy}{seats}")
    claims = captures = 0
    for _ in range(300):
        st, sim = _start(rng, seats)
        fast = sim.copy()
        log: list[int] = []
        if policy == "random":
            random_round_plays(fast, rng.random, log)
        else:
            greedy_round_plays(fast, rng.random, 0.2, log)
        for code in log:
            seat = sim.turn
            engine_codes = {to_sim(a): a for a in legal_actions(st, seat)[:-1]}
            assert code in sim.legal(seat) and code in engine_codes
            claims += code >= 1 << 50
            captures += 64 <= code < 1 << 50
            sim.apply(seat, code)
            st, _ = apply(st, engine_codes[code])
        assert sim.phase != PLAY and len(sim.results) == len(st.rounds) == 1
        assert fast.results == sim.results == [_result(st.rounds[0])]
        assert sim_facts(fast) == sim_facts(sim) == engine_facts(st)
    assert claims > 0 and captures > 0


def test_random_rounds_end_with_a_result() -> None:
    rng = random.Random(5)
    for seats in (2, 4):
        for _ in range(200):
            s = Sim(seats, 31, 1, 0)
            random_round(s, rng.random)
            captured = (s.stats[0] & 255) + (s.stats[1] & 255)
            assert len(s.results) == 1 and captured <= 40
            assert captured == 40 or s.last < 0  # R25: leftovers go to the last capturer


def test_a_stale_or_missing_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled twin is adopted only when stamped with the current source's hash."""
    import types

    from dineri.players.chkobba import fast

    stale = types.ModuleType("dineri.players.chkobba._fast_playout")
    stale.SOURCE_SHA256 = "0" * 64  # type: ignore[attr-defined]
    monkeypatch.setattr(fast.importlib, "import_module", lambda name: stale)
    fast.compiled_playout.cache_clear()
    try:
        assert fast.compiled_playout() is None and fast.use_compiled() is False

        def missing(name: str) -> None:
            raise ImportError(name)
        monkeypatch.setattr(fast.importlib, "import_module", missing)
        fast.compiled_playout.cache_clear()
        assert fast.compiled_playout() is None
    finally:
        monkeypatch.undo()
        fast.compiled_playout.cache_clear()
