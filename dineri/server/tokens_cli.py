"""``dineri revoke-tokens PLAYER_ID…``: revoke every token of players (issue 7, item 11).

Bumps each player's ``token_version`` in the database of ``DINERI_DATABASE_URL`` (migrated
first), so every token issued to them before is refused as unknown (``401``; a socket handshake
with it is a spectator's). Works while servers run: they read the version on every request and
handshake. Sockets already open are closed (4401) through the Redis fan-out when
``DINERI_REDIS_URL`` is set; without Redis this process cannot reach the server's, so it says so:
use the admin API, ``POST /admin/api/players/{id}/revoke``, which does both.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any


def cmd_revoke(args: argparse.Namespace) -> int:
    """Revoke the tokens of ``args.players``; exit 1 when one of them does not exist."""
    from dineri.settings import Settings
    from dineri.store import repo
    from dineri.store.db import make_engine, migrate, sessions

    settings = Settings()
    url = settings.database_url
    migrate(url)
    engine = make_engine(url)
    status = 0
    revoked: list[tuple[str, int]] = []
    try:
        with sessions(engine).begin() as s:
            for pid in args.players:
                version = repo.revoke_tokens(s, pid)
                if version is None:
                    print(f"dineri revoke-tokens: no player {pid!r}", file=sys.stderr)
                    status = 1
                else:
                    revoked.append((pid, version))
                    print(f"{pid}: tokens revoked (token version {version})")
    finally:
        engine.dispose()
    if revoked and settings.redis_url:
        asyncio.run(_announce(settings.redis_url, settings.redis_prefix, revoked))
    elif revoked:
        print("dineri revoke-tokens: without DINERI_REDIS_URL the running server's open sockets "
              "stay open until they close; POST /admin/api/players/{id}/revoke closes them",
              file=sys.stderr)
    return status


async def _announce(url: str, prefix: str, revoked: list[tuple[str, int]]) -> None:
    """Publish the revocations on the Redis fan-out: every server process closes the open
    sockets of those players (dineri/server/revocation.py)."""
    from dineri.fanout import make_fanout
    from dineri.server.revocation import announce

    fanout = make_fanout(url, prefix)
    await fanout.start()
    try:
        for pid, version in revoked:
            await announce(fanout, pid, version)
    finally:
        await fanout.stop()


def add_command(sub: Any) -> None:
    """Add ``revoke-tokens`` to the ``dineri`` subcommands."""
    r = sub.add_parser("revoke-tokens", help="revoke every token of the given players")
    r.add_argument("players", nargs="+", metavar="PLAYER_ID",
                   help="player ids (GET /api/players/me: id); put `--` before an id that begins "
                        "with '-' (ids made before 2026-12-01 may)")
    r.set_defaults(func=cmd_revoke)
