"""Game and match results as a spectator reads them (R31, R32): two computer players play a best
of 3 match; a spectator's page names the winning side by its players' names, says which game
ended and that the match goes on, and never says "Opponents" (a player's word)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_spectator_reads_game_and_match_results(browser: Any, server: str, console: Any) -> None:
    host = browser.new_context(base_url=server)
    assert host.request.post("/api/players", data={"name": "Host"}).ok
    options = {"seats": 2, "target": 11, "best_of": 3}
    table = host.request.post("/api/tables", data={"options": options}).json()
    for seat in (0, 1):
        assert host.request.post(f"/api/tables/{table['id']}/bots", data={"seat": seat}).ok
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server, locale="en")
    page = console.watch(ctx.new_page())
    page.goto(f"/t/{table['id']}")
    page.locator("#setup").wait_for(state="visible")
    # The log keeps only its last 200 lines: record every line as it is added.
    page.evaluate("""() => { window.allLines = [];
        new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach(
            (li) => window.allLines.push(li.textContent)))).observe(document.getElementById('log'),
            { childList: true }); }""")
    assert host.request.post(f"/api/tables/{table['id']}/start", data={}).ok
    page.wait_for_function("document.body.dataset.phase === 'over'", timeout=240000)
    page.wait_for_function("window.allLines.some((t) => t.endsWith(' wins the match.'))")
    seats = host.request.get(f"/api/tables/{table['id']}").json()["seats"]
    # As the page names them in running text (a computer: "Computer 1", Dineri.displayName).
    names = [page.evaluate("(n) => Dineri.displayName(n)", s["player"]) for s in seats]
    log = "\n".join(page.evaluate("window.allLines"))
    first_game = next(line for line in log.splitlines() if " game 1, " in line)
    assert "Opponents" not in log and "Your side" not in log
    assert first_game.startswith(tuple(f"{n} wins game 1, " for n in names))
    assert first_game.endswith(" The match goes on.")
    winner = page.evaluate("document.body.dataset.winner")
    assert f"{names[int(winner)]} wins the match." in log
    assert page.locator("#status").inner_text() == f"{names[int(winner)]} wins the match."
    # The last round's summary keeps its Total row and says who won the last game.
    assert page.locator("#summary-h").inner_text() == f"{names[int(winner)]} wins the match."
    body = page.locator("#summary-body")
    assert body.locator("tbody th", has_text="Total").count() == 1
    assert body.locator(".game-result").inner_text().startswith(f"{names[int(winner)]} wins game ")
    assert "The match goes on." not in body.locator(".game-result").inner_text()
    ctx.close()
    host.close()
    assert console.errors == []
