"""``dineri revoke-tokens PLAYER_ID…``: revoke every token of players (issue 7, item 11).

Bumps each player's ``token_version`` in the database of ``DINERI_DATABASE_URL`` (migrated
first), so every token issued to them before is refused as unknown (``401``; a socket handshake
with it is a spectator's). Works while servers run: they read the version on every request. The
admin API does the same: ``POST /admin/api/players/{id}/revoke``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def cmd_revoke(args: argparse.Namespace) -> int:
    """Revoke the tokens of ``args.players``; exit 1 when one of them does not exist."""
    from dineri.settings import Settings
    from dineri.store import repo
    from dineri.store.db import make_engine, migrate, sessions

    url = Settings().database_url
    migrate(url)
    engine = make_engine(url)
    status = 0
    try:
        with sessions(engine).begin() as s:
            for pid in args.players:
                version = repo.revoke_tokens(s, pid)
                if version is None:
                    print(f"dineri revoke-tokens: no player {pid!r}", file=sys.stderr)
                    status = 1
                else:
                    print(f"{pid}: tokens revoked (token version {version})")
    finally:
        engine.dispose()
    return status


def add_command(sub: Any) -> None:
    """Add ``revoke-tokens`` to the ``dineri`` subcommands."""
    r = sub.add_parser("revoke-tokens", help="revoke every token of the given players")
    r.add_argument("players", nargs="+", metavar="PLAYER_ID", help="player ids (GET /api/players/me: id)")
    r.set_defaults(func=cmd_revoke)
