"""The pages in a real browser at phone size (360×740) in English, French and Arabic
(issue 4, items 4-5): language from Accept-Language and from the switch (remembered),
dir="rtl" in Arabic, nothing wider than the screen, card names in the page's language,
a spectator without a hand, the connection-lost banner and the view restored."""

from __future__ import annotations

from typing import Any

import pytest

from dineri.web import i18n
from tests.web.plan import decks_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PHONE = {"width": 360, "height": 740}
RANK = {"A": "ace", "Q": "queen", "J": "jack", "K": "king"}
SUIT = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}


def english_name(code: str) -> str:
    """The English card name that is the catalogue key (``7D`` -> ``7 of diamonds``)."""
    return f"{RANK.get(code[:-1], code[:-1])} of {SUIT[code[-1]]}"


def _context(browser: Any, base: str, lang: str) -> Any:
    return browser.new_context(viewport=PHONE, locale=lang, base_url=base,
                               extra_http_headers={"Accept-Language": lang})


def _named(ctx: Any, name: str) -> None:
    r = ctx.request.post("/api/players", data={"name": name})
    assert r.ok, r.text()


def _started_table(browser: Any, base: str) -> tuple[str, Any, Any]:
    """A public 1v1 table started on a stacked deck; returns its id and the two contexts."""
    a, b = _context(browser, base, "en"), _context(browser, base, "en")
    _named(a, "Leila")
    _named(b, "Karim")
    t = a.request.post("/api/tables", data={"game": "chkobba", "public": True, "clock": 0,
                                             "options": {"seats": 2, "target": 11, "best_of": 1}}).json()
    assert a.request.post(f"/api/tables/{t['id']}/seats", data={"seat": 0}).ok
    assert b.request.post(f"/api/tables/{t['id']}/seats", data={"seat": 1}).ok
    r = a.request.post(f"/api/tables/{t['id']}/start", data={"first_dealer": 1, "decks": decks_for(3)})
    assert r.ok, r.text()
    return t["id"], a, b


def _no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"


@pytest.mark.parametrize(("lang", "heading"), [("en", "Create a table"), ("fr", "Créer une table"),
                                               ("ar", "إنشاء طاولة")])
def test_lobby_in_each_language(browser: Any, server: str, console: Any, lang: str, heading: str) -> None:
    ctx = _context(browser, server, lang)
    page = console.watch(ctx.new_page())
    page.goto("/")
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
    assert page.locator("#create-h").inner_text() == heading
    _no_overflow(page)
    ctx.close()
    assert console.errors == []


def test_language_switch_is_remembered(browser: Any, server: str, console: Any) -> None:
    ctx = _context(browser, server, "fr")
    page = console.watch(ctx.new_page())
    page.goto("/")
    assert page.get_attribute("html", "lang") == "fr"
    page.click('.langs a[hreflang="ar"]')
    page.wait_for_function("document.documentElement.lang === 'ar'")
    assert page.get_attribute("html", "dir") == "rtl"
    page.goto("/")  # the cookie beats Accept-Language from now on
    assert page.get_attribute("html", "lang") == "ar"
    ctx.close()
    assert console.errors == []


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_table_in_each_language(browser: Any, server: str, console: Any, lang: str) -> None:
    table_id, a, b = _started_table(browser, server)
    a.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
    page = console.watch(a.new_page())
    page.add_init_script("localStorage.setItem('dineri_named', '1')")
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'cut'")
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
    # Leila (seat 0) is the cutter: first dealer 1, cutter = dealer + 1 (R6).
    page.fill("#cut-at", "5")
    page.click("#cut-btn")
    page.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    page.click("#keep-btn")
    page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.hand !== ''")
    names = i18n.js_catalogue(lang)
    hand = page.evaluate("document.body.dataset.hand").split(",")
    assert len(hand) == 3
    for code in hand:
        label = page.get_attribute(f'.card[data-zone="hand"][data-card="{code}"]', "aria-label")
        assert label == names[english_name(code)]
    assert page.locator('.card[data-zone="table"]').count() == 4
    assert page.locator("#play-controls").is_visible()
    _no_overflow(page)
    a.close()
    b.close()
    assert console.errors == []


def test_spectator_sees_no_hand(browser: Any, server: str, console: Any) -> None:
    table_id, a, b = _started_table(browser, server)
    watcher = browser.new_context(viewport=PHONE, base_url=server)
    page = console.watch(watcher.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'cut'")
    # The cutter cuts and keeps through her own page; the spectator follows live.
    leila = console.watch(a.new_page())
    leila.add_init_script("localStorage.setItem('dineri_named', '1')")
    leila.goto(f"/t/{table_id}")
    leila.wait_for_function("document.body.dataset.phase === 'cut'")
    leila.click("#cut-random")
    leila.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    drawn = leila.evaluate("document.body.dataset.drawn")
    page.wait_for_function("(d) => document.body.dataset.drawn === d", arg=drawn)
    leila.click("#table-btn")
    page.wait_for_function("document.body.dataset.phase === 'play'")
    assert page.locator('.card[data-zone="hand"]').count() == 0
    assert page.evaluate("document.body.dataset.hand") == ""
    assert page.locator(".seat").count() == 2
    assert page.locator(".seat .backs img").count() == 6
    assert page.locator('.card[data-zone="table"]').count() == 4
    assert page.locator("#play-controls").is_hidden()
    assert page.locator("#forfeit-btn").is_hidden()
    # Each seat shows its player's name once, with the side by number.
    heads = page.locator(".seat .seat-head").all_inner_texts()
    assert len(heads) == 2 and all(h.count("Leila") + h.count("Karim") == 1 for h in heads), heads
    # A spectator who comes in now finds the recent events in the log (no dialog pops up).
    late = console.watch(watcher.new_page())
    late.goto(f"/t/{table_id}")
    late.wait_for_function("document.body.dataset.phase === 'play'")
    late.wait_for_function("document.querySelectorAll('#log li').length >= 3")
    text = late.locator("#log").inner_text()
    assert "The match begins." in text and "cuts at" in text and "puts the drawn card on the table" in text
    assert not late.locator("#summary").is_visible()
    for ctx in (a, b, watcher):
        ctx.close()
    assert console.errors == []


def test_connection_lost_banner_and_view_restored(browser: Any, server: str, console: Any) -> None:
    table_id, a, b = _started_table(browser, server)
    page = console.watch(b.new_page())
    page.add_init_script("localStorage.setItem('dineri_named', '1')")
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'cut'")
    assert page.locator("#offline").is_hidden()
    # A short drop (a server process going away behind the proxy) reconnects with no banner.
    page.evaluate("Dineri.sockets.forEach(function (s) { s.ws.close(); })")
    page.wait_for_function("Dineri.sockets.every(function (s) { return s.connected; })")
    page.wait_for_timeout(1800)
    assert page.locator("#offline").is_hidden()
    # A longer outage (no socket can be opened) shows it, until the server is back.
    page.evaluate("() => { window.RealWebSocket = WebSocket;"
                  " window.WebSocket = function () { throw new Error('offline'); };"
                  " Dineri.sockets.forEach(function (s) { s.ws.close(); }); }")
    page.locator("#offline").wait_for(state="visible")
    page.evaluate("() => { window.WebSocket = window.RealWebSocket; }")
    page.locator("#offline").wait_for(state="hidden", timeout=15000)
    page.wait_for_function("document.body.dataset.phase === 'cut' && document.body.dataset.turn === '0'")
    assert page.locator(".seat").count() == 2
    a.close()
    b.close()
    assert console.errors == []


def test_focus_ring_differs_from_selection(browser: Any, server: str, console: Any) -> None:
    """A focused card (keyboard) and a selected card look clearly different (issue 4, Quality)."""
    table_id, a, b = _started_table(browser, server)
    page = console.watch(a.new_page())
    page.add_init_script("localStorage.setItem('dineri_named', '1')")
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'cut'")
    page.click("#cut-random")
    page.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    page.click("#keep-btn")
    page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.hand !== ''")
    cards = page.locator('.card[data-zone="hand"]')
    page.keyboard.press("Tab")
    cards.nth(0).focus()
    page.keyboard.press("Space")  # select the first card
    page.wait_for_function("document.querySelector('.card[data-zone=\"hand\"]').classList.contains('picked')")
    cards.nth(1).focus()  # focus the second, not selected
    # The deal's cards have come from the pack (a kept card's motion runs to its end).
    page.wait_for_function("document.getAnimations().length === 0")
    style = """(el) => { const s = getComputedStyle(el), a = getComputedStyle(el, '::after');
        return { outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), shadow: s.boxShadow,
                 transform: s.transform, check: a.content }; }"""
    picked = cards.nth(0).evaluate(style)
    focused = cards.nth(1).evaluate(style)
    assert focused["outline"] == "dashed" and focused["outlineWidth"] <= 2
    assert focused["shadow"] == "none" and focused["transform"] == "none" and focused["check"] == "none"
    assert picked["outline"] != "dashed" and picked["transform"] != "none"
    assert "5px" in picked["shadow"] and "✓" in picked["check"]
    # The lifted card and its check mark stay clear of the seat's name above the hand.
    name_bottom = page.evaluate("document.querySelector('#me .seat-name').getBoundingClientRect().bottom")
    check_top = cards.nth(0).evaluate("(el) => el.getBoundingClientRect().top - 9")  # lifted already
    assert check_top >= name_bottom - 1, (check_top, name_bottom)
    a.close()
    b.close()
    assert console.errors == []


@pytest.mark.parametrize(("lang", "values", "claim"), [
    ("en", "queen (Q) 8, jack (J) 9, king (K) 10", "Claim a missed capture"),
    ("fr", "dame (Q) 8, valet (J) 9, roi (K) 10", "Réclamer une prise ratée"),
    ("ar", "البنت (Q) 8", "المطالبة بأكلة فائتة"),
])
def test_rules_panel_from_home_and_table(browser: Any, server: str, console: Any, lang: str, values: str,
                                         claim: str) -> None:
    """The short rules (R2, R13–R16, R19–R21, R26–R27) open from the home and the table pages."""
    table_id, a, b = _started_table(browser, server)
    ctx = _context(browser, server, lang)
    page = console.watch(ctx.new_page())
    for path in ("/", f"/t/{table_id}"):
        page.goto(path)
        rules = page.locator("#rules-chkobba" if path == "/" else "#rules")  # home: one per game
        assert rules.get_attribute("open") is None
        # The home page links to the rules; the table page's rules panel opens by its own title
        # (one "How to play", not a link and the panel's title: phone trial, second round).
        page.locator(".rules-link:visible, #rules > summary").first.click()
        rules.locator("li").first.wait_for(state="visible")
        text = rules.inner_text()
        assert values in text and claim in text
        assert text.count(":") >= 5  # Karta, Dinari, Barmila, Sab'a l-hayya, Baji explained
        if path == "/":
            _no_overflow(page)
    for c in (a, b, ctx):
        c.close()
    assert console.errors == []


def test_phone_layout_of_play_and_home(browser: Any, server: str, console: Any) -> None:
    """At 360×740: the opponent's hand reads "3 cards", the four play buttons (claiming always
    among them, whether or not a claim is possible: R21) take two rows, and the home page has no
    empty band under "Create the table"."""
    table_id, a, b = _started_table(browser, server)
    page = console.watch(a.new_page())
    page.add_init_script("localStorage.setItem('dineri_named', '1')")
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'cut'")
    page.click("#cut-random")
    page.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    page.click("#keep-btn")
    page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.turn === '0'")
    assert page.locator('#opponents .seat[data-seat="1"] .backs .count').inner_text() == "3 cards"
    assert page.locator("#claim-btn").is_visible()
    tops = page.eval_on_selector_all("#play-controls button",
                                     "(bs) => bs.map((b) => b.getBoundingClientRect().top)")
    assert len(tops) == 4 and len({round(t) for t in tops}) == 2, tops
    _no_overflow(page)
    page.goto("/")
    gap = page.evaluate("""() => {
        const button = document.querySelector('#create-form button[type=submit]').getBoundingClientRect();
        const panel = document.querySelector('#create-form').closest('.panel').getBoundingClientRect();
        return panel.bottom - button.bottom; }""")
    assert gap <= 24, gap
    a.close()
    b.close()
    assert console.errors == []


def test_arabic_keeps_links_left_to_right_and_lists_with_its_comma(browser: Any, server: str,
                                                                   console: Any) -> None:
    ctx = _context(browser, server, "ar")
    page = console.watch(ctx.new_page())
    page.goto("/")
    assert page.get_attribute("#join-input", "dir") == "ltr"
    assert page.evaluate("Dineri.joinList(['أ', 'ب'])") == "أ، ب"
    assert page.evaluate("Dineri.cardPhrase(['7D', 'AH'])") == "سبعة ديناري، " + page.evaluate(
        "Dineri.cardName('AH')")
    table_id, a, b = _started_table(browser, server)
    mine = console.watch(a.new_page())
    mine.add_init_script("localStorage.setItem('dineri_named', '1')")
    mine.goto(f"/lang/ar?next=/t/{table_id}")  # Leila's page, in Arabic
    assert mine.get_attribute("html", "dir") == "rtl"
    assert mine.get_attribute("#invite-link", "dir") == "ltr"
    # A Latin name inside an Arabic log line is isolated (FSI … PDI).
    mine.wait_for_function("document.body.dataset.phase === 'cut'")
    mine.click("#cut-random")
    mine.wait_for_function("document.getElementById('log').textContent.includes('\u2068Leila\u2069')")
    # The lobby lists a table's seated players with the Arabic comma too (trial item 7).
    t = a.request.post("/api/tables", data={"game": "chkobba", "public": True, "clock": 0,
                                             "options": {"seats": 4, "target": 11, "best_of": 1}}).json()
    for seat, c in enumerate((a, b)):
        assert c.request.post(f"/api/tables/{t['id']}/seats", data={"seat": seat}).ok
    page.goto("/")
    seated = page.locator(f'.lobby-table[data-table="{t["id"]}"] .hint')
    seated.wait_for()
    assert "Leila، Karim" in seated.inner_text() and ", " not in seated.inner_text()
    for c in (a, b, ctx):
        c.close()
    assert console.errors == []
