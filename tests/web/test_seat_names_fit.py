"""Issue 13, the fresh Arabic phone trial: «لاعب الحاسوب 4 · متوسط» ran to three lines in a 2v2
seat box on a 360 px phone. A seat's name takes at most two lines (a long name ends in an
ellipsis, the whole of it in the title), a computer's level a small line of its own under
"Computer 4" («الحاسوب 4»: «لاعب الحاسوب 4» is too wide for a quarter of a phone; the
title keeps the whole name); nothing overflows its seat nor the page, in English, French and Arabic."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.plan import decks_for
from tests.web.tables import player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# Per seat box of the other seats: the name's lines as drawn (line boxes whose top lies inside the
# name's visible box), its level's text, whether anything sticks out of the seat.
MEASURE = """() => Array.from(document.querySelectorAll('#opponents .seat')).map((seat) => {
    const name = seat.querySelector('.seat-name');
    const box = name.getBoundingClientRect();
    const tops = new Set();
    Array.from(name.children).filter((c) => !c.classList.contains('sr-only')).forEach((c) => {
        const r = document.createRange(); r.selectNodeContents(c);
        Array.from(r.getClientRects()).filter((q) => q.width > 0 && q.top < box.bottom - 2)
            .forEach((q) => tops.add(Math.round(q.top)));
    });
    const level = name.querySelector('.seat-level');
    return { seat: seat.dataset.seat, lines: tops.size, level: level ? level.textContent : null,
             who: (name.querySelector('.seat-who') || name).textContent, title: name.title,
             cut: ((w) => w.scrollHeight > w.clientHeight + 1 || w.scrollWidth > w.clientWidth + 1)(
                 name.querySelector('.seat-who')),
             overflow: seat.scrollWidth > seat.clientWidth + 1 || name.scrollWidth > name.clientWidth + 1 };
})"""
LEVELS = {"en": ["medium", "easy", "hard"], "fr": ["moyen", "facile", "difficile"],
          "ar": ["متوسط", "سهل", "صعب"]}
FOUR = {"seats": 4, "target": 11, "best_of": 1}
COMPUTER = {"en": "Computer {n}", "fr": "Ordinateur {n}", "ar": "الحاسوب {n}"}


@pytest.mark.parametrize("lang", ["ar", "fr", "en"])
def test_computer_seats_fit_a_phone_in_two_lines(browser: Any, server: str, console: Any, lang: str) -> None:
    ctx = player(browser, server, "Amel", lang=lang)
    body = {"game": "chkobba", "public": True, "clock": 0, "options": FOUR}
    table_id = ctx.request.post("/api/tables", data=body).json()["id"]
    assert ctx.request.post(f"/api/tables/{table_id}/seats", data={"seat": 0}).ok
    for seat, level in zip((1, 2, 3), ("medium", "easy", "hard"), strict=True):
        r = ctx.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": level})
        assert r.ok, r.text()
    r = ctx.request.post(f"/api/tables/{table_id}/start", data={"first_dealer": 3, "decks": decks_for(3)})
    assert r.ok, r.text()
    page = console.watch(ctx.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.querySelectorAll('#opponents .seat').length === 3")
    seats = sorted(page.evaluate(MEASURE), key=lambda s: s["seat"])
    for s, level in zip(seats, LEVELS[lang], strict=True):
        assert s["lines"] <= 2 and not s["overflow"] and not s["cut"], s  # "Computer 4" whole
        # Seat i's computer is "Bot i+1" (dineri/bot/inprocess.py): "Computer 2" on seat 1.
        assert s["level"] == level and s["who"] == COMPUTER[lang].format(n=int(s["seat"]) + 1), s
        assert s["title"].endswith(" · " + level), s  # the whole name, as everywhere else
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ctx.close()
    assert console.errors == []


def test_a_long_name_takes_two_lines_and_an_ellipsis(browser: Any, server: str, console: Any) -> None:
    """A 24-character name of wide letters in a four-seat row (it would take four lines): two
    lines at most, the rest cut, the title whole."""
    long_name = "MWMWMWMWMWMW MWMWMWMWMWM"
    host = player(browser, server, "Amel", lang="ar")
    body = {"game": "chkobba", "public": True, "clock": 0, "options": FOUR}
    table_id = host.request.post("/api/tables", data=body).json()["id"]
    assert host.request.post(f"/api/tables/{table_id}/seats", data={"seat": 0}).ok
    guest = player(browser, server, long_name, lang="ar")
    assert guest.request.post(f"/api/tables/{table_id}/seats", data={"seat": 1}).ok
    for seat in (2, 3):
        assert host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "easy"}).ok
    r = host.request.post(f"/api/tables/{table_id}/start", data={"first_dealer": 3, "decks": decks_for(3)})
    assert r.ok, r.text()
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    page.wait_for_function("document.querySelectorAll('#opponents .seat').length === 3")
    [long_seat] = [s for s in page.evaluate(MEASURE) if s["seat"] == "1"]
    assert long_seat["lines"] <= 2 and not long_seat["overflow"], long_seat
    assert long_seat["title"] == long_name, long_seat
    assert long_seat["level"] is None and long_seat["cut"]  # too long for two lines: cut, with "…"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for c in (host, guest):
        c.close()
    assert console.errors == []
