"""The accounts in Chromium (issue 14, item 7): a guest plays, claims its identity, signs in on
another browser and finds the match on its page (with its replay and record); two accounts press
"Play now" and are seated together; a third person watches from the live list; the ratings of
the finished rated match are Glicko-2's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dineri.ratings.glicko2 import Glicko, update
from tests.accounts.conftest import Site, forfeit
from tests.server.harness import Server
from tests.web.tables import enter_name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db: Path = tmp_path_factory.mktemp("accweb") / "w.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="200").start(timeout=90)
    site = Site(srv)
    yield site
    site.http.close()
    srv.stop()


def _errors(page: Any, out: list[str]) -> Any:
    page.on("console", lambda m: out.append(m.text) if m.type == "error" and "401" not in m.text else None)
    page.on("pageerror", lambda e: out.append(str(e)))
    return page


def _signed_in_context(browser: Any, site: Site, player: dict[str, Any], locale: str = "en") -> Any:
    ctx = browser.new_context(viewport=PHONE, base_url=site.server.base, locale=locale)
    ctx.add_cookies([{"name": "dineri_token", "value": player["token"], "url": site.server.base}])
    ctx.add_init_script("localStorage.setItem('dineri_named', '1')")
    return ctx


def test_guest_claims_signs_in_elsewhere_and_finds_the_match(browser: Any, web: Site) -> None:
    errors: list[str] = []
    first = browser.new_context(viewport=PHONE, base_url=web.server.base, locale="en")
    page = _errors(first.new_page(), errors)
    page.goto("/")
    enter_name(page, "Amira")
    token = next(c["value"] for c in first.cookies() if c["name"] == "dineri_token")
    me = web.http.get("/api/players/me", headers={"Authorization": f"Bearer {token}"}).json()
    amira = {**me, "token": token}
    table = web.play([amira, web.guest("Youssef")], loser_seat=1)  # the guest wins a match

    page.goto("/account")
    page.locator("#claim").wait_for(state="visible")
    assert page.locator("#claim-username").input_value() == "Amira"
    page.fill("#claim-password", "correct horse")
    page.click("#claim-form button[type=submit]")
    page.locator("#signed-in").wait_for(state="visible")
    first.close()

    other = browser.new_context(viewport=PHONE, base_url=web.server.base, locale="fr")
    page = _errors(other.new_page(), errors)
    page.goto("/account")
    page.fill("#login-username", "amira")  # any case: the look-alike key finds the account
    page.fill("#login-password", "correct horse")
    page.click("#login-form button[type=submit]")
    page.locator("#signed-in").wait_for(state="visible")
    assert "Amira" in page.locator("#acc-status").inner_text()
    page.click("#my-page")
    page.wait_for_url(re.compile(r"/p/Amira$"))
    match = page.locator(".match").first
    assert match.get_attribute("data-outcome") == "won"
    assert "Youssef" in match.inner_text() and "Gagné" in match.inner_text()
    record = other.request.get(match.locator("a.record").get_attribute("href"))
    assert record.ok and record.json()["players"] == ["Amira", "Youssef"]
    # "Replay" opens the visual replay (the table drawn, as the table page does); the list of
    # every action stays one link away (the fresh-user trial found only that list).
    steps_href = match.locator("a.steps").get_attribute("href")
    match.locator("a.replay").click()
    page.wait_for_url(re.compile(r"/replay\?played=\d+$"))
    page.locator("#viewer").wait_for(state="visible")
    page.click("#next")
    page.wait_for_function("document.body.dataset.step === '1'")
    page.goto(steps_href)
    page.wait_for_function("document.getElementById('step-state').children.length > 0")
    assert page.locator("#step-range").get_attribute("max") != "0"
    page.click("#step-first")
    assert "Avant la première action" in page.locator("#step-label").inner_text()
    other.close()
    assert table["id"] and errors == []


def test_two_accounts_play_now_are_seated_together_watched_and_rated(browser: Any, web: Site) -> None:
    errors: list[str] = []
    a, b = web.account("Nour"), web.account("Sami")
    ctxs = [_signed_in_context(browser, web, p) for p in (a, b)]
    pages = [_errors(c.new_page(), errors) for c in ctxs]
    for page in pages:
        page.goto("/play")
        page.check('input[name="target"][value="21"]')
        page.click("#play-now")
    for page in pages:
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"), timeout=20000)
    table_id = pages[0].url.split("/t/")[1]
    assert pages[1].url.split("/t/")[1] == table_id
    # ratings beside the names on the table page, and the rated badge
    pages[0].wait_for_function("document.querySelectorAll('.seat-rating').length >= 2")
    assert "1500?" in pages[0].locator(".seat-rating").first.inner_text()
    assert pages[0].locator("#rated-badge").inner_text() == "Rated match"

    viewer_ctx = browser.new_context(viewport=PHONE, base_url=web.server.base, locale="ar")
    viewer = _errors(viewer_ctx.new_page(), errors)
    viewer.goto("/watch")
    item = viewer.locator(f'#live [data-table="{table_id}"]')
    item.wait_for()
    assert "Nour" in item.inner_text() and "Sami" in item.inner_text()
    item.locator("a").click()
    viewer.wait_for_url(re.compile(f"/t/{table_id}$"))
    # the players' pages count the one watcher (refreshed every 5 s)
    pages[0].wait_for_function("document.getElementById('watchers').textContent.startsWith('1 ')",
                               timeout=15000)

    forfeit(web.server, table_id, b["token"])
    won, lost = update(Glicko(), [(Glicko(), 1.0)]), update(Glicko(), [(Glicko(), 0.0)])
    cell = '#counts tr[data-mode="chkobba-1v1"] .rating'
    pages[1].goto("/p/Nour")
    assert pages[1].locator(cell).inner_text() == f"{round(won.rating)}?"
    pages[1].goto("/p/Sami")
    assert pages[1].locator(cell).inner_text() == f"{round(lost.rating)}?"
    pages[1].goto("/ratings")
    rows = pages[1].locator("#leaderboard tbody tr")
    assert rows.nth(0).inner_text().split("\t")[1:3] == ["Nour", f"{round(won.rating)}?"]
    for c in (*ctxs, viewer_ctx):
        c.close()
    assert errors == []


@pytest.mark.parametrize(("lang", "said"), [("ar", "{name}: مغادرة المباراة والانسحاب منها."),
                                            ("fr", "{name} quitte le match et déclare forfait.")])
def test_the_steps_of_a_finished_match_are_said_in_the_page_language(browser: Any, web: Site, lang: str,
                                                                     said: str) -> None:
    """The players' own step-by-step replay (/matches/<id>) labelled its steps with the record's
    English action types ("play", "forfeit") on an Arabic or French page (fresh trial): each step
    is said as the table page's log says it."""
    errors: list[str] = []
    a, b = web.account(f"Salma{lang}"), web.account(f"Karim{lang}")
    web.play([a, b], loser_seat=1)
    [m] = web.call("GET", f"/api/accounts/{a['name']}", a).json()["matches"]
    ctx = _signed_in_context(browser, web, a, locale=lang)
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": web.server.base}])
    page = _errors(ctx.new_page(), errors)
    page.goto(f"/matches/{m['match']}")
    page.wait_for_function("document.getElementById('step-state').children.length > 0")
    page.click("#step-last")
    lines = page.locator("#step-lines li").all_inner_texts()
    words = page.locator("#step-label").inner_text() + " " + " ".join(lines)
    words = words.translate(dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069")))
    assert said.format(name=b["name"]) in words, words
    assert not re.search(r"\b(forfeit|play|capture|lay|cut|keep)\b", words), words
    # The record's own field names stay, folded away under a heading in the page's words.
    assert not page.locator("#step-state").is_visible()
    summary = page.locator(".replay-details > summary").inner_text()
    assert summary and summary != "The state after this step, as the record names it"
    ctx.close()
    assert errors == []
