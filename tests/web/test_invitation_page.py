"""The invitation page names the host and the table's settings, and says at once when the link
is wrong; the host's Copy button confirms the copy."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_invitation_page_and_copy(browser: Any, server: str, console: Any) -> None:
    host = browser.new_context(base_url=server, locale="en")
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    assert host.request.post("/api/players", data={"name": "Nour"}).ok
    table = host.request.post("/api/tables", data={"options": {"seats": 4, "target": 21, "best_of": 3},
                                                   "public": False, "clock": 30}).json()
    guest = browser.new_context(base_url=server, locale="en")
    page = console.watch(guest.new_page())
    page.goto(f"/join/{table['id']}.{table['code']}")
    page.locator("#invite-from").wait_for(state="visible")
    assert page.locator("#invite-from").inner_text() == "Nour invites you to their table."
    assert page.locator("#invite-options").inner_text() == \
        "2 against 2 · game to 21 points · best of 3 games · 30\u00a0s per turn · private"
    assert page.locator("#join-status").inner_text() == ""
    # A wrong code is reported before anything is typed, and the button is disabled.
    page.goto(f"/join/{table['id']}.wrongcode")
    page.wait_for_function("document.getElementById('join-status').textContent !== ''")
    assert "not valid" in page.locator("#join-status").inner_text()
    assert page.locator("#join-name-form button").is_disabled()
    # The host copies the invitation link: the button says so.
    mine = console.watch(host.new_page())
    mine.add_init_script("localStorage.setItem('dineri_named', '1')")
    mine.goto(f"/t/{table['id']}?code={table['code']}")
    mine.wait_for_function("document.getElementById('invite-link').value.includes('/join/')")
    mine.click("#copy-invite")
    mine.wait_for_function("document.getElementById('copy-invite').textContent === 'Copied'")
    assert mine.evaluate("navigator.clipboard.readText()") == mine.locator("#invite-link").input_value()
    host.close()
    guest.close()
    assert [e for e in console.errors if "404" not in e] == []


def test_invitation_to_another_game_names_it_and_its_settings(browser: Any, server: str,
                                                               console: Any) -> None:
    """A golf4 or Seven Diamonds invitation says its own game and settings (it said "a Chkobba
    table" and "best of undefined games")."""
    host = browser.new_context(base_url=server, locale="en")
    assert host.request.post("/api/players", data={"name": "Nour"}).ok
    guest = browser.new_context(base_url=server, locale="en")
    page = console.watch(guest.new_page())
    for game, options, heading, words in (
            ("golf4", {"seats": 3}, "You are invited to a Four-card Golf table",
             "3 players · 9 rounds · no turn clock · private"),
            ("seven_diamonds", {}, "You are invited to a Seven Diamonds table",
             "2 against 2 · game to 500 points · no turn clock · private")):
        table = host.request.post("/api/tables", data={"game": game, "options": options, "public": False,
                                                       "clock": 0}).json()
        page.goto(f"/join/{table['id']}.{table['code']}")
        page.locator("#invite-options").wait_for(state="visible")
        assert page.locator("h1").inner_text() == heading
        assert page.locator("#invite-options").inner_text() == words
    host.close()
    guest.close()
    assert console.errors == []
