"""``dineri bot URL``: a headless player that takes a seat and plays to the end (issue 3, item 8).

Exit 0 when the match is over (the outcome is printed as one JSON line), 1 when the bot could
not join or lost the server. ``--record FILE`` saves the match record after the end (the
player's download: decks and salts revealed), ready for ``dineri replay`` and ``dineri verify``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from dineri.bot.strategy import STRATEGIES

# The client (httpx, websockets) is imported by ``cmd_bot``: every ``dineri`` command builds this
# parser, and ``dineri serve`` must not pay for an HTTP client it never uses (issue 8 item 6).


async def _run(args: argparse.Namespace) -> int:
    from dineri.bot.client import fetch_record, parse_table_url, play

    result, token = await play(args.url, name=args.name, strategy=args.strategy, seat=args.seat,
                               side=args.side, token=args.token, seed=args.seed, delay=args.delay)
    over = result.match_over or {}
    summary = {"seat": result.seat, "side": result.seat % 2, "winner": over.get("winner"),
               "games_won": over.get("games_won"), "reason": over.get("reason"),
               "actions": result.actions_sent, "refused": len(result.errors)}
    if args.record:
        record = await fetch_record(parse_table_url(args.url), token)
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
        summary["record"] = args.record
    print(json.dumps(summary, ensure_ascii=False))
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    """Run the bot; returns the exit status (errors printed on standard error)."""
    import httpx
    from websockets.exceptions import WebSocketException

    from dineri.bot.client import BotError

    try:
        return asyncio.run(_run(args))
    except BotError as e:
        print(f"dineri bot: {e}", file=sys.stderr)
        return 1
    except (httpx.TransportError, ConnectionError, TimeoutError) as e:  # no server there, or it went away
        print(f"dineri bot: cannot reach {args.url}: {e or type(e).__name__}", file=sys.stderr)
        return 1
    except (httpx.HTTPError, WebSocketException, OSError) as e:
        print(f"dineri bot: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def add_command(sub: Any) -> None:
    """Register ``dineri bot`` on the ``dineri`` command's subparsers."""
    b = sub.add_parser("bot", help="a headless player: take a seat at a table and play legal actions")
    b.add_argument("url", help="the table page URL (http://host:port/t/ID) or an invitation link "
                               "(/t/ID?code=… or /join/ID.CODE)")
    b.add_argument("--name", default="Bot", help="display name of the bot's guest identity (default: Bot)")
    b.add_argument("--strategy", choices=STRATEGIES, default="greedy", help="how to choose (default: greedy)")
    g = b.add_mutually_exclusive_group()
    g.add_argument("--seat", type=int, help="the seat to take (default: the first free one)")
    g.add_argument("--side", type=int, choices=(0, 1), help="take a seat of this side (2v2)")
    b.add_argument("--token", help="play as an existing identity (bearer token) instead of a new guest")
    b.add_argument("--seed", type=int, help="seed of the bot's random choices (reproducible runs)")
    b.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each action")
    b.add_argument("--record", metavar="FILE", help="after the end, save the match record to FILE")
    b.set_defaults(func=cmd_bot)
