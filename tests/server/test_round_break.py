"""Issue 13, the fresh Arabic phone trial: the turn clock ran while the round summary covered
the table, so a connected player reading it had its turns played by the clock, and after
``DINERI_CLOCK_AWAY_TURNS`` of them was made away and its side forfeited. The first turn of each
new round now gets a round break (``DINERI_ROUND_BREAK_SECONDS``) on its clock, in every game
with round summaries, through the games interface alone (``GameMatch.rounds_done``)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from dineri.games import GameMatch, get_game
from dineri.server import judge
from dineri.server.presence import Presence
from dineri.settings import Settings

OPTIONS = {"chkobba": {"seats": 2, "target": 11, "best_of": 1},
           "golf4": {"seats": 3, "rounds": 9},
           "seven_diamonds": {"target": 500}}
CLOCK, BREAK = 15, 20.0


class Clocks(Presence):
    """The turn clocks of a table alone (the presence mixin with the attributes it keeps)."""

    def __init__(self, match: GameMatch) -> None:
        self.id, self.lock, self.status, self.clock = "t", asyncio.Lock(), "playing", CLOCK
        self.settings = Settings(round_break_seconds=BREAK, clock_scale=1.0)
        self.match, self.version, self.seat_rows = match, 0, {}
        self.away, self.announced_away, self.connections = set(), set(), {}
        self._clock_tasks, self._clocks, self._clock_step = {}, {}, -1
        self._grace, self._grace_at, self._clock_streak = {}, {}, {}
        self.shared_presence = None
        self.touched = 0.0


def _next(match: GameMatch) -> tuple[int, dict[str, Any]]:
    """The next move of a quick round: golf4 knocks when it may (a round ends only so, G12),
    every other move is the turn clock's own."""
    seat = match.waiting_for()[0]
    knock = [a for a in match.legal_actions(seat) if a["type"] == "knock"]
    action = knock[0] if knock else match.auto_action(seat)
    assert action is not None
    return seat, action


def _left(clocks: Clocks) -> dict[int, float]:
    now = time.time()
    return {seat: at - now for seat, at in clocks._clocks.items()}


@pytest.mark.parametrize("game", sorted(OPTIONS))
def test_a_new_rounds_first_turn_gets_the_round_break(game: str) -> None:
    """Every turn of round 1 gets the plain clock; once round 1 is over each seat's first turn of
    round 2 gets the clock plus the round break (the table info's ``running_clock.round_break``),
    whoever plays first; its later turns the plain clock again."""
    g = get_game(game)
    players = [f"P{i}" for i in range(g.seats(g.check_options(OPTIONS[game])))]

    async def run() -> None:
        match, events = g.new_match(OPTIONS[game], players, first_dealer=0)
        clocks = Clocks(judge.settle(match, events).match)
        clocks._arm_clock()
        try:
            for _ in range(5000):
                assert clocks.match is not None
                before = clocks.match.rounds_done()
                left = _left(clocks)
                assert left and all(CLOCK - 1 < x <= CLOCK for x in left.values()), left
                assert "round_break" not in (clocks._running_clock() or {})
                seat, action = _next(clocks.match)
                clocks.match = judge.judge(clocks.match, seat, action, auto=True).match
                clocks._arm_clock()
                if clocks.match.rounds_done() > before:
                    break
            else:
                raise AssertionError("round 1 never ended")
            assert not clocks.match.over
            # A re-read of the table, a chat line: the same clocks, break and all.
            before_rearm = dict(clocks._clocks)
            clocks._arm_clock()
            assert clocks._clocks == before_rearm
            # Round 2: each seat's first clock has the break, its later ones are plain (a clock
            # kept while the game waits on several seats, golf4's peek, is not a new one).
            had: set[int] = set()
            last: dict[int, float] = {}
            for _ in range(5000):
                info = clocks._running_clock() or {}
                breaks = {c["seat"]: c.get("round_break") for c in info.get("seats", [info])}
                for seat, x in _left(clocks).items():
                    if clocks._clocks[seat] == last.get(seat):
                        continue  # kept
                    if seat in had:
                        assert CLOCK - 1 < x <= CLOCK and breaks[seat] is None, (seat, x)
                    else:
                        assert CLOCK + BREAK - 1 < x <= CLOCK + BREAK and breaks[seat] == BREAK, (seat, x)
                        had.add(seat)
                last = dict(clocks._clocks)
                if len(had) == clocks.match.seats and len(clocks.match.waiting_for()) == 1:
                    # Everybody had its break: one more move, and plain clocks only.
                    seat, action = _next(clocks.match)
                    clocks.match = judge.judge(clocks.match, seat, action, auto=True).match
                    clocks._arm_clock()
                    assert "round_break" not in (clocks._running_clock() or {})
                    break
                seat, action = _next(clocks.match)
                clocks.match = judge.judge(clocks.match, seat, action, auto=True).match
                clocks._arm_clock()
                assert clocks.match.rounds_done() == 1, "round 2 ended before every seat played"
            else:
                raise AssertionError("round 2 never gave every seat a turn")
        finally:
            clocks._stop_timers()
    asyncio.run(run())


def test_no_round_break_when_it_is_off_or_after_a_restart() -> None:
    """``DINERI_ROUND_BREAK_SECONDS=0``: none; a process that did not see the round end (a restart,
    a takeover: its first clocks) gives a plain clock."""
    g = get_game("chkobba")

    async def run() -> None:
        match, events = g.new_match(OPTIONS["chkobba"], ["A", "B"], first_dealer=0)
        off = Clocks(judge.settle(match, events).match)
        off.settings = Settings(round_break_seconds=0, clock_scale=1.0)
        off._arm_clock()
        while off.match is not None and off.match.rounds_done() == 0:
            seat, action = _next(off.match)
            off.match = judge.judge(off.match, seat, action, auto=True).match
            off._arm_clock()
        assert off.match is not None and all(CLOCK - 1 < x <= CLOCK for x in _left(off).values())
        assert "round_break" not in (off._running_clock() or {})
        off._stop_timers()
        fresh = Clocks(off.match)  # this process loads the table at the new round's first turn
        fresh._arm_clock()
        assert fresh._clocks and all(CLOCK - 1 < x <= CLOCK for x in _left(fresh).values())
        fresh._stop_timers()
    asyncio.run(run())
