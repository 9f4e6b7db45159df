"""The game interface the table service drives (issue 3, item 0; v2 for golf4 and Seven
Diamonds, issues 8, 10, 11).

A :class:`Game` validates a table's options and starts or reloads matches. A
:class:`GameMatch` is an *immutable* match in progress: :meth:`GameMatch.apply`
returns a new match and the public events, so the service can store the action
first and only then adopt the new match (nothing changes when storing fails).
All values crossing this interface are JSON-ready (dicts, lists, str, int, bool).

v2 added what the next games and cheap frames need: a view split into a public part shared
by every receiver and a private part per seat (:meth:`GameMatch.public_view`,
:meth:`GameMatch.private_view`), one-time secrets shown to one seat
(:meth:`GameMatch.private_events`), several seats waited on at once
(:meth:`GameMatch.waiting_for`), actions the server makes at once
(:meth:`GameMatch.immediate_action`), sides per game (:meth:`Game.side_of`), ranks in the
result, and step-by-step replays (:meth:`Game.replay_steps`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

Json = dict[str, Any]


class GameError(ValueError):
    """A refused action or bad input: ``code`` is a stable code (for Chkobba, the codes of
    ``match-record.md``), ``message`` a human sentence. Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class GameMatch(ABC):
    """One match of a game, immutable. Subclasses keep the state and the record."""

    @property
    @abstractmethod
    def seats(self) -> int:
        """Number of seats (2 or 4 for Chkobba)."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The game's phase name (opaque to the service, shown to clients)."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the match has ended (won or forfeited)."""

    @abstractmethod
    def needs_deck(self) -> bool:
        """True when the next shuffle must be supplied with :meth:`add_deck` before play goes on."""

    @abstractmethod
    def add_deck(self, deck: list[str] | None = None) -> tuple[GameMatch, list[Json]]:
        """Supply the next shuffle (``None``: a secure random one). Returns the new match and the
        public events (the fairness commitment). Raises :class:`GameError` for a bad deck."""

    @abstractmethod
    def apply(self, seat: int, action: Json, *, auto: bool = False) -> tuple[GameMatch, list[Json]]:
        """Apply a client's action object for ``seat``; return the new match and the public events.

        ``auto`` marks an action the server made for the player. Raises :class:`GameError`
        (``malformed`` for a bad form, or a rule code); the match itself never changes.
        """

    @abstractmethod
    def last_action(self) -> Json:
        """The last accepted action as the record stores it (for the action log)."""

    @abstractmethod
    def actions_count(self) -> int:
        """How many actions the record holds."""

    @abstractmethod
    def public_view(self) -> Json:
        """What everybody may see (every seat and spectators): only what is face up or public.
        A flat object whose keys change independently (receivers get shallow patches of it)."""

    @abstractmethod
    def private_view(self, seat: int) -> Json:
        """What only ``seat`` may see besides :meth:`public_view` (e.g. its own hand); it never
        shares a key with the public view. Raises ``ValueError`` for a seat not at the table."""

    def seat_view(self, seat: int) -> Json:
        """What ``seat`` may see: ``{**public_view(), **private_view(seat)}``, nothing else."""
        return {**self.public_view(), **self.private_view(seat)}

    def spectator_view(self) -> Json:
        """What a spectator may see: the public view."""
        return self.public_view()

    def private_events(self) -> dict[int, list[Json]]:
        """One-time secrets the last :meth:`apply` showed to one seat alone, by seat (golf4's
        peek, G6). Delivered live to that seat's sockets only; never logged, never resent."""
        return {}

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on now (a turn clock runs for each; on expiry the service
        applies :meth:`auto_action`). ``()`` when over or waiting for a deck."""
        seat = self.to_act()
        return () if seat is None else (seat,)

    def immediate_action(self) -> tuple[int, Json] | None:
        """An action the service must make at once, with ``auto`` and no clock (e.g. a
        forfeited golf4 seat's turn), as ``(seat, action object)``; ``None`` when there is none.
        The service applies it and asks again."""
        return None

    @abstractmethod
    def summary(self) -> Json:
        """The full state in the replay output shape of the game's record page (every hand:
        for admins, replays and tests, never for a player)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Json]:
        """Every action object ``seat`` may send now (for bots and tests; never shown to players)."""

    @abstractmethod
    def to_act(self) -> int | None:
        """The seat whose move the game waits for (the turn clock runs for it), or ``None``."""

    @abstractmethod
    def auto_action(self, seat: int) -> Json | None:
        """The action the server makes for ``seat`` when its turn clock runs out, or ``None``."""

    @abstractmethod
    def forfeit_action(self) -> Json:
        """The action object by which a seat forfeits (grace expiry, leaving)."""

    @abstractmethod
    def result(self) -> Json | None:
        """Once over, at least ``{"reason": "won"|"forfeit", "winner": side or None,
        "ranks": [rank per seat]}`` (``ranks[seat]``: 1 for a winner, 2 for the next …; equal
        results share a rank; a forfeited seat ranks last), plus the game's own keys; else
        ``None``."""

    @abstractmethod
    def rounds(self) -> list[Json]:
        """Every finished round's result, oldest first (JSON objects)."""

    def rounds_done(self) -> int:
        """How many rounds are finished: ``len(rounds())``, cheaply (the service asks after every
        action: each seat's first turn of a new round gets a round break on its clock, the time to read the
        round summary the pages show, issue 13)."""
        return len(self.rounds())

    @abstractmethod
    def record(self) -> Json:
        """The full record document (with decks: server-side and after the end only)."""

    @abstractmethod
    def reveal(self) -> Json:
        """Once over, the secrets to publish (decks, salts); raises ``ValueError`` before."""


class Game(ABC):
    """A game the service can host."""

    name: str

    @abstractmethod
    def check_options(self, options: Json) -> Json:
        """Validate a table's options; return them normalised. Raises :class:`GameError`."""

    def options_schema(self) -> Json:
        """A JSON Schema of exactly the ``options`` objects :meth:`check_options` accepts (the
        OpenAPI document of ``POST /api/tables`` shows it, issue 7 item 7: a schema looser than
        the server made valid-looking requests answer 422). Default: any object."""
        return {"type": "object"}

    @abstractmethod
    def seats(self, options: Json) -> int:
        """Number of seats for validated ``options``."""

    def side_of(self, options: Json, seat: int) -> int:
        """The side (team) of ``seat``: ``seat % 2`` by default (partners sit opposite: Chkobba
        R5, Seven Diamonds S2); a game where everyone plays alone returns the seat."""
        return seat % 2

    def teams(self, options: Json) -> bool:
        """True when players choose a side when they sit (several seats per side)."""
        return False

    @abstractmethod
    def replay_steps(self, record: Json) -> list[Json]:
        """A stored record stepped for a replay viewer, in one pass: item 0 is
        ``{"index": None, "action": None, "events": [], "state": summary}`` before the first
        action, then per accepted action ``{"index": i, "action": the record's action,
        "events": [public events], "state": summary after it}``; it stops before the first
        refused action. Raises :class:`GameError` ``malformed`` for a malformed document."""

    @abstractmethod
    def new_match(self, options: Json, players: list[str], first_dealer: int | None = None,
                  decks: list[list[str]] | None = None) -> tuple[GameMatch, list[Json]]:
        """Start a match (decks given only in testing; ``None`` = secure shuffles).

        Returns the match and its first public events. Raises :class:`GameError` for bad input.
        """

    def action_models(self) -> dict[str, type[Any]]:
        """Pydantic models of the game's client action objects by type (for the JSON Schemas)."""
        return {}

    def event_models(self) -> dict[str, type[Any]]:
        """Pydantic models of the game's public events by type (for the JSON Schemas)."""
        return {}

    @abstractmethod
    def load(self, record: Json) -> GameMatch:
        """Rebuild a match by replaying its stored record. Raises :class:`GameError`."""
