"""Issue 13, the fresh Arabic phone trial: Arabic sentences about a player used the masculine for
every name («ينسحب», «دوره», «غائب», the admin's «يلعب … ويأكل»). Players have no gender, so
what a player reads about a seat is worded without agreeing with one: a noun phrase («دور
اللعب», «غياب: الانسحاب بعد 86 ث», «٧♦ تأكل …», «الاحتفاظ بالورقة المسحوبة»), and a player's own
seat speaks without a gendered «أنت غائب» or «تخسر» («وضع الغياب: تُحتسب عليك الخسارة …»). The
admin's computer strategies are named by their level in the page's language («متوسط», not
"medium"), the id kept in data-strategy."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from tests.web.conftest import running_server
from tests.web.tables import open_table, player, started

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "neutral-words-admin"

# Third-person words that agree with a masculine player: present-tense verbs of a move, a
# player's possessive, the away adjective, past verbs of leaving, knocking, winning and losing.
MASCULINE = re.compile(r"(?<!\w)(يلعب|يضع|يأكل|ويأكل|يحتفظ|يقترح|يقبل|يرفض|يطالب|ينادي|ينسحب|يلعبها|"
                       r"دوره|فريقه|أوراقه|غائب|غادر|خارج|أنهى|فاز|خسر|طرق)(?!\w)")
# Second-person statements that take a gender in writing (تخسرين, غائبة, مدعوّة, …).
GENDERED_YOU = re.compile(r"أنت غائب|أنت مدعوّ|أنت تتفرّج|أنت لا تنتظر|تخسر |ستخسر |تتقاسم|تلعب باسم|تلعب كضيف|"
                          r"تغادر المباراة|تحتفظ بالورقة|تمرّر الدور|أنت تمسك")
# Messages of the player pages whose subject is a player or a seat (beside every {name} one).
ABOUT_A_PLAYER = [
    "To play", "Dealer", "Away", "Away: the side forfeits in {n} s", "Away: forfeits in {n} s",
    "knocked", "Knocked", "left the match", "Out", "Won", "Lost",
    "not counted: the partner of the player who went out",
    "Not playing", "Not playing: the side forfeits in {n} s", "Not playing: forfeits in {n} s",
]
OWN_SEAT = [
    "You are away", "You are away: your side forfeits in {n} s", "You are away: you forfeit in {n} s",
    "Reconnecting: your side forfeits in {n} s", "Reconnecting: you forfeit in {n} s",
    "Your side forfeits in {n} s unless you are back.", "You forfeit in {n} s unless you are back.",
    "The clock played your turns for you. Make a move to come back.", "You are watching this table.",
    "You are invited to a Chkobba table", "You are invited to a Seven Diamonds table",
    "You are invited to a Four-card Golf table", "You play as {name}.", "You play as the guest {name}.",
    "You are not waiting for a match.", "Leave the match? Your side forfeits.",
    "Leave the match? You forfeit.",
    "Keep the drawn card, or put it on the table?", "No card fits: you pass (jella).", "You share the win!",
    "You already hold a card: swap it into a slot or discard it.",
]
# The admin's action log and results: every action and event said of a seat.
ADMIN_ABOUT_A_PLAYER = [
    "cut at %(at)s", "keeps the drawn card", "puts the drawn card on the table", "proposes a redeal",
    "accepts the redeal", "refuses the redeal", "claims a missed capture: %(card)s ← %(cards)s",
    "plays %(card)s and takes %(cards)s", "lays %(card)s", "forfeits", "calls %(call)s", "plays %(card)s",
    "passes (jella)", "Out", "game won by %(side)s", "match won by %(side)s",
]


def _catalogue(domain: str) -> dict[str, str]:
    with open(ROOT / "dineri" / "translations" / "ar" / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
        cat = read_po(f)
    out: dict[str, str] = {}
    for m in cat:
        if m.id and isinstance(m.id, str):
            out[m.id] = str(m.string)
    return out


def test_arabic_sentences_about_a_player_take_no_gender() -> None:
    """Every Arabic entry with a player as subject (both catalogues: the pages and their scripts,
    the admin) is worded without a masculine verb, possessive or adjective; the own seat's
    statements without a gendered «أنت غائب»/«تخسر»."""
    ar, admin = _catalogue("messages"), _catalogue("admin")
    about = [k for k in ar if re.search(r"\{names?\}|\{side\}", k)] + ABOUT_A_PLAYER
    bad = [(k, ar[k]) for k in about if MASCULINE.search(ar[k])]
    bad += [(k, admin[k]) for k in ADMIN_ABOUT_A_PLAYER + [k for k in admin if "%(side)s" in k]
            if MASCULINE.search(admin[k])]
    bad += [(k, ar[k]) for k in OWN_SEAT if GENDERED_YOU.search(ar[k]) or MASCULINE.search(ar[k])]
    assert bad == []


@pytest.fixture
def admin_server(tmp_path: Path) -> Iterator[str]:
    """A testing server of this test alone, with an admin token."""
    with running_server(tmp_path, ADMIN_TOKEN=TOKEN) as base:
        yield base


ADMIN_LEVELS = {"en": ["easy", "medium"], "fr": ["facile", "moyen"], "ar": ["سهل", "متوسط"]}


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_the_arabic_pages_speak_of_a_seat_without_a_gender(browser: Any, admin_server: str,
                                                           console: Any) -> None:
    """In Chromium, Arabic: the seat to play reads «دور اللعب» (not «دوره»), a seat whose player
    left reads «غياب: الانسحاب بعد … ث» (not «غائب: ينسحب»); the admin's match page words the
    computers' moves as noun phrases and names their strategies by level in en, fr and ar."""
    server = admin_server
    leila, karim = player(browser, server, "Leila", lang="ar"), player(browser, server, "Karim", lang="ar")
    table_id = started([leila, karim])
    pages = [open_table(leila, console, table_id), open_table(karim, console, table_id)]
    turn = int(pages[0].evaluate("document.body.dataset.turn"))
    watcher = pages[1 - turn]  # the seat that waits sees the other one's badge
    badge = watcher.locator(f'.seat[data-seat="{turn}"] .badge.turn')
    assert badge.inner_text() == "دور اللعب"
    assert "دوره" not in watcher.locator("#board").inner_text()
    (karim if turn == 1 else leila).close()  # the seat to play leaves: its grace runs
    away = watcher.locator(f'.seat[data-seat="{turn}"] .badge.away[data-forfeit-at]')
    away.wait_for(timeout=30000)
    watcher.wait_for_function("(s) => /\\d/.test(document.querySelector(s).textContent)",
                              arg=f'.seat[data-seat="{turn}"] .badge.away[data-forfeit-at]')
    assert re.fullmatch(r"غياب: الانسحاب بعد \d+\u00a0ث", away.inner_text()), away.inner_text()
    assert not MASCULINE.search(watcher.locator("#board").inner_text())
    watcher.context.close()

    # Two computers play a match; the admin reads its players and action log.
    host = player(browser, server, "Hôte")
    t = host.request.post("/api/tables", data={"game": "chkobba", "public": True, "clock": 0,
                                               "options": {"seats": 2, "target": 11, "best_of": 1}}).json()
    for seat, level in ((0, "greedy"), (1, "medium")):
        r = host.request.post(f"/api/tables/{t['id']}/bots", data={"seat": seat, "level": level})
        assert r.ok, r.text()
    assert host.request.post(f"/api/tables/{t['id']}/start", data={}).ok
    admin = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server)
    assert admin.request.post("/admin/login", form={"token": TOKEN}).ok
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    deadline = time.monotonic() + 60
    while True:
        matches = admin.request.get("/admin/api/matches", headers=bearer).json()["matches"]
        match = next((m for m in matches if m["table_id"] == t["id"]), None)
        log = (admin.request.get(f"/admin/api/matches/{match['id']}", headers=bearer).json()["log"]
               if match else [])
        if len(log) >= 8:  # the cut, the deal and a few plays
            break
        assert time.monotonic() < deadline, log
        time.sleep(0.3)
    for lang in ("en", "fr", "ar"):
        admin.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
        page = console.watch(admin.new_page())
        page.goto(f"/admin/matches/{match['id']}")
        cells = page.locator("table.players td.strategy")
        assert cells.all_inner_texts() == ADMIN_LEVELS[lang]
        assert cells.evaluate_all("(ts) => ts.map((t) => t.dataset.strategy)") == ["greedy", "medium"]
        words = page.locator("ol.log").inner_text()
        assert "greedy" not in page.locator("table.players").inner_text()
        if lang == "ar":
            assert not MASCULINE.search(words), words
            assert "القطع عند" in words and ("على الطاولة" in words or "تأكل" in words), words
        page.close()
    for ctx in (admin, host):
        ctx.close()
    assert console.errors == []
