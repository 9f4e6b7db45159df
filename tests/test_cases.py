"""The shared scenario cases (tests/cases/chkobba, copied from shared/cases) replay as expected."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dineri.engine import replay_json
from tests.case_check import check, cli_replay

CASES = sorted((Path(__file__).parent / "cases" / "chkobba").glob("*.json"))


def _norm(key: str, value: object) -> object:
    if key == "table" and isinstance(value, list):
        return sorted(Counter(value).elements())
    if key == "hands" and isinstance(value, list):
        return [sorted(h) for h in value]
    return value


def _check(expect: dict, got: dict) -> None:
    """``table`` and each hand compare as multisets (tests/cases/README.md)."""
    check(expect, got, _norm)


def test_cases_present() -> None:
    assert len(CASES) >= 18


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_replays(path: Path) -> None:
    case = json.loads(path.read_text())
    _check(case["expect"], replay_json(case["record"]))


@pytest.mark.parametrize("path", CASES[:3], ids=lambda p: p.stem)
def test_case_through_cli(path: Path) -> None:
    case = json.loads(path.read_text())
    _check(case["expect"], cli_replay(case["record"]))
