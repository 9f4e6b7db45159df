"""The simulator agrees with the public engine on every action of 100,000 random rounds (issue 12).

Each chunk plays random matches (2 and 4 seats, every target and best-of, redeal proposals by
any seat) in :mod:`dineri.engine` and the simulator from the same shuffles and compares, after
every action, every seat's legal action set and the whole resulting state, and each round's
result (``dineri.players.chkobba.differential``). The chunks together cover 100,000 rounds.
"""

from __future__ import annotations

import random

import pytest

from dineri.players.chkobba.differential import compare_match

CHUNKS = 10
ROUNDS = 100_000


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_simulator_agrees_with_the_engine_on_every_action(chunk: int) -> None:
    rng = random.Random(f"differential-{chunk}")
    rounds = 0
    seats_seen = set()
    while rounds < ROUNDS // CHUNKS:
        seats = rng.choice((2, 4))
        seats_seen.add(seats)
        rounds += compare_match(rng, seats, rng.choice((11, 21, 31)), rng.choice((1, 3, 5)),
                                max_rounds=ROUNDS // CHUNKS - rounds)
    assert rounds == ROUNDS // CHUNKS
    assert seats_seen == {2, 4}
