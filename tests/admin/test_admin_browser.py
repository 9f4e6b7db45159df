"""The admin pages in a real browser (issue 4 item 3): log in, open a played match's replay,
step with the keyboard (arrows mirrored in Arabic), no console errors, phone size."""

from __future__ import annotations

import re
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
