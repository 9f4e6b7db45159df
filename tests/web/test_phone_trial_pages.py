"""The fresh Arabic phone trial of 2026-12-01 (third round), in Chromium at 360 × 740: the home
page shows its open tables (and Play now) without scrolling (issue 13 item 5); a table page says
"How to play" once while it waits for players; the replay page says a 1v1 forfeit of the player,
isolates the Latin ".json", keeps its last-step button off the screen's edge and words every step
in the page's language; a 1v1 round summary gives its category points to a player, not a side."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.tables import PHONE, player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
CASES = Path(__file__).resolve().parents[1] / "cases" / "chkobba"
ONE_GAME_1V1 = {"seats": 2, "target": 11, "best_of": 1}
BOX = "(id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.top, r.bottom]; }"


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_a_new_visitor_on_a_phone_sees_the_open_tables_first(browser: Any, fresh_server: str, console: Any,
                                                            lang: str) -> None:
    """At 360 × 740 the heading of the open tables was at y 722 (fresh trial): the list comes
    before Play now and the forms; its heading and first table show without scrolling, and with
    no table listed Play now does."""
    server = fresh_server
    ctx = browser.new_context(viewport=PHONE, base_url=server, locale=lang)  # a new visitor: no name yet
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
    page = console.watch(ctx.new_page())
    page.goto("/")
    page.locator("#name-status").filter(has_text=re.compile(".")).wait_for()
    lobby, play, create = (page.evaluate(BOX, i) for i in ("lobby-h", "play-now", "create-h"))
    assert lobby[0] < play[0] < create[0], (lobby, play, create)
    assert lobby[1] <= PHONE["height"] and play[1] <= PHONE["height"], (lang, lobby, play)
    # A table opens: the list shows it, in sight.
    host = player(browser, server, "Amel", lang=lang)
    body = {"game": "chkobba", "public": True, "clock": 0, "options": ONE_GAME_1V1}
    assert host.request.post("/api/tables", data=body).ok
    first = page.locator("#lobby .lobby-table").first
    first.wait_for()
    box = first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], (lang, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for c in (ctx, host):
        c.close()
    assert console.errors == []


@pytest.mark.parametrize(("game", "how"), [
    ("chkobba", "كيف تُلعب الشكبة"), ("golf4", "كيف تُلعب الغولف بأربع أوراق"),
    ("seven_diamonds", "كيف تُلعب سبعة الديمن"),
])
def test_a_table_waiting_for_players_says_how_to_play_once(browser: Any, server: str, console: Any,
                                                          game: str, how: str) -> None:
    """The setup panel linked to the rules panel right under it, both "How to play Chkobba"."""
    host = player(browser, server, "سلمى", lang="ar")
    options = {"chkobba": {"seats": 2, "target": 11, "best_of": 1}, "golf4": {"seats": 3, "rounds": 9},
               "seven_diamonds": {"seats": 4, "target": 500}}[game]
    t = host.request.post("/api/tables", data={"game": game, "public": True, "clock": 0, "options": options})
    assert t.ok, t.text()
    page = console.watch(host.new_page())
    page.goto(f"/t/{t.json()['id']}")
    page.locator("#setup").wait_for(state="visible")
    assert page.locator(f"text={how} >> visible=true").count() == 1
    page.locator("#rules > summary").click()  # the one left opens the rules
    page.locator("#rules li").first.wait_for(state="visible")
    host.close()
    assert console.errors == []


FORFEIT_1V1 = {"ar": "سلمى: مغادرة المباراة والانسحاب منها.",
               "fr": "Karim quitte le match et déclare forfait.",
               "en": "Karim leaves the match and forfeits."}
ENGLISH_TYPES = re.compile(r"\b(play|plays|capture|lay|claim|cut|keep|forfeit|deal)\b")


@pytest.mark.parametrize("lang", ["ar", "fr", "en"])
def test_the_replay_page_words_a_1v1_forfeit_and_every_step(browser: Any, server: str, console: Any,
                                                           tmp_path: Path, lang: str) -> None:
    record = json.loads((CASES / "forfeit.json").read_text(encoding="utf-8"))["record"]
    loser = record["actions"][-1]["seat"]
    gone = "سلمى" if lang == "ar" else "Karim"  # who forfeits: an Arabic name on the Arabic page
    record["players"] = [gone if seat == loser else ("Karim" if lang == "ar" else "سلمى") for seat in (0, 1)]
    path = tmp_path / "dineri-match-1.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    ctx = browser.new_context(viewport=PHONE, base_url=server, locale=lang)
    ctx.add_cookies([{"name": "dineri_lang", "value": lang, "url": server}])
    page = console.watch(ctx.new_page())
    page.goto("/replay")
    # The file's Latin extension is an isolate of its own, left to right («(ملف ‎.json)» wrapped
    # into "json.)" at a line's start).
    ext = page.locator("#open p.hint bdi")
    assert ext.inner_text() == ".json" and ext.evaluate("(e) => getComputedStyle(e).direction") == "ltr"
    # ... and the parenthesis around it stays on one line: «(ملف» ending a line and ".json)" opening
    # the next read as jumbled.
    tops = page.evaluate("""() => { const p = document.querySelector('#open p.hint'), text = p.textContent;
        const at = text.indexOf('('), end = text.indexOf(')', at);
        const tops = new Set(), r = document.createRange();
        let seen = 0;
        const walk = (n) => { if (n.nodeType === 3) { for (let i = 0; i < n.data.length; i++, seen++) {
            if (seen < at || seen > end || n.data[i] === ' ' || n.data[i] === '\u00a0') { continue; }
            r.setStart(n, i); r.setEnd(n, i + 1); tops.add(Math.round(r.getBoundingClientRect().top)); } }
          else { n.childNodes.forEach(walk); } };
        walk(p); return Array.from(tops); }""")
    assert len(tops) == 1, tops
    page.set_input_files("#record-file", str(path))
    page.locator("#viewer").wait_for(state="visible")
    said = []
    for i in range(1, len(record["actions"]) + 1):
        page.click("#next")
        page.wait_for_function("(i) => document.body.dataset.step === String(i)", arg=i)
        said.extend(page.locator("#step-log li").all_inner_texts())
    # A 1v1: the player forfeits, never "that side" («انسحاب ذلك الفريق»).
    last = [t.translate(dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))) for t in said[-2:]]
    assert FORFEIT_1V1[lang] in last, last
    assert not any(w in " ".join(said) for w in ("الفريق", "camp", "side")), said
    if lang != "en":  # every step in the page's words: no English action type
        assert not [t for t in said if ENGLISH_TYPES.search(t)], said
    # The stepper's buttons keep clear of the screen's edges and hold their words («الأخيرة ◀◀»
    # ran out of its button to the screen's edge at 360 px, "◀ Précédente" over its neighbour).
    for button in ("#first", "#prev", "#next", "#last"):
        box = page.locator(button).bounding_box()
        assert box is not None, button
        assert box["x"] >= 8 and box["x"] + box["width"] <= PHONE["width"] - 8, (button, box)
        assert page.locator(button).evaluate("(b) => b.scrollWidth <= b.clientWidth"), button
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ctx.close()
    assert console.errors == []


@pytest.mark.parametrize(("lang", "alone", "side"), [
    ("ar", "كارطة: نقطة لمن لديه أوراق أكثر.", "الفريق"),
    ("fr", "Karta\u202f: 1 point au joueur qui a le plus de cartes.", "camp"),
    ("en", "Karta: 1 point to the player with more cards.", "side"),
])
def test_a_1v1_round_summary_gives_points_to_a_player(browser: Any, server: str, console: Any,
                                                      lang: str, alone: str, side: str) -> None:
    """Two computers play a 1v1 to its end, watched on a phone: the last round's summary explains
    each category (R26-R27) as a point to a player («لمن لديه…»), never to a side («للفريق»)."""
    host = player(browser, server, "Nour", lang=lang)
    body = {"game": "chkobba", "public": True, "clock": 0, "options": ONE_GAME_1V1}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    for seat in range(2):
        r = host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "easy"})
        assert r.ok, r.text()
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    page.locator("#last-round-btn").wait_for(state="visible", timeout=120000)
    if page.locator("dialog[open]").count():
        page.click("#summary-close")
    page.click("#last-round-btn")
    legend = page.locator("dialog[open] .legend li").all_inner_texts()
    assert alone in legend, legend
    assert not [t for t in legend if side in t], legend
    host.close()
    assert console.errors == []
