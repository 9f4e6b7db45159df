"""Fresh new-user trial (the replay page, a players' record file): a broken file opened after a
valid one showed its error above the previous match's replay, which stayed on screen as if the
error were about it. A refused file clears the replay shown before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]
GOLF4 = Path(__file__).resolve().parents[1] / "cases" / "golf4"


def test_a_refused_file_clears_the_previous_replay(browser: Any, server: str, console: Any,
                                                   tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    record = json.loads((GOLF4 / "full-match.json").read_text(encoding="utf-8"))["record"]
    good.write_text(json.dumps(record), encoding="utf-8")
    bad.write_text('{"format":"dineri-match/1","actions":[1,2]}', encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server, locale="fr",
                              extra_http_headers={"Accept-Language": "fr"})
    ctx.add_cookies([{"name": "dineri_lang", "value": "fr", "url": server}])
    page = console.watch(ctx.new_page())
    page.goto("/replay")
    page.set_input_files("#record-file", str(good))
    page.locator("#viewer").wait_for(state="visible")
    page.click("#next")
    page.wait_for_function("document.body.dataset.step === '1'")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function("document.getElementById('replay-error').textContent !== ''")
    assert page.locator("#record-name").inner_text() == "bad.json"
    assert page.locator("#viewer").is_hidden()
    assert page.locator("#game-board .card, #step-log li").count() == 0
    # The keys step nothing any more.
    page.keyboard.press("End")
    assert page.evaluate("document.body.dataset.step") is None
    # A valid file opens as usual again.
    page.set_input_files("#record-file", str(good))
    page.locator("#viewer").wait_for(state="visible")
    assert page.locator("#replay-error").inner_text() == ""
    ctx.close()
    # The refused file's answer (4xx) is the only resource that failed.
    assert [e for e in console.errors if "Failed to load resource" not in e] == []
