"""A Seven Diamonds computer player that decides from its own seat's view and the public events.

It never sees a hidden card. :class:`Memory` follows the public events (``play``, ``jella``,
``deal``, ``round_over``) and the seat's views: it knows the table, its hand, the calls, and
infers from each *jella* (S10) that the passing seat holds none of the cards that fitted then
(a hand only loses cards during a round, so that stays true until the next deal).

Strategies:

- ``random``: a uniformly random legal call or card (the pass only when nothing fits).
- ``basic``: plays for its side (S2, S13–S15). Every card it may play is valued by what it
  *releases*: the next card up in that suit (S9) becomes playable for whoever holds it. Its own
  next card keeps the suit in hand; a card the partner probably holds is good; one an opponent
  probably holds is bad, and opening a suit (a 7) the opponents need is worse the more of it
  they hold, so it holds back sevens that open suits for them while it has other plays. Who
  holds an unseen card is estimated from the cards seen (its hand, the table) and the
  jella inferences, in proportion to the hand sizes. It keeps a 7 for its last card when it can
  (200 more, S15), sheds points it would otherwise be counted for (S14) when the choice is
  otherwise even, and doubles (S5) or answers three (S6) on a hand that controls its suits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dineri.seven_diamonds import CODE, POINTS, RANK, SUIT, fits, parse_card

Json = dict[str, Any]
STRATEGIES = ("random", "basic")
_SUITS = "DHSC"


def _table_heights(table: Json) -> tuple[int, int, int, int]:
    piles = [len(table.get(s) or []) for s in _SUITS]
    return piles[0], piles[1], piles[2], piles[3]


@dataclass
class Memory:
    """What one seat has seen this round: the table heights and, per seat, the cards it is known
    not to hold (jella, S10). Feed every public event in order with :meth:`on_event` and every
    view of the seat with :meth:`on_view` (a view is the truth for the table)."""

    seat: int
    table: tuple[int, int, int, int] = (0, 0, 0, 0)
    lacks: list[set[int]] = field(default_factory=lambda: [set() for _ in range(4)])

    def on_view(self, view: Json) -> None:
        """Adopt the seat view's table (``seat_view`` shape)."""
        self.table = _table_heights(view.get("table") or {})
        if view.get("phase") != "play":
            self.lacks = [set() for _ in range(4)]

    def on_event(self, event: Json) -> None:
        """Follow one public event (``docs/schemas/seven_diamonds``)."""
        kind = event.get("type")
        if kind == "play":
            card = parse_card(event["card"])
            t = list(self.table)
            t[SUIT[card]] = RANK[card] + 1
            self.table = (t[0], t[1], t[2], t[3])
        elif kind == "jella":
            seat = int(event["seat"])
            if 0 <= seat < 4:
                self.lacks[seat] |= {c for c in range(32) if fits(self.table, c)}
        elif kind in ("deal", "round_over", "match_over", "forfeit"):
            self.table = (0, 0, 0, 0)
            self.lacks = [set() for _ in range(4)]


def _holder_odds(card: int, seat: int, memory: Memory, sizes: list[int]) -> tuple[float, float]:
    """(P partner holds ``card``, P an opponent does), for a card not in ``seat``'s hand nor played."""
    weights = []
    for other in range(4):
        if other == seat or card in memory.lacks[other]:
            weights.append(0.0)
        else:
            weights.append(float(sizes[other]))
    total = sum(weights)
    if total == 0:
        return 0.0, 0.0
    partner = weights[(seat + 2) % 4] / total
    return partner, 1.0 - partner


@dataclass(frozen=True)
class Weights:
    """The weights of basic's valuation (tuned with ``benchmarks/bots_seven_diamonds.py``)."""

    own: float = 1.2  # the next card up is ours
    partner: float = 0.9  # ... probably the partner's
    opponent: float = 1.6  # ... probably an opponent's (subtracted)
    decay: float = 0.7  # cards further up the suit count less
    mobility: float = 0.4  # per own card playable right after
    last_seven: float = 6.0  # keeping a 7 to go out on (S15)
    shed: float = 0.01  # per point of the card (S14)


BASIC = Weights()


def _value(card: int, hand: list[int], seat: int, memory: Memory, sizes: list[int],
           w: Weights = BASIC) -> float:
    """How good it is for ``seat``'s side to play ``card`` now (higher is better)."""
    suit, rank = SUIT[card], RANK[card]
    mine = set(hand)
    value = 0.0
    # What the play releases in its suit, the next card most (it is playable at once).
    weight = 1.0
    for r in range(rank + 1, 8):
        above = suit * 8 + r
        if above in mine:
            value += w.own * weight  # the suit stays ours to go on with
        else:
            partner, opponent = _holder_odds(above, seat, memory, sizes)
            value += weight * (w.partner * partner - w.opponent * opponent)
        weight *= w.decay
    # Going on: a card that lets our own next card follow keeps us moving (S10: no jella).
    left = [c for c in hand if c != card]
    table = list(memory.table)
    table[suit] = rank + 1
    after = (table[0], table[1], table[2], table[3])
    value += w.mobility * sum(1 for c in left if fits(after, c))
    # S15: keep a 7 for the last card when it can still open its suit then.
    if len(left) == 1 and RANK[left[0]] == 0 and memory.table[SUIT[left[0]]] == 0 and RANK[card] != 0:
        value += w.last_seven
    if len(left) == 0:
        value += 100.0
    value += w.shed * POINTS[card]  # shed points we could be counted for (S14)
    return value


def hand_strength(hand: list[int]) -> float:
    """How likely a dealt hand is to go out early (for S5–S6): low cards open and follow at once,
    high ones wait for their suit to be built; each card counts ``3.5 - rank`` (7: 3.5 … A: -3.5).
    Over 4,000 basic-vs-basic rounds a hand at 5 or more won for its side about 60% of the time."""
    return sum(3.5 - RANK[c] for c in hand)


DOUBLE_AT = 5.0  # hand_strength from which basic doubles (S5)
THREE_AT = 8.0  # and answers a double with three (S6): the doubler is strong too


def choose(view: Json, memory: Memory, strategy: str, rng: random.Random,
           weights: Weights = BASIC) -> Json | None:
    """The action object for this seat now (``{"type": "bid", "call": ...}``,
    ``{"type": "play", "card": ...}`` or ``{"type": "pass"}``), or ``None`` when it is not its
    move. ``view`` is the seat's own view. Raises ``ValueError`` for an unknown strategy."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r} (one of {', '.join(STRATEGIES)})")
    seat = int(view["seat"])
    if view.get("turn") != seat:
        return None
    phase = view.get("phase")
    hand = [parse_card(c) for c in view.get("hand") or []]
    if phase == "bidding":
        stage2 = view.get("doubler") is not None
        raise_call = "three" if stage2 else "double"
        if strategy == "random":
            return {"type": "bid", "call": rng.choice(("pass", raise_call))}
        strong = hand_strength(hand) >= (THREE_AT if stage2 else DOUBLE_AT)
        return {"type": "bid", "call": raise_call if strong else "pass"}
    if phase != "play":
        return None
    memory.table = _table_heights(view.get("table") or {})
    playable = [c for c in hand if fits(memory.table, c)]
    if not playable:
        return {"type": "pass"}
    if strategy == "random" or len(playable) == 1:
        return {"type": "play", "card": CODE[rng.choice(playable)]}
    sizes = [int(n) for n in view.get("hand_sizes") or [8, 8, 8, 8]]
    best = max(playable, key=lambda c: (_value(c, hand, seat, memory, sizes, weights), -c))
    return {"type": "play", "card": CODE[best]}


class SevenDiamondsPlayer:
    """A Seven Diamonds player behind the player interface of ``dineri/players`` (issue 12):
    :meth:`choose` decides from the seat's view, the public events it saw and the legal action
    objects alone (a fresh :class:`Memory` is built from the events each time, so it is a pure
    function of its input and its seed). ``name``: ``random`` or ``basic``."""

    def __init__(self, name: str = "basic", seed: int | None = None) -> None:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r} (one of {', '.join(STRATEGIES)})")
        self.name = name
        self.strategy = name
        self._rng = random.Random(seed)

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json:
        """One of ``legal`` (a copy). Raises ``ValueError`` for an empty ``legal`` or a view that
        is not this game's seat view."""
        if not legal:
            raise ValueError("no legal action to choose from")
        if not isinstance(view, dict) or not isinstance(view.get("seat"), int):
            raise ValueError("not a seat view")
        memory = Memory(int(view["seat"]))
        for event in events:
            if isinstance(event, dict):
                memory.on_event(event)
        memory.on_view(view)
        wanted = choose(view, memory, self.strategy, self._rng)
        for action in legal:
            if action == wanted:
                return dict(action)
        # Not this seat's move by its view (or a view behind the legal list): the first legal
        # action that is not a forfeit.
        return dict(next((a for a in legal if a.get("type") != "forfeit"), legal[0]))


#: Player names a host may pick (``dineri/players/levels.py``) and the strategy each plays here:
#: ``random`` plays at random; every other name plays ``basic``.
NAMES = {"random": "random", "basic": "basic", "greedy": "basic", "easy": "basic", "medium": "basic",
         "hard": "basic"}


def make_player(name: str, seed: int | None = None) -> SevenDiamondsPlayer:
    """The Seven Diamonds player for a strategy or level name (see :data:`NAMES`), seeded.
    Raises ``ValueError`` for an unknown name."""
    if name not in NAMES:
        raise ValueError(f"unknown player {name!r} (one of {', '.join(NAMES)})")
    player = SevenDiamondsPlayer(NAMES[name], seed)
    player.name = name
    return player
