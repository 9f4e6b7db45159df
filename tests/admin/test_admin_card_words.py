"""The admin's move list names the cards as the players' pages do (phone trial, second round,
item 2): in Arabic «ولد♥» and «شايب♦», never the Latin rank letters J Q K A."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.admin.test_admin_live import admin, match_of

pytestmark = pytest.mark.timeout(300)

CARD = re.compile(r'<span class="card suit-[DHSC]"[^>]*>([^<]*)</span>')


def test_the_arabic_move_list_names_the_ranks_in_words(played: dict[str, Any]) -> None:
    m = match_of(played, "bots")
    with admin(played) as a:
        ar = a.get(f"/admin/matches/{m['id']}", headers={"Accept-Language": "ar"}).text
        en = a.get(f"/admin/matches/{m['id']}", headers={"Accept-Language": "en"}).text
    ranks_ar = {t[:-1] for t in CARD.findall(ar)}
    ranks_en = {t[:-1] for t in CARD.findall(en)}
    assert ranks_ar and not ranks_ar & {"J", "Q", "K", "A", "T"}, ranks_ar
    assert ranks_ar <= {"آس", "2", "3", "4", "5", "6", "7", "8", "9", "10", "بنت", "ولد", "شايب"}
    assert ranks_en & {"J", "Q", "K", "A"}  # English keeps the letters


@pytest.mark.browser
def test_the_action_log_shows_each_step_number_once(browser: Any, played: dict[str, Any]) -> None:
    """A line of the action log starts with its step, a link to the replay at that step; the
    list's own number is not drawn before it as well (the trial read «1. 1 سامي …»)."""
    from tests.admin.test_admin_browser import _login

    base = played["server"].base
    m = match_of(played, "bots")
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    ctx.add_cookies([{"name": "dineri_lang", "value": "ar", "url": base}])
    page = ctx.new_page()
    try:
        _login(page, base)
        page.goto(f"{base}/admin/matches/{m['id']}")
        first = page.locator("ol.log > li").nth(1)
        assert first.evaluate("(li) => getComputedStyle(li).listStyleType") == "none"
        step = first.locator("a").first.inner_text()
        assert step.isdigit() and first.inner_text().startswith(step)
    finally:
        ctx.close()
