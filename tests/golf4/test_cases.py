"""The shared golf4 scenario cases (tests/cases/golf4, copied from shared/cases) replay as expected:
every key of ``expect`` equal (golf4's slots compare exactly), ``error`` on the keys it lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dineri.golf4 import replay_json

CASES = sorted((Path(__file__).parents[1] / "cases" / "golf4").glob("*.json"))


def check(expect: dict, got: dict) -> None:
    """Assert ``got`` (a replay output) agrees with a case's ``expect``."""
    for key, want in expect.items():
        if key == "error":
            have = got.get("error") or {}
            for k, v in want.items():
                assert have.get(k) == v, f"error.{k}"
        else:
            assert got.get(key) == want, key


def test_cases_present() -> None:
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_replays(path: Path) -> None:
    case = json.loads(path.read_text())
    check(case["expect"], replay_json(case["record"]))
