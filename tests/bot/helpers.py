"""Helpers of the bot tests: a ``dineri bot`` process seated at a real server's table."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator

from tests.server.harness import ROOT, Api, Server


@contextlib.contextmanager
def seated_bot(srv: Server, api: Api, table_id: str, *options: str) -> Iterator[subprocess.Popen[str]]:
    """A ``dineri bot`` process for seat 0 of ``table_id`` (``options``: its further command-line
    options), yielded once the seat shows it (within 30 s; fails with the process's stderr if it
    exits first). Killed on the way out if it still runs."""
    args = ["bot", f"{srv.base}/t/{table_id}", "--seat", "0", *options]
    proc = subprocess.Popen([sys.executable, "-m", "dineri.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while api.call("GET", f"/api/tables/{table_id}").json()["seats"][0]["player"] is None:
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
