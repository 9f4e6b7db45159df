"""The redeal proposal and its answer (R10), and the turn clock, through the page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.plan import decks_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PHONE = {"width": 360, "height": 740}


def _seated_pages(browser: Any, base: str, console: Any, clock: int, decks: list[list[str]]) -> list[Any]:
    pages = []
    ctxs = [browser.new_context(viewport=PHONE, base_url=base, locale="en") for _ in range(2)]
    for ctx, name in zip(ctxs, ("Leila", "Karim"), strict=True):
        assert ctx.request.post("/api/players", data={"name": name}).ok
    options = {"seats": 2, "target": 11, "best_of": 1}
    t = ctxs[0].request.post("/api/tables", data={"game": "chkobba", "public": True, "clock": clock,
                                                   "options": options}).json()
    for seat, ctx in enumerate(ctxs):
        assert ctx.request.post(f"/api/tables/{t['id']}/seats", data={"seat": seat}).ok
    r = ctxs[0].request.post(f"/api/tables/{t['id']}/start", data={"first_dealer": 1, "decks": decks})
    assert r.ok, r.text()
    for ctx in ctxs:
        page = console.watch(ctx.new_page())
        page.add_init_script("localStorage.setItem('dineri_named', '1')")
        page.goto(f"/t/{t['id']}")
        page.wait_for_function("document.body.dataset.phase === 'cut'")
        pages.append(page)
    return pages


def test_redeal_refused_then_accepted(browser: Any, server: str, console: Any) -> None:
    """R10: with three 7s on the table either side may propose a redeal, out of turn too; refused,
    play goes on and that side may not propose again, while the other side still may; accepted,
    the same cutter cuts again."""
    first = ["7H", "7S", "7C", "2D"]
    rest = [c for c in decks_for(5)[0] if c not in first]
    decks = [first + rest, *decks_for(6, 3)]
    leila, karim = _seated_pages(browser, server, console, 0, decks)
    leila.fill("#cut-at", "0")
    leila.click("#cut-btn")
    leila.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    leila.click("#table-btn")  # the drawn 7H and the next 3 go to the table: three 7s (R9, R10)
    for p in (leila, karim):
        p.wait_for_function("document.body.dataset.table === '7H,7S,7C,2D'")
    # Karim may propose although it is not his turn; Leila answers no.
    karim.click("#redeal-btn")
    leila.locator("#redeal-answer").wait_for(state="visible")
    assert karim.locator("#redeal-answer").is_hidden()
    leila.click("#redeal-refuse")
    karim.wait_for_function("document.getElementById('log').textContent.includes('Leila refuses the redeal')")
    karim.wait_for_function("document.body.dataset.phase === 'play'")
    assert karim.locator("#redeal-btn").is_hidden()  # his side may not propose again (R10)
    # The other side still may: Leila proposes, Karim accepts, the same cutter cuts again.
    leila.locator("#redeal-btn").wait_for(state="visible")
    leila.click("#redeal-btn")
    karim.locator("#redeal-answer").wait_for(state="visible")
    karim.click("#redeal-accept")
    leila.wait_for_function("document.body.dataset.phase === 'cut' && document.body.dataset.turn === '0'")
    assert leila.locator("#cut-controls").is_visible()
    assert console.errors == []


def test_turn_clock_is_shown(browser: Any, server: str, console: Any) -> None:
    _leila, karim = _seated_pages(browser, server, console, 60, decks_for(8, 2))
    badge = karim.locator('.seat[data-seat="0"] .badge.clock')
    badge.wait_for(state="visible")
    karim.wait_for_function(
        "() => /^\\d+\\s+s left$/.test("
        "document.querySelector('.seat[data-seat=\"0\"] .badge.clock').textContent)")
    seconds = int(badge.inner_text().split()[0])
    assert 50 <= seconds <= 60
    assert console.errors == []
