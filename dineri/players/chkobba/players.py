"""Chkobba computer players: ``random``, ``greedy``, ``easy`` and the search (issue 12).

Every player implements :class:`dineri.players.base.Player`: ``choose(view, events, legal)``
from the seat's JSON only (the view, the public events, the seat's action objects). ``random``
and ``greedy`` keep the behaviour of the first bots (issue 3): both claim every missed capture
they can see (R19–R22) and never propose a redeal; greedy takes the capture worth most (a
chkobba, R23; the 7♦, sevens, sixes, diamonds, card count, R26) and else lays its least useful
card. ``easy`` is greedy with mistakes. :class:`SearchPlayer` is ISMCTS
(:mod:`dineri.players.ismcts`) over determinized worlds (:mod:`.determinize`); it weighs
redeals (R10) by flat Monte Carlo and claims a missed capture when the search finds it pays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dineri.players.base import Json, PlayerError
from dineri.players.chkobba.cards import BY_CODE
from dineri.players.chkobba.info import SeatInfo, action_json, action_key, seat_info, sim_actions
from dineri.players.chkobba.sim import PROPOSE
from dineri.players.chkobba.world import ChkobbaModel, continue_value
from dineri.players.ismcts import search


def weight(codes: Sequence[str]) -> float:
    """Worth of captured cards for greedy (R26): 7♦ ≫ sevens > sixes > diamonds > any card."""
    w = 0.0
    for code in codes:
        w += 1.0
        if code == "7D":
            w += 20.0
        if code[0] == "7":
            w += 6.0
        elif code[0] == "6":
            w += 3.0
        if code[1] == "D":
            w += 2.5
    return w


def _value(code: str) -> int:
    return (BY_CODE[code] >> 2) + 1


def _is_last_card(view: Json) -> bool:
    """True when the card about to be played is the round's last (no chkobba then, R24)."""
    return int(view.get("deck_left", 0)) == 0 and sum(view.get("hand_sizes") or []) == 1


def _need(legal: Sequence[Json]) -> None:
    if not legal:
        raise PlayerError("no legal action to choose from")


def _cut(legal: Sequence[Json], rng: random.Random) -> Json | None:
    for doc in legal:
        if doc.get("type") == "cut":
            return {"type": "cut", "at": rng.randrange(40)}  # R8: any position (the deck is secret)
    return None


class RandomPlayer:
    """A uniformly random card, then a random choice among its captures and laying it; a random
    cut, keep or table, and redeal answer; every visible missed capture claimed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json | None:
        """See :class:`dineri.players.base.Player`; ``None`` when only a redeal proposal is open."""
        _need(legal)
        rng = self.rng
        cut = _cut(legal, rng)
        if cut is not None:
            return cut
        by_type: dict[str, list[Json]] = {}
        for doc in legal:
            by_type.setdefault(str(doc.get("type")), []).append(doc)
        for kind in ("answer_redeal", "claim"):
            if kind in by_type:
                return dict(rng.choice(by_type[kind]))
        if "keep" in by_type or "table" in by_type:
            return dict(rng.choice(by_type.get("keep", []) + by_type.get("table", [])))
        plays = by_type.get("play", [])
        if not plays:
            return None
        card = rng.choice(sorted({d["card"] for d in plays}))
        return dict(rng.choice([d for d in plays if d["card"] == card]))


class GreedyPlayer:
    """The capture worth most now; else lay the least useful card (the baseline)."""

    name = "greedy"
    #: chance of a random legal play instead (0 for greedy; ``easy`` makes mistakes)
    mistakes = 0.0
    #: chance of overlooking a missed capture it could claim
    blind = 0.0

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json | None:
        """See :class:`dineri.players.base.Player`; ``None`` when only a redeal proposal is open."""
        _need(legal)
        rng = self.rng
        cut = _cut(legal, rng)
        if cut is not None:
            return cut
        types = {d.get("type") for d in legal}
        if "answer_redeal" in types:
            return {"type": "answer_redeal", "accept": False}
        if "keep" in types:
            drawn = str(view.get("drawn") or "")
            return {"type": "keep" if drawn and weight([drawn]) > 1.0 else "table"}
        claims = [d for d in legal if d.get("type") == "claim"]
        if claims and not (self.blind and rng.random() < self.blind):
            return dict(max(claims, key=lambda d: weight([*d["capture"], d["card"]])))
        plays = [d for d in legal if d.get("type") == "play"]
        if not plays:
            return None
        if self.mistakes and rng.random() < self.mistakes:
            return dict(rng.choice(plays))
        table = view.get("table") or []
        last = _is_last_card(view)
        best: tuple[float, Json] | None = None
        for doc in plays:
            cap = doc.get("capture") or []
            if not cap:
                continue
            score = weight([*cap, doc["card"]])
            if len(cap) == len(table) and not last:
                score += 100.0  # a chkobba is a whole point (R23)
            if best is None or score > best[0]:
                best = (score, doc)
        if best is not None:
            return dict(best[1])
        lays = [d for d in plays if not d.get("capture")]
        pick = min(lays, key=lambda d: (weight([d["card"]]), _value(d["card"])))
        return {"type": "play", "card": pick["card"], "capture": []}


class EasyPlayer(GreedyPlayer):
    """Greedy with mistakes: a random play one time in four, and half the missed captures unseen."""

    name = "easy"
    mistakes = 0.25
    blind = 0.5


class SearchPlayer:
    """ISMCTS over worlds drawn from the seat's knowledge (``medium``, ``hard``).

    ``iterations`` and ``seconds`` bound each search (``seconds=None``: iterations only, so the
    choices are a function of the seed and the input); ``redeal_playouts`` worlds weigh a
    redeal (R10): propose or accept it when going on is worth less than ``0.5 - margin``;
    ``eps`` is the rollouts' share of random moves; ``infer`` the draws tried for other hands that
    agree with their play (see :func:`~dineri.players.chkobba.determinize.determinize`).
    """

    def __init__(self, name: str, *, iterations: int, seconds: float | None = None, seed: int | None = None,
                 exploration: float = 0.3, redeal_playouts: int = 200, margin: float = 0.03,
                 eps: float | None = 0.1, infer: int = 0) -> None:
        self.name = name
        self.eps = eps
        self.infer = infer
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.redeal_playouts = redeal_playouts
        self.margin = margin
        self.rng = random.Random(seed)
        self.last_iterations = 0

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json | None:
        """See :class:`dineri.players.base.Player`; ``None`` when only a redeal proposal is open
        and it does not pay."""
        _need(legal)
        info = seat_info(view, events)
        rng = self.rng
        cut = _cut(legal, rng)
        if cut is not None:
            return cut
        by_key = {action_key(d): d for d in legal}
        if info.phase == "redeal_vote":
            going_on = continue_value(info, self.redeal_playouts, random.Random(rng.getrandbits(32)))
            accept = going_on < 0.5 - self.margin
            return {"type": "answer_redeal", "accept": accept}
        mine = [a for a in sim_actions(info) if action_key(action_json(a)) in by_key]
        if PROPOSE in mine:
            mine.remove(PROPOSE)
            if self._redeal_pays(info, rng):
                return {"type": "propose_redeal"}
        if not mine:
            return None
        if len(mine) == 1:
            return dict(by_key[action_key(action_json(mine[0]))])
        result = search(ChkobbaModel(info, set(mine), self.eps, self.infer), iterations=self.iterations,
                        seconds=self.seconds, seed=rng.getrandbits(32), exploration=self.exploration)
        self.last_iterations = result.iterations
        chosen = result.action
        assert isinstance(chosen, int)
        return dict(by_key[action_key(action_json(chosen))])

    def _redeal_pays(self, info: SeatInfo, rng: random.Random) -> bool:
        value = continue_value(info, self.redeal_playouts, random.Random(rng.getrandbits(32)))
        return value < 0.5 - self.margin
