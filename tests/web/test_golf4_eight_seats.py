"""Issue 10 item 3: golf4 works with 8 seats on a 360 px phone. A player sits with seven
computers; in English and in Arabic every seat's four cards are on the screen (inside its width)
and the page never scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

BOXES = """() => ({ page: document.documentElement.scrollWidth, width: innerWidth,
    grids: [...document.querySelectorAll('ul.g4-slots[data-seat]')].map(g => {
        const r = g.getBoundingClientRect(); return [g.dataset.seat, r.left, r.right, r.width]; }) })"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_eight_seats_fit_a_phone(browser: Any, server: str, console: Any, lang: str) -> None:
    me = player(browser, server, "Lina", lang=lang)
    body = {"game": "golf4", "public": True, "clock": 0, "options": {"seats": 8, "rounds": 9}}
    t = me.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    assert me.request.post(f"/api/tables/{table_id}/seats", data={"seat": 0}).ok
    for seat in range(1, 8):
        r = me.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"})
        assert r.ok, r.text()
    assert me.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page = console.watch(me.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.querySelectorAll('ul.g4-slots[data-seat]').length === 8")
    box = page.evaluate(BOXES)
    assert box["page"] <= 360 and box["width"] == 360, box
    assert sorted(int(g[0]) for g in box["grids"]) == list(range(8)), box
    for seat, left, right, width in box["grids"]:
        assert left >= 0 and right <= 360 and width > 0, (seat, left, right)
    me.close()
    assert console.errors == []
