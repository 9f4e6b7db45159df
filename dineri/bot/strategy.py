"""How a bot chooses its Chkobba action from what its own seat may see (issue 3, item 8).

A bot never sees a hidden card: :class:`SeatMemory` follows the public events and the
seat's own views (``docs/protocol.md``), and :func:`choose` decides from that alone,
using :func:`dineri.engine.legal_captures` on the bot's hand and the visible table.
It remembers the last card the previous seat *laid* and the table it was laid on, so it
can claim a missed capture it saw (R19–R22), as a human player could.

Strategies:

- ``random``: a uniformly random card, then a uniformly random choice among its legal
  captures and laying it (R13–R17); a random cut, keep or table, and redeal answer.
- ``greedy``: the capture taking the most valuable cards: a chkobba first (R23), then
  the 7♦ (R26 Sab'a l-hayya), sevens and sixes (Barmila), diamonds (Dinari), card count
  (Karta); with no capture, it lays its least useful card.

Both claim every missed capture they can see. Neither proposes a redeal (R10).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dineri.engine import VALUE, legal_captures, parse_card

Json = dict[str, Any]
STRATEGIES = ("random", "greedy")


@dataclass
class SeatMemory:
    """What one seat has seen: the table as the events left it, and an open missed
    capture window it can claim (``window``: the laid card and the table before it).

    Feed every event with :meth:`on_event` in ``seq`` order and every view with
    :meth:`on_view`; a view replaces the tracked table (it is the truth).
    """

    seat: int
    seats: int = 2
    table: list[str] = field(default_factory=list)
    window: tuple[str, list[str]] | None = None

    def on_view(self, view: Json) -> None:
        """Adopt a seat view (``seat_view`` shape): its table and seat count."""
        self.table = list(view.get("table") or [])
        opts = view.get("options") or {}
        self.seats = int(opts.get("seats", self.seats))
        if view.get("phase") != "play":
            self.window = None

    def on_event(self, event: Json) -> None:
        """Follow one public event (``docs/protocol.md``, Events)."""
        kind = event.get("type")
        if kind == "play":
            card, capture = event["card"], list(event.get("capture") or [])
            if capture:
                self.table = [c for c in self.table if c not in capture]
                self.window = None
            else:
                # R19: a lay that could have captured opens a window for the very next seat only.
                before = list(self.table)
                mine = (int(event["seat"]) + 1) % self.seats == self.seat
                could = bool(legal_captures(parse_card(card), [parse_card(c) for c in before]))
                self.window = (card, before) if mine and could else None
                self.table.append(card)
        elif kind == "claim":
            gone = {event["card"], *event.get("capture", [])}
            self.table = [c for c in self.table if c not in gone]
            self.window = None
        elif kind == "deal":
            self.table = list(event.get("table") or [])
            self.window = None
        elif kind in ("round_over", "match_over", "cut", "commitment", "forfeit"):
            self.window = None
            if kind != "cut":
                self.table = []

    def forget_window(self) -> None:
        """Drop the window (its claim was refused, or the bot has played since)."""
        self.window = None


def _weight(cards: Sequence[str]) -> float:
    """Worth of captured cards for greedy (R26): 7♦ ≫ sevens > sixes > diamonds > any card."""
    w = 0.0
    for code in cards:
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


def _is_last_card(view: Json) -> bool:
    """True when the card about to be played is the round's last (no chkobba then, R24)."""
    return int(view.get("deck_left", 0)) == 0 and sum(view.get("hand_sizes") or []) == 1


def _captures(card: str, table: Sequence[str]) -> list[list[str]]:
    ints = [parse_card(c) for c in table]
    by_int = dict(zip(ints, table, strict=True))
    return [[by_int[c] for c in cap] for cap in legal_captures(parse_card(card), ints)]


def _lay_cost(code: str) -> tuple[float, int]:
    """Greedy lays what matters least: never 7♦, then not a seven, six or diamond; low values
    first (they are hard to sum against)."""
    return (_weight([code]), VALUE[parse_card(code)])


def choose(view: Json, memory: SeatMemory, strategy: str, rng: random.Random) -> Json | None:
    """The action object (``docs/protocol.md``, Chkobba action objects) for this seat now,
    or ``None`` when it is not this seat's move.

    ``view`` is the seat's own view (``seat_view`` shape: ``phase``, ``turn``, ``hand``,
    ``table``, ``pending_redeal``, …). Raises ``ValueError`` for an unknown strategy.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r} (one of {', '.join(STRATEGIES)})")
    seat = int(view["seat"])
    phase = view.get("phase")
    greedy = strategy == "greedy"
    if phase == "redeal_vote":
        pending = view.get("pending_redeal") or {}
        proposer = pending.get("proposer")
        if proposer is None or (seat - int(proposer)) % 2 == 0:
            return None
        return {"type": "answer_redeal", "accept": False if greedy else rng.random() < 0.5}
    if view.get("turn") != seat:
        return None
    if phase == "cut":
        return {"type": "cut", "at": rng.randrange(40)}
    if phase == "cut_choice":
        drawn = view.get("drawn") or ""
        if greedy:
            return {"type": "keep" if _weight([drawn]) > 1.0 else "table"}
        return {"type": rng.choice(("keep", "table"))}
    if phase != "play":
        return None
    table = list(view.get("table") or [])
    hand = list(view.get("hand") or [])
    if memory.window is not None:
        card, before = memory.window
        claims = [c for c in _captures(card, before) if all(x in table for x in c)]
        if claims:
            best = max(claims, key=lambda c: _weight([*c, card])) if greedy else rng.choice(claims)
            return {"type": "claim", "card": card, "capture": best}
    if not hand:
        return None
    if not greedy:
        card = rng.choice(hand)
        options: list[list[str]] = [*_captures(card, table), []]
        capture = rng.choice(options)
        return {"type": "play", "card": card, "capture": capture}
    last = _is_last_card(view)
    best_move: tuple[float, str, list[str]] | None = None
    for card in hand:
        for cap in _captures(card, table):
            score = _weight([*cap, card])
            if len(cap) == len(table) and not last:
                score += 100.0  # a chkobba is a whole point (R23)
            if best_move is None or score > best_move[0]:
                best_move = (score, card, cap)
    if best_move is not None:
        return {"type": "play", "card": best_move[1], "capture": best_move[2]}
    return {"type": "play", "card": min(hand, key=_lay_cost), "capture": []}
