"""Issue 13, the fresh Arabic phone trial: in the visual replay a jump to a round landed on the
previous round's end (its last move and "The round is over." in the log, the hands empty). A jump
to round N shows round N's deal, its first step in play, and exactly what stepping there shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
CASES = Path(__file__).resolve().parents[1] / "cases" / "chkobba"

SHOWN = """() => ({
    step: document.body.dataset.step, phase: document.body.dataset.phase,
    table: Array.from(document.querySelectorAll('#table-cards .card')).map((c) => c.dataset.card),
    hands: Array.from(document.querySelectorAll('.seat[data-seat]'))
        .sort((a, b) => a.dataset.seat - b.dataset.seat)
        .map((s) => Array.from(s.querySelectorAll('.card')).map((c) => c.dataset.card)),
    piles: Array.from(document.querySelectorAll('.pile-box .pile-count')).map((p) => p.textContent),
    score: document.getElementById('scorebar').innerText,
    log: Array.from(document.querySelectorAll('#step-log li')).map((li) => li.textContent),
    round: document.getElementById('round-jump').selectedOptions[0].textContent,
    position: document.getElementById('position').textContent })"""


def test_a_jump_to_a_round_shows_its_deal_as_stepping_there_does(browser: Any, server: str, console: Any,
                                                                 tmp_path: Path) -> None:
    record = json.loads((CASES / "full-match-4seats-t11-bo3.json").read_text(encoding="utf-8"))["record"]
    record["players"] = ["Amel", "Bilel", "Chaima", "Dali"]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server, locale="en")
    steps = ctx.request.post("/api/replay", data=record).json()["steps"]
    page = console.watch(ctx.new_page())
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.locator("#viewer").wait_for(state="visible")
    options = page.locator("#round-jump option")
    assert options.count() >= 3
    for k in (1, 2):  # the second and third rounds
        option = options.nth(k)
        label = option.inner_text()
        target = int(option.get_attribute("value") or "-1")
        state = steps[target]["state"]
        # Round N's deal: the round's first step in play, reached by the deal of its cut card.
        assert label == f"Game {state['game']} · Round {state['round']}", label
        assert state["phase"] == "play" and [e["type"] for e in steps[target]["events"]] == ["deal"]
        assert steps[target - 1]["state"]["phase"] in ("cut", "cut_choice")
        page.select_option("#round-jump", str(target))
        page.wait_for_function("(s) => document.body.dataset.step === String(s)", arg=target)
        jumped = page.evaluate(SHOWN)
        assert jumped["phase"] == "play" and all(len(h) == 3 for h in jumped["hands"]), jumped
        assert len(jumped["table"]) == 4 and jumped["round"] == label, jumped
        assert not any("round is over" in line for line in jumped["log"]), jumped["log"]
        # Stepping there from the previous round's last move gives the very same page.
        previous = next(i for i in range(target, 0, -1) if steps[i]["state"]["round"] != state["round"]
                        or steps[i]["state"]["game"] != state["game"])
        page.focus("#next")
        for _ in range(target - previous):
            page.keyboard.press("ArrowLeft")
        page.wait_for_function("(s) => document.body.dataset.step === String(s)", arg=previous)
        before = page.evaluate(SHOWN)
        assert before["round"] != label  # the previous round's last move, named by its round
        for _ in range(target - previous):
            page.click("#next")
        page.wait_for_function("(s) => document.body.dataset.step === String(s)", arg=target)
        page.wait_for_timeout(700)  # the last step's motion ends
        assert page.evaluate(SHOWN) == jumped
    ctx.close()
    assert console.errors == []
