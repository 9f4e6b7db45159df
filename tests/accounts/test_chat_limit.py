"""Chat is rate-limited per player per table (issue 14, item 6)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.accounts.conftest import Site
from tests.server.harness import Client, Server, is_event


def test_chat_lines_beyond_the_limit_are_refused(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'c.db'}", DINERI_CHAT_LINES_PER_MINUTE="3").start(timeout=90)
    site = Site(srv)
    try:
        a, b = site.guest("Talker"), site.guest("Other")
        table = site.table(a)
        for i, p in enumerate((a, b)):
            site.call("POST", f"/api/tables/{table['id']}/seats", p, json={"seat": i})

        async def talk() -> tuple[list[str], list[str], list[str]]:
            ca = await Client(srv, table["id"], a["token"]).connect()
            cb = await Client(srv, table["id"], b["token"]).connect()
            for i in range(4):
                await ca.send({"type": "chat", "id": f"c{i}", "text": f"line {i}"})
            await ca.wait_for(lambda f: f["type"] == "error" and f.get("id") == "c3")
            await cb.send({"type": "chat", "id": "b0", "text": "my own line"})  # b has its own budget
            await cb.wait_for(lambda f: is_event("chat")(f) and f["event"]["text"] == "my own line")
            seen = [f["event"]["text"] for f in cb.frames if is_event("chat")(f)]
            errors = [f["code"] for f in ca.frames if f["type"] == "error"]
            ids = [f["id"] for f in ca.frames if f["type"] == "error"]
            await ca.close()
            await cb.close()
            return seen, errors, ids
        seen, errors, ids = asyncio.run(talk())
        assert seen == ["line 0", "line 1", "line 2", "my own line"]
        assert errors == ["rate_limited"] and ids == ["c3"]
    finally:
        site.http.close()
        srv.stop()
