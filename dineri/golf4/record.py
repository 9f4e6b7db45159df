"""Golf4 match records (``match-record-golf4.md``: ``dineri-match/1``, game ``golf4``): read,
write, replay.

A record holds the options, the first dealer, every deck (rounds and reshuffles,
G11, 52 codes each, top first) and every accepted action; replaying it rebuilds
the match exactly.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from dineri.golf4.actions import Action, action_from_json, action_to_json
from dineri.golf4.cards import CODE, Card, parse_card
from dineri.golf4.errors import RecordError, RuleError, shown
from dineri.golf4.options import Options
from dineri.golf4.rules import Event, apply, new_match
from dineri.golf4.state import MatchState
from dineri.golf4.views import summary

FORMAT = "dineri-match/1"
GAME = "golf4"
_HEX = frozenset("0123456789abcdef")
_KNOWN = ("format", "game", "options", "players", "first_dealer", "decks", "fairness", "actions", "result")


@dataclass(frozen=True, slots=True)
class Fairness:
    """One deck's commitment: lowercase hex SHA-256 of ``salt + ":" + ",".join(codes)``
    (as in ``match-record.md``), published before the deck is first used."""

    salt: str
    commitment: str


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A validated golf4 record. ``actions`` keeps each action exactly as written (JSON objects),
    since a record may hold an action the engine refuses; :func:`replay` reports it."""

    options: Options
    first_dealer: int
    decks: tuple[tuple[Card, ...], ...]
    actions: tuple[Any, ...] = ()
    players: tuple[str, ...] | None = None
    fairness: tuple[Fairness, ...] | None = None
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON document (keys in the documented order; unknown keys kept)."""
        doc: dict[str, Any] = {"format": FORMAT, "game": GAME, "options": self.options.to_json()}
        if self.players is not None:
            doc["players"] = list(self.players)
        doc["first_dealer"] = self.first_dealer
        doc["decks"] = [[CODE[c] for c in d] for d in self.decks]
        if self.fairness is not None:
            doc["fairness"] = [{"salt": f.salt, "commitment": f.commitment} for f in self.fairness]
        doc["actions"] = [dict(a) if isinstance(a, dict) else a for a in self.actions]
        if self.result is not None:
            doc["result"] = self.result
        doc.update(self.extra)
        return doc

    def dumps(self) -> str:
        """The document as compact JSON text."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)

    def with_action(self, action: Action) -> MatchRecord:
        """A copy with one more accepted action appended."""
        return replace(self, actions=(*self.actions, action_to_json(action)))


def _fail(msg: str) -> RecordError:
    return RecordError(f"malformed record: {msg}")


def parse_deck(raw: object, index: int = 0) -> tuple[Card, ...]:
    """One deck: a list of the 52 distinct card codes (either case). Raises :class:`RecordError`."""
    if not isinstance(raw, list):
        raise _fail(f"decks[{index}] is not a list")
    try:
        deck = tuple(parse_card(c) for c in raw)
    except RuleError as e:
        raise _fail(f"decks[{index}]: {e.message}") from None
    if len(deck) != 52 or len(set(deck)) != 52:
        raise _fail(f"decks[{index}] must hold the 52 cards once each (has {len(deck)}, "
                    f"{len(set(deck))} distinct)")
    return deck


def _parse_json(doc: object) -> object:
    if not isinstance(doc, str | bytes):
        return doc
    try:
        return json.loads(doc)
    except UnicodeDecodeError:
        raise _fail("not UTF-8 text") from None
    except ValueError as e:
        raise _fail(f"not JSON ({shown(str(e), 120)})") from None
    except RecursionError:
        raise _fail("nesting too deep") from None


def _fairness(raw: object) -> tuple[Fairness, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise _fail("fairness must be a list")
    items = []
    for i, f in enumerate(raw):
        if (not isinstance(f, dict) or not isinstance(f.get("salt"), str)
                or not isinstance(f.get("commitment"), str)
                or len(f["commitment"]) != 64 or not set(f["commitment"]) <= _HEX):
            raise _fail(f"fairness[{i}] needs a salt and a 64-digit lowercase hex commitment")
        items.append(Fairness(f["salt"], f["commitment"]))
    return tuple(items)


def load_record(doc: object) -> MatchRecord:
    """Validate a golf4 record (a parsed JSON object, or JSON text or bytes).

    Raises :class:`RecordError` naming the first problem: not JSON, not an object, unknown
    ``format`` or ``game``, bad options, ``first_dealer``, decks, fairness, players, or ``actions``
    not a list. Individual actions are checked on replay.
    """
    doc = _parse_json(doc)
    if not isinstance(doc, dict):
        raise _fail("the document must be a JSON object")
    if doc.get("format") != FORMAT:
        raise _fail(f"format must be {FORMAT!r}, got {shown(doc.get('format'))}")
    if doc.get("game") != GAME:
        raise _fail(f"game must be {GAME!r}, got {shown(doc.get('game'))}")
    try:
        options = Options.from_json(doc.get("options"))
    except RuleError as e:
        raise _fail(e.message) from None
    fd = doc.get("first_dealer")
    if type(fd) is not int or not 0 <= fd < options.seats:
        raise _fail(f"first_dealer must be a seat from 0 to {options.seats - 1}")
    raw_decks = doc.get("decks")
    if not isinstance(raw_decks, list):
        raise _fail("decks must be a list of decks")
    decks = tuple(parse_deck(d, i) for i, d in enumerate(raw_decks))
    actions = doc.get("actions")
    if not isinstance(actions, list):
        raise _fail("actions must be a list")
    players = doc.get("players")
    if players is not None:
        if (not isinstance(players, list) or len(players) != options.seats
                or not all(isinstance(p, str) for p in players)):
            raise _fail(f"players must be a list of {options.seats} names")
        players = tuple(players)
    result = doc.get("result")
    if result is not None and not isinstance(result, dict):
        raise _fail("result must be an object")
    extra = {k: v for k, v in doc.items() if k not in _KNOWN}
    return MatchRecord(options=options, first_dealer=fd, decks=decks, actions=tuple(actions),
                       players=players, fairness=_fairness(doc.get("fairness")), result=result,
                       extra=extra)


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of a replay: the state reached, the refused action if any, and how many
    actions were applied."""

    state: MatchState
    error: dict[str, Any] | None
    applied: int

    def to_json(self) -> dict[str, Any]:
        """The replay output of ``match-record-golf4.md``: ``ok``, ``error`` and the state."""
        return {"ok": self.error is None, "error": self.error, **summary(self.state)}


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted action of a replay: its index, the action as written, the events it made
    and the state after it."""

    index: int
    action: Any
    events: list[Event]
    state: MatchState


def steps(record: MatchRecord) -> Iterator[Step | Replay]:
    """Replay ``record`` lazily in one pass: a :class:`Step` per accepted action, then one final
    :class:`Replay` (refused action, a deck the record lacks, or the end of the actions). Item
    zero's state (before any action) is the first ``Replay``/``Step``'s predecessor: see
    :func:`start`."""
    state = start(record)
    seats = record.options.seats
    for i, raw in enumerate(record.actions):
        if state.phase == "shuffle":
            break  # waits for a deck the record lacks: later actions are not read
        try:
            state, events = apply(state, action_from_json(raw, seats))
        except RuleError as e:
            yield Replay(state, {"index": i, "code": e.code, "message": e.message}, i)
            return
        yield Step(i, raw, events, state)
    else:
        i = len(record.actions)
    yield Replay(state, None, i)


def start(record: MatchRecord) -> MatchState:
    """The state before the record's first action (its decks supplied)."""
    return new_match(record.options, record.first_dealer, record.decks)[0]


def replay(record: MatchRecord) -> Replay:
    """Apply the record's actions in order. Stops at the first refused action (``error`` is
    ``{"index", "code", "message"}``, the state is the one before it) or when a shuffle needs a
    deck the record lacks (phase ``shuffle``; later actions are not read)."""
    last = deque(steps(record), maxlen=1)[0]
    assert isinstance(last, Replay)
    return last


def replay_json(doc: object) -> dict[str, Any]:
    """Validate and replay a document; the replay output. Raises :class:`RecordError`."""
    return replay(load_record(doc)).to_json()
