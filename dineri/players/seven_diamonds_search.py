"""Seven Diamonds search players (issue 12 item 4): ISMCTS over worlds drawn from one seat's view.

:class:`SevenDiamondsModel` is built from the seat's JSON alone (its view and the public events,
through :class:`~dineri.players.seven_diamonds_basic.Memory`): its own hand, the table, every
seat's hand size and what each *jella* showed a seat lacks (S10). Each determinization deals the
cards the seat has not seen (every card but its hand and the piles) into the other three hands,
keeping their sizes, and, as far as the counts allow, out of a hand known to lack them. Nothing
else enters a world, so no hidden card can reach the search.

A :class:`SevenDiamondsWorld` is one mutable deal played to the end of the round (S13). The
search holds the deciding side's decisions (its partner's moves too, S2); the opponents, and the
rollout, play basic's valuation with the world's holders: of the cards that fit (S8–S9), the one
whose cards above in its suit its own side holds rather than the opponents (the next one most),
a 7 kept for the last card (S15), points shed (S14). Reward for a side in [0, 1]: 1/0 when the
round decides the match (S16), else ``0.5 + (own points - other side's) / (2 * SPREAD)``, clipped (S14, S15).

The bidding (S5, S6) is the basic player's (``hand_strength``); the search plays the cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dineri.players.base import Json, PlayerError, check_json
from dineri.players.ismcts import search
from dineri.players.seven_diamonds_basic import Memory, SevenDiamondsPlayer
from dineri.seven_diamonds import CODE, POINTS, RANK, SUIT, parse_card

SEATS = 4
PASS = -1
#: Points of difference that make a round worth 0 or 1 (a round's points: up to a few hundred).
SPREAD = 300.0


class SevenDiamondsWorld:
    """One deal in progress: ``hands`` (lists of cards), ``table`` (four pile heights, S9),
    ``turn``, ``multiplier`` (S7), ``scores`` and ``target`` (S16); ``out`` is the seat that went
    out (-1 while the round goes on) and ``last`` its last card."""

    __slots__ = ("eps", "hands", "last", "multiplier", "out", "owner", "scores", "table", "target", "turn")

    def __init__(self, hands: list[list[int]], table: list[int], turn: int, multiplier: int,
                 scores: list[int], target: int, eps: float = 0.1) -> None:
        self.hands, self.table, self.turn = hands, table, turn
        self.multiplier, self.scores, self.target, self.eps = multiplier, scores, target, eps
        self.out, self.last = -1, -1
        self.owner = [-1] * 32
        for seat, hand in enumerate(hands):
            for c in hand:
                self.owner[c] = seat

    def actor(self) -> int:
        """The seat to play, or -1 once somebody went out (S13)."""
        return self.turn if self.out < 0 else -1

    def legal(self) -> list[int]:
        """The actor's cards that fit (S8, S9), or ``[PASS]`` (S10)."""
        table = self.table
        if table[0] == 0:
            return [0] if 0 in self.hands[self.turn] else [PASS]
        out = [c for c in self.hands[self.turn] if RANK[c] == table[SUIT[c]]]
        return out or [PASS]

    def step(self, action: int) -> None:
        """Play ``action`` (or pass) for the actor."""
        seat = self.turn
        if action != PASS:
            hand = self.hands[seat]
            hand.remove(action)
            self.owner[action] = -1
            self.table[SUIT[action]] += 1
            if not hand:
                self.out, self.last = seat, action
                return
        self.turn = (seat + 1) % SEATS

    def side(self, seat: int) -> int:
        """S2: partners sit opposite."""
        return seat % 2

    def _policy(self, rnd: random.Random) -> int:
        legal = self.legal()
        if len(legal) == 1:
            return legal[0]
        if rnd.random() < self.eps:
            return legal[int(rnd.random() * len(legal))]
        seat = self.turn
        mine = seat % 2
        owner, hand, table = self.owner, self.hands[seat], self.table
        best, best_v = legal[0], -1e9
        for c in legal:
            # basic's valuation (players/seven_diamonds_basic.py), with the world's holders.
            v, w = 0.0, 1.0
            for above in range(c + 1, c - RANK[c] + 8):
                holder = owner[above]
                if holder == seat:
                    v += 1.2 * w
                elif holder >= 0:
                    v += 0.9 * w if holder % 2 == mine else -1.6 * w
                w *= 0.7
            if len(hand) == 2:
                other = hand[0] if hand[1] == c else hand[1]
                if RANK[other] == 0 and table[SUIT[other]] == 0 and RANK[c] != 0:
                    v += 6.0  # keep a 7 to go out on (S15)
            v += 0.01 * POINTS[c] + 0.0001 * rnd.random()
            if v > best_v:
                best, best_v = c, v
        return best

    def policy_step(self, rnd: random.Random) -> None:
        """The opponent model's move for the actor."""
        self.step(self._policy(rnd))

    def rollout(self, rnd: random.Random) -> None:
        """Play on to the end of the round with the release policy."""
        guard = 0
        while self.out < 0 and guard < 400:
            self.step(self._policy(rnd))
            guard += 1

    def rewards(self) -> list[float]:
        """Each seat's reward in [0, 1] (see the module docstring)."""
        if self.out < 0:
            return [0.5] * SEATS
        side = self.out % 2
        points = sum(POINTS[c] for s in range(SEATS) if s % 2 != side for c in self.hands[s])
        total = points * self.multiplier + (200 if RANK[self.last] == 0 else 0)
        won = 1.0 if self.scores[side] + total >= self.target else min(1.0, 0.5 + total / (2 * SPREAD))
        return [won if s % 2 == side else 1.0 - won for s in range(SEATS)]


class SevenDiamondsModel:
    """Draws :class:`SevenDiamondsWorld` s from one seat's view and memory (nothing else)."""

    def __init__(self, view: Json, memory: Memory, eps: float = 0.1) -> None:
        self.seat = int(view["seat"])
        self.hand = [parse_card(c) for c in view.get("hand") or []]
        self.table = [memory.table[s] for s in range(4)]
        self.sizes = [int(n) for n in view.get("hand_sizes") or []]
        if len(self.sizes) != SEATS or self.sizes[self.seat] != len(self.hand):
            raise PlayerError("hand sizes do not match the hand")
        played = {s * 8 + r for s in range(4) for r in range(self.table[s])}
        self.unseen = [c for c in range(32) if c not in played and c not in self.hand]
        if len(self.unseen) != sum(self.sizes) - len(self.hand):
            raise PlayerError("the unseen cards do not fill the other hands")
        self.lacks = [set(x) for x in memory.lacks]
        self.turn = int(view["turn"])
        self.multiplier = int(view.get("multiplier") or 1)
        self.scores = [int(x) for x in view.get("scores") or [0, 0]]
        self.target = int((view.get("options") or {}).get("target", 500))
        self.eps = eps

    def deal(self, rnd: random.Random) -> list[list[int]]:
        """The other hands: the unseen cards in random order, each to a seat with room that is
        not known to lack it (chosen in proportion to the room left); when none is, any seat
        with room (a world must keep every count)."""
        cards = list(self.unseen)
        rnd.shuffle(cards)
        # The most constrained cards first, so that they find a seat.
        cards.sort(key=lambda c: -sum(c in self.lacks[s] for s in range(SEATS)))
        room = [0 if s == self.seat else self.sizes[s] for s in range(SEATS)]
        hands: list[list[int]] = [list(self.hand) if s == self.seat else [] for s in range(SEATS)]
        for c in cards:
            fit = [s for s in range(SEATS) if room[s] and c not in self.lacks[s]] or \
                  [s for s in range(SEATS) if room[s]]
            total = sum(room[s] for s in fit)
            k = rnd.random() * total
            for s in fit:
                k -= room[s]
                if k < 0:
                    break
            hands[s].append(c)
            room[s] -= 1
        return hands

    def determinize(self, rnd: random.Random) -> SevenDiamondsWorld:
        """A fresh world whose actor is the deciding seat."""
        return SevenDiamondsWorld(self.deal(rnd), list(self.table), self.turn, self.multiplier,
                                  list(self.scores), self.target, self.eps)


class SevenDiamondsSearchPlayer:
    """ISMCTS for Seven Diamonds (``medium``, ``hard``): the cards by the search, the bidding by
    the basic player. ``iterations`` and ``seconds`` bound each search (``seconds=None``: the
    choices depend only on the seed and the input)."""

    def __init__(self, name: str, *, iterations: int, seconds: float | None = None, seed: int | None = None,
                 exploration: float = 0.5, eps: float = 0.1) -> None:
        self.name = name
        self.iterations, self.seconds, self.exploration, self.eps = iterations, seconds, exploration, eps
        self.rng = random.Random(seed)
        self.basic = SevenDiamondsPlayer("basic", self.rng.getrandbits(32))
        self.last_iterations = 0

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json:
        """See :class:`dineri.players.base.Player`."""
        check_json(view, "view")
        check_json(list(events), "events")
        if not legal:
            raise PlayerError("no legal action to choose from")
        plays = [a for a in legal if a.get("type") == "play"]
        if view.get("phase") != "play" or len(plays) < 2 or not isinstance(view.get("seat"), int):
            return self.basic.choose(view, events, legal)
        memory = Memory(int(view["seat"]))
        for event in events:
            if isinstance(event, dict):
                memory.on_event(event)
        memory.on_view(view)
        model = SevenDiamondsModel(view, memory, self.eps)
        result = search(model, iterations=self.iterations, seconds=self.seconds,
                        seed=self.rng.getrandbits(32), exploration=self.exploration)
        self.last_iterations = result.iterations
        chosen = result.action
        assert isinstance(chosen, int)
        wanted = {"type": "play", "card": CODE[chosen]}
        for a in plays:
            if parse_card(a.get("card")) == chosen:
                return dict(a)
        return dict(wanted)
