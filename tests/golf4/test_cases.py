"""The shared golf4 scenario cases (tests/cases/golf4, copied from shared/cases) replay as expected:
every key of ``expect`` equal (golf4's slots compare exactly), ``error`` on the keys it lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dineri import records
from dineri.golf4 import replay_json
from tests.case_check import check, cli_replay

CASES = sorted((Path(__file__).parents[1] / "cases" / "golf4").glob("*.json"))


def test_cases_present() -> None:
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_replays(path: Path) -> None:
    case = json.loads(path.read_text())
    check(case["expect"], replay_json(case["record"]))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_through_the_records_dispatch(path: Path) -> None:
    case = json.loads(path.read_text())
    check(case["expect"], records.replay_json(json.dumps(case["record"])))


@pytest.mark.parametrize("path", CASES[:4], ids=lambda p: p.stem)
def test_case_through_cli(path: Path) -> None:
    case = json.loads(path.read_text())
    check(case["expect"], cli_replay(case["record"]))


def test_the_shared_check_cases_tool_passes_for_golf4() -> None:
    tool = Path("/work/shared/tools/check_cases.py")
    if not tool.exists():  # outside the team machine (CI): the copy of the cases above is the check
        tool = Path(__file__).parent / "check_cases_copy.py"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = subprocess.run([sys.executable, str(tool), str(CASES[0].parent)], capture_output=True, text=True,
                         env=env, check=False, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(CASES)} passed, 0 failed" in run.stdout


def test_malformed_golf4_documents_exit_2() -> None:
    doc = json.loads(CASES[0].read_text())["record"]
    doc["decks"][0] = doc["decks"][0][:51]
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", "-"], input=json.dumps(doc),
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "52 cards" in run.stderr
