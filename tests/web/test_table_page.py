"""The table page of issue 13 in Chromium: the seats as a physical picture in every direction
(R4), cards that move (and do not under reduced motion), the turn clock as a bar with its
warning, the tab title, sounds by choice, the card just laid, chat lines isolated in Arabic."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import cut_and_keep, open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SEATS_LEFT_TO_RIGHT = """() => Array.from(document.querySelectorAll('#opponents .seat'))
    .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
    .map((s) => Number(s.dataset.seat))"""


def _lay_first(page: Any) -> str:
    """Lay the first card of the hand; returns it."""
    card = page.evaluate("document.body.dataset.hand").split(",")[0]
    page.click(f'.card[data-zone="hand"][data-card="{card}"]')
    page.click("#lay-btn")
    page.wait_for_function("(c) => document.body.dataset.table.split(',').includes(c)", arg=card)
    return card


def test_r4_seat_order_in_arabic_2v2_equals_the_english_one(browser: Any, server: str, console: Any) -> None:
    ctxs = [player(browser, server, name) for name in ("Amel", "Bilel", "Chaima", "Dali")]
    table_id = started(ctxs)
    orders = {}
    for lang in ("en", "ar"):
        for seat in (0, 2):
            ctx = ctxs[seat]
            ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
            page = open_table(ctx, console, table_id)
            assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
            # Left to right: the seat before you, your partner across, the next player (R4: on your right).
            orders[lang, seat] = page.evaluate(SEATS_LEFT_TO_RIGHT)
            right = page.locator(f'#opponents .seat[data-seat="{(seat + 1) % 4}"]')
            assert "pos-right" in (right.get_attribute("class") or "").split()
            me_top = page.evaluate("document.querySelector('#me .seat').getBoundingClientRect().top")
            assert all(me_top > t for t in page.eval_on_selector_all(
                "#opponents .seat", "(ss) => ss.map((s) => s.getBoundingClientRect().top)"))
            # Each seat's own words keep the page's direction.
            direction = right.evaluate("(e) => getComputedStyle(e).direction")
            assert direction == ("rtl" if lang == "ar" else "ltr")
            page.close()
    assert orders["en", 0] == orders["ar", 0] == [3, 2, 1]
    assert orders["en", 2] == orders["ar", 2] == [1, 0, 3]
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []


def test_cards_move_and_do_not_under_reduced_motion(browser: Any, server: str, console: Any) -> None:
    moving = player(browser, server, "Leila")
    still = player(browser, server, "Karim", reduced_motion="reduce")
    table_id = started([moving, still])
    leila = open_table(moving, console, table_id)
    karim = open_table(still, console, table_id)
    cut_and_keep(leila)  # the deal moves Leila's new cards from the pack
    leila.wait_for_function("Number(document.body.dataset.moves || 0) > 0")
    before = int(leila.evaluate("document.body.dataset.moves"))
    # Leila lays a card: it slides from her hand to the table on her page, from her seat on Karim's.
    card = _lay_first(leila)
    leila.wait_for_function("(n) => Number(document.body.dataset.moves) > n", arg=before)
    karim.wait_for_function("(c) => document.body.dataset.table.split(',').includes(c)", arg=card)
    karim.wait_for_function("document.body.dataset.turn === '1'")
    # Karim asked for reduced motion: nothing moved on his page, no flying copy was made.
    assert karim.evaluate("document.body.dataset.moves") is None
    assert karim.locator(".flying-card").count() == 0
    # The card just laid says so on the table (and why it matters, R19-R20, in its title).
    laid = karim.locator(f'.card[data-zone="table"][data-card="{card}"]')
    assert laid.locator(".laid-tag").inner_text() == "just laid"
    assert "claim" in (laid.get_attribute("title") or "")
    # Karim's own move: still nothing moves for him; on Leila's page his card comes from his seat.
    before = int(leila.evaluate("document.body.dataset.moves"))
    _lay_first(karim)
    leila.wait_for_function("(n) => Number(document.body.dataset.moves) > n", arg=before)
    assert karim.evaluate("document.body.dataset.moves") is None
    for ctx in (moving, still):
        ctx.close()
    assert console.errors == []


HIDDEN = """Object.defineProperty(Document.prototype, 'hidden', { configurable: true,
    get: function () { return !!window.__hidden; } }); window.__hidden = true;"""


def test_tab_title_says_your_turn_in_the_background(browser: Any, server: str, console: Any) -> None:
    a, b = player(browser, server, "Leila"), player(browser, server, "Karim")
    b.add_init_script(HIDDEN)  # Karim's tab is in the background
    table_id = started([a, b])
    leila = open_table(a, console, table_id)
    karim = open_table(b, console, table_id)
    plain = karim.title()
    assert plain == "Chkobba table · Dineri"  # the game, then the brand
    cut_and_keep(leila)
    _lay_first(leila)  # now Karim's turn, while his tab is hidden
    karim.wait_for_function("document.title.startsWith('● Your turn')")
    assert karim.title() == "● Your turn · " + plain
    assert leila.title() == plain  # Leila's tab is in front: its title stays
    karim.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    karim.wait_for_function("(t) => document.title === t", arg=plain)
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


def test_turn_clock_bar_runs_down_and_warns_at_five_seconds(browser: Any, server: str, console: Any) -> None:
    a, b = player(browser, server, "Leila", lang="ar"), player(browser, server, "Karim")
    table_id = started([a, b], clock=15)
    leila = open_table(a, console, table_id)
    # Leila cuts (seat 0): her own seat's badge says "your turn" (not "his turn", issue 13 item 8).
    assert leila.locator("#me .badge.turn").inner_text() == "دورك"
    fill = "document.querySelector('#me .clockbar-fill').getBoundingClientRect().width"
    total = "document.querySelector('#me .clockbar').getBoundingClientRect().width"
    leila.wait_for_function(f"{fill} < {total} * 0.95")
    assert leila.locator("#me .clockbar.low").count() == 0
    leila.locator("#me .clockbar.low").wait_for(timeout=20000)
    assert "low" in (leila.locator("#me .badge.clock").get_attribute("class") or "")
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


def test_sounds_are_off_until_chosen_and_the_choice_is_kept(browser: Any, server: str, console: Any) -> None:
    a, b = player(browser, server, "Leila"), player(browser, server, "Karim")
    table_id = started([a, b])
    leila = open_table(a, console, table_id)
    button = leila.locator("#sound-btn")
    assert button.inner_text() == "Sound: off" and button.get_attribute("aria-pressed") == "false"
    cut_and_keep(leila)
    assert leila.evaluate("document.body.dataset.sound") is None  # nothing played while off
    button.click()
    assert button.inner_text() == "Sound: on" and button.get_attribute("aria-pressed") == "true"
    leila.reload()
    leila.wait_for_function("document.body.dataset.phase === 'play'")
    assert leila.locator("#sound-btn").inner_text() == "Sound: on"  # kept (localStorage)
    _lay_first(leila)
    leila.wait_for_function("document.body.dataset.sound === 'card'")
    r = leila.request.get("/static/sounds/card.wav")
    assert r.ok and r.body()[:4] == b"RIFF" and len(r.body()) < 40000
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


def test_chat_lines_are_isolated_in_the_arabic_log(browser: Any, server: str, console: Any) -> None:
    a, b = player(browser, server, "Leila", lang="ar"), player(browser, server, "Karim", lang="fr")
    table_id = started([a, b])
    leila = open_table(a, console, table_id)
    karim = open_table(b, console, table_id)
    karim.fill("#chat-input", "Bien joué !")
    karim.press("#chat-input", "Enter")
    line = leila.locator("#log li.chat-line").last
    line.wait_for()
    # The name and the French text are each isolated: the "!" stays at the end of the French words.
    assert line.locator("bdi").all_inner_texts() == ["Karim", "Bien joué !"]
    assert line.inner_text() == "Karim: Bien joué !"
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


def test_the_spanish_suited_deck_is_a_kept_choice(browser: Any, server: str, console: Any) -> None:
    a, b = player(browser, server, "Leila", lang="fr"), player(browser, server, "Karim")
    table_id = started([a, b])
    leila = open_table(a, console, table_id)
    cut_and_keep(leila)
    card = leila.evaluate("document.body.dataset.hand").split(",")[0]
    img = f'.card[data-zone="hand"][data-card="{card}"] img'
    assert leila.get_attribute(img, "src") == f"/static/cards/{card}.svg"  # classic by default
    leila.select_option("#deck-style", "spanish")
    leila.wait_for_function("(s) => document.querySelector(s).getAttribute('src').includes('/spanish/')",
                            arg=img)
    assert leila.get_attribute(img, "src") == f"/static/cards/spanish/{card}.svg"
    assert leila.locator(".backs img").first.get_attribute("src") == "/static/cards/spanish/back.svg"
    leila.reload()
    leila.wait_for_function("document.body.dataset.phase === 'play'")
    assert leila.get_attribute(img, "src") == f"/static/cards/spanish/{card}.svg"  # kept
    assert leila.locator("#deck-style").input_value() == "spanish"
    # Every image of the reloaded page loads (waited for: a loaded machine is slow to fetch them).
    leila.wait_for_function("Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0)")
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []
