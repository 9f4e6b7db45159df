"""A private 1v1 table on phones (360×740), as a new user reported it: the guest is told the table
waits for the host; a refused capture keeps the selection; the primary button stands out on the
felt; the hidden heading takes no room; and the second player to ask for the rematch of a private
table lands with the invitation code in the URL, so leaving the seat does not lock the page out."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dineri.engine import is_legal_capture, parse_card
from tests.web.tables import enter_name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PHONE = {"width": 360, "height": 740}

# WCAG relative luminance and contrast ratio of two "rgb(r, g, b)" colours.
_CONTRAST = """([a, b]) => {
  const lum = (c) => { const v = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((x) => {
    x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05); }"""


def _named(browser: Any, console: Any, server: str, name: str, lang: str) -> Any:
    ctx = browser.new_context(viewport=PHONE, base_url=server, locale=lang)
    page = console.watch(ctx.new_page())
    page.goto("/")
    enter_name(page, name)
    return page


def _on_turn(pages: list[Any], controls: str) -> Any:
    """The page whose ``controls`` row shows (the player to act)."""
    for _ in range(100):
        for p in pages:
            if p.locator(controls).is_visible():
                return p
        pages[0].wait_for_timeout(100)
    raise AssertionError(f"nobody sees {controls}")


def _style(page: Any, selector: str, prop: str) -> str:
    return str(page.eval_on_selector(selector, f"(e) => getComputedStyle(e).{prop}"))


def test_private_table_on_phones(browser: Any, server: str, console: Any) -> None:
    host = _named(browser, console, server, "Nour", "fr")
    host.check('input[name="public"][value="0"]')
    host.click("#create-form button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+\?code="))
    table_id = host.url.split("/t/")[1].split("?")[0]
    guest = _named(browser, console, server, "Sami", "ar")
    guest.goto(host.url.split("/t/")[0] + "/t/" + table_id + "?code=" + host.url.split("code=")[1])
    guest.click('#setup-seats button[data-seat="1"]')

    # A full table: the guest waits for the host, the host is asked to start.
    guest.wait_for_function("document.getElementById('leave-seat').hidden === false")
    assert guest.locator("#setup-h").inner_text() == "في انتظار أن يبدأ المضيف المباراة"
    host.wait_for_function("!document.getElementById('start-match').disabled")
    assert host.locator("#setup-h").inner_text() == "Commencer le match"
    # A computer player's name is worded in the page's language (the server's name is English).
    # ... without its level in running text; with it, in the players' words (greedy reads as easy),
    # in a list of seats.
    assert guest.evaluate("Dineri.displayName('Bot 2 (greedy)')") == "الحاسوب 2"
    assert guest.evaluate("Dineri.fullName('Bot 2 (greedy)')") == "الحاسوب 2 · سهل"
    assert guest.evaluate("Dineri.fullName('Bot 3 (hard)')") == "الحاسوب 3 · صعب"
    assert guest.evaluate("Dineri.displayName('Bot 2 (greedy) x')") == "Bot 2 (greedy) x"

    # The visually hidden heading takes no room: the status line starts where main's content does.
    box = host.locator("h1.sr-only").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    assert _style(host, "h1.sr-only", "clipPath") == "inset(50%)"
    main, setup = host.locator("main").bounding_box(), host.locator("#setup").bounding_box()
    assert main is not None and setup is not None and setup["y"] - main["y"] <= 8

    host.click("#start-match")
    pages = [host, guest]
    _on_turn(pages, "#cut-controls").click("#cut-random")
    _on_turn(pages, "#choice-controls").click("#keep-btn")
    player = _on_turn(pages, "#play-controls")

    # Counts take the language's plural form (Arabic 3–10: أوراق); the pack's count is a badge
    # hanging off the card back's corner, not over the logo in its middle.
    # (The guest's page draws the host's moves a pace apart: wait for the deal to be drawn.)
    guest.wait_for_function(
        "(document.querySelector('.opponents .backs .count') || {}).textContent === '3 أوراق'")
    back = guest.locator(".pack-box img").bounding_box()
    badge = guest.locator(".pack-box .count").bounding_box()
    assert back is not None and badge is not None
    assert badge["y"] + badge["height"] > back["y"] + back["height"]

    # The primary action reads well (text ≥ 4.5:1) and stands out from the felt (≥ 3:1).
    fg, bg = _style(player, "#capture-btn", "color"), _style(player, "#capture-btn", "backgroundColor")
    felt = _style(player, "#board", "backgroundColor")
    assert player.evaluate(_CONTRAST, [fg, bg]) >= 4.5
    assert player.evaluate(_CONTRAST, [bg, felt]) >= 3
    quiet = _style(player, "#lay-btn", "backgroundColor")
    assert player.evaluate(_CONTRAST, [bg, felt]) > player.evaluate(_CONTRAST, [quiet, felt])

    # A refused capture (a table card of another value, R13) keeps the hand card and the table card
    # selected, so the player can fix the choice.
    hand = player.evaluate("document.body.dataset.hand").split(",")
    table = player.evaluate("document.body.dataset.table").split(",")
    on_table = [parse_card(x) for x in table]
    mine, taken = next((h, t) for h in hand for t in table
                       if not is_legal_capture(parse_card(h), [parse_card(t)], on_table))
    player.click(f'.card[data-zone="hand"][data-card="{mine}"]')
    player.click(f'.card[data-zone="table"][data-card="{taken}"]')
    player.click("#capture-btn")
    player.wait_for_function("document.getElementById('error').textContent !== ''")
    assert player.get_attribute(f'.card[data-zone="hand"][data-card="{mine}"]', "aria-pressed") == "true"
    assert player.get_attribute(f'.card[data-zone="table"][data-card="{taken}"]', "aria-pressed") == "true"
    assert player.locator("#selection").inner_text() != ""
    # Fixing it: the table card is put back; the hand card is still the one chosen.
    player.click(f'.card[data-zone="table"][data-card="{taken}"]')
    assert player.get_attribute(f'.card[data-zone="hand"][data-card="{mine}"]', "aria-pressed") == "true"
    assert player.get_attribute(f'.card[data-zone="table"][data-card="{taken}"]', "aria-pressed") == "false"

    # The check mark of a selected card stays on its top right corner in Arabic too: the faces
    # print their index at the top left, which a mirrored (inline-end) place would cover.
    if player is not guest:
        guest.click('.card[data-zone="hand"]')
    after = guest.eval_on_selector(".card.picked", "(e) => [getComputedStyle(e, '::after').right,"
                                   " getComputedStyle(e, '::after').left]")
    assert after[0] == "-9px" and after[1] != "-9px"

    # The match ends by forfeit; the host asks for the rematch first, the guest second.
    guest.once("dialog", lambda d: d.accept())
    guest.click("#forfeit-btn")
    for p in pages:
        p.wait_for_function("document.body.dataset.phase === 'over'")
        p.keyboard.press("Escape")
    host.click("#rematch-board")
    host.wait_for_url(re.compile(r"/t/(?!" + table_id + r")[A-Za-z0-9_-]+\?code=[A-Za-z0-9_-]+$"))
    new_id, new_code = host.url.split("/t/")[1].split("?code=")
    # The page must not depend on the server's version: the answer carries the code (added to it
    # here if this server does not send it yet to a player who is not the new table's host).
    answers: list[bool] = []

    def add_code(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        answers.append("code" in body)
        body.setdefault("code", new_code)
        route.fulfill(response=response, json=body)

    guest.route("**/api/tables/*/rematch", add_code)
    guest.locator("#rematch-board").wait_for(state="visible")
    guest.click("#rematch-board")
    guest.wait_for_url(re.compile(rf"/t/{new_id}\?code={new_code}$"))
    guest.wait_for_function("document.getElementById('invite').hidden === false")
    assert guest.locator("#invite-link").input_value().endswith(f"/join/{new_id}.{new_code}")
    # Leaving the seat keeps the page on the table: its free seats are offered again.
    guest.wait_for_function("document.getElementById('leave-seat').hidden === false")
    guest.click("#leave-seat")
    guest.locator('#setup-seats button[data-seat="1"]').wait_for(state="visible")
    assert guest.locator("#setup").is_visible()
    guest.reload()
    guest.locator('#setup-seats button[data-seat="1"]').wait_for(state="visible")
    assert len(answers) == 1
    host.context.close()
    guest.context.close()
    assert console.errors == []
