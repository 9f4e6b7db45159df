"""The shared Seven Diamonds scenario cases (tests/cases/seven_diamonds, copied from shared/cases)
replay as expected; every key of ``expect`` compares exactly (hands and piles in order)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dineri.seven_diamonds import load_record, replay, replay_json, replay_steps
from tests.case_check import check, cli_replay

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "seven_diamonds").glob("*.json"))


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
    case = json.loads(path.read_text())
    check(case["expect"], cli_replay(case["record"]))
