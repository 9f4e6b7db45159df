"""Fresh new-user trial: one computer player had three names. The seat box said «الحاسوب 2 /
متوسط», the seat list and the log «لاعب الحاسوب 2 · متوسط», and the status line put the level
mid-sentence («دور لاعب الحاسوب 2 · متوسط في اللعب.», "Ordinateur 3 · moyen joue."). Running text
(the status line, the log) names a computer without its level («الحاسوب 2», "Ordinateur 2"); the
level shows only where a seat is drawn (its small second line) and in the list of seats."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

# Every text the status line and the log show, as they are drawn.
RECORD = """window.__said = []; document.addEventListener('DOMContentLoaded', () => {
  for (const id of ['status', 'log']) {
    const node = document.getElementById(id);
    new MutationObserver(() => window.__said.push(id === 'log' && node.lastChild
      ? node.lastChild.textContent : node.textContent)).observe(node,
      { childList: true, subtree: true, characterData: true });
  } });"""


@pytest.fixture
def steady_bots(tmp_path: Path) -> Iterator[str]:
    """A server whose computer players wait 1 s before each move: the page draws every step."""
    with running_server(tmp_path, BOT_DELAY="1.0") as base:
        yield base


@pytest.mark.parametrize(("lang", "name", "level", "playing"), [
    ("ar", "الحاسوب {n}", "متوسط", "دور {name} في اللعب."),
    ("fr", "Ordinateur {n}", "moyen", "{name} joue."),
])
def test_a_computer_has_one_short_name_in_running_text(browser: Any, steady_bots: str, console: Any,
                                                       lang: str, name: str, level: str,
                                                       playing: str) -> None:
    watcher = player(browser, steady_bots, "Sami", lang=lang)
    watcher.add_init_script(RECORD)
    options = {"seats": 2, "target": 11, "best_of": 1}
    body = {"game": "chkobba", "public": True, "clock": 0, "options": options}
    table_id = watcher.request.post("/api/tables", data=body).json()["id"]
    for seat in range(2):
        r = watcher.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "medium"})
        assert r.ok, r.text()
    page = console.watch(watcher.new_page())
    page.goto(f"/t/{table_id}")
    page.locator("#setup").wait_for(state="visible")
    # The list of seats names each computer with its level.
    seats = page.locator("#setup-seats li").all_inner_texts()
    assert all(f"{name.format(n=i + 1)} · {level}" in s for i, s in enumerate(seats)), seats
    assert watcher.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page.wait_for_function("document.body.dataset.phase === 'play'", timeout=30000)
    page.wait_for_function("document.querySelectorAll('#log li').length >= 6", timeout=60000)
    # A seat box: the short name, the level on its own small line.
    box = page.locator('.seat[data-seat="0"] .seat-name')
    assert box.locator(".seat-who").inner_text() == name.format(n=1)
    assert box.locator(".seat-level").inner_text() == level
    said = [t for t in page.evaluate("window.__said") if t]
    names = [name.format(n=n) for n in (1, 2)]
    assert any(t in {playing.format(name=n) for n in names} for t in said), said
    assert not [t for t in said if level in t or "·" in t or "لاعب الحاسوب" in t], said
    assert any(n in t for t in page.locator("#log li").all_inner_texts() for n in names)
    watcher.close()
    assert console.errors == []
