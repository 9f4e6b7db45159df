"""The visual replay in Chromium (issue 13, item 6): a player downloads the record of a match
they played, opens it on the replay page and steps it, by buttons and keys (the arrows mirrored
in Arabic), to the state ``dineri replay`` prints; every hand face up; a round can be jumped to."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.web.tables import cut_and_keep, open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
CASES = Path(__file__).resolve().parents[1] / "cases" / "chkobba"
GOLF4 = Path(__file__).resolve().parents[1] / "cases" / "golf4"

DRAWN = """() => ({
    table: Array.from(document.querySelectorAll('#table-cards .card')).map((c) => c.dataset.card),
    hands: Array.from(document.querySelectorAll('.seat[data-seat]'))
        .sort((a, b) => a.dataset.seat - b.dataset.seat)
        .map((s) => Array.from(s.querySelectorAll('.card')).map((c) => c.dataset.card)),
    pack: (document.querySelector('#pack .count') || {}).textContent || '0',
    piles: Array.from(document.querySelectorAll('.pile-box'))
        .sort((a, b) => a.dataset.pileSide - b.dataset.pileSide)
        .map((p) => p.querySelector('.pile-count').textContent),
    phase: document.body.dataset.phase, step: document.body.dataset.step })"""


def _dineri_replay(path: Path) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], capture_output=True,
                         text=True, check=True)
    return dict(json.loads(out.stdout))


def _lay_first(page: Any) -> None:
    card = page.evaluate("document.body.dataset.hand").split(",")[0]
    page.click(f'.card[data-zone="hand"][data-card="{card}"]')
    page.click("#lay-btn")
    page.wait_for_function("(c) => document.body.dataset.table.split(',').includes(c)", arg=card)


def test_a_downloaded_record_steps_to_the_dineri_replay_state(browser: Any, server: str, console: Any,
                                                             tmp_path: Path) -> None:
    a, b = player(browser, server, "Leila", lang="ar"), player(browser, server, "Karim")
    table_id = started([a, b])
    leila, karim = open_table(a, console, table_id), open_table(b, console, table_id)
    cut_and_keep(leila)
    _lay_first(leila)
    karim.wait_for_function("document.body.dataset.turn === '1'")
    _lay_first(karim)
    leila.wait_for_function("document.body.dataset.turn === '0'")
    _lay_first(leila)
    karim.on("dialog", lambda d: d.accept())
    karim.click("#forfeit-btn")
    leila.locator("#record-link").wait_for(state="visible")  # in the match-end dialog
    with leila.expect_download() as dl:
        leila.click("#record-link")
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    expect = _dineri_replay(path)
    actions = len(json.loads(path.read_text(encoding="utf-8"))["actions"])
    assert expect["ok"] and expect["phase"] == "over" and actions == 6  # cut, keep, 3 plays, forfeit

    page = console.watch(a.new_page())  # Leila's page, in Arabic
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.locator("#viewer").wait_for(state="visible")
    assert page.evaluate("document.body.dataset.step") == "0"
    assert page.locator("#prev").is_disabled() and page.locator("#first").is_disabled()
    # The phone trial's second round: the stepper's words are those of the admin's text replay
    # (الأولى/السابقة/التالية/الأخيرة), each button on one line at 360 px («◀◀ البداية» wrapped);
    # the seat select says «من منظور»; "Open a match record" is said once.
    words = [page.locator(b).inner_text().strip("◀▶ \u00a0") for b in ("#first", "#prev", "#next", "#last")]
    assert words == ["الأولى", "السابقة", "التالية", "الأخيرة"], words
    lines = page.evaluate("""['#first', '#prev', '#next', '#last'].map((id) => {
        const r = document.createRange(); r.selectNodeContents(document.querySelector(id));
        return new Set(Array.from(r.getClientRects()).map((q) => Math.round(q.top))).size; })""")
    assert lines == [1, 1, 1, 1], lines
    assert "من منظور" in page.locator(".replay-options").inner_text()
    assert page.locator("text=افتح سجلّ مباراة >> visible=true").count() == 1
    # In Arabic the way forward is to the left: ArrowLeft steps on, and "next" points left.
    assert "◀" in page.locator("#next").inner_text() and "▶" in page.locator("#prev").inner_text()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.body.dataset.step === '1'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.step === '0'")
    for i in range(1, actions + 1):
        page.click("#next")
        page.wait_for_function("(i) => document.body.dataset.step === String(i)", arg=i)
    assert page.locator("#next").is_disabled()
    drawn = page.evaluate(DRAWN)
    assert drawn["phase"] == expect["phase"] and drawn["table"] == expect["table"]
    assert drawn["hands"] == expect["hands"]  # every hand face up, as dineri replay holds them
    assert drawn["pack"] == (str(expect["deck_left"]) if expect["deck_left"] else "0")
    # The piles' counts as the replay says (the side's pile count is its first number).
    counts = [int("".join(ch for ch in p if ch.isdigit()) or 0) for p in drawn["piles"]]
    assert counts == expect["captured"]
    page.keyboard.press("Home")
    page.wait_for_function("document.body.dataset.step === '0'")
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []


def test_a_long_match_every_step_and_a_jump_to_a_round(browser: Any, server: str, console: Any,
                                                       tmp_path: Path) -> None:
    record = json.loads((CASES / "full-match-4seats-t11-bo3.json").read_text(encoding="utf-8"))["record"]
    record["players"] = ["Amel", "Bilel", "Chaima", "Dali"]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="en")
    page = console.watch(ctx.new_page())
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.locator("#viewer").wait_for(state="visible")
    # Jump to the third round: it lands on that round's deal (tests/web/test_replay_round_jump.py).
    rounds = page.locator("#round-jump option")
    assert rounds.count() >= 3
    third = rounds.nth(2)
    step = third.get_attribute("value")
    page.select_option("#round-jump", step)
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=step)
    cut = {**record, "actions": record["actions"][:int(step)]}
    cut_path = tmp_path / "cut.json"
    cut_path.write_text(json.dumps(cut), encoding="utf-8")
    expect = _dineri_replay(cut_path)
    assert third.inner_text() == f"Game {expect['game']} · Round {expect['round']}"
    drawn = page.evaluate(DRAWN)
    assert drawn["table"] == expect["table"] and drawn["hands"] == expect["hands"]
    # Seen from another seat: that seat is drawn at the bottom, the next one on its right (R4).
    page.select_option("#seat-view", "2")
    assert page.locator('#me .seat[data-seat="2"]').count() == 1
    assert "pos-right" in (page.locator('#opponents .seat[data-seat="3"]').get_attribute("class") or "")
    page.focus("#next")  # keys go to the page, not to the select just used
    page.keyboard.press("End")
    page.wait_for_function("(n) => document.body.dataset.step === String(n)", arg=len(record["actions"]))
    final = _dineri_replay(path)
    drawn = page.evaluate(DRAWN)
    assert drawn["phase"] == final["phase"] == "over" and drawn["hands"] == final["hands"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # A file that is not a record is said so, in the page's language.
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function("document.getElementById('replay-error').textContent !== ''")
    assert page.locator("#replay-error").inner_text() == "That file is not a Dineri match record."
    ctx.close()
    assert [e for e in console.errors if "422" not in e] == []  # the refused upload is logged by the browser


GOLF4_DRAWN = """() => ({
    position: document.getElementById('position').textContent, step: document.body.dataset.step,
    board: document.getElementById('board').innerText,
    shown: Array.from(document.querySelectorAll('.g4-slots .card')).map((c) => c.dataset.shown).join(','),
    grids: Array.from(document.querySelectorAll('.g4-slots')).map((g) => getComputedStyle(g).display),
    bullets: Array.from(document.querySelectorAll('.g4-slots li')).map((li) => getComputedStyle(li).display),
    names: Array.from(document.querySelectorAll('#scorebar .g4-total-item bdi')).map((b) => b.textContent),
    width: document.documentElement.scrollWidth })"""


def test_a_golf4_record_steps_with_a_counter_and_a_changing_board(browser: Any, server: str, console: Any,
                                                                 tmp_path: Path) -> None:
    """Fresh-user trial item 2: the golf4 replay steps (the counter says Step i of n, the board
    changes), each player's four cards are a 2 x 2 grid, not a bulleted list, and the totals isolate
    each name (an Arabic name beside a Latin one never reads 'Alice: 00 :سامي')."""
    record = json.loads((GOLF4 / "full-match.json").read_text(encoding="utf-8"))["record"]
    record["players"] = ["Alice", "سامي"]
    path = tmp_path / "golf4.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="ar",
                              extra_http_headers={"Accept-Language": "ar"})
    ctx.add_cookies([{"name": "dineri_lang", "value": "ar", "url": server}])
    page = console.watch(ctx.new_page())
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.locator("#viewer").wait_for(state="visible")
    steps = len(record["actions"])
    # golf4.css comes with the board partial (cloned from its <template> when the record opens):
    # the grid holds once it has loaded.
    page.wait_for_function("Array.from(document.querySelectorAll('.g4-slots'))"
                           ".every((g) => getComputedStyle(g).display === 'grid')")
    seen = [page.evaluate(GOLF4_DRAWN)]
    assert seen[0]["step"] == "0" and seen[0]["position"] != ""
    assert seen[0]["grids"] == ["grid", "grid"] and "list-item" not in seen[0]["bullets"]
    assert seen[0]["names"] == ["Alice", "سامي"]
    for i in range(1, 6):
        page.click("#next")
        page.wait_for_function("(i) => document.body.dataset.step === String(i)", arg=i)
        seen.append(page.evaluate(GOLF4_DRAWN))
    positions = [s["position"] for s in seen]
    assert len(set(positions)) == len(positions) and all(str(steps) in p for p in positions), positions
    boards = [(s["board"], s["shown"]) for s in seen]
    assert len({b for b in boards}) > 1  # the stock, discard, card in hand or cards moved
    page.keyboard.press("End")
    page.wait_for_function("(n) => document.body.dataset.step === String(n)", arg=steps)
    last = page.evaluate(GOLF4_DRAWN)
    assert last["names"] == ["Alice", "سامي"] and last["width"] <= 360
    ctx.close()
    assert console.errors == []
