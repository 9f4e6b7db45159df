"""Server settings from ``DINERI_*`` environment variables (pydantic-settings).

Read once, in the app factory (:func:`dineri.server.app.create_app`); nothing is
built at import time. ``secret_key``, when unset, is generated once and kept in a
file next to a SQLite database (or in the working directory), so signed tokens
survive restarts.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """All server settings; each field ``x`` is read from ``DINERI_X``.

    Times are in seconds, sizes in bytes.
    """

    model_config = SettingsConfigDict(env_prefix="DINERI_", extra="ignore")

    database_url: str = "sqlite:///./dineri.db"
    secret_key: str | None = None
    redis_url: str | None = Field(default=None, description="None = in-process fan-out")
    redis_prefix: str = Field(default="dineri:", min_length=1, max_length=64,
                              description="prefix of every Redis channel and key (one per site)")
    grace_seconds: float = Field(default=90.0, gt=0, description="a dropped seat's grace before forfeit")
    clock_away_turns: int = Field(default=3, ge=0, description=(
        "turns in a row played by the turn clock after which a seat counts as away (0 = never)"))
    clock_scale: float = Field(default=1.0, gt=0, description="multiplies table turn clocks (tests)")
    round_break_seconds: float = Field(default=20.0, ge=0, le=600, description=(
        "seconds added to the turn clock of each seat's first turn in a new round (the round summary's "
        "reading time, issue 13; multiplied by clock_scale too); 0 = none"))
    testing: bool = Field(default=False, description="only then may a client supply deck orders")
    bot_delay: float | None = Field(default=None, ge=0, le=10, description=(
        "seconds a computer player waits before each move, so people can follow it (issue 13 "
        "item 2); unset: 1.0 (just over the table page's 0.9 s pace), and 0 on a testing server"))
    admin_token: str | None = None
    max_message_bytes: int = Field(default=4096, ge=256)
    messages_per_second: float = Field(default=20.0, gt=0)
    guests_per_minute: int = Field(default=10, ge=0,
                                   description="new players per client address a minute (0 = no limit)")
    send_queue_size: int = Field(default=256, ge=4)
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    resume_window: int = Field(default=1000, ge=0, description="most missed events replayed on resume")
    log_level: str = "INFO"
    # --- issue 7 items 4-5: the socket edge (dineri/server/edge.py, ws.py) ---
    request_timeout: float = Field(default=10.0, ge=0, description="seconds to send a request head "
                                                                   "(HTTP or WebSocket handshake); 0 = none")
    connections_per_address: int = Field(default=256, ge=0, description="open connections per client "
                                                                        "address (not proxies); 0 = no cap")
    anonymous_sockets_per_address: int = Field(default=16, ge=0, description="sockets without a player "
                                                                             "token per address; 0 = no cap")
    anonymous_sockets: int = Field(default=2000, ge=0, description="sockets without a player token in "
                                                                   "all; 0 = no cap")
    spectators_per_table: int = Field(default=100, ge=0, description="sockets without a seat per table; "
                                                                     "0 = no cap")
    ws_deflate: bool = Field(default=False, description="offer permessage-deflate on WebSockets (each "
                                                        "compressed socket keeps about 40 KiB of zlib state)")
    hello_timeout: float = Field(default=10.0, ge=0, description="seconds a table socket may take to send "
                                                                 "its hello; 0 = none")
    gc_tuning: bool = Field(default=True, description="gc.freeze() after start-up and higher collector "
                                                      "thresholds (issue 8 item 5; off: CPython's defaults)")
    gc_freeze_every: bool = Field(default=True, description="with gc_tuning: freeze what survived every "
                                  "collection, young ones too (each survivor is walked once; issue 8)")
    gc_thaw_minutes: float = Field(default=0.0, ge=0, description="minutes between thaws of what the "
                                   "collector tuning froze at most (unfreeze, one full collection, freeze "
                                   "again: frees what died in a cycle while frozen, a pause over the whole "
                                   "heap); 0 = never (the default: the server's churn makes no such garbage)")
    # Accounts (issue 14, docs/accounts.md).
    logins_per_minute: int = Field(default=10, ge=0, description="sign-in attempts per address a minute")
    login_failures_per_account: int = Field(default=10, ge=0,
                                            description="failed sign-ins per account in 15 minutes")
    chat_lines_per_minute: int = Field(default=20, ge=0,
                                       description="chat lines per player per table a minute (0 = no limit)")
    # --- issue 7 hardening (REST side) ---
    open_table_ttl: float = Field(default=1800.0, ge=0,
                                  description="an open table whose seats did not change for this long "
                                              "expires and leaves the lobby (0 = never)")
    lobby_per_address: int = Field(default=3, ge=0, description=(
        "open public tables created from one client address (an IPv6 /64) listed in the lobby, its "
        "most relevant ones; applied in the lobby query, before paging (0 = no cap)"))
    lobby_per_network: int = Field(default=6, ge=0, description=(
        "open public tables created from one wider network (an IPv6 /48; an IPv4 address is its "
        "own network) listed in the lobby, on top of the per-address cap; applied in the lobby "
        "query, before paging (0 = no cap)"))
    lobby_host_away: float = Field(default=300.0, ge=0, description=(
        "an open table whose host has had no socket at it for this long leaves the lobby (kept, "
        "found by link and code; back when the host reconnects; 0 = never)"))
    legacy_tokens: bool = Field(default=True, description=(
        "accept first-format guest tokens (renewed on first use; revoking refuses them)"))
    legacy_tokens_until: datetime = Field(
        default=datetime(2027, 1, 1, tzinfo=UTC),
        description="first-format guest tokens are refused from then on (their expiry: they carry no time)")
    token_lifetime: float = Field(default=30 * 24 * 3600.0, ge=60,
                                  description="a player token's life; renewed when used past half of it")
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["localhost", "127.0.0.1", "::1"],
        description="Host header values served (HTTP and WebSocket); '*.example.com' and '*' allowed")
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["127.0.0.1"],
        description="proxy addresses whose X-Forwarded-Proto/-For are trusted (IPs, networks, '*')")

    # --- storage (issue 7 item 3, issue 8 item 2; docs/server.md "Durability and timeouts") ---
    db_connect_timeout: float = Field(default=5.0, gt=0, le=300,
                                      description="seconds to open a database connection")
    db_timeout: float = Field(default=5.0, gt=0, le=300,
                              description="seconds a statement (PostgreSQL statement_timeout, SQLite busy "
                                          "wait) or a write's commit may take before it fails (unavailable)")
    migration_lock_timeout: float = Field(default=30.0, gt=0, le=3600,
                                          description="seconds a start-up migration waits for any one lock "
                                                      "(PostgreSQL lock_timeout, SQLite busy wait) before "
                                                      "start-up gives up (its DDL itself is not bounded)")
    sqlite_commit_delay_ms: float = Field(
        default=2.0, ge=0, le=50, description="milliseconds a group of plain actions waits on the event "
                                              "loop for more before its commit, once the last group was "
                                              "committed less than twice as long ago (busy: bigger groups, "
                                              "fewer commits); 0 = the loop's next turn")
    sqlite_synchronous: Literal["normal", "full"] = Field(
        default="normal", description="SQLite PRAGMA synchronous in WAL mode: normal survives a process "
                                      "crash, full also a power loss (an fsync per group commit)")

    # --- table ownership (issue 8 item 3, issue 9 item 1; dineri/store/lease.py) ---
    node: str | None = Field(default=None, max_length=128,
                             description="this process's name as a table owner; unique per process of a "
                                         "site (dineri serve: host:port when unset)")
    lease_seconds: float = Field(default=15.0, ge=1, le=3600,
                                 description="a table lease's life; renewed every third of it")
    relay_timeout: float = Field(default=2.0, gt=0, le=60,
                                 description="seconds a process waits for a table's owner (another "
                                             "process) to answer a relayed write before answering "
                                             "unavailable (nothing applied)")

    def request_deadline(self) -> float:
        """Seconds an HTTP request (or a table socket's handshake) may take before it is answered
        ``503 unavailable`` (issue 7 item 3): ``db_timeout`` + 1. Its statements, pool waits and
        writes are each bounded by ``db_timeout`` already (a write of the request never commits
        past this deadline); this is the backstop for what no driver bounds (a pooled connection
        whose database stalled: its liveness ping waits forever)."""
        return self.db_timeout + 1.0

    def resolved_bot_delay(self) -> float:
        """The computer players' delay before each move (seconds): ``bot_delay`` when set, else
        1.0 (a move people can follow: just over the table page's 900 ms pace, so computers
        playing in a row never queue up and get drawn in a catch-up burst), or 0 on a testing
        server (tests run at full speed)."""
        if self.bot_delay is not None:
            return self.bot_delay
        return 0.0 if self.testing else 1.0

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        """``DINERI_ALLOWED_ORIGINS`` is a comma-separated list of origins."""
        if isinstance(value, str):
            return [v.strip().rstrip("/") for v in value.split(",") if v.strip()]
        return value

    @field_validator("allowed_hosts", "forwarded_allow_ips", mode="before")
    @classmethod
    def _split_plain(cls, value: object) -> object:
        """``DINERI_ALLOWED_HOSTS`` and ``DINERI_FORWARDED_ALLOW_IPS`` are comma-separated."""
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _host_patterns(cls, value: list[str]) -> list[str]:
        """A host is a name or address (``[::1]`` may be written ``::1``), ``*.domain`` or ``*``."""
        out = []
        for raw in value:
            host = raw.lower().removeprefix("[").removesuffix("]")
            if host != "*" and ("*" in host[1:] or (host.startswith("*") and not host.startswith("*."))):
                raise ValueError(f"allowed host {raw!r}: a wildcard must be '*' or '*.domain'")
            out.append(host)
        return out

    def resolved_secret(self) -> str:
        """The secret key: the setting, or one generated once and stored in a ``.secret`` file
        beside the SQLite database (the working directory for other databases)."""
        if self.secret_key:
            return self.secret_key
        path = self.secret_path()
        try:
            key = path.read_text(encoding="utf-8").strip()
            if key:
                return key
        except FileNotFoundError:
            pass
        key = secrets.token_hex(32)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key + "\n", encoding="utf-8")
        path.chmod(0o600)
        return key

    def secret_path(self) -> Path:
        """Where a generated secret key is kept."""
        url = self.database_url
        if url.startswith("sqlite:///") and not url.endswith(":memory:"):
            db = Path(url.removeprefix("sqlite:///"))
            return db.with_name(db.name + ".secret")
        return Path("dineri.secret")
