"""What the three adapters of :mod:`dineri.games` (Chkobba, golf4, Seven Diamonds) share.

The engines stay apart on purpose (each imports nothing of ours: README, Layout), but their
adapters are built alike: an immutable match holds the engine ``state`` beside the engine's
record, decks supplied in testing wait in the record's ``pending_decks`` until each is needed,
and every deck is committed to before it is used. The glue that was written three times for
that lives here once; what differs between the games stays in their modules.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, ParamSpec, TypeVar

from dineri.games.base import Game, GameError, GameMatch, Json

T = TypeVar("T")
P = ParamSpec("P")

PENDING = "pending_decks"
"""The record key where decks supplied in testing wait server-side, dropped at the end (so a
restarted server deals the same stacked decks)."""


def check_form(action: object, models: Mapping[str, Any], *, list_types: bool = False) -> None:
    """Check that a client ``action`` is exactly one of ``models`` (action type -> pydantic
    model): a JSON object of a known ``type``, only that model's keys, strict JSON types (no
    ``"5"`` for 5, no ``1`` for true). ``list_types`` names the known types in the message of
    an unknown one. Raises :class:`GameError` ``malformed`` naming the first bad field."""
    from pydantic import ValidationError

    if not isinstance(action, dict):
        raise GameError("malformed", "an action must be a JSON object")
    kind = action.get("type")
    model = models.get(kind) if isinstance(kind, str) else None
    if model is None:
        expected = f"; expected one of {', '.join(models)}" if list_types else ""
        raise GameError("malformed", f"unknown action type {str(kind)[:32]!r}{expected}")
    try:
        model.model_validate(action, strict=True)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        raise GameError("malformed", f"{where}: {first['msg']}") from None


def malformed_on(error: type[Exception], fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` (an engine's record or deck parser), its ``error`` (the engine's
    ``RecordError``) raised as :class:`GameError` ``malformed`` with the same text."""
    try:
        return fn(*args, **kwargs)
    except error as e:
        raise GameError("malformed", str(e)) from None


def refused_on(error: type[Exception], fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` (an engine's rule check: options, an action's form, its
    application), its ``error`` (the engine's ``RuleError``, with ``code`` and ``message``)
    raised as :class:`GameError` with the same code and message."""
    try:
        return fn(*args, **kwargs)
    except error as e:
        raise GameError(e.code, e.message) from None  # type: ignore[attr-defined]


def record_form(action: Json, seat: int, auto: bool) -> dict[str, Any]:
    """A client action object in the record's form: with ``seat``, and ``"auto": true`` when the
    server made it (a new dict)."""
    raw: dict[str, Any] = {**action, "seat": seat}
    if auto:
        raw["auto"] = True
    return raw


def without_pending(extra: Mapping[str, Any]) -> dict[str, Any]:
    """The record's ``extra`` keys without :data:`PENDING` (a new dict)."""
    return {k: v for k, v in extra.items() if k != PENDING}


def pending_extra(decks: Iterable[Iterable[str]]) -> dict[str, Any]:
    """The ``extra`` of a new record: ``{"pending_decks": [[code, ...], ...]}`` for decks
    supplied in testing (card codes, in the order they will be needed), ``{}`` for none."""
    pending = [list(d) for d in decks]
    return {PENDING: pending} if pending else {}


def next_deck(extra: Mapping[str, Any], deck: list[str] | None) -> tuple[list[str] | None, dict[str, Any]]:
    """The deck to use next and the record's ``extra`` after it: ``deck`` when given, else the
    first waiting testing deck (taken off :data:`PENDING`), else ``None`` (a secure shuffle).
    The key stays where it stood while decks wait and goes when the last is taken."""
    pending = list(extra.get(PENDING, []))
    if deck is None and pending:
        deck = pending.pop(0)
    return deck, ({**extra, PENDING: pending} if pending else without_pending(extra))


def commitment_event(index: int, commitment: str) -> Json:
    """The public ``commitment`` event: ``{"type", "deck", "commitment"}`` (``deck``: the
    0-based index of the deck in the record; ``commitment``: 64 hex digits)."""
    return {"type": "commitment", "deck": index, "commitment": commitment}


def action_docs(actions: Iterable[Any], to_json: Callable[[Any], Json]) -> list[Json]:
    """The engine's ``actions`` as client action objects: ``to_json`` (the engine's record form)
    without ``seat``."""
    out = []
    for act in actions:
        doc = to_json(act)
        doc.pop("seat")
        out.append(doc)
    return out


def check_replay(error: Json | None) -> None:
    """Refuse a stored record whose replay stopped at ``error`` (``{"code", "index"}`` of the
    engine's ``Replay``): :class:`GameError` with the rule's code; nothing when ``None``."""
    if error is not None:
        raise GameError(error["code"], f"stored record refused at action {error['index']}")


class RecordedMatch(GameMatch):
    """A match held as an engine ``state`` beside the engine's ``record_`` (subclasses are frozen
    dataclasses with those two fields). Implements the methods that read only these: the
    state's ``phase`` (``shuffle`` while a deck is needed, ``over`` at the end) and ``rounds``,
    the record's ``actions`` and ``to_json()`` document."""

    state: Any
    record_: Any

    @property
    def phase(self) -> str:
        """The engine's phase name (each game's match lists its phases)."""
        return self.state.phase

    @property
    def over(self) -> bool:
        """True once the match has ended, won or forfeited (phase ``over``)."""
        return self.state.phase == "over"

    def needs_deck(self) -> bool:
        """True in phase ``shuffle``: the next deck must come through :meth:`add_deck`."""
        return self.state.phase == "shuffle"

    def last_action(self) -> Json:
        """The last record action (the record page's form, with ``seat``); raises
        ``IndexError`` when there is none."""
        return dict(self.record_.actions[-1])

    def actions_count(self) -> int:
        """How many actions the record holds."""
        return len(self.record_.actions)

    def forfeit_action(self) -> Json:
        """``{"type": "forfeit"}`` (Chkobba R33; golf4 and Seven Diamonds alike)."""
        return {"type": "forfeit"}

    def rounds(self) -> list[Json]:
        """Every finished round as the record page writes it (A finished round), oldest first."""
        return [r.to_json() for r in self.state.rounds]

    def rounds_done(self) -> int:
        """How many rounds are finished (the state's, without building their JSON)."""
        return len(self.state.rounds)

    def record(self) -> Json:
        """The full record document, decks and salts included (server side only)."""
        return self.record_.to_json()

    def reveal(self) -> Json:
        """Once over: ``{"type": "reveal", "decks": [...], "fairness": [...]}`` (every deck top
        first, and the salts that open the commitments: Chkobba R7); ``ValueError`` before."""
        if not self.over:
            raise ValueError("decks are revealed only when the match is over")
        doc = self.record_.to_json()
        return {"type": "reveal", "decks": doc["decks"], "fairness": doc.get("fairness", [])}


class RecordedGame(Game):
    """A game whose adapter keeps its pydantic models in two modules of :mod:`dineri.games`,
    imported only when first asked for."""

    actions_module: ClassVar[str]
    """The module whose ``ACTION_MODELS`` holds the client action models by type."""
    events_module: ClassVar[str]
    """The module whose ``EVENT_MODELS`` holds the public event models by type."""

    def action_models(self) -> dict[str, type[Any]]:
        """The models of :attr:`actions_module` (for the JSON Schemas), a new dict."""
        return dict(importlib.import_module(self.actions_module).ACTION_MODELS)

    def event_models(self) -> dict[str, type[Any]]:
        """The models of :attr:`events_module` (for the JSON Schemas), a new dict."""
        return dict(importlib.import_module(self.events_module).EVENT_MODELS)
