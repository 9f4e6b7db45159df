"""The shared scenario cases (tests/cases/chkobba, copied from shared/cases) replay as expected."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from dineri.engine import replay_json

CASES = sorted((Path(__file__).parent / "cases" / "chkobba").glob("*.json"))


def _norm(key: str, value: object) -> object:
    if key == "table" and isinstance(value, list):
        return sorted(Counter(value).elements())
    if key == "hands" and isinstance(value, list):
        return [sorted(h) for h in value]
    return value


def _check(expect: dict, got: dict) -> None:
    for key, want in expect.items():
        if key == "error":
            have = got.get("error") or {}
            for k, v in want.items():
                assert have.get(k) == v, f"error.{k}"
        else:
            assert _norm(key, got.get(key)) == _norm(key, want), key


def test_cases_present() -> None:
    assert len(CASES) >= 18


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_replays(path: Path) -> None:
    case = json.loads(path.read_text())
    _check(case["expect"], replay_json(case["record"]))


@pytest.mark.parametrize("path", CASES[:3], ids=lambda p: p.stem)
def test_case_through_cli(path: Path) -> None:
    case = json.loads(path.read_text())
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", "-"],
                         input=json.dumps(case["record"]), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    _check(case["expect"], json.loads(run.stdout))
