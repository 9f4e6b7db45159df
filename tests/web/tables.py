"""Helpers of the browser tests: named players in their own browser contexts, and a table
created, filled and started on stacked decks through the REST API (testing server)."""

from __future__ import annotations

from typing import Any

from tests.web.plan import decks_for

PHONE = {"width": 360, "height": 740}


def player(browser: Any, base: str, name: str, lang: str = "en", **context: Any) -> Any:
    """A browser context with a named player (its token cookie) and the page language *lang*."""
    ctx = browser.new_context(viewport=context.pop("viewport", PHONE), locale=lang, base_url=base,
                              extra_http_headers={"Accept-Language": lang}, **context)
    r = ctx.request.post("/api/players", data={"name": name})
    assert r.ok, r.text()
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": base}])
    ctx.add_init_script("localStorage.setItem('dineri_named', '1')")
    return ctx


def enter_name(page: Any, name: str) -> None:
    """On the home page in ``page``: type ``name`` into the name form, send it, and wait until
    the page says the player goes by it."""
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")
    page.wait_for_function("(n) => document.getElementById('name-status').textContent.includes(n)", arg=name)


def started(ctxs: list[Any], *, clock: int = 0, first_dealer: int = 1, seed: int = 3,
            decks: list[list[str]] | None = None, target: int = 11) -> str:
    """A public Chkobba table for ``len(ctxs)`` seats, seat i taken by ``ctxs[i]``, started by
    seat 0 on stacked decks; returns its id."""
    host = ctxs[0]
    options = {"seats": len(ctxs), "target": target, "best_of": 1}
    body = {"game": "chkobba", "public": True, "clock": clock, "options": options}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    for seat, ctx in enumerate(ctxs):
        r = ctx.request.post(f"/api/tables/{table_id}/seats", data={"seat": seat})
        assert r.ok, r.text()
    r = host.request.post(f"/api/tables/{table_id}/start",
                          data={"first_dealer": first_dealer, "decks": decks or decks_for(seed)})
    assert r.ok, r.text()
    return table_id


def open_table(ctx: Any, console: Any, table_id: str, phase: str = "cut") -> Any:
    """The table page of *table_id* in *ctx*, once it shows *phase*."""
    page = console.watch(ctx.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("(p) => document.body.dataset.phase === p", arg=phase)
    return page


def cut_and_keep(page: Any) -> None:
    """The cutter's page cuts at 5 and keeps the drawn card (R8, R9); waits for the play."""
    page.fill("#cut-at", "5")
    page.click("#cut-btn")
    page.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    page.click("#keep-btn")
    page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.hand !== ''")


def first_lay_against_a_computer(page: Any, timeout: int) -> None:
    """At a started two-seat Chkobba table with a computer at seat 1, on seat 0's page: cut at
    random or keep whenever it is seat 0's turn to (R8, R9), until seat 0 is to play; lay the
    first of its 3 cards; then wait until the computer has answered and it is seat 0's turn again
    with 2 cards. ``timeout``: milliseconds for each wait on the computer."""
    for _ in range(3):
        page.wait_for_function(
            "document.body.dataset.turn === '0'"
            " && ['cut', 'cut_choice', 'play'].includes(document.body.dataset.phase)",
            timeout=timeout)
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "cut":
            page.click("#cut-random")
            page.wait_for_function("document.body.dataset.phase !== 'cut'")
        elif phase == "cut_choice":
            page.click("#keep-btn")
            page.wait_for_function("document.body.dataset.phase !== 'cut_choice'")
        else:
            break
    hand = page.evaluate("document.body.dataset.hand").split(",")
    assert len(hand) == 3
    page.click(f'.card[data-zone="hand"][data-card="{hand[0]}"]')
    page.click("#lay-btn")
    page.wait_for_function(
        "document.body.dataset.turn === '0' && document.body.dataset.hand.split(',').length === 2",
        timeout=timeout)
