"""Match records, ``dineri-match/1`` with ``"game": "seven_diamonds"``
(``match-record-seven-diamonds.md``): read, validate, write, replay.

A record holds the options, the first dealer, one deck per round (the 32 cards, top first) and
every accepted action; replaying it rebuilds the match exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from dineri.seven_diamonds.actions import Action, action_from_json, action_to_json
from dineri.seven_diamonds.cards import CODE, Card, parse_card
from dineri.seven_diamonds.errors import RecordError, RuleError, shown
from dineri.seven_diamonds.rules import apply, new_match
from dineri.seven_diamonds.state import MatchState, Options
from dineri.seven_diamonds.views import summary

FORMAT = "dineri-match/1"
GAME = "seven_diamonds"
_HEX = frozenset("0123456789abcdef")
_KNOWN = ("format", "game", "options", "players", "first_dealer", "decks", "fairness", "actions", "result")


@dataclass(frozen=True, slots=True)
class Fairness:
    """``commitment`` = lowercase hex SHA-256 of ``salt + ":" + ",".join(deck codes)``, published
    before the deal; ``salt`` revealed with the deck (as in ``match-record.md``)."""

    salt: str
    commitment: str


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A validated record. ``actions`` keeps each action exactly as written (JSON objects), since
    a record may hold an action the rules refuse; :func:`replay` reports it."""

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
        doc["actions"] = list(self.actions)
        if self.result is not None:
            doc["result"] = self.result
        doc.update(self.extra)
        return doc

    def dumps(self) -> str:
        """The document as compact JSON text."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)

    def with_action(self, action: Action) -> MatchRecord:
        """A copy with one more accepted action appended (in its record form)."""
        return replace(self, actions=(*self.actions, action_to_json(action)))


def _fail(msg: str) -> RecordError:
    return RecordError(f"malformed record: {msg}")


def parse_deck(raw: object, index: int = 0) -> tuple[Card, ...]:
    """One deck: a list of the 32 card codes of S1, distinct, either case. Raises :class:`RecordError`."""
    if not isinstance(raw, list):
        raise _fail(f"decks[{index}] is not a list")
    try:
        deck = tuple(parse_card(c) for c in raw)
    except RuleError as e:
        raise _fail(f"decks[{index}]: {e.message}") from None
    if len(deck) != 32 or len(set(deck)) != 32:
        raise _fail(f"decks[{index}] must hold the 32 cards once each (has {len(deck)}, "
                    f"{len(set(deck))} distinct)")
    return deck


def _parse_fairness(raw: object) -> tuple[Fairness, ...]:
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
    """Validate a parsed JSON document (or JSON text/bytes) as a Seven Diamonds record.

    Raises :class:`RecordError` naming the first problem: not JSON, not an object, unknown
    ``format`` or ``game``, options other than ``{"seats": 4, "target": 500}``, a bad
    ``first_dealer``, a deck that is not 32 distinct valid cards, bad ``players``, ``fairness``
    or ``result``, ``actions`` not a list. Each action is checked on replay.
    """
    if isinstance(doc, str | bytes):
        try:
            doc = json.loads(doc)
        except UnicodeDecodeError:
            raise _fail("not UTF-8 text") from None
        except ValueError as e:
            raise _fail(f"not JSON ({shown(str(e), 120)})") from None
        except RecursionError:
            raise _fail("nesting too deep") from None
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
        raise _fail(f"first_dealer must be a seat from 0 to {options.seats - 1}, got {shown(fd)}")
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
    fairness = doc.get("fairness")
    if fairness is not None:
        fairness = _parse_fairness(fairness)
    result = doc.get("result")
    if result is not None and not isinstance(result, dict):
        raise _fail("result must be an object")
    extra = {k: v for k, v in doc.items() if k not in _KNOWN}
    return MatchRecord(options=options, first_dealer=fd, decks=decks, actions=tuple(actions),
                       players=players, fairness=fairness, result=result, extra=extra)


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of a replay: the state reached, the refused action if any, how many applied."""

    state: MatchState
    error: dict[str, Any] | None
    applied: int

    def to_json(self) -> dict[str, Any]:
        """The replay output of the record page: ``ok``, ``error`` and the state (:func:`summary`)."""
        return {"ok": self.error is None, "error": self.error, **summary(self.state)}


def _start(record: MatchRecord) -> MatchState:
    return new_match(record.options, record.first_dealer, record.decks)


def replay(record: MatchRecord, upto: int | None = None) -> Replay:
    """Apply the record's actions in order (at most ``upto``) to its decks.

    Stops at the first refused action: ``error`` is ``{"index", "code", "message"}`` and the state
    is the one before it. Phase ``shuffle`` means a round needs a deck the record lacks.
    """
    state = _start(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for i, raw in enumerate(actions):
        try:
            state, _ = apply(state, action_from_json(raw))
        except RuleError as e:
            return Replay(state, {"index": i, "code": e.code, "message": e.message}, i)
    return Replay(state, None, len(actions))


def replay_steps(record: MatchRecord) -> list[dict[str, Any]]:
    """The steps of a step-by-step replay, in one pass: item 0 ``{"index": None, "action": None,
    "events": [], "state": summary}``, then per accepted action ``{"index": i, "action": the
    record's action, "events": its public events, "state": the summary after it}``; it stops at
    the first refused action."""
    state = _start(record)
    steps: list[dict[str, Any]] = [{"index": None, "action": None, "events": [], "state": summary(state)}]
    for i, raw in enumerate(record.actions):
        try:
            state, events = apply(state, action_from_json(raw))
        except RuleError:
            break
        steps.append({"index": i, "action": raw, "events": events, "state": summary(state)})
    return steps


def replay_json(doc: object) -> dict[str, Any]:
    """Validate and replay a document; the replay output. Raises :class:`RecordError`."""
    return replay(load_record(doc)).to_json()
