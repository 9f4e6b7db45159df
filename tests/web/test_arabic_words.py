"""Words of the Arabic phone trial (issue 13, item 8 and after), in Chromium: 1v1 says you and
your opponent (never your side and the opponents, in any language), a side's names are joined
with the language's "and" (never "&"), Arabic's لـ is written onto a name, the scripts take
Arabic's six plural forms, and the seconds of the home page agree with their number."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.tables import open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))
INSIDE_SEATS = """Array.from(document.querySelectorAll('.opponents .seat')).every((s) => {
    const r = s.getBoundingClientRect();
    return Array.from(s.querySelectorAll('*')).every((e) => { const q = e.getBoundingClientRect();
        return q.width === 0 || (q.left >= r.left - 0.5 && q.right <= r.right + 0.5); }); })"""
SCORE_NAMES = "Array.from(document.querySelectorAll('#scorebar .score strong')).map((s) => s.textContent)"


CLOSE = {"ar": "إغلاق", "fr": "Fermer", "en": "Close"}
HOW = {"ar": "كيف تُلعب الشكبة", "fr": "Comment jouer à la Chkobba", "en": "How to play Chkobba"}
PILE_TITLE = {"ar": "الأوراق التي أكلها خصمك", "fr": "Cartes prises par votre adversaire",
              "en": "Cards taken by your opponent"}


@pytest.mark.parametrize(("lang", "you", "opponent"),
                         [("ar", "أنت", "خصمك"), ("fr", "Vous", "Votre adversaire"),
                          ("en", "You", "Your opponent")])
def test_one_against_one_says_you_and_your_opponent(browser: Any, server: str, console: Any,
                                                    lang: str, you: str, opponent: str) -> None:
    a, b = player(browser, server, "يوسف", lang=lang), player(browser, server, "Karim", lang=lang)
    table_id = started([a, b])
    page = open_table(a, console, table_id)
    assert page.evaluate(SCORE_NAMES) == [you, opponent]
    assert sorted(page.locator(".pile-title").all_inner_texts()) == sorted([you, opponent])
    # No side tag on a seat: in 1v1 the seat's name says who it is.
    assert page.locator(".side-tag").count() == 0
    page.locator('.pile-count[data-open-pile="1"]').click()
    assert page.locator("#summary-h").inner_text() == PILE_TITLE[lang]
    # A look at a pile closes with "Close" («إغلاق»), not a summary's "Continue" (trial, 2nd round).
    assert page.locator("#summary-close").inner_text() == CLOSE[lang]
    # The table page says "How to play Chkobba" once (the rules panel), not a link as well.
    assert page.locator("text=" + HOW[lang] + " >> visible=true").count() == 1
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


def test_arabic_sides_plurals_and_the_lam(browser: Any, server: str, console: Any) -> None:
    names = ["أمل", "Bilel", "شيماء", "دالي"]
    ctxs = [player(browser, server, name, lang="ar") for name in names]
    table_id = started(ctxs)
    watcher = player(browser, server, "سامي", lang="ar")
    page = open_table(watcher, console, table_id)
    # A spectator reads each side by its players' names, joined with و (written onto an Arabic
    # name, spaced before a Latin one), never "&".
    sides = [t.translate(ISOLATES) for t in page.evaluate(SCORE_NAMES)]
    assert sides == ["أمل وشيماء", "Bilel ودالي"], sides
    both = "(ns) => Dineri.joinAnd(ns.map((n) => '\u2068' + n + '\u2069'))"
    assert page.evaluate(both, ["سامي", "Alice"]).translate(ISOLATES) == "سامي و Alice"
    assert "&" not in page.locator("#board").inner_text()
    # 2v2 keeps the sides' words for a seated player.
    seated = open_table(ctxs[0], console, table_id)
    assert seated.evaluate(SCORE_NAMES) == ["فريقك", "الخصوم"]
    # لـ joins a name: «شكبة للاعب آلي 2!», «شكبة للحاسوب!»; a Latin name keeps its own letters.
    line = "(n) => Dineri.fmt(Dineri._('Chkobba for {name}!'), { name: '\\u2068' + n + '\\u2069' })"
    assert page.evaluate(line, "لاعب آلي 2").translate(ISOLATES) == "شكبة للاعب آلي 2!"
    assert page.evaluate(line, "الحاسوب").translate(ISOLATES) == "شكبة للحاسوب!"
    assert page.evaluate(line, "Alice").translate(ISOLATES) == "شكبة لـAlice!"
    # The scripts use the catalogue's six Arabic forms (0, 1, 2, 3-10, 11-99, 100+).
    forms = page.evaluate("[0, 1, 2, 5, 11, 100, 103].map((n) => Dineri.fmt(Dineri.ngettext("
                          "'{n} card', '{n} cards', n), { n: n }))")
    assert forms == ["لا أوراق", "ورقة واحدة", "ورقتان", "5 أوراق", "11 ورقة", "100 ورقة", "103 أوراق"]
    # The home page's waits agree with their number: «بعد 10 ثوانٍ», «بعد 30 ثانية».
    page.goto("/")
    waits = page.locator("#bot-after option").all_inner_texts()
    # (number and unit held together by a no-break space: the trial's second round, item 4)
    assert [w.replace("\u00a0", " ") for w in waits[1:]] == [
        "بعد 10 ثوانٍ", "بعد 30 ثانية", "بعد 60 ثانية", "بعد 120 ثانية"], waits
    assert all("\u00a0" in w for w in waits[1:]), waits
    for ctx in [*ctxs, watcher]:
        ctx.close()
    assert console.errors == []


@pytest.fixture
def steady_bots(tmp_path: Path) -> Iterator[str]:
    """A server whose computer players wait 1 s before each move: the page draws every step."""
    with running_server(tmp_path, BOT_DELAY="1.0") as base:
        yield base


def test_four_computers_watched_on_an_arabic_phone_fit_their_seats(browser: Any, steady_bots: str,
                                                                 console: Any) -> None:
    server = steady_bots
    """Four seats across a 360 px phone, each with its backs and its count: every seat's words
    stay inside its box at every step drawn while the computers play (the count went under the
    backs instead of being cut at the screen's edge, «ورقتا» for ورقتان)."""
    host = player(browser, server, "سامي", lang="ar")
    # After each redraw of the seats, whether every seat's content is inside it (and what it said).
    host.add_init_script("window.__seen = []; document.addEventListener('DOMContentLoaded', () => {"
                         " const o = document.getElementById('opponents');"
                         " new MutationObserver(() => requestAnimationFrame(() => window.__seen.push("
                         "[" + INSIDE_SEATS + ", o.innerText]))).observe(o, { childList: true, subtree: true,"
                         " characterData: true }); });")
    options = {"seats": 4, "target": 11, "best_of": 1}
    body = {"game": "chkobba", "public": True, "clock": 0, "options": options}
    table_id = host.request.post("/api/tables", data=body).json()["id"]
    for seat in range(4):
        assert host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat}).ok
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    page.locator("#setup").wait_for(state="visible")
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    # Sixteen redraws of the play: hands of three, two, one card and none, every count.
    page.wait_for_function("document.body.dataset.phase === 'play'", timeout=30000)
    page.wait_for_function("window.__seen.length >= 16", timeout=60000)
    seen = page.evaluate("window.__seen")
    assert all(ok for ok, _text in seen), [text for ok, text in seen if not ok][:2]
    assert any("ورقتان" in text for _ok, text in seen)  # two cards beside their backs were drawn
    host.close()
    assert console.errors == []
