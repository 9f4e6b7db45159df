"""Issue 13, the fresh Arabic phone trial (360×740), worst first: the turn clock ran while the
round summary covered the table. A connected player reading it had its turns played by the
clock, was labelled «انقطع اتصال» ("connection lost") after ``DINERI_CLOCK_AWAY_TURNS`` of them,
and its side forfeited. Now the first turn of a new round gets a round break on its clock
(``running_clock.round_break``), the summary says "your turn" with that clock when the turn is
the reader's, and a seat the clock made away reads "not playing" («لا مشاركة في اللعب»), never
"connection lost". And the match-end dialog after a forfeit says who forfeited and the result,
not the last round's table.

The moves of round 1 are sent by WebSocket clients of the same players (tests/web/plan.py);
the pages only watch."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.plan import Plan, decks_for
from tests.web.tables import open_table, player, started
from tests.web.test_match_end_phone import Driver, _token

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
SEED = 17
CLOCK = 15
BREAK = 20  # DINERI_ROUND_BREAK_SECONDS' default
CONNECTED = "Dineri.sockets.length > 0 && Dineri.sockets.every(function (s) { return s.connected; })"


def _round_one(plan: Plan) -> int:
    """How many of the plan's actions round 1 takes."""
    shadow, n = copy.deepcopy(plan), 0
    while not shadow.state.rounds:
        shadow.step(shadow.choose())
        n += 1
    return n


def _round_one_over(browser: Any, server: str, console: Any, lang: str) -> tuple[list[Any], list[Any], str]:
    """Two phones in ``lang`` at a 1v1 Chkobba table with a 15 s clock; round 1 played to its end
    by the scripted clients. Returns the contexts, the pages (seat order) and the table id, once
    both pages show the round summary."""
    ctxs = [player(browser, server, "Leïla", lang=lang), player(browser, server, "Karim", lang=lang)]
    plan = Plan(decks_for(SEED), first_dealer=0)
    table_id = started(ctxs, first_dealer=0, decks=plan.decks, clock=CLOCK)
    pages = [open_table(c, console, table_id) for c in ctxs]
    Driver(server, table_id, [_token(c) for c in ctxs], plan).run(_round_one(plan))
    for page in pages:
        page.locator("#summary .summary-table").wait_for(state="visible", timeout=60000)
    return ctxs, pages, table_id


@pytest.mark.parametrize("lang", ["ar"])
def test_the_summary_reader_gets_a_round_break_and_sees_its_turn(browser: Any, server: str,
                                                                  console: Any, lang: str) -> None:
    ctxs, pages, table_id = _round_one_over(browser, server, console, lang)
    table = ctxs[0].request.get(f"/api/tables/{table_id}").json()
    rc = table["running_clock"]
    # The new round's first turn (the cut, R8) has the clock plus the round break.
    assert rc["round_break"] == BREAK, rc
    left = rc["expires_at"] - time.time()
    assert CLOCK + 1 < left <= CLOCK + BREAK, left  # more than a plain clock: the break
    cutter, other = pages[rc["seat"]], pages[1 - rc["seat"]]
    # The reader whose turn it is reads it over the summary, with the clock (break included).
    turn = cutter.locator("#summary-turn")
    turn.wait_for(state="visible", timeout=10000)
    text = cutter.locator("#summary-turn .summary-turn-text").inner_text()
    m = re.fullmatch(r"دورك \((\d+)\u00a0ث\)", text)
    assert m and int(m.group(1)) > CLOCK, text
    assert cutter.locator("#summary-turn .clockbar").count() == 1
    # Its own seat's bar shows the break too (its own colour while the break lasts).
    assert cutter.locator(".seat.pos-bottom .clockbar.round-break").count() == 1
    assert other.locator("#summary-turn").is_hidden()
    # Continue: the table, the turn still the cutter's; nobody's turn was played meanwhile.
    cutter.click("#summary-close")
    assert cutter.evaluate("document.body.dataset.phase") == "cut"
    assert cutter.evaluate("document.body.dataset.turn") == str(rc["seat"])
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []


@pytest.mark.parametrize("lang", ["ar"])
def test_the_match_end_dialog_after_a_forfeit_says_who_and_the_result(browser: Any, server: str,
                                                                       console: Any, lang: str) -> None:
    ctxs, pages, _ = _round_one_over(browser, server, console, lang)
    # Karim leaves while Leïla still reads round 1's summary.
    pages[1].once("dialog", lambda d: d.accept())
    pages[1].click("#summary-close")
    pages[1].click("#forfeit-btn")
    leila = pages[0]
    leila.locator("#record-link").wait_for(state="visible", timeout=20000)
    body = leila.locator("#summary-body")
    # Who forfeited, and the match result; not round 1's table as if it were the result.
    assert body.locator(".summary-table").count() == 0
    forfeit = body.locator(".forfeit-line").inner_text()
    assert "Karim" in forfeit and "مغادرة المباراة" in forfeit, forfeit
    assert body.locator(".result").count() == 1
    assert leila.locator("#summary-h").inner_text() != ""
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []


@pytest.fixture
def quick_clock(tmp_path: Path) -> Iterator[str]:
    """A server whose 15 s clock runs 0.3 s: the clock plays every turn at once."""
    with running_server(tmp_path, CLOCK_SCALE="0.02") as base:
        yield base


@pytest.mark.parametrize("lang", ["ar"])
def test_a_seat_the_clock_made_away_reads_not_playing(browser: Any, quick_clock: str, console: Any,
                                                      lang: str) -> None:
    """Both players are connected and let the clock play: after ``DINERI_CLOCK_AWAY_TURNS`` the
    seat is away by the clock (``away_reason: "clock"``), and the other page says "not playing",
    in the seat's badge and in the log, never «انقطع اتصال»; no connection-lost banner."""
    ctxs = [player(browser, quick_clock, name, lang=lang) for name in ("Leïla", "Karim")]
    options = {"seats": 2, "target": 11, "best_of": 1}
    body = {"game": "chkobba", "public": True, "clock": CLOCK, "options": options}
    table_id = ctxs[0].request.post("/api/tables", data=body).json()["id"]
    pages = []
    for seat, ctx in enumerate(ctxs):
        assert ctx.request.post(f"/api/tables/{table_id}/seats", data={"seat": seat}).ok
        pages.append(console.watch(ctx.new_page()))
        pages[-1].goto(f"/t/{table_id}")
    for page in pages:  # both connected before the start
        page.wait_for_function(CONNECTED)
    assert ctxs[0].request.post(f"/api/tables/{table_id}/start", data={"decks": decks_for(3)}).ok
    badge = pages[0].locator('.seat[data-seat="1"] .badge.away')
    badge.wait_for(timeout=60000)
    pages[0].wait_for_function("(s) => /\\d/.test(document.querySelector(s).textContent)",
                               arg='.seat[data-seat="1"] .badge.away')
    text = badge.inner_text()
    assert re.fullmatch(r"لا مشاركة في اللعب: الانسحاب بعد \d+\u00a0ث", text), text
    info = ctxs[0].request.get(f"/api/tables/{table_id}").json()
    assert info["seats"][1]["away"] is True and info["seats"][1]["away_reason"] == "clock"
    log = pages[0].locator("#log").inner_text()
    assert "لا مشاركة في اللعب" in log and "انقطع" not in log, log
    for page in pages:
        assert page.locator("#offline").is_hidden()
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []
