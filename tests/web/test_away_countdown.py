"""Issue 13 item 3: a player who is away shows a countdown to its side's forfeit, from the
table info's ``forfeit_at`` (the end of its grace, ``DINERI_GRACE_SECONDS``: 90 s here)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables import open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_an_away_player_shows_the_countdown_to_the_forfeit(browser: Any, server: str, console: Any) -> None:
    """R33: the page of the player still there counts down the away player's grace to its side's
    forfeit."""
    amel, bilel = player(browser, server, "Amel"), player(browser, server, "Bilel")
    table_id = started([amel, bilel])
    page = open_table(amel, console, table_id)
    gone = open_table(bilel, console, table_id)
    gone.context.close()  # Bilel's last socket closes: he is away, his grace runs
    badge = page.locator(".badge.away[data-forfeit-at]")
    badge.wait_for(timeout=30000)
    page.wait_for_function(
        "document.querySelector('.badge.away[data-forfeit-at]').textContent.includes('forfeits in')")
    first = int(re.search(r"(\d+)\s+s", badge.inner_text()).group(1))  # type: ignore[union-attr]
    assert 60 <= first <= 90
    page.wait_for_timeout(2500)
    later = int(re.search(r"(\d+)\s+s", badge.inner_text()).group(1))  # type: ignore[union-attr]
    assert later < first  # it runs down
    amel.close()
