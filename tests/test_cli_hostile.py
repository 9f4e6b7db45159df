"""`dineri replay` / `dineri verify` on hostile documents: exit 2 with one clear line, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HOSTILE = {
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "not-utf8.json": b"\xff{}",
    "huge-number.json": b'{"format": "dineri-match/1", "first_dealer": ' + b"9" * 5000 + b"}",
    "deep-in-object.json": b'{"format": "dineri-match/1", "game": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
}


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "dineri.cli", *args], input=stdin,
                          capture_output=True, timeout=60, check=False)


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["replay", "verify"])
def test_hostile_file_exits_2_with_a_message(tmp_path: Path, name: str, command: str) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    run = _run(command, str(path))
    err = run.stderr.decode()
    assert run.returncode == 2, err
    assert "Traceback" not in err
    assert err.startswith(f"dineri {command}: malformed record:")
    assert len(err) < 300  # the hostile value is not echoed whole


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_stdin_and_jsonl(name: str) -> None:
    run = _run("replay", "-", stdin=HOSTILE[name])
    assert run.returncode == 2 and b"Traceback" not in run.stderr
    lines = _run("replay", "--jsonl", "-", stdin=HOSTILE[name] + b"\n")
    assert lines.returncode == 2 and b"Traceback" not in lines.stderr
    assert b'"code":"malformed_record"' in lines.stdout


def test_missing_file_exits_2() -> None:
    run = _run("replay", "/nonexistent/record.json")
    assert run.returncode == 2
    assert b"cannot read" in run.stderr


def test_a_reader_that_goes_away_ends_the_replay_quietly(tmp_path: Path) -> None:
    """``dineri replay rec.json | head -c 10``: the reader closes the pipe early; the command
    stops with no traceback and exit 0 (found by the fresh-user trial: a BrokenPipeError
    traceback, exit 1)."""
    import json

    cases = sorted((Path(__file__).parent / "cases" / "chkobba").glob("*.json"))
    line = json.dumps(json.loads(cases[0].read_text())["record"])  # a case holds its record
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join([line] * 2000) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "dineri.cli", "replay", "--jsonl", str(many)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(10)
    proc.stdout.close()  # the reader goes away with most of the output unread
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert len(first) == 10 and "Traceback" not in err and "BrokenPipe" not in err
