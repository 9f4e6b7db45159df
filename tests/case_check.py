"""Helpers of the scenario-case tests (``tests/cases/<game>/*.json``, README there): the
comparison of a replay output with a case's ``expect``, and a replay through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any


def same(key: str, value: object) -> object:
    """Compare a key's value as it is (the default of :func:`check`)."""
    return value


def check(expect: dict[str, Any], got: dict[str, Any],
          norm: Callable[[str, object], object] = same) -> None:
    """Assert that ``got`` (a replay output) agrees with a case's ``expect``: every key equal
    after ``norm(key, value)`` on both sides; ``error`` only on the keys it lists."""
    for key, want in expect.items():
        if key == "error":
            have = got.get("error") or {}
            for k, v in want.items():
                assert have.get(k) == v, f"error.{k}"
        else:
            assert norm(key, got.get(key)) == norm(key, want), key


def cli_replay(record: dict[str, Any]) -> dict[str, Any]:
    """``dineri replay -`` of ``record`` in a process of its own: its output; it must exit 0."""
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", "-"],
                         input=json.dumps(record), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    return out
