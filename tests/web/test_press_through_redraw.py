"""A press that a redraw lands in still counts (issue 13, the flaky Seven Diamonds bid and first
card): the table page draws its seats and hands anew for every view, and put in by replacing the
nodes, a redraw between the mouse going down and coming up lost the click (nothing was sent).
Dineri.fill keeps the nodes that are still there, so the press goes through."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _decks(seed: int, n: int = 5) -> list[list[str]]:
    rng = random.Random(seed)
    codes = [r + s for s in "DHSC" for r in "789TJQKA"]
    out = []
    for _ in range(n):
        rng.shuffle(codes)
        out.append(list(codes))
    return out


def test_a_card_pressed_while_the_hand_is_redrawn_is_picked(browser: Any, server: str,
                                                            console: Any) -> None:
    ctxs = [player(browser, server, name) for name in ("Fahad", "Noura", "Saad", "Reem")]
    body = {"game": "seven_diamonds", "options": {}, "public": True, "clock": 0}
    table_id = ctxs[0].request.post("/api/tables", data=body).json()["id"]
    for seat, ctx in enumerate(ctxs):
        assert ctx.request.post(f"/api/tables/{table_id}/seats", data={"seat": seat}).ok
    r = ctxs[0].request.post(f"/api/tables/{table_id}/start", data={"first_dealer": 3, "decks": _decks(7)})
    assert r.ok, r.text()
    page = console.watch(ctxs[0].new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.body.dataset.phase === 'bidding' && document.body.dataset.hand !== ''")
    code = page.evaluate("document.body.dataset.hand").split(",")[2]
    card = page.locator(f'.card[data-zone="hand"][data-card="{code}"]')
    box = card.bounding_box()
    assert box is not None
    before = card.element_handle()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # The page redraws the hand while the button is down (the help switch redraws it, as a view does).
    page.evaluate("document.getElementById('sd-hints').click()")
    page.wait_for_function("document.body.dataset.hints === 'on'")
    page.mouse.up()
    # The press went through: the card is picked, and it is the same node as before the redraw.
    pressed = "(c) => document.querySelector('.card[data-zone=\"hand\"][data-card=\"' + c + '\"]')"
    page.wait_for_function(pressed + ".getAttribute('aria-pressed') === 'true'", arg=code, timeout=5000)
    assert page.locator("#selection").inner_text() != ""
    assert page.evaluate("([a, c]) => a === document.querySelector("
                         "'.card[data-zone=\"hand\"][data-card=\"' + c + '\"]')", [before, code])
    # A view that changes nothing for the hand keeps every card's node (and its image) too.
    imgs = page.evaluate("Array.from(document.querySelectorAll('#me .card img')).map((i) => i.src)")
    page.evaluate("document.getElementById('sd-hints').click()")
    page.wait_for_function("document.body.dataset.hints === 'off'")
    assert page.evaluate("Array.from(document.querySelectorAll('#me .card img')).map((i) => i.src)") == imgs
    assert page.evaluate("([a, c]) => a === document.querySelector("
                         "'.card[data-zone=\"hand\"][data-card=\"' + c + '\"]')", [before, code])
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []
