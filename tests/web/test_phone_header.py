"""Fresh new-user trial (phone, 360 × 740, Arabic): the header's language links stood in three
lines, and the header took ~185 px of the screen. The language links keep to one line beside the
brand, the site links go under them, and the header stays under 100 px, in every language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import PHONE, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

HEADER = """() => {
  const tops = (sel) => Array.from(document.querySelectorAll(sel))
    .map((a) => Math.round(a.getBoundingClientRect().top));
  return { height: document.querySelector('header.top').getBoundingClientRect().height,
           langs: tops('.langs a'), site: tops('nav.site a'),
           page: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize("lang", ["ar", "fr", "en"])
def test_the_phone_header_is_two_short_lines(browser: Any, server: str, console: Any, lang: str) -> None:
    a, b = player(browser, server, "Leila", lang=lang), player(browser, server, "Sami", lang=lang)
    table_id = started([a, b])
    page = console.watch(a.new_page())
    for path in ("/", f"/t/{table_id}"):
        page.goto(path)
        box = page.evaluate(HEADER)
        assert box["height"] <= 100, box
        assert len(box["langs"]) == 3 and len(set(box["langs"])) == 1, box  # one line
        assert len(set(box["site"])) <= 2, box  # Arabic's wider words may take two short lines
        assert box["page"] <= PHONE["width"], box
    for ctx in (a, b):
        ctx.close()
    assert console.errors == []
