"""Chkobba worlds for the search (:mod:`dineri.players.ismcts`): horizon, rollout, reward.

A :class:`ChkobbaWorld` is a determinized :class:`~dineri.players.chkobba.sim.Sim` searched to
the end of the current round (R25–R31). Its reward for a seat, in [0, 1]: when the round decides
the game, 1 for the winning side and 0 for the other (R31: only the game counts then); else
``0.5 + (own points - other side's) / (2 * SPREAD)``, clipped. A redeal (R10) is worth 0.5 to
both (a fresh deal, which neither side can read). The rollout refuses redeals and plays like
greedy with some random moves (:func:`~dineri.players.chkobba.playout.greedy_round_plays`), or
uniformly at random (``eps=None``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dineri.players.chkobba.determinize import determinize
from dineri.players.chkobba.info import SeatInfo
from dineri.players.chkobba.playout import greedy_action, greedy_round_plays, random_round_plays
from dineri.players.chkobba.sim import CHOICE, PLAY, PROPOSE, REFUSE, SHUFFLE, VOTE, Sim

#: Points of difference that make a round worth 0 or 1 (a round gives 4 points and the chkobbas).
SPREAD = 6.0


class ChkobbaWorld:
    """One world: a :class:`Sim` played to the end of its round."""

    __slots__ = ("eps", "games_won", "rounds", "sim")

    def __init__(self, sim: Sim, eps: float | None = 0.1) -> None:
        self.sim = sim
        self.eps = eps
        self.rounds = len(sim.results)
        self.games_won = list(sim.games_won)

    def actor(self) -> int:
        """The seat to decide, or -1 once the round is over or redealt (R10, R25)."""
        s = self.sim
        if len(s.results) != self.rounds or s.phase == SHUFFLE or s.phase > VOTE:
            return -1
        return s.to_act()

    def legal(self) -> Sequence[int]:
        """The actor's actions (a redeal proposal only from the seat to play)."""
        s = self.sim
        return s.legal(s.to_act())

    def step(self, action: int) -> None:
        """Apply one of :meth:`legal` for the actor (R8–R25)."""
        s = self.sim
        s.apply(s.to_act(), action)

    def side(self, seat: int) -> int:
        """R5: ``seat % 2``."""
        return seat % 2

    def policy_step(self, rnd: random.Random) -> None:
        """The opponent model: greedy's action for the actor."""
        s = self.sim
        seat = s.to_act()
        s.apply(seat, greedy_action(s, seat))

    def rollout(self, rnd: random.Random) -> None:
        """Play on to the horizon: keep or table at random, refuse a redeal, then random plays."""
        s = self.sim
        if len(s.results) != self.rounds or s.phase == SHUFFLE:
            return
        if s.phase == CHOICE:
            s.choose(rnd.random() < 0.5)
        if s.phase == VOTE:
            s.apply(s.to_act(), REFUSE)
        if s.phase == PLAY:
            if self.eps is None:
                random_round_plays(s, rnd.random)
            else:
                greedy_round_plays(s, rnd.random, self.eps)

    def rewards(self) -> list[float]:
        """Each seat's reward in [0, 1] (see the module docstring)."""
        s = self.sim
        n = s.n
        if len(s.results) == self.rounds:
            return [0.5] * n  # redealt
        won = [s.games_won[0] - self.games_won[0], s.games_won[1] - self.games_won[1]]
        if won[0] or won[1]:
            side0 = 1.0 if won[0] else 0.0
        else:
            p = s.results[-1][1]
            side0 = min(1.0, max(0.0, 0.5 + (p[0] - p[1]) / (2 * SPREAD)))
        return [side0 if seat % 2 == 0 else 1.0 - side0 for seat in range(n)]


class ChkobbaModel:
    """Draws :class:`ChkobbaWorld` s from a seat's :class:`SeatInfo` (and nothing else).

    ``allowed`` (optional) restricts the deciding seat's first actions, e.g. to the action
    objects the caller listed, or to plays without a redeal proposal. ``eps``: the rollout's
    share of random moves (``None``: uniform random rollouts); ``infer``: see
    :func:`~dineri.players.chkobba.determinize.determinize`.
    """

    def __init__(self, info: SeatInfo, allowed: set[int] | None = None, eps: float | None = 0.1,
                 infer: int = 0) -> None:
        self.info = info
        self.allowed = allowed
        self.eps = eps
        self.infer = infer

    def determinize(self, rnd: random.Random) -> _RootWorld | ChkobbaWorld:
        """A fresh world consistent with the seat's knowledge."""
        world = ChkobbaWorld(determinize(self.info, rnd.random, self.infer), self.eps)
        return _RootWorld(world, self.allowed) if self.allowed is not None else world


class _RootWorld:
    """A world whose first decision is restricted to ``allowed`` actions."""

    __slots__ = ("allowed", "first", "world")

    def __init__(self, world: ChkobbaWorld, allowed: set[int]) -> None:
        self.world, self.allowed, self.first = world, allowed, True

    def actor(self) -> int:
        return self.world.actor()

    def legal(self) -> Sequence[int]:
        legal = self.world.legal()
        if self.first:
            return [a for a in legal if a in self.allowed]
        return legal

    def step(self, action: int) -> None:
        self.first = False
        self.world.step(action)

    def rollout(self, rnd: random.Random) -> None:
        self.world.rollout(rnd)

    def rewards(self) -> list[float]:
        return self.world.rewards()

    def side(self, seat: int) -> int:
        return seat % 2

    def policy_step(self, rnd: random.Random) -> None:
        self.first = False
        self.world.policy_step(rnd)


def continue_value(info: SeatInfo, playouts: int, rnd: random.Random) -> float:
    """The mean reward of the seat's side if play goes on without a redeal (flat Monte Carlo over
    ``playouts`` worlds; used to decide on proposing or accepting a redeal, R10)."""
    total = 0.0
    for _ in range(playouts):
        w = ChkobbaWorld(determinize(info, rnd.random))
        s = w.sim
        if s.phase == VOTE:
            s.apply(s.to_act(), REFUSE)
        w.rollout(rnd)
        total += w.rewards()[info.seat]
    return total / max(playouts, 1)


__all__ = ["PROPOSE", "SPREAD", "ChkobbaModel", "ChkobbaWorld", "continue_value"]
