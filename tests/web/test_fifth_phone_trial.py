"""Issue 13, a fresh Arabic phone trial (360 x 740) of the table page, worst first:

1. the clock played the reader's turn after the round break ran out, and the round summary stayed
   open over the table (its countdown restarted, the player became away under it): the summary
   closes when the clock plays this seat's turn;
2. the forfeit end dialog said «مغادرة المباراة» ("left the match") of a player whose grace ran
   out while disconnected (R33), showed «الألعاب المكسوبة: 0 مقابل 0» under a win, said "that
   side" to the own side in 2v2, and the forfeiter coming back saw no dialog at all;
3. the connection-lost banner lay over the table's cards and wrapped «المحاولة» away from its
   number;
4. the "just laid" tag («وُضعت للتوّ») covered the card's bottom index.

The moves of round 1 (item 1) are sent by WebSocket clients of the same players (tests/web/plan.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.plan import decks_for
from tests.web.tables import cut_and_keep, open_table, player, started
from tests.web.test_round_break_page import _round_one_over

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

# Drop every socket of the page and keep them from coming back (tests/web/test_own_connection_lost.py).
DROP = """Dineri.sockets.forEach(function (s) {
    s._connect = s.connect; s.connect = function () { this.retry(); }; s.ws.close(); })"""
# A server outage as the page lives it: every new attempt goes to a closed port and fails at once.
OUTAGE = """Dineri.sockets.forEach(function (s) {
    s.url = function () { return "ws://127.0.0.1:9/"; }; s.ws.close(); })"""
CONNECTED = "Dineri.sockets.length > 0 && Dineri.sockets.every(function (s) { return s.connected; })"
UNISOLATE = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))


@pytest.fixture
def no_break(tmp_path: Path) -> Iterator[str]:
    """A server without a round break: a new round's first turn has the plain 15 s clock."""
    with running_server(tmp_path, ROUND_BREAK_SECONDS="0") as base:
        yield base


@pytest.fixture
def short_grace(tmp_path: Path) -> Iterator[str]:
    """A server whose dropped seat forfeits 4 s after its last socket closed (R33)."""
    with running_server(tmp_path, GRACE_SECONDS="4") as base:
        yield base


def test_the_summary_closes_when_the_clock_plays_the_readers_turn(browser: Any, no_break: str,
                                                                  console: Any) -> None:
    """Item 1: round 1 is over and both phones show its summary; nobody presses Continue. When
    the clock plays the new round's cut for the cutter (R8), the cutter's summary closes: the
    table, the move made for it, is in sight. The other page's summary stays: its turn was not
    played."""
    ctxs, pages, table_id = _round_one_over(browser, no_break, console, "ar")
    rc = ctxs[0].request.get(f"/api/tables/{table_id}").json()["running_clock"]
    cutter, other = pages[rc["seat"]], pages[1 - rc["seat"]]
    assert cutter.evaluate("document.getElementById('summary').open")
    cutter.wait_for_function("document.body.dataset.phase !== 'cut'", timeout=40000)
    cutter.wait_for_function("!document.getElementById('summary').open", timeout=5000)
    assert "(تلقائي)" in cutter.locator("#log").inner_text()  # the clock's cut, in the log
    assert other.evaluate("document.getElementById('summary').open")
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []


def _connected_then_started(ctxs: list[Any], console: Any) -> tuple[str, list[Any]]:
    """A public Chkobba table, seat i taken by ``ctxs[i]``, every page open and connected before
    the start (a seat that never connects lapses after the grace too, which is short here)."""
    options = {"seats": len(ctxs), "target": 11, "best_of": 1}
    body = {"game": "chkobba", "public": True, "clock": 0, "options": options}
    table_id = ctxs[0].request.post("/api/tables", data=body).json()["id"]
    pages = []
    for seat, ctx in enumerate(ctxs):
        assert ctx.request.post(f"/api/tables/{table_id}/seats", data={"seat": seat}).ok
        pages.append(console.watch(ctx.new_page()))
        pages[-1].goto(f"/t/{table_id}")
    for page in pages:
        page.wait_for_function(CONNECTED)
    r = ctxs[0].request.post(f"/api/tables/{table_id}/start", data={"first_dealer": 1, "decks": decks_for(3)})
    assert r.ok, r.text()
    for page in pages:
        page.wait_for_function("document.body.dataset.phase === 'cut'")
    return table_id, pages


def _end_dialog(page: Any) -> tuple[str, str]:
    """The open match-end dialog's forfeit line and result line (isolates removed)."""
    page.locator("#record-link").wait_for(state="visible", timeout=20000)
    assert page.evaluate("document.getElementById('summary').open")
    body = page.locator("#summary-body")
    return (body.locator(".forfeit-line").inner_text().translate(UNISOLATE),
            body.locator(".result").inner_text().translate(UNISOLATE))


def test_a_1v1_forfeit_by_a_lost_connection_is_said_truly(browser: Any, short_grace: str,
                                                          console: Any) -> None:
    """Items 2a, 2b, 2d (R33): Bilel's page loses its connection and his grace runs out. Amel
    reads that he stayed disconnected (not that he left, nor «(تلقائي)»), and that she won by
    forfeit, not «الألعاب المكسوبة: 0 مقابل 0». Bilel, opening the table again, gets the same end
    dialog: why he lost, the result, the record and the rematch."""
    amel = player(browser, short_grace, "Amel", lang="ar")
    bilel = player(browser, short_grace, "Bilel", lang="ar")
    table_id, (mine, theirs) = _connected_then_started([amel, bilel], console)
    theirs.evaluate(DROP)
    forfeit, result = _end_dialog(mine)
    assert forfeit == "Bilel: انقطاع الاتصال مدةً أطول من مهلة العودة، والخسارة بالانسحاب.", forfeit
    assert "مغادرة" not in forfeit and "تلقائي" not in forfeit
    assert result == "الفوز بالمباراة بانسحاب الطرف الآخر.", result
    assert "الألعاب المكسوبة" not in mine.locator("#summary-body").inner_text()
    theirs.close()
    back = console.watch(bilel.new_page())
    back.goto(f"/t/{table_id}")
    back.wait_for_function("document.body.dataset.phase === 'over'")
    forfeit, result = _end_dialog(back)
    assert forfeit == "انقطاع اتصالك مدةً أطول من مهلة العودة، والخسارة بالانسحاب.", forfeit
    assert result == "خسارة المباراة بالانسحاب.", result
    assert back.locator("#rematch-btn").is_visible()
    for ctx in (amel, bilel):
        ctx.close()
    assert console.errors == []


def test_a_2v2_forfeit_says_your_side_to_the_own_side(browser: Any, short_grace: str, console: Any) -> None:
    """Item 2c: at a 2v2, Amel's connection is lost past the grace (R33). Her partner Chaima,
    and Amel herself coming back, read "your side" («فريقك»), never «ذلك الفريق»; an opponent reads
    "that side"."""
    ctxs = [player(browser, short_grace, name, lang="ar") for name in ("Amel", "Bilel", "Chaima", "Dali")]
    table_id, pages = _connected_then_started(ctxs, console)
    pages[0].evaluate(DROP)
    partner, _ = _end_dialog(pages[2])
    assert partner == "Amel: انقطاع الاتصال مدةً أطول من مهلة العودة، وانسحاب فريقك.", partner
    opponent, _ = _end_dialog(pages[1])
    assert opponent == "Amel: انقطاع الاتصال مدةً أطول من مهلة العودة، وانسحاب ذلك الفريق.", opponent
    pages[0].close()
    back = console.watch(ctxs[0].new_page())
    back.goto(f"/t/{table_id}")
    back.wait_for_function("document.body.dataset.phase === 'over'")
    own, _ = _end_dialog(back)
    assert "فريقك" in own and "ذلك الفريق" not in own, own
    for ctx in ctxs:
        ctx.close()
    assert console.errors == []


def _boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(selector, "(es) => es.map((e) => { const r = e.getBoundingClientRect();"
                                     " return {l: r.left, r: r.right, t: r.top, b: r.bottom}; })")


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["l"] < b["r"] - 0.5 and b["l"] < a["r"] - 0.5 and a["t"] < b["b"] - 0.5 and b["t"] < a["b"] - 0.5


def test_the_connection_lost_banner_covers_no_card(browser: Any, server: str, console: Any) -> None:
    """Item 3: the page's connection is lost at a 360 px phone: «المحاولة n» stays on one line, and
    the banner lies over none of the hand's or the table's cards, wherever the page is scrolled."""
    amel, bilel = player(browser, server, "Amel", lang="ar"), player(browser, server, "Bilel", lang="ar")
    table_id = started([amel, bilel])
    pages = [open_table(amel, console, table_id), open_table(bilel, console, table_id)]
    cutter = pages[int(pages[0].evaluate("document.body.dataset.turn"))]
    cut_and_keep(cutter)
    page = pages[0]
    page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.hand !== ''")
    page.evaluate(OUTAGE)
    page.locator("#offline").wait_for(state="visible", timeout=10000)
    page.wait_for_function("/[3-9]/.test(document.getElementById('offline-attempts').textContent)",
                           timeout=20000)
    attempts = page.locator("#offline-attempts")
    assert attempts.evaluate("(e) => e.getClientRects().length") == 1
    assert attempts.evaluate("(e) => getComputedStyle(e).whiteSpace") == "nowrap"
    for target in ("#table-cards", ".cards.hand"):
        page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'start'})", target)
        banner = _boxes(page, "#offline")[0]
        cards = _boxes(page, '.card[data-zone="hand"], .card[data-zone="table"]')
        assert cards and not [c for c in cards if _overlap(banner, c)], (target, banner, cards)
    for ctx in (amel, bilel):
        ctx.close()
    assert [e for e in console.errors if "ws://127.0.0.1:9/" not in e] == []  # but the outage's own


def test_the_just_laid_tag_leaves_the_card_face_clear(browser: Any, server: str, console: Any) -> None:
    """Item 4 (R19, R20): the card just laid carries its tag «وُضعت للتوّ» under it, not over its
    face (whose bottom corner holds the index), nor over another table card."""
    amel, bilel = player(browser, server, "Amel", lang="ar"), player(browser, server, "Bilel", lang="ar")
    table_id = started([amel, bilel])
    pages = [open_table(amel, console, table_id), open_table(bilel, console, table_id)]
    cutter = pages[int(pages[0].evaluate("document.body.dataset.turn"))]
    cut_and_keep(cutter)
    pages[0].wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.hand !== ''")
    mover = pages[int(pages[0].evaluate("document.body.dataset.turn"))]
    watcher = pages[1] if mover is pages[0] else pages[0]
    card = mover.evaluate("document.body.dataset.hand").split(",")[0]
    mover.click(f'.card[data-zone="hand"][data-card="{card}"]')
    mover.click("#lay-btn")
    for page in (mover, watcher):
        tag = page.locator(".card.just-laid .laid-tag")
        tag.wait_for(timeout=10000)
        page.wait_for_timeout(700)  # the laid card's flight (motion.js) is over
        t = _boxes(page, ".card.just-laid .laid-tag")[0]
        face = _boxes(page, ".card.just-laid img")[0]
        assert t["t"] >= face["b"] - 0.5, (t, face)
        faces = _boxes(page, '.card[data-zone="table"] img')
        assert not [f for f in faces if _overlap(t, f)], (t, faces)
    for ctx in (amel, bilel):
        ctx.close()
    assert console.errors == []
