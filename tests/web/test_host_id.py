"""Host controls follow the host's player id, never the display name (names are not unique):
a guest named like the host sees no host controls, the host does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import enter_name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def _named(browser: Any, server: str, console: Any, name: str) -> tuple[Any, Any]:
    """A browser context and page whose player (chosen on the home page) is ``name``."""
    ctx = browser.new_context(base_url=server, locale="en")
    page = console.watch(ctx.new_page())
    page.goto("/")
    enter_name(page, name)
    return ctx, page


def test_a_namesake_of_the_host_gets_no_host_controls(browser: Any, server: str, console: Any) -> None:
    host, own = _named(browser, server, console, "Twin")
    options = {"seats": 2, "target": 11, "best_of": 1}
    table = host.request.post("/api/tables", data={"options": options}).json()
    info = host.request.get(f"/api/tables/{table['id']}").json()
    assert info["host_id"] == host.request.get("/api/players/me").json()["id"] and info["host"] == "Twin"

    twin, page = _named(browser, server, console, "Twin")
    page.goto(f"/t/{table['id']}")
    page.locator('#setup-seats button[data-seat="0"]').wait_for(state="visible")
    assert page.locator("#start-match").is_hidden()
    assert page.locator("#setup-seats button.bot").count() == 0

    own.goto(f"/t/{table['id']}")
    own.locator("#start-match").wait_for(state="visible")
    assert own.locator("#setup-seats button.bot").count() == 2
    for ctx in (host, twin):
        ctx.close()
    assert console.errors == []
