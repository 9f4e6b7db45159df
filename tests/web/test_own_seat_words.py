"""Words of the native-Arabic phone trial, second round (issue 13): what your own seat says
when you are away, and the seconds left in a background tab's title."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import running_server
from tests.web.tables import open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# The page believes it is in the background (a hidden tab), from its first script on.
HIDDEN = ("Object.defineProperty(document, 'hidden', { get: () => true });"
          "Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });")
OWN_AWAY = ".seat.pos-bottom .badge.away[data-forfeit-at]"
# The background tab's title ends with the game's table and the brand.
TITLE_END = {"ar": ") · طاولة الشكبة · Dineri", "en": ") · Chkobba table · Dineri"}


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[str]:
    """A server whose turn clock makes a seat away after one turn it played (not three)."""
    with running_server(tmp_path, CLOCK_AWAY_TURNS="1") as base:
        yield base


@pytest.mark.parametrize(("lang", "title", "badge", "why"), [
    ("ar", "● دورك (", "وضع الغياب: تُحتسب عليك الخسارة بعد ", "لعب المؤقّت أدوارك"),
    ("en", "● Your turn (", "You are away: you forfeit in ", "The clock played your turns"),
])
def test_your_own_away_seat_speaks_to_you_and_the_title_counts_down(
        browser: Any, clock_server: str, console: Any, lang: str, title: str, badge: str,
        why: str) -> None:
    """1v1 with a 15 s clock, nobody plays: the seat to act sees its seconds in the hidden tab's
    title («● دورك (12 ث) · …»); once the clock has played its turn, its own seat says «وضع الغياب:
    تُحتسب عليك الخسارة بعد … ث» (never the third person «ينسحب فريقه», nor a gendered «أنت غائب:
    تخسر») and why, with how to come back."""
    a, b = (player(browser, clock_server, name, lang=lang) for name in ("Amel", "Bilel"))
    for ctx in (a, b):
        ctx.add_init_script(HIDDEN)
    table_id = started([a, b], clock=15)
    pages = [open_table(a, console, table_id), open_table(b, console, table_id)]
    turn = int(pages[0].evaluate("document.body.dataset.turn"))
    page = pages[turn]
    page.wait_for_function("(t) => document.title.startsWith(t)", arg=title)
    # «● دورك (12 ث) · …»: the number held to its unit by a no-break space.
    seconds = re.match(r"(\d+)\u00a0", page.evaluate("document.title")[len(title):])
    assert seconds and 0 <= int(seconds.group(1)) <= 15, page.evaluate("document.title")
    assert page.evaluate("document.title").endswith(TITLE_END[lang]), page.evaluate("document.title")
    page.locator(OWN_AWAY).wait_for(timeout=40000)
    page.wait_for_function("([s, t]) => document.querySelector(s).textContent.startsWith(t)",
                           arg=[OWN_AWAY, badge])
    assert why in (page.locator(OWN_AWAY).get_attribute("title") or "")
    assert why in page.locator(".seat.pos-bottom .away-why").inner_text()
    # The other page still speaks of that seat in the third person.
    other = pages[1 - turn].locator(".badge.away[data-forfeit-at]")
    other.wait_for(timeout=10000)
    assert not other.inner_text().startswith(badge)
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []
