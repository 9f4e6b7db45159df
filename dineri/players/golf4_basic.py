"""A golf4 computer player that remembers what it saw, never anything hidden (G6–G10).

:class:`Golf4Memory` follows exactly what its seat receives: the public events, its private
events (the peek's two cards, G6, shown once) and its seat views (the card it drew while held,
G8). From that it knows some of its own face-down slots (peeked, or swapped in by itself), and
the slots other seats filled with a card taken from the discard pile (G9, face up when taken).
:func:`choose` decides from the memory and the current view alone:

- the peek: always look (G6);
- knock (G10) when nobody has, its estimated score is low (the bar rises each lap of the table)
  and no seat looks clearly lower; after a few laps it knocks anyway (a round ends only by a knock);
- take the top discard when it is a low card that beats its worst slot (known value, or the
  average of a card it has not seen for an unknown slot), else draw;
- a drawn card goes into the worst slot if it beats it, else it is discarded (G8);
- a taken card always goes into the worst slot (G9: it may not be discarded).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dineri.golf4 import CODE, VALUE, parse_card
from dineri.players.base import PlayerError, check_json

Json = dict[str, Any]
_VALUE_OF = {c: VALUE[i] for i, c in enumerate(CODE)}
KNOCK_AT = 10  # knock at or below this estimate, plus KNOCK_RISE per lap of the table …
KNOCK_RISE = 2
KNOCK_MARGIN = 3  # … when no other seat is estimated more than this many points below it
KNOCK_LAPS = 8  # after this many laps, knock whenever allowed: a round ends only by a knock


def value(code: str) -> int:
    """The card's points (G2)."""
    return VALUE[parse_card(code)]


@dataclass
class Golf4Memory:
    """What one seat has seen in the current round.

    ``known[seat][slot]`` is a card code the seat saw there face up (or put there itself), else
    ``None``. ``seen`` counts the cards seen face up this round (to estimate an unknown card).
    Feed every event with :meth:`on_event` in order (private events included) and every view with
    :meth:`on_view`.
    """

    seat: int
    seats: int = 2
    round: int = 0
    known: list[list[str | None]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    taken: dict[int, str] = field(default_factory=dict)  # seat -> the discard it holds
    held: str | None = None  # our card drawn from the stock, as last shown in our view
    turns: int = 0  # turns played this round (``turn`` events)

    def reset(self, round_no: int) -> None:
        """A new deal: nothing is known of the face-down cards (G5, G7)."""
        self.round = round_no
        self.known = [[None] * 4 for _ in range(self.seats)]
        self.seen = set()
        self.taken = {}
        self.held = None
        self.turns = 0

    def on_view(self, view: Json) -> None:
        """Adopt a seat view: the seat count, the round, the face-up top discard and our held card."""
        self.seats = len(view.get("totals") or []) or self.seats
        if view.get("round") != self.round or len(self.known) != self.seats:
            self.reset(int(view.get("round") or 0))
        if view.get("discard_top"):
            self.seen.add(view["discard_top"])
        if view.get("held"):
            self.held = view["held"]
        holding = view.get("holding") or {}
        if holding.get("card") and view.get("turn") is not None:
            self.taken[int(view["turn"])] = holding["card"]

    def on_event(self, event: Json) -> None:
        """Follow one event (public, or our own private one)."""
        kind = event.get("type")
        if kind == "deal":
            self.reset(int(event["round"]))
            self.seen.add(event["discard"])
        elif kind == "peek_cards":
            for slot, code in (event.get("slots") or {}).items():
                self._know(self.seat, int(slot), code)
        elif kind == "turn":
            self.turns += 1
        elif kind == "take":
            self.taken[int(event["seat"])] = event["card"]
        elif kind == "swap":
            seat, slot = int(event["seat"]), int(event["slot"])
            self.seen.add(event["card"])
            if event.get("from") == "discard":
                card = self.taken.pop(seat, None)
            else:
                card = self.held if seat == self.seat else None
            self._know(seat, slot, card)
            if seat == self.seat:
                self.held = None
        elif kind == "discard":
            self.seen.add(event["card"])
            if int(event["seat"]) == self.seat:
                self.held = None

    def _know(self, seat: int, slot: int, card: str | None) -> None:
        if not self.known:
            self.reset(self.round)
        if 0 <= seat < len(self.known) and 0 <= slot < 4:
            self.known[seat][slot] = card
            if card:
                self.seen.add(card)

    def unknown_value(self) -> float:
        """The average points of a card this seat has not seen face up this round (G2)."""
        rest = [v for c, v in _VALUE_OF.items() if c not in self.seen]
        return sum(rest) / len(rest) if rest else 6.5

    def estimate(self, seat: int) -> float:
        """The seat's round score as far as this seat can tell (G13)."""
        if not self.known:
            return 4 * self.unknown_value()
        guess = self.unknown_value()
        return sum(value(c) if c else guess for c in self.known[seat])

    def worst_slot(self) -> tuple[int, float]:
        """Our slot with the highest known or expected points, and those points."""
        guess = self.unknown_value()
        mine = self.known[self.seat] if self.known else [None] * 4
        costs = [value(c) if c else guess for c in mine]
        slot = max(range(4), key=lambda k: (costs[k], mine[k] is None, -k))
        return slot, costs[slot]


def choose(memory: Golf4Memory, view: Json) -> Json | None:
    """The action for ``memory.seat`` given its current seat view, or ``None`` when it has none
    to make. Uses only the memory and the view (never a hidden card)."""
    me = memory.seat
    memory.on_view(view)
    phase = view.get("phase")
    if phase == "peek":
        return {"type": "peek"} if (view.get("peeks") or [])[me] is None else None
    if phase != "play" or view.get("turn") != me:
        return None
    holding = view.get("holding")
    slot, worst = memory.worst_slot()
    if holding is None:
        top = view.get("discard_top")
        if view.get("knocker") is None and _should_knock(memory):
            return {"type": "knock"}
        if top and value(top) < worst and value(top) <= 4:
            return {"type": "take"}
        if view.get("stock_left", 0) > 0:
            return {"type": "draw"}
        return {"type": "take"}
    if holding.get("from") == "discard":
        return {"type": "swap", "slot": slot}
    card = view.get("held") or memory.held
    if card and value(card) < worst:
        return {"type": "swap", "slot": slot}
    return {"type": "discard"}


def _should_knock(memory: Golf4Memory) -> bool:
    laps = memory.turns // max(memory.seats, 1)
    if laps >= KNOCK_LAPS:
        return True
    mine = memory.estimate(memory.seat)
    if mine > KNOCK_AT + KNOCK_RISE * laps:
        return False
    others = [memory.estimate(s) for s in range(memory.seats) if s != memory.seat]
    return all(o > mine - KNOCK_MARGIN for o in others)


def _need(legal: Sequence[Json]) -> None:
    if not legal:
        raise PlayerError("no legal action to choose from")


def _plain(legal: Sequence[Json]) -> list[Json]:
    return [dict(a) for a in legal if a.get("type") != "forfeit"] or [dict(a) for a in legal]


class BasicPlayer:
    """The golf4 player of :class:`dineri.players.base.Player`: it rebuilds its memory from the
    events its seat saw (its own private ``peek_cards`` included) and its current view, and keeps
    one thing between calls: the card it drew from the stock, as its view showed it (G8), so it
    knows that card once it swaps it in. ``mistakes`` is the share of moves it plays at random
    among the legal ones (0 for ``basic``), never a knock or a forfeit."""

    def __init__(self, name: str = "basic", seed: int | None = None, mistakes: float = 0.0) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.mistakes = mistakes
        self.drawn: dict[int, str] = {}  # turn number (``turn`` events seen) -> the card drawn then

    def remember(self, view: Json, events: Sequence[Json]) -> Golf4Memory:
        """The memory rebuilt from the seat's events and view (and the cards it drew). Raises
        :class:`PlayerError` for input that is not a golf4 seat's JSON."""
        check_json(view, "view")
        check_json(list(events), "events")
        seat = view.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise PlayerError("a golf4 player needs its seat's view")
        memory = Golf4Memory(seat, len(view.get("totals") or []) or 2)
        turns = 0
        for ev in events:
            if ev.get("type") == "turn":
                turns += 1
            if ev.get("type") == "swap" and ev.get("seat") == seat and ev.get("from") == "stock":
                memory.held = self.drawn.get(turns)
            memory.on_event(ev)
        if view.get("held"):
            self.drawn[turns] = view["held"]
        memory.on_view(view)
        return memory

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json:
        """See :class:`dineri.players.base.Player`."""
        _need(legal)
        memory = self.remember(view, events)
        doc = choose(memory, view)
        plain = _plain(legal)
        if self.mistakes and self.rng.random() < self.mistakes:
            safe = [a for a in plain if a.get("type") != "knock"] or plain
            return dict(self.rng.choice(safe))
        if doc is not None and doc in plain:
            return dict(doc)
        return dict(plain[0])


class RandomPlayer:
    """A uniformly random legal action (never a forfeit, knocks rarely so rounds end)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json:
        """See :class:`dineri.players.base.Player`."""
        check_json(view, "view")
        _need(legal)
        plain = _plain(legal)
        knocks = [a for a in plain if a.get("type") == "knock"]
        if knocks and self.rng.random() < 0.1:
            return dict(knocks[0])
        rest = [a for a in plain if a.get("type") != "knock"] or plain
        return dict(self.rng.choice(rest))


def make_player(name: str, seed: int | None = None) -> BasicPlayer | RandomPlayer:
    """A golf4 player for a strategy or level name: ``random``; ``easy`` (basic with a random move
    one time in four); ``greedy``, ``medium``, ``hard`` and ``basic`` (the memory player above).
    Raises ``ValueError`` for another name."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return BasicPlayer("easy", seed, mistakes=0.25)
    if name in ("basic", "greedy", "medium", "hard"):
        return BasicPlayer(name, seed)
    raise ValueError(f"unknown golf4 player {name!r}")
