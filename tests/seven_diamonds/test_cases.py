"""The shared Seven Diamonds scenario cases (tests/cases/seven_diamonds, copied from shared/cases)
replay as expected; every key of ``expect`` compares exactly (hands and piles in order)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dineri.seven_diamonds import load_record, replay, replay_json, replay_steps

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "seven_diamonds").glob("*.json"))


def check(expect: dict[str, Any], got: dict[str, Any]) -> None:
    """Every key of ``expect`` equals the replay output's (``error``: only the keys it lists)."""
    for key, want in expect.items():
        if key == "error":
            have = got.get("error") or {}
            for k, v in want.items():
                assert have.get(k) == v, f"error.{k}"
        else:
            assert got.get(key) == want, key


def test_cases_present() -> None:
    names = {p.stem for p in CASES}
    assert len(CASES) >= 8 and "full-game" in names and "forfeit" in names
    assert {f"refused-{c}" for c in ("malformed", "not_your_turn", "illegal_call", "card_not_in_hand",
                                    "illegal_card", "must_play")} <= names


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_replays(path: Path) -> None:
    case = json.loads(path.read_text())
    check(case["expect"], replay_json(case["record"]))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_replay_steps_end_where_replay_stops(path: Path) -> None:
    rec = load_record(json.loads(path.read_text())["record"])
    out = replay(rec)
    steps = replay_steps(rec)
    assert len(steps) == out.applied + 1
    assert steps[-1]["state"] == {k: v for k, v in out.to_json().items() if k not in ("ok", "error")}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_through_cli(path: Path) -> None:
    import subprocess
    import sys

    case = json.loads(path.read_text())
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", "-"],
                         input=json.dumps(case["record"]), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    check(case["expect"], json.loads(run.stdout))
