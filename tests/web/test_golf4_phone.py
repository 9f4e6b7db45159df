"""golf4 at 360 × 740 in Arabic (fresh-user trial, the golf4 round summary): three computers play,
an Arabic phone watches; the round's table (player, cards, score, penalty, points, total) lies
inside the dialog and the screen, and the page never scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

TABLE = """() => { const d = document.querySelector('dialog[open]'), t = d.querySelector('.g4-scores');
    const a = d.getBoundingClientRect(), b = t.getBoundingClientRect();
    return { dialog: [a.left, a.right], table: [b.left, b.right], width: innerWidth,
             page: document.documentElement.scrollWidth }; }"""


def test_the_round_table_fits_an_arabic_phone(browser: Any, server: str, console: Any) -> None:
    host = player(browser, server, "سامي", lang="ar")
    body = {"game": "golf4", "public": True, "clock": 0, "options": {"seats": 3, "rounds": 9}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    for seat in range(3):
        r = host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"})
        assert r.ok, r.text()
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page.locator("dialog[open] .g4-scores").wait_for(state="visible", timeout=120000)
    box = page.evaluate(TABLE)
    assert box["dialog"][0] >= 0 and box["dialog"][1] <= box["width"] and box["page"] <= 360, box
    assert box["dialog"][0] <= box["table"][0] and box["table"][1] <= box["dialog"][1], box
    host.close()
    assert console.errors == []
