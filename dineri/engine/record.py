"""Match records, ``dineri-match/1`` (``match-record.md``): read, validate, write, replay.

A record holds the options, the first dealer, every deck (top first, before the
cut) and every accepted action; replaying it rebuilds the match exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, overload

from dineri.engine.actions import Action, action_from_json, action_to_json
from dineri.engine.cards import CODE, Card, parse_card
from dineri.engine.errors import RecordError, RuleError, shown
from dineri.engine.rules import apply, new_match
from dineri.engine.state import MatchState, Options
from dineri.engine.views import summary

FORMAT = "dineri-match/1"
GAME = "chkobba"
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class Fairness:
    """R7: ``commitment`` = lowercase hex SHA-256 of ``salt + ":" + ",".join(deck)``."""

    salt: str
    commitment: str


class ActionLog(Sequence[Any]):
    """An immutable sequence of record actions whose :meth:`appended` copy costs O(1) (issue 8:
    a match appended one action to a copy of its whole tuple on every accepted action, a
    thousand entries late in a long match).

    Each log is the first ``n`` items of a list it shares with the logs appended from it:
    appending to the longest one extends that list in place (nobody sees past their own ``n``),
    appending to an older one (a branch: a judgement that was not adopted, a search) copies
    its prefix first. Equal to any sequence with the same items (a tuple included)."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items: list[Any] = list(items)
        self._n = len(self._items)

    @classmethod
    def _of(cls, items: list[Any], n: int) -> ActionLog:
        log = cls.__new__(cls)
        log._items, log._n = items, n
        return log

    def appended(self, action: Any) -> ActionLog:
        """This log with ``action`` after its last item (this one unchanged)."""
        items, n = self._items, self._n
        if len(items) == n:
            items.append(action)
            if items[n] is action:  # not beaten by another thread appending to the same list
                return ActionLog._of(items, n + 1)
        fresh = items[:n]
        fresh.append(action)
        return ActionLog._of(fresh, n + 1)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Any, ...]: ...

    def __getitem__(self, i: int | slice) -> Any:
        n = self._n
        if isinstance(i, slice):
            return tuple(self._items[:n][i])
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError("action index out of range")
        return self._items[j]

    def __iter__(self) -> Iterator[Any]:
        return islice(self._items, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog | tuple | list):
            return len(other) == self._n and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ActionLog, (list(self),))


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A validated ``dineri-match/1`` document.

    ``actions`` keeps each action exactly as written (JSON objects), since a
    record may hold an action the engine refuses; :func:`replay` reports it.
    """

    options: Options
    first_dealer: int
    decks: tuple[tuple[Card, ...], ...]
    actions: Sequence[Any] = ()  # a tuple, or an ActionLog once actions were appended
    players: tuple[str, ...] | None = None
    fairness: tuple[Fairness, ...] | None = None
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON document (keys in the documented order; unknown keys kept)."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "game": GAME,
            "options": self.options.to_json(),
        }
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
        """A copy with one more accepted action appended."""
        # Built directly: dataclasses.replace walks the fields on every call, and this runs on
        # every accepted action (issue 8). Same fields, the same objects shared as replace does.
        return MatchRecord(options=self.options, first_dealer=self.first_dealer, decks=self.decks,
                           actions=_log(self.actions).appended(action_to_json(action)),
                           players=self.players,
                           fairness=self.fairness, result=self.result, extra=self.extra)


def _log(actions: Sequence[Any]) -> ActionLog:
    return actions if isinstance(actions, ActionLog) else ActionLog(actions)


def _fail(msg: str) -> RecordError:
    return RecordError(f"malformed record: {msg}")


def parse_deck(raw: object, index: int) -> tuple[Card, ...]:
    """Validate one deck: a list of 40 distinct card codes. Raises :class:`RecordError`."""
    if not isinstance(raw, list):
        raise _fail(f"decks[{index}] is not a list")
    try:
        deck = tuple(parse_card(c) for c in raw)
    except RuleError as e:
        raise _fail(f"decks[{index}]: {e.message}") from None
    if len(deck) != 40 or len(set(deck)) != 40:
        raise _fail(f"decks[{index}] must hold the 40 cards once each (has {len(deck)}, "
                    f"{len(set(deck))} distinct)")
    return deck


def load_record(doc: object) -> MatchRecord:
    """Validate a parsed JSON document (or JSON text) as a ``dineri-match/1`` record.

    Raises :class:`RecordError` naming the first problem: not JSON, not an object,
    unknown ``format`` or ``game``, bad options, first dealer, decks, fairness,
    players, or ``actions`` not a list. Individual actions are checked on replay.
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
    fairness = doc.get("fairness")
    if fairness is not None:
        if not isinstance(fairness, list):
            raise _fail("fairness must be a list")
        items = []
        for i, f in enumerate(fairness):
            if (not isinstance(f, dict) or not isinstance(f.get("salt"), str)
                    or not isinstance(f.get("commitment"), str)
                    or len(f["commitment"]) != 64 or not set(f["commitment"]) <= _HEX):
                raise _fail(f"fairness[{i}] needs a salt and a 64-digit lowercase hex commitment")
            items.append(Fairness(f["salt"], f["commitment"]))
        fairness = tuple(items)
    result = doc.get("result")
    if result is not None and not isinstance(result, dict):
        raise _fail("result must be an object")
    known = {"format", "game", "options", "players", "first_dealer", "decks", "fairness",
             "actions", "result"}
    extra = {k: v for k, v in doc.items() if k not in known}
    return MatchRecord(options=options, first_dealer=fd, decks=decks, actions=tuple(actions),
                       players=players, fairness=fairness, result=result, extra=extra)


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of a replay: the state reached, and the refused action if any."""

    state: MatchState
    error: dict[str, Any] | None
    applied: int

    def to_json(self) -> dict[str, Any]:
        """The replay output of ``match-record.md``: ``ok``, ``error`` and the state."""
        return {"ok": self.error is None, "error": self.error, **summary(self.state)}


def replay(record: MatchRecord, upto: int | None = None) -> Replay:
    """Apply the record's actions in order (at most ``upto`` of them) to its decks.

    Stops at the first refused action: ``error`` is ``{"index", "code", "message"}``
    and ``state`` is the state before it. A phase ``shuffle`` state means the
    next shuffle needs a deck the record lacks.
    """
    state = new_match(record.options, record.first_dealer, record.decks)
    actions: Sequence[Any] = record.actions if upto is None else record.actions[:upto]
    seats = record.options.seats
    for i, raw in enumerate(actions):
        try:
            action = action_from_json(raw, seats)
            state, _ = apply(state, action)
        except RuleError as e:
            return Replay(state, {"index": i, "code": e.code, "message": e.message}, i)
    return Replay(state, None, len(actions))


def replay_json(doc: object) -> dict[str, Any]:
    """Validate and replay a document; the replay output. Raises :class:`RecordError`."""
    return replay(load_record(doc)).to_json()
