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
