"""A fresh new-user trial at phone size (360 x 740) in Arabic (issue 13): a typed name is enough for
every button that needs one (item 5, fewer steps); a match over leaves no away marks (R33);
the "your turn" sound comes after the sound of the move that gave the turn (item 4); the
Chkobba piles, pack and table cards are in one physical place in every language (R4, item 1)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.tables import PHONE, cut_and_keep, open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def _visitor(browser: Any, server: str, lang: str = "ar") -> Any:
    """A new visitor (no name yet) on a phone, the page in ``lang``."""
    ctx = browser.new_context(viewport=PHONE, locale=lang, base_url=server,
                              extra_http_headers={"Accept-Language": lang})
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
    return ctx


def test_a_typed_name_is_enough_to_play_the_computer(browser: Any, server: str, console: Any) -> None:
    """«العب ضد الحاسوب» with a name typed and no «حفظ»: the table opens with the player seated,
    as "Create the table" and "Play now" do."""
    ctx = _visitor(browser, server)
    page = console.watch(ctx.new_page())
    page.goto("/")
    page.fill("#name-input", "Nour")
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"), timeout=15000)
    page.locator("#board").wait_for(state="visible")
    page.wait_for_function("document.getElementById('me').textContent.includes('Nour')")
    ctx.close()
    assert console.errors == []


@pytest.mark.parametrize("way", ["lobby", "invitation"])
def test_a_typed_name_goes_with_the_visitor_to_a_table(browser: Any, server: str, console: Any,
                                                        way: str) -> None:
    """An open table of the lobby ("Open the table") or an invitation pasted into "Join": the
    typed name is saved on the way, so the table page offers a seat (not "choose a name first")
    and the invitation page seats the visitor at once."""
    host = player(browser, server, "Salma")
    t = host.request.post("/api/tables", data={"game": "chkobba", "public": way == "lobby", "clock": 0,
                                                "options": {"seats": 2, "target": 11, "best_of": 1}})
    assert t.ok, t.text()
    table = t.json()
    assert host.request.post(f"/api/tables/{table['id']}/seats", data={"seat": 0, **(
        {"code": table["code"]} if table.get("code") else {})}).ok
    ctx = _visitor(browser, server)
    page = console.watch(ctx.new_page())
    page.goto("/")
    page.fill("#name-input", "Yassine")
    if way == "lobby":
        link = page.locator(f'#lobby li[data-table="{table["id"]}"] a.button')
        link.click()
        page.wait_for_url(re.compile(r"/t/" + table["id"]))
        page.locator('#setup-seats button[data-seat="1"]').wait_for()
        assert page.locator("#need-name").is_hidden()
    else:
        page.fill("#join-input", f"{server}/join/{table['id']}.{table['code']}")
        page.click("#join-form button[type=submit]")
        # The invitation page knows the name: the visitor is seated at once, at the table.
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+\?code="), timeout=15000)
        page.locator("#leave-seat").wait_for(state="visible")
        assert "Yassine" in page.locator("#setup-seats li").nth(1).inner_text()
    for c in (ctx, host):
        c.close()
    assert console.errors == []


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[str]:
    """A server whose turn clock makes a seat away after one turn it played (not three)."""
    with running_server(tmp_path, CLOCK_AWAY_TURNS="1") as base:
        yield base


def test_no_away_marks_once_a_2v2_match_is_over(browser: Any, clock_server: str, console: Any) -> None:
    """2v2, 15 s clock: the clock plays the first seat's turn and makes it away («وضع الغياب»,
    «لعب المؤقّت أدوارك…»); an opponent leaves the match (R33: that side forfeits). On the away
    seat's page the match is over: no away badge, no forfeit countdown, no "the clock played your
    turns" line, on any seat."""
    ctxs = [player(browser, clock_server, name, lang="ar") for name in ("Amel", "Bilel", "Chaima", "Dali")]
    table_id = started(ctxs, clock=15)
    probe = open_table(ctxs[0], console, table_id)
    turn = int(probe.evaluate("document.body.dataset.turn"))
    probe.close()
    page = open_table(ctxs[turn], console, table_id)
    opponent = open_table(ctxs[(turn + 1) % 4], console, table_id)
    page.locator(".seat.pos-bottom .badge.away[data-forfeit-at]").wait_for(timeout=40000)
    assert page.locator(".seat.pos-bottom .away-why").count() == 1
    opponent.on("dialog", lambda d: d.accept())
    opponent.click("#forfeit-btn")
    page.wait_for_function("document.body.dataset.phase === 'over'", timeout=15000)
    page.wait_for_timeout(500)  # a tick of the countdowns (250 ms)
    board = page.locator("#board")
    assert page.locator(".badge.away").count() == 0, board.inner_text()
    assert page.locator("[data-forfeit-at]").count() == 0
    assert page.locator(".away-why").count() == 0
    assert "لعب المؤقّت أدوارك" not in board.inner_text()
    for c in ctxs:
        c.close()
    assert console.errors == []


# Every sound the page starts, with its time (ms): the files are not played for real.
RECORD_SOUNDS = """window.__sounds = [];
HTMLMediaElement.prototype.play = function () {
  window.__sounds.push([this.src.split('/').pop().replace('.wav', ''), performance.now()]);
  return Promise.resolve();
};
localStorage.setItem('dineri_sound', '1');"""


def test_the_turn_sound_follows_the_move_sound(browser: Any, server: str, console: Any) -> None:
    """Leila lays a card: on Karim's page the card's sound plays, and "your turn" at least 300 ms
    after it (not within 10 ms, over it), while the turn itself is shown at once."""
    a, b = player(browser, server, "Leila"), player(browser, server, "Karim")
    for ctx in (a, b):
        ctx.add_init_script(RECORD_SOUNDS)
    table_id = started([a, b])
    leila = open_table(a, console, table_id)
    karim = open_table(b, console, table_id)
    cut_and_keep(leila)
    karim.wait_for_function("document.body.dataset.phase === 'play'")
    karim.evaluate("window.__sounds = []")
    card = leila.evaluate("document.body.dataset.hand").split(",")[0]
    leila.click(f'.card[data-zone="hand"][data-card="{card}"]')
    leila.click("#lay-btn")
    karim.wait_for_function("document.body.dataset.turn === '1'")
    karim.wait_for_function("window.__sounds.some((s) => s[0] === 'turn')", timeout=5000)
    sounds = karim.evaluate("window.__sounds")
    names = [s[0] for s in sounds]
    assert names == ["card", "turn"], sounds
    assert sounds[1][1] - sounds[0][1] >= 300, sounds
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


PLACES = """() => {
  const b = document.getElementById('board').getBoundingClientRect();
  const x = (el) => { const r = el.getBoundingClientRect();
                      return [Math.round(r.left - b.left), Math.round(r.top - b.top)]; };
  return {
    us: x(document.getElementById('pile-us')), them: x(document.getElementById('pile-them')),
    pack: x(document.getElementById('pack')),
    table: Array.from(document.querySelectorAll('#table-cards .card'))
      .sort((p, q) => p.getBoundingClientRect().left - q.getBoundingClientRect().left)
      .map((c) => c.dataset.card),
    titleDir: getComputedStyle(document.querySelector('#pile-us .pile-title')).direction,
  };
}"""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_chkobba_piles_pack_and_table_cards_do_not_flip_with_the_language(
        browser: Any, server: str, console: Any, viewport: dict[str, int]) -> None:
    """The piles are things on the table, like the seats (R4): in Arabic each pile box, the pack
    and the table cards are where they are in English; the opponents' pile is on the right (the
    next player's side), yours on the left; the words in each box read in the page's direction."""
    ctxs = [player(browser, server, name, viewport=viewport) for name in ("Amel", "Bilel")]
    table_id = started(ctxs)
    cut_and_keep(open_table(ctxs[0], console, table_id))
    places = {}
    for lang in ("en", "ar"):
        ctxs[0].add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
        page = open_table(ctxs[0], console, table_id, phase="play")
        page.locator("#pile-them .pile-box").wait_for()
        assert page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
        places[lang] = page.evaluate(PLACES)
        page.close()
    en, ar = places["en"], places["ar"]
    assert (ar["us"], ar["them"], ar["pack"], ar["table"]) == (en["us"], en["them"], en["pack"], en["table"])
    assert en["us"][0] < en["them"][0]  # yours on the left, the opponents' on the right
    assert len(en["table"]) == 4
    assert (en["titleDir"], ar["titleDir"]) == ("ltr", "rtl")
    for c in ctxs:
        c.close()
    assert console.errors == []
