"""``benchmarks/bots.py`` (issue 12, item 5): the Wilson interval, and the one final line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bots import wilson  # noqa: E402


def test_wilson_interval() -> None:
    lo, hi = wilson(7, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)  # Wilson (1927), z = 1.96
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(280, 400)
    assert lo < 0.7 < hi and hi - lo < 0.1


@pytest.mark.timeout(300)
def test_bots_benchmark_ends_with_the_result_line() -> None:
    done = subprocess.run([sys.executable, "benchmarks/bots.py", "--level", "easy", "--matches", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"easy vs greedy: (\d+)/2 won \((\d+\.\d)%, 95% CI (\d+\.\d)–(\d+\.\d)%\); "
                     r"move time median (\d+\.\d+) s, max (\d+\.\d+) s", last)
    assert m is not None, last
    wins = int(m.group(1))
    assert float(m.group(2)) == round(100 * wins / 2, 1)
    assert float(m.group(3)) <= float(m.group(2)) <= float(m.group(4))
    assert float(m.group(5)) <= float(m.group(6))
