"""Fresh new-user trial (Arabic, Four-card Golf): the discard pile was «المرمى» (it reads as "the
goal") and the draw pile «الكومة», the word Chkobba uses for a side's captured cards. Golf's
piles are «كومة السحب» (the stock) and «كومة الرمي» (the discards), its top card «الورقة
المرمية», on the board, its buttons, the log and the rules (G2, G5–G15)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# Every word of the page: its text (hidden parts too: the rules panel) and its labels.
WORDS = """() => document.body.textContent + ' ' + Array.from(document.querySelectorAll(
    '[aria-label], [title], [alt]')).map((e) => [e.getAttribute('aria-label'), e.getAttribute('title'),
    e.getAttribute('alt')].join(' ')).join(' ')"""


def test_golf_piles_have_their_own_arabic_words(browser: Any, server: str, console: Any) -> None:
    host = player(browser, server, "سامي", lang="ar")
    body = {"game": "golf4", "public": True, "clock": 0, "options": {"seats": 2, "rounds": 9}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    assert host.request.post(f"/api/tables/{table_id}/seats", data={"seat": 0}).ok
    assert host.request.post(f"/api/tables/{table_id}/bots", data={"seat": 1, "level": "easy"}).ok
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    page.locator("#board").wait_for(state="visible")
    page.wait_for_function("document.querySelectorAll('#log li').length >= 1")
    words = page.evaluate(WORDS)
    assert "المرمى" not in words and "الكومة" not in words
    for word in ("كومة السحب", "كومة الرمي", "الورقة المرمية"):
        assert word in words, word
    # The deal's line names the discard pile (G5).
    assert any("كومة الرمي" in line for line in page.locator("#log li").all_inner_texts())
    host.close()
    assert console.errors == []
