"""Games to watch update live (issue 14 item 5): a page left open on /watch shows a public match
as it starts, with its game and mode, players and score, and drops it when it ends, with no
reload (the list polls /api/watch every 3 s)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_the_watch_list_follows_matches_as_they_start_and_end(browser: Any, fresh_server: str,
                                                              console: Any) -> None:
    server = fresh_server
    viewer_ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="fr")
    viewer_ctx.add_cookies([{"name": "dineri_lang", "value": "fr", "url": server}])
    viewer = console.watch(viewer_ctx.new_page())
    viewer.goto("/watch")
    viewer.locator("#live-empty").wait_for(state="visible")
    viewer.evaluate("window.__same_page = true")  # gone if the page were loaded again

    ctxs = [player(browser, server, name) for name in ("Amel", "Bilel", "Chaima", "Dali")]
    table_id = started(ctxs)  # a public Chkobba 2v2 match, started: it appears on its own
    item = viewer.locator(f'#live li[data-table="{table_id}"]')
    item.wait_for(timeout=15000)
    assert viewer.locator("#live-empty").is_hidden()
    text = item.inner_text()
    assert "Chkobba, 2 contre 2" in text and all(n in text for n in ("Amel", "Bilel", "Chaima", "Dali"))
    assert "0 – 0" in text
    # A player's side forfeits: the finished match leaves the list, still without a reload.
    page = open_table(ctxs[1], console, table_id)
    page.on("dialog", lambda d: d.accept())
    page.click("#forfeit-btn")
    page.wait_for_function("document.body.dataset.phase === 'over'")
    item.wait_for(state="detached", timeout=15000)
    viewer.locator("#live-empty").wait_for(state="visible")
    assert viewer.evaluate("window.__same_page === true")
    assert viewer.url.endswith("/watch")
    for ctx in (*ctxs, viewer_ctx):
        ctx.close()
    assert console.errors == []
