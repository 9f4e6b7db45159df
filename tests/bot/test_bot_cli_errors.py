"""``dineri bot`` against no server: one clear line on standard error and exit 1, no traceback."""

from __future__ import annotations

import subprocess
import sys

from tests.server.harness import ROOT, free_port


def test_bot_without_a_server_prints_one_line() -> None:
    url = f"http://127.0.0.1:{free_port()}/t/abc"
    done = subprocess.run([sys.executable, "-m", "dineri.cli", "bot", url], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"dineri bot: cannot reach {url}"), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
