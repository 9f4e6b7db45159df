"""The admin pages in a real browser (issue 4 item 3): log in, open a played match's replay,
step with the keyboard (arrows mirrored in Arabic), no console errors, phone size."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.admin.conftest import TOKEN

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def step_of(url: str) -> int:
    m = re.search(r"step=(\d+)", url)
    assert m, url
    return int(m.group(1))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_login_and_step_through_a_replay_by_keyboard(browser: Any, played: dict[str, Any], lang: str) -> None:
    base = played["server"].base
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": base}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base + "/admin")
        assert page.url.endswith("/admin/login")
        page.fill("#token", "wrong")
        page.press("#token", "Enter")
        page.wait_for_selector(".error")
        errors.clear()  # the refused login answers 401, which the console reports
        page.fill("#token", TOKEN)
        page.press("#token", "Enter")
        page.wait_for_url(base + "/admin")
        # The list fits a 360 px phone (no sideways scrolling) and shows times as date and minute.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        started = page.locator("tr.match time").first.inner_text()
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", started), started
        row = page.locator('tr.match:has(td.players:has-text("Greedy"))').first
        row.locator('a[href$="replay?step=0"]').click()
        page.wait_for_url(re.compile(r"step=0$"))
        assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
        forward = "ArrowLeft" if lang == "ar" else "ArrowRight"
        back = "ArrowRight" if lang == "ar" else "ArrowLeft"
        # The buttons' arrows point the way they step, as the keys do (Arabic re-trial).
        ahead, behind = ("◀", "▶") if lang == "ar" else ("▶", "◀")
        assert ahead in page.inner_text("#next") and behind not in page.inner_text("#next")
        assert behind in page.inner_text("#prev") and ahead not in page.inner_text("#prev")
        assert behind * 2 in page.inner_text("#first") and ahead * 2 in page.inner_text("#last")
        for expected in (1, 2, 3):
            page.keyboard.press(forward)
            page.wait_for_url(re.compile(rf"step={expected}$"))
        page.keyboard.press(back)
        page.wait_for_url(re.compile(r"step=2$"))
        # at step 2 the cut and the keep/table choice are done: hands are dealt and shown
        assert page.locator("td.hand .card").count() > 0
        page.keyboard.press("End")
        page.wait_for_url(lambda url: step_of(url) > 3)
        last = step_of(page.url)
        assert last > 3 and page.get_attribute("#phase", "data-phase") == "over"
        # The phase is named in the page's language, never by the engine's code.
        assert page.locator("#phase").inner_text() == ("over" if lang == "en" else "منتهية")
        page.keyboard.press(forward)  # nothing after the last step
        page.wait_for_timeout(300)
        assert step_of(page.url) == last
        page.keyboard.press("Home")
        page.wait_for_url(re.compile(r"step=0$"))
        assert errors == []
    finally:
        ctx.close()


def _login(page: Any, base: str) -> None:
    page.goto(base + "/admin")
    page.fill("#token", TOKEN)
    page.press("#token", "Enter")
    page.wait_for_url(base + "/admin")


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_match_page_fits_a_phone_and_words_computer_players(browser: Any, played: dict[str, Any],
                                                            lang: str) -> None:
    """Issue 13, items 7 and 8: the match page fits 360 px (its tables scroll in their box), the
    computer players' names are in the page's language, Arabic lists take the Arabic comma; the
    visual replay draws the stored match, every hand face up, to its final state."""
    base, api = played["server"].base, played["api"]
    host = api.player("Hôte")
    table = api.table(host)
    for seat in (0, 1):
        r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": seat, "level": "greedy"})
        assert r.status_code == 200, r.text
    assert api.start(host, table).status_code == 200
    deadline = time.monotonic() + 120
    while api.call("GET", f"/api/tables/{table['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": base}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _login(page, base)
        matches = page.request.get(base + "/admin/api/matches").json()["matches"]
        match = next(m for m in matches if m["table_id"] == table["id"])
        page.goto(f"{base}/admin/matches/{match['id']}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        names = page.locator("table.players td.name").all_inner_texts()
        # Named as the players' pages name them, the level in their words (greedy reads as easy);
        # the strategy id in its own column (Arabic phone trial: «لاعب آلي 2 (طمّاع)»).
        bot = {"fr": "Ordinateur {n} · facile", "ar": "الحاسوب {n} · سهل"}[lang]
        assert names == [bot.format(n=1), bot.format(n=2)]
        # The strategy column names the level in the page's words too (fresh Arabic trial:
        # "greedy"), the strategy's id kept in data-strategy.
        strategy = page.locator("table.players td.strategy")
        assert strategy.all_inner_texts() == [{"fr": "facile", "ar": "سهل"}[lang]] * 2
        assert strategy.evaluate_all("(ts) => ts.map((t) => t.dataset.strategy)") == ["greedy", "greedy"]
        # A 1v1's winner is a player, never a side («الفائز: الفريق 2»).
        result = page.locator("p.result").inner_text()
        assert re.search(bot.format(n=r"[12]"), result) and ("الفريق" not in result and "camp" not in result)
        rounds = page.locator(".scroll:has(table.rounds)")
        assert rounds.evaluate("(e) => e.scrollWidth > e.clientWidth")  # wide: it scrolls in its box
        # ... and says so: the caption above it names the pairs' order and the sideways scroll, and the box's
        # edge is shaded where there is more (scroll shadows on the box).
        caption = page.locator("#rounds-caption")
        assert caption.is_visible() and page.locator("#rounds-caption .scroll-hint").is_visible()
        box = caption.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360  # all of it shows
        assert "radial-gradient" in rounds.evaluate("(e) => getComputedStyle(e).backgroundImage")
        pairs = page.locator("table.rounds td .pair")
        dirs = pairs.evaluate_all("(ps) => ps.map((p) => getComputedStyle(p).direction)")
        # ... read in the page's direction, first side first (right to left in Arabic, as its caption says).
        assert pairs.count() > 0 and set(dirs) == {"rtl" if lang == "ar" else "ltr"}
        # ... and no cell breaks a score pair across lines ("7 / – / 3" down a cell in the trial).
        assert page.evaluate("""() => Array.from(document.querySelectorAll('table.rounds td'))
            .every((td) => {
            const r = document.createRange(); r.selectNodeContents(td);  // one line: one top
            return new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top))).size <= 1; })""")
        # The options in words: a single game says so (not "best of 1"), in the language's own commas.
        options = page.locator(".facts dd").nth(4).inner_text()
        assert options == {"fr": "2 joueurs, en 11 points, une partie",
                           "ar": "لاعبان، إلى 11 نقطة، لعبة واحدة"}[lang], options
        # The list's date filters are year-month-day text, left to right in every language (a date
        # input showed mm/dd/yyyy on an Arabic phone).
        page.goto(f"{base}/admin")
        for name in ("from", "to"):
            field = page.locator(f'.filters input[name="{name}"]')
            assert field.get_attribute("type") in (None, "text") and field.get_attribute("dir") == "ltr"
            assert field.get_attribute("placeholder") == "2026-12-01"
        page.goto(f"{base}/admin/matches/{match['id']}/replay?step=3")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        head = page.locator("table.hands th").first.inner_text()
        assert head.startswith(bot.format(n=1))
        assert head.endswith({"fr": "(place 1)", "ar": "(المقعد 1)"}[lang])  # a 1v1 has no sides
        # The visual replay of the stored match: the same page as the players', every hand face up.
        page.goto(f"{base}/admin/matches/{match['id']}")
        page.click("a.visual")
        page.locator("#viewer").wait_for(state="visible")
        page.focus("#next")
        page.keyboard.press("End")
        page.wait_for_function("document.body.dataset.phase === 'over'")
        final = page.request.get(f"{base}/admin/api/matches/{match['id']}").json()["final"]
        hands = page.eval_on_selector_all(".seat[data-seat]", """(ss) => ss
            .sort((a, b) => a.dataset.seat - b.dataset.seat)
            .map((s) => Array.from(s.querySelectorAll('.card')).map((c) => c.dataset.card))""")
        assert hands == final["hands"]
        # A 1v1's seats are named by their players, with no side tag («الفريق 1/2» in the trial).
        assert page.locator(".seat .side-tag").count() == 0
        assert page.locator(".seat .seat-name").all_inner_texts() != []
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert errors == []
    finally:
        ctx.close()
