"""Seven Diamonds at 360 × 740 (issue 13's phone layout; fresh-user trial items 3 and 8): four
computer players at a table, watched from an Arabic and an English phone. Neither page scrolls
sideways (the seats' card backs and counts stay in their boxes), the round's count dialog lies
inside the screen, the status bar separates the round from the target, a spectator gets no
'Mark the cards I can play' (it marks a hand they do not have) and 'Jella' is said in English."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

WIDTH = 360
FITS = """(w) => document.documentElement.scrollWidth <= w
    && Array.from(document.querySelectorAll('.seat[data-seat]')).every((s) =>
        Array.from(s.querySelectorAll('*')).every((c) => {
            const a = s.getBoundingClientRect(), b = c.getBoundingClientRect();
            return b.width === 0 || (b.left >= a.left - 1 && b.right <= a.right + 1); }))"""
WIDE = """() => ({ page: document.documentElement.scrollWidth,
    out: Array.from(document.querySelectorAll('body *')).filter((c) => {
        const b = c.getBoundingClientRect(); return b.width > 0 && (b.left < 0 || b.right > innerWidth); })
        .slice(0, 8).map((c) => c.tagName + '.' + c.className),
    seats: Array.from(document.querySelectorAll('.seat[data-seat]')).map((s) => s.innerText) })"""
DIALOG = """() => { const d = document.querySelector('dialog[open]'), r = d.getBoundingClientRect();
    return { inner: d.scrollWidth - d.clientWidth, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
             width: innerWidth, height: innerHeight, page: document.documentElement.scrollWidth }; }"""


def _fits(page: Any) -> None:
    assert page.evaluate(FITS, WIDTH), page.evaluate(WIDE)


def test_a_four_seat_table_fits_a_phone_in_arabic_and_english(browser: Any, server: str,
                                                              console: Any) -> None:
    host = player(browser, server, "سامي", lang="ar")
    body = {"game": "seven_diamonds", "public": True, "clock": 0, "options": {}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    pages = {}
    for lang in ("ar", "en"):  # both watch: nobody of them is seated
        ctx = host if lang == "ar" else player(browser, server, "Alice", lang="en")
        pages[lang] = console.watch(ctx.new_page())
        pages[lang].goto(f"/t/{table_id}")
    for seat in range(4):
        r = host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"})
        assert r.ok, r.text()
    r = host.request.post(f"/api/tables/{table_id}/start", data={})
    assert r.ok, r.text()
    for page in pages.values():
        page.wait_for_function("['bidding', 'play'].includes(document.body.dataset.phase)", timeout=30000)
        _fits(page)
        assert page.locator("label.sd-hints").is_hidden()  # a spectator has no hand to mark
        line = page.locator("#scorebar .score-line").inner_text()
        assert " · " in line, line  # 'Round 1 · to 500 points', not 'Round 1  to 500 points'
    # The rows' empty places name the ranks as the card names do: «ولد بنت شايب آس» in Arabic
    # (not Latin J Q K A), J Q K A in English (phone trial, second round, item 2).
    places = ("Array.from(document.querySelectorAll('.sd-row[data-suit=\"H\"] .slot.empty span'))"
              ".map((s) => s.textContent)")
    assert pages["ar"].evaluate(places)[-4:] == ["ولد", "بنت", "شايب", "آس"]
    assert pages["en"].evaluate(places)[-4:] == ["J", "Q", "K", "A"]
    # The badge of a player who passed says it in English too, with the table's own word.
    assert pages["en"].evaluate("Dineri._('Jella')") == "Passed (jella)"
    # The round ends: its count opens inside the screen, in both languages.
    for lang, page in pages.items():
        page.locator("dialog[open]").wait_for(state="visible", timeout=120000)
        box = page.evaluate(DIALOG)
        assert box["left"] >= 0 and box["right"] <= box["width"] and box["page"] <= WIDTH, (lang, box)
        assert box["inner"] <= 0, (lang, box)  # every column (Points too) inside the dialog
        assert box["top"] >= 0 and box["bottom"] <= box["height"], (lang, box)
        page.keyboard.press("Escape")
        _fits(page)
    for ctx in {p.context for p in pages.values()}:
        ctx.close()
    assert console.errors == []


def test_a_seated_arabic_player_fits_a_phone(browser: Any, server: str, console: Any) -> None:
    """The trial's own case: an Arabic player seated with three computers; their eight cards,
    the others' backs and the bidding buttons stay inside 360 px."""
    host = player(browser, server, "سامي", lang="ar")
    body = {"game": "seven_diamonds", "public": True, "clock": 0, "options": {}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    assert host.request.post(f"/api/tables/{table_id}/seats", data={"seat": 1}).ok
    for seat in (0, 2, 3):
        r = host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"})
        assert r.ok, r.text()
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.turn === '1' && document.body.dataset.hand !== ''",
                           timeout=30000)
    _fits(page)
    assert page.locator("label.sd-hints").is_visible()  # a seated player may mark their cards
    host.close()
    assert console.errors == []
