"""The ``dineri`` command: ``replay``, ``verify``, ``serve`` and ``bot``.

``dineri replay FILE|-`` prints the replay output of ``match-record.md``
(exit 0; exit 2 only when the document itself is malformed).
``dineri replay --jsonl FILE|-`` reads one record per line, prints one result per line.
``dineri verify FILE`` checks every deck against its fairness commitment (R7).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from dineri import records


def _open(path: str) -> IO[bytes]:
    # Bytes: json.loads decodes them, so text that is not UTF-8 is a malformed record, not a crash.
    return sys.stdin.buffer if path == "-" else open(path, "rb")


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay one record (or one per line with ``--jsonl``)."""
    try:
        stream = _open(args.file)
    except OSError as e:
        print(f"dineri replay: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    with stream:
        if not args.jsonl:
            try:
                result = records.replay_json(stream.read())
            except ValueError as e:  # each engine's RecordError is a ValueError
                print(f"dineri replay: {e}", file=sys.stderr)
                return 2
            print(json.dumps(result, ensure_ascii=False, indent=None if args.compact else 2))
            return 0
        status = 0
        out = sys.stdout
        for lineno, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                out.write(_dump(records.replay_json(line)) + "\n")
            except ValueError as e:
                status = 2
                out.write(_dump({"ok": False, "error": {"index": None, "code": "malformed_record",
                                                        "message": f"line {lineno}: {e}"}}) + "\n")
        return status


def cmd_verify(args: argparse.Namespace) -> int:
    """Check every deck of a record against its commitment; exit 1 naming failures."""
    from dineri.fairness import verify_record

    try:
        with _open(args.file) as stream:
            _, record = records.load(stream.read())
    except OSError as e:
        print(f"dineri verify: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"dineri verify: {e}", file=sys.stderr)
        return 2
    problems = verify_record(record)
    for p in problems:
        print(f"FAIL {p}")
    if problems:
        return 1
    print(f"OK: all {len(records.decks_and_fairness(record)[0])} decks match their commitments")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``dineri`` command."""
    p = argparse.ArgumentParser(prog="dineri",
                                description="Dineri: card tables (Chkobba, golf4, Seven Diamonds).")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay a dineri-match/1 record and print the resulting state")
    r.add_argument("file", help="record file, or - for standard input")
    r.add_argument("--jsonl", action="store_true", help="one record per line; one result per line")
    r.add_argument("--compact", action="store_true", help="print the result on one line")
    r.set_defaults(func=cmd_replay)
    v = sub.add_parser("verify", help="check every deck of a record against its fairness commitment")
    v.add_argument("file", help="record file, or - for standard input")
    v.set_defaults(func=cmd_verify)
    _add_server_commands(sub)
    from dineri.bot.cli import add_command as add_bot_command  # imported here: replay stays light

    add_bot_command(sub)
    return p


def _add_server_commands(sub: Any) -> None:
    try:
        from dineri.server.cli import add_commands
    except ImportError:  # the server package is optional for the engine tools
        return
    add_commands(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dineri`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (``dineri replay rec.json | head``): stop quietly, as cat does.
        # Standard output is pointed at /dev/null so the interpreter's final flush cannot fail.
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
