"""The table WebSocket protocol (``docs/protocol.md``): a closed set of typed messages.

Every frame is one JSON object whose ``type`` names its model. Client messages
are parsed with :func:`parse_client` (raises :class:`ProtocolError` ``malformed``);
server messages are built from the ``*Msg`` models and sent with ``model_dump``.

The envelope is game-independent: an ``action`` message carries the game's own
action object (for Chkobba, the record form of ``match-record.md`` without
``seat`` and ``auto``), validated by the game (:mod:`dineri.games`).
Events and views are the game's JSON objects, numbered per table by ``seq``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from dineri.server.auth import clean_text

CHAT_MAX = 200  # characters of a chat line after trimming
ClientId = Annotated[str, Field(min_length=1, max_length=64, description="client-chosen action id")]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _ClientMsg(_Msg):
    # Strict JSON types: "1" is not a number, 1 is not true (a client frame is exactly its model).
    model_config = ConfigDict(extra="forbid", strict=True)


class HelloMsg(_ClientMsg):
    """Client, first frame (and on every reconnect): ``last_event`` is the last event
    number the client saw (null or absent = none: send a full view)."""

    type: Literal["hello"]
    last_event: int | None = Field(default=None, ge=0)


class ActionMsg(_ClientMsg):
    """Client: a game action for the sender's own seat. The same ``id`` sent again is
    applied once and answered with the same ``ack``."""

    type: Literal["action"]
    id: ClientId
    action: dict[str, Any] = Field(description="the game's action object (docs/schemas/chkobba/)")


class ChatMsg(_ClientMsg):
    """Client: a chat line to the table: 1–200 characters after trimming (it is sent trimmed),
    no control, format or separator characters (as display names)."""

    type: Literal["chat"]
    id: ClientId | None = None
    text: str = Field(min_length=1, max_length=CHAT_MAX)


class PingMsg(_ClientMsg):
    """Client: keep-alive; answered with ``pong``."""

    type: Literal["ping"]


ClientMsg = Annotated[HelloMsg | ActionMsg | ChatMsg | PingMsg, Field(discriminator="type")]
CLIENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMsg)


MAX_DEPTH = 16  # deepest nesting of arrays/objects in a client frame (Chkobba needs 3)


class ProtocolError(ValueError):
    """A client frame that is not one of the client messages; ``code`` is ``malformed``;
    ``id``: the frame's own ``id`` when it had a usable one (for the error reply)."""

    def __init__(self, code: str, message: str, id: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.id = id


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """True when the JSON ``text`` nests arrays/objects deeper than ``limit`` (scanned without
    parsing, so a hostile frame cannot exhaust the parser's recursion)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:  # cannot nest deeper: no scan (every frame)
        return False
    depth, in_str, esc = 0, False, False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def client_id(doc: object) -> str | None:
    """The ``id`` of a parsed client frame when it is a usable one (a string of 1–64), else ``None``."""
    cid = doc.get("id") if isinstance(doc, dict) else None
    return cid if isinstance(cid, str) and 1 <= len(cid) <= 64 else None


def parse_client(text: str | bytes) -> HelloMsg | ActionMsg | ChatMsg | PingMsg:
    """Parse one client frame (once: errors carry its ``id``). Raises :class:`ProtocolError`
    (``malformed``) naming the problem, also for nesting deeper than :data:`MAX_DEPTH`."""
    if too_deep(text):
        raise ProtocolError("malformed", f"message: nested deeper than {MAX_DEPTH} levels")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "message: not valid JSON") from None
    cid = client_id(doc)
    try:
        msg: HelloMsg | ActionMsg | ChatMsg | PingMsg = CLIENT_ADAPTER.validate_python(doc)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError("malformed", f"{where}: {first['msg']}", cid) from None
    if isinstance(msg, ChatMsg):  # the same checks as display names (auth.clean_text)
        try:
            msg.text = clean_text(msg.text, CHAT_MAX, "text")
        except ValueError as e:
            raise ProtocolError("malformed", f"text: {e}", msg.id) from None
    return msg


class SeatInfo(_Msg):
    """One seat of a table: ``player`` (display name) is null when the seat is empty."""

    seat: int
    side: int
    player: str | None = None
    player_id: str | None = None
    away: bool = False
    #: An away seat's forfeit time (Unix seconds): its grace ends then and its side forfeits.
    forfeit_at: float | None = None
    #: Why an away seat is away when its player may be connected: ``"clock"``, the turn clock
    #: played its last turns (``player_away`` with ``reason: "clock"``); absent for a dropped
    #: connection.
    away_reason: Literal["clock"] | None = None


class SeatClock(_Msg):
    """One awaited seat's turn clock: the seat and when it expires (Unix seconds)."""

    seat: int
    expires_at: float
    #: The round break this clock holds (the seat's first turn of a new round, issue 13), in seconds.
    round_break: float | None = None


class ClockInfo(_Msg):
    """The running turn clock: the seat it runs for and when it expires (Unix seconds); when
    the game waits on several seats at once (golf4's peek, G6), ``seats`` lists each one's.
    ``round_break``: present on each seat's first turn of a new round, the seconds added to that
    clock to read the round summary (``DINERI_ROUND_BREAK_SECONDS``, included in
    ``expires_at``)."""

    seat: int
    expires_at: float
    round_break: float | None = None
    seats: list[SeatClock] | None = None


class TableInfo(_Msg):
    """Public facts about a table (never a card)."""

    id: str
    game: str
    status: Literal["open", "playing", "over", "expired", "quarantined"] = Field(
        description="expired: an open table nobody joined for DINERI_OPEN_TABLE_TTL seconds (closed); "
                    "quarantined: its stored match cannot be read (issue 7 item 1)")
    options: dict[str, Any]
    public: bool
    clock: int = Field(description="turn clock in seconds, 0 = off")
    host: str | None = Field(default=None, description="the host's display name (not unique)")
    host_id: str = Field(description="the host's player id: compare this, never the name")
    seats: list[SeatInfo]
    running_clock: ClockInfo | None = None
    rematch: str | None = Field(default=None,
                                description="id of this finished table's rematch table, once asked for")


class WelcomeMsg(_Msg):
    """Server, answer to ``hello``: who you are at this table. Followed by the missed
    ``event`` frames (if ``resume`` is true) and always by a ``view``."""

    type: Literal["welcome"] = "welcome"
    seat: int | None = Field(description="your seat, or null for a spectator")
    last_event: int = Field(description="the table's latest event number")
    resume: bool = Field(description="true when the missed events follow; false = full view only")
    table: TableInfo


class ViewMsg(_Msg):
    """Server: the receiver's own view (seat view, or spectator view) after every change.
    ``seq`` is the number of the last event it includes; ``view`` is null before the match starts."""

    type: Literal["view"] = "view"
    seq: int
    seat: int | None
    view: dict[str, Any] | None
    table: TableInfo


class EventMsg(_Msg):
    """Server: one numbered table event (numbers start at 1 and never skip)."""

    type: Literal["event"] = "event"
    seq: int = Field(ge=1)
    event: dict[str, Any]


class NumberedEvent(_Msg):
    """One numbered table event inside an ``update`` (the ``event`` frame's fields)."""

    seq: int = Field(ge=1)
    event: dict[str, Any]


class UpdateMsg(_Msg):
    """Server: what one committed change brought this receiver (issue 8, item 4), instead of
    event frames, a whole view and an ack: the change's numbered ``events``, ``view`` (a shallow
    patch of the receiver's view: the keys whose values changed, each with its whole new value;
    a seat's own private keys only when they changed), ``private`` (a seat's one-time secrets,
    golf4's ``peek_cards``, G6: live only, never stored or resent), ``table`` (only when the
    table info changed) and ``ack`` (the sender's action id). ``seq`` is the table's last event
    number after the change. Absent fields did not change; an update without ``view`` leaves
    the view as it was (chat, presence; or a whole ``view`` frame follows: resync)."""

    type: Literal["update"] = "update"
    seq: int
    events: list[NumberedEvent] = Field(description="the change's events, oldest first")
    view: dict[str, Any] | None = Field(default=None, description="patch: changed keys only")
    private: list[dict[str, Any]] | None = Field(default=None, description="one-time secrets, this seat only")
    table: TableInfo | None = None
    ack: str | None = Field(default=None, description="the sender's action id, accepted and stored")


class AckMsg(_Msg):
    """Server, to the sender only: the action ``id`` was accepted and stored; ``seq`` is the
    number of the last event it caused."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int


class ErrorMsg(_Msg):
    """Server, to the sender only: the frame (action ``id`` if any) was refused; nothing changed."""

    type: Literal["error"] = "error"
    id: str | None = None
    code: str
    message: str


class TableMsg(_Msg):
    """Server: the table's seats or status changed (before the start, away/back, the end)."""

    type: Literal["table"] = "table"
    table: TableInfo


class LobbyMsg(_Msg):
    """Server, on the lobby socket: the open public tables, sent on connect and on every change."""

    type: Literal["lobby"] = "lobby"
    tables: list[TableInfo]


class PongMsg(_Msg):
    """Server: answer to ``ping``."""

    type: Literal["pong"] = "pong"


ServerMsg = Annotated[
    WelcomeMsg | ViewMsg | EventMsg | UpdateMsg | AckMsg | ErrorMsg | TableMsg | LobbyMsg | PongMsg,
    Field(discriminator="type"),
]

class MatchStartedEvent(_Msg):
    """Event: the host started the match: display names by seat and the first dealer."""

    type: Literal["match_started"]
    players: list[str]
    first_dealer: int | None = None


class PlayerAwayEvent(_Msg):
    """Event: a seated player's last connection dropped, or (``reason: "clock"``) the turn clock
    played its last ``DINERI_CLOCK_AWAY_TURNS`` turns in a row (issue 7, item 2); either way its
    grace period runs, then its side forfeits (R33)."""

    type: Literal["player_away"]
    seat: int
    reason: Literal["clock"] | None = None


class PlayerBackEvent(_Msg):
    """Event: an away player is connected again."""

    type: Literal["player_back"]
    seat: int


class ChatEvent(_Msg):
    """Event: a chat line from a seated player (``name`` and ``text`` are user strings: escape
    them when rendering)."""

    type: Literal["chat"]
    seat: int
    name: str
    text: str


class RematchEvent(_Msg):
    """Event: a player of the finished table asked for a rematch; ``table`` is the rematch table's
    id (``POST /api/tables/{id}/rematch`` seats each player who asks)."""

    type: Literal["rematch"]
    seat: int
    table: str


# The service's own events; a game adds its events (``Game.event_models``).
SERVICE_EVENT_MODELS: dict[str, type[BaseModel]] = {
    "match_started": MatchStartedEvent, "player_away": PlayerAwayEvent, "player_back": PlayerBackEvent,
    "chat": ChatEvent, "rematch": RematchEvent,
}

CLIENT_MODELS: dict[str, type[BaseModel]] = {
    "hello": HelloMsg, "action": ActionMsg, "chat": ChatMsg, "ping": PingMsg,
}
SERVER_MODELS: dict[str, type[BaseModel]] = {
    "welcome": WelcomeMsg, "view": ViewMsg, "event": EventMsg, "update": UpdateMsg, "ack": AckMsg,
    "error": ErrorMsg, "table": TableMsg, "lobby": LobbyMsg, "pong": PongMsg,
}

# Codes of the service itself (the rules' codes come from the game, e.g. match-record.md).
SERVICE_CODES = frozenset({
    "malformed", "too_large", "rate_limited", "not_seated", "no_match", "match_over", "retry",
})
