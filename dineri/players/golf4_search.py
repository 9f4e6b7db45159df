"""golf4 search players (issue 12 item 4): ISMCTS over worlds drawn from one seat's knowledge.

:class:`Golf4Knowledge` is read from the seat's JSON alone: its view, the public events of the
round and its own private ``peek_cards`` event (G6), plus the cards it drew from the stock as its
own views showed them (G8; the player keeps those between calls, as the basic player does). It
knows the discard pile card by card, the face-down cards it peeked or put in itself, the cards
other seats took from the pile into a slot (G9: face up when taken), which slots each seat knows
(peeked, or swapped into), and, after a reshuffle (G11), which cards make up the new stock.

Each determinization places every card the seat has not located uniformly into the unknown
slots and the stock, keeping their counts (after a reshuffle the stock is drawn first from the
cards reshuffled into it). Nothing else enters a world, so no hidden card can reach the search.

A :class:`Golf4World` plays the round to its end (G10, G13, G14). The search decides the seat's
current move (one level of tree); what follows, for
every seat, is the basic policy played from that seat's own knowledge in the world (its known
slots exact, the others counted at the mean unseen value): knock when its estimate is low enough
for the lap (G10), take a low discard that beats its worst slot (G9), else draw and keep the card
if it beats the worst slot (G8). Reward per seat in [0, 1]: in the match's last round, 1 for a
lone lowest total, 0.5 shared, else 0 (G15); before it ``0.5 + (lowest other round score - own)
/ (2 * SPREAD)``, clipped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from dineri.golf4 import CODE, VALUE
from dineri.players.base import Json, PlayerError, check_json
from dineri.players.golf4_basic import BasicPlayer
from dineri.players.ismcts import search

DRAW, TAKE, KNOCK, DISCARD = 0, 1, 2, 3
SWAP = 4  # SWAP + slot
ACTION_JSON: dict[int, Json] = {DRAW: {"type": "draw"}, TAKE: {"type": "take"}, KNOCK: {"type": "knock"},
                                DISCARD: {"type": "discard"},
                                **{SWAP + k: {"type": "swap", "slot": k} for k in range(4)}}
_BY_CODE = {c: i for i, c in enumerate(CODE)}
MEAN = sum(VALUE) / len(VALUE)  # the mean value of a card (G2)
SPREAD = 10.0
KNOCK_AT, KNOCK_RISE, KNOCK_LAPS = 10, 2, 8  # the basic player's knock rule (golf4_basic.py)
MAX_TURNS = 400  # a world's guard; the policy knocks long before


def _card(code: object) -> int:
    if not isinstance(code, str) or code.upper() not in _BY_CODE:
        raise PlayerError(f"not a golf4 card code: {str(code)[:8]!r}")
    return _BY_CODE[code.upper()]


class Golf4Knowledge:
    """What one seat knows of the round in progress (see the module docstring). Raises
    :class:`PlayerError` when the events do not cover the round (its ``deal`` event)."""

    def __init__(self, view: Json, events: Sequence[Json], drawn: dict[int, str]) -> None:
        self.seat = int(view["seat"])
        self.n = len(view.get("totals") or [])
        n = self.n
        start = max((i for i, e in enumerate(events) if e.get("type") == "deal"), default=-1)
        if start < 0 or n < 2:
            raise PlayerError("the events do not cover the round's deal")
        self.known: list[list[int]] = [[-1] * 4 for _ in range(n)]
        self.knows = [0] * n
        self.pile: list[int] = []
        self.reshuffled: set[int] | None = None
        taken: dict[int, int] = {}
        # ``drawn`` is keyed by the number of ``turn`` events seen in the whole match (as the
        # basic player counts them); ``turns`` counts this round's (the knock rule's laps).
        seen_turns = sum(1 for e in events[:start] if e.get("type") == "turn")
        turns = 0
        for ev in events[start:]:
            kind = ev.get("type")
            if kind == "deal":
                self.pile = [_card(ev["discard"])]
            elif kind == "peek":
                self.knows[int(ev["seat"])] |= 0b1100  # G6: slots 2 and 3
            elif kind == "peek_cards":
                for slot, code in (ev.get("slots") or {}).items():
                    self.known[self.seat][int(slot)] = _card(code)
                self.knows[self.seat] |= 0b1100
            elif kind == "turn":
                turns += 1
                seen_turns += 1
            elif kind == "take":
                taken[int(ev["seat"])] = self.pile.pop() if self.pile else _card(ev["card"])
            elif kind == "swap":
                seat, slot = int(ev["seat"]), int(ev["slot"])
                self.pile.append(_card(ev["card"]))
                if ev.get("from") == "discard":
                    card = taken.pop(seat, -1)
                elif seat == self.seat and seen_turns in drawn:
                    card = _card(drawn[seen_turns])
                else:
                    card = -1
                self.known[seat][slot] = card
                self.knows[seat] |= 1 << slot
            elif kind == "discard":
                self.pile.append(_card(ev["card"]))
            elif kind == "reshuffle":
                self.reshuffled = set(self.pile[:-1])
                self.pile = self.pile[-1:]
        self.turns = turns
        self.held = -1
        self.held_from = ""
        holding = view.get("holding")
        if holding:
            self.held_from = str(holding.get("from"))
            code = view.get("held") if self.held_from == "stock" else holding.get("card")
            self.held = _card(code) if code else -1
        self.stock_left = int(view.get("stock_left") or 0)
        self.turn = int(view["turn"])
        self.knocker = view.get("knocker")
        self.final_turns = [int(s) for s in view.get("final_turns") or []]
        self.totals = [int(t) for t in view.get("totals") or []]
        options = view.get("options") or {}
        self.last_round = int(view.get("round") or 0) >= int(options.get("rounds", 9))
        placed = set(self.pile)
        for hand in self.known:
            placed.update(c for c in hand if c >= 0)
        if self.held >= 0:
            placed.add(self.held)
        self.unseen = [c for c in range(52) if c not in placed]
        unknown = sum(1 for hand in self.known for c in hand if c < 0)
        if len(self.unseen) != unknown + self.stock_left or (self.held_from and self.held < 0):
            raise PlayerError("the events and the view do not add up")


class Golf4World:
    """One mutable world: ``hands`` (4 cards per seat by slot), ``stock`` (top last), ``pile``
    (top last), the held card, the knock, whose turn, and what each seat knows (``knows``: a
    mask of its slots)."""

    __slots__ = ("done", "final", "hands", "held", "held_from", "knocker", "knows", "last_round", "n",
                 "pile", "rng", "root", "root_free", "stock", "totals", "turn", "turns")

    def __init__(self, k: Golf4Knowledge, rnd: random.Random) -> None:
        cards = list(k.unseen)
        rnd.shuffle(cards)
        stock: list[int] = []
        if k.reshuffled is not None:  # G11: the new stock is the reshuffled pile, less what was drawn
            stock = [c for c in cards if c in k.reshuffled][:k.stock_left]
        taken = set(stock)
        stock += [c for c in cards if c not in taken][:k.stock_left - len(stock)]
        taken = set(stock)
        rest = [c for c in cards if c not in taken]
        it = iter(rest)
        self.hands = [[c if c >= 0 else next(it) for c in hand] for hand in k.known]
        self.stock = stock[::-1]  # top last
        self.pile = list(k.pile)
        self.held, self.held_from = k.held, k.held_from
        self.knocker = -1 if k.knocker is None else int(k.knocker)
        self.final = list(k.final_turns)
        self.turn, self.n, self.turns = k.turn, k.n, k.turns
        self.knows = list(k.knows)
        self.totals, self.last_round = k.totals, k.last_round
        self.rng = rnd
        self.root, self.root_free = k.seat, False
        self.done = False

    # --- the World protocol ---------------------------------------------------------------------

    def actor(self) -> int:
        """The seat to decide, -1 once the round is over."""
        return -1 if self.done else self.turn

    def side(self, seat: int) -> int:
        """Everyone plays alone; after the root's move its later moves are the policy's (one level
        of tree: a seat's later choices hang on cards it has not drawn yet)."""
        return -2 if seat == self.root and self.root_free else seat

    def legal(self) -> list[int]:
        """The actor's actions (G8–G10)."""
        if self.held >= 0:
            out = [SWAP, SWAP + 1, SWAP + 2, SWAP + 3]
            return [*out, DISCARD] if self.held_from == "stock" else out
        out = []
        if self.stock:
            out.append(DRAW)
        if self.pile:
            out.append(TAKE)
        if self.knocker < 0:
            out.append(KNOCK)
        return out

    def step(self, action: int) -> None:
        """Apply one of :meth:`legal` for the actor."""
        if self.turn == self.root:
            self.root_free = True
        seat = self.turn
        if action == DRAW:
            self.held, self.held_from = self.stock.pop(), "stock"
        elif action == TAKE:
            self.held, self.held_from = self.pile.pop(), "discard"
        elif action == KNOCK:
            self.knocker = seat
            self.final = [(seat + i) % self.n for i in range(1, self.n)]
            self._end_turn(seat)
        elif action == DISCARD:
            self.pile.append(self.held)
            self.held = -1
            self._end_turn(seat)
        else:
            slot = action - SWAP
            hand = self.hands[seat]
            self.pile.append(hand[slot])
            hand[slot] = self.held
            self.held = -1
            self.knows[seat] |= 1 << slot
            self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        self.turns += 1
        if self.knocker >= 0 and self.knocker != seat:
            self.final = self.final[1:]
            if not self.final:
                self.done = True
                return
        if self.turns > MAX_TURNS:
            self.done = True
            return
        self.turn = self.final[0] if self.knocker >= 0 else (seat + 1) % self.n
        if not self.stock and len(self.pile) > 1:  # G11
            under = self.pile[:-1]
            self.rng.shuffle(under)
            self.stock, self.pile = under, self.pile[-1:]

    def _estimate(self, seat: int) -> tuple[float, int, float]:
        """The seat's own estimate of its score, its worst slot and that slot's value."""
        hand, knows = self.hands[seat], self.knows[seat]
        total, worst, worst_v = 0.0, 0, -1.0
        for slot in range(4):
            v = float(VALUE[hand[slot]]) if knows >> slot & 1 else MEAN
            total += v
            if v > worst_v or (v == worst_v and not knows >> slot & 1):
                worst, worst_v = slot, v
        return total, worst, worst_v

    def _policy(self) -> int:
        seat = self.turn
        total, worst, worst_v = self._estimate(seat)
        if self.held >= 0:
            if self.held_from == "discard" or VALUE[self.held] < worst_v:
                return SWAP + worst
            return DISCARD
        if self.knocker < 0:
            laps = self.turns // self.n
            if laps >= KNOCK_LAPS or total <= KNOCK_AT + KNOCK_RISE * laps:
                return KNOCK
        if self.pile and VALUE[self.pile[-1]] < worst_v and VALUE[self.pile[-1]] <= 4:
            return TAKE
        return DRAW if self.stock else TAKE

    def policy_step(self, rnd: random.Random) -> None:
        """The basic policy's action for the actor, from its own knowledge."""
        self.step(self._policy())

    def rollout(self, rnd: random.Random) -> None:
        """Play on to the end of the round with the basic policy for every seat."""
        while not self.done:
            self.step(self._policy())

    def rewards(self) -> list[float]:
        """Each seat's reward in [0, 1] (see the module docstring)."""
        n = self.n
        cards = [sum(VALUE[c] for c in hand) for hand in self.hands]
        points = list(cards)
        k = self.knocker
        if k >= 0 and any(cards[s] < cards[k] for s in range(n) if s != k):
            points[k] += 10  # G14
        out = []
        for s in range(n):
            other = min(points[o] for o in range(n) if o != s)
            if self.last_round and len(self.totals) == n:
                mine = self.totals[s] + points[s]
                best = min(self.totals[o] + points[o] for o in range(n) if o != s)
                out.append(1.0 if mine < best else 0.5 if mine == best else 0.0)
            else:
                out.append(min(1.0, max(0.0, 0.5 + (other - points[s]) / (2 * SPREAD))))
        return out


class Golf4Model:
    """Draws :class:`Golf4World` s from a :class:`Golf4Knowledge` (and nothing else)."""

    def __init__(self, knowledge: Golf4Knowledge) -> None:
        self.knowledge = knowledge

    def determinize(self, rnd: random.Random) -> Golf4World:
        """A fresh world whose actor is the deciding seat."""
        return Golf4World(self.knowledge, rnd)


PAIRED = False


class Golf4SearchPlayer:
    """ISMCTS for golf4 (``medium``, ``hard``): the peek (always look, G6) and anything the search
    cannot read (events that miss the round's deal) by the basic player, every turn decision by the
    search. Keep one object per seat for a match: like the basic player it remembers the cards it
    drew (G8), which no later view or event names."""

    def __init__(self, name: str, *, iterations: int, seconds: float | None = None, seed: int | None = None,
                 exploration: float = 0.7, paired: bool = True) -> None:
        self.name = name
        self.paired = paired
        self.iterations, self.seconds, self.exploration = iterations, seconds, exploration
        self.rng = random.Random(seed)
        self.basic = BasicPlayer(name, self.rng.getrandbits(32))
        self.last_iterations = 0

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json:
        """See :class:`dineri.players.base.Player`."""
        check_json(view, "view")
        check_json(list(events), "events")
        if not legal:
            raise PlayerError("no legal action to choose from")
        basic = self.basic.choose(view, events, legal)  # also records the card drawn (G8)
        plain = [a for a in legal if a.get("type") != "forfeit"]
        if view.get("phase") != "play" or len(plain) < 2 or view.get("turn") != view.get("seat"):
            return basic
        try:
            knowledge = Golf4Knowledge(view, events, self.basic.drawn)
        except (PlayerError, KeyError, ValueError, TypeError):
            return basic
        chosen: Any = self._paired(Golf4Model(knowledge)) if self.paired else search(
            Golf4Model(knowledge), iterations=self.iterations, seconds=self.seconds,
            seed=self.rng.getrandbits(32), exploration=self.exploration).action
        wanted = ACTION_JSON[chosen]
        for a in plain:
            if a == wanted:
                return dict(a)
        return basic

    def _paired(self, model: Golf4Model) -> int:
        """The one-level search with paired worlds: each determinization (a seed) is drawn once per
        root action and every root action is played out in it (common random numbers), so the
        actions are compared on the same hidden cards; the best mean reward wins. ``iterations``
        counts playouts; ``seconds`` caps the wall time."""
        seat = model.knowledge.seat
        first = model.determinize(random.Random(0))
        actions = first.legal()
        totals = dict.fromkeys(actions, 0.0)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done + len(actions) <= self.iterations:
            if deadline is not None and time.perf_counter() > deadline:
                break
            seed = self.rng.getrandbits(32)
            for a in actions:
                w = model.determinize(random.Random(seed))
                w.step(a)
                w.rollout(self.rng)
                totals[a] += w.rewards()[seat]
            done += len(actions)
        self.last_iterations = done
        return max(actions, key=lambda a: totals[a])
