"""The fifth fresh Arabic phone trial (issue 13), at 360 × 740: number words take Arabic's six
plural forms («3 نقاط», «مشاهد واحد», not «3 نقطة», «1 مشاهد»); golf4's round summary fits the
phone with readable cards; Seven Diamonds' «شايب» has room in its place; a removed guest is
offered no invitation link and the host's Remove asks first; the Chkobba legend explains the
chkobba (R23, R24)."""

from __future__ import annotations

from typing import Any

import pytest

from dineri.web import i18n
from tests.web.tables import player

pytestmark = [pytest.mark.timeout(300)]


def test_arabic_catalogue_has_six_plural_forms() -> None:
    """The ar catalogue's Plural-Forms header names 0, 1, 2, 3–10, 11–99, 100+; the counts of
    points and spectators are plural messages with all six forms."""
    ar = i18n.js_catalogue("ar")
    for msgid in ("{name}: {n} point", "{n} watching", "Stock: {n} card", "= {n} point for {side}",
                  "{name} is out: {points} point for {side}."):
        forms = ar[msgid]
        assert isinstance(forms, list) and len(forms) == 6 and all(forms), (msgid, forms)
    assert ar["{name}: {n} point"][3] == "{name}: {n} نقاط"
    assert ar["{n} watching"][:3] == ["لا مشاهدين", "مشاهد واحد", "مشاهدان"]
    fr = i18n.js_catalogue("fr")
    assert fr["{name}: {n} point"][2] == "{name}\u202f: {n} points"


WORDS = """() => { const D = Dineri,
    p = (n) => D.fmt(D.ngettext('{name}: {n} point', '{name}: {n} points', n), { name: 'X', n: n }),
    w = (n) => D.fmt(D.ngettext('{n} watching', '{n} watching', n), { n: n });
    return { points: [0, 1, 2, 3, 10, 11, 100].map(p), watching: [0, 1, 2, 3, 11].map(w) }; }"""


@pytest.mark.browser
def test_the_arabic_page_says_points_and_spectators_with_their_number(browser: Any, server: str) -> None:
    """The golf4 end dialog's «الحاسوب 3: 3 نقطة» and the watch page's «0 مشاهد», «1 مشاهد»."""
    ctx = player(browser, server, "سامي", lang="ar")
    page = ctx.new_page()
    page.goto("/")
    got = page.evaluate(WORDS)
    assert got["points"] == ["X: 0 نقطة", "X: نقطة واحدة", "X: نقطتان", "X: 3 نقاط", "X: 10 نقاط",
                             "X: 11 نقطة", "X: 100 نقطة"], got
    assert got["watching"] == ["لا مشاهدين", "مشاهد واحد", "مشاهدان", "3 مشاهدين", "11 مشاهدًا"], got
    ctx.close()


GOLF_TABLE = """() => { const d = document.querySelector('dialog[open]'), s = d.querySelector('.g4-scroll'),
    t = d.querySelector('.g4-scores'), a = s.getBoundingClientRect();
    return { scroll: s.scrollWidth - s.clientWidth, page: document.documentElement.scrollWidth,
             heads: [...t.querySelectorAll('thead th')].map((h) => { const b = h.getBoundingClientRect();
                 return [h.textContent, b.left >= a.left - 0.5 && b.right <= a.right + 0.5,
                         h.scrollWidth <= h.clientWidth]; }),
             cards: [...t.querySelectorAll('.g4-hand img')]
                 .map((i) => i.getBoundingClientRect().width) }; }"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_the_golf4_round_summary_fits_a_phone(browser: Any, server: str, console: Any, lang: str) -> None:
    host = player(browser, server, "Sami", lang=lang)
    body = {"game": "golf4", "public": True, "clock": 0, "options": {"seats": 3, "rounds": 9}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    for seat in range(3):
        assert host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"}).ok
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page.locator("dialog[open] .g4-scores").wait_for(state="visible", timeout=120000)
    box = page.evaluate(GOLF_TABLE)
    assert box["scroll"] <= 0 and box["page"] <= 360, box  # no sideways scroll, of the box or the page
    assert box["heads"] and all(inside and whole for _, inside, whole in box["heads"]), box
    assert len(box["cards"]) == 12 and min(box["cards"]) >= 40, box  # four cards a player, readable
    host.close()
    assert console.errors == []


ROOM = """() => [...document.querySelectorAll('.sd-slots .slot.empty')]
    .filter((s) => s.textContent === 'شايب')
    .map((s) => { const a = s.getBoundingClientRect(), r = document.createRange();
        r.selectNodeContents(s.firstChild); const b = r.getBoundingClientRect();
        return Math.min(b.left - a.left, a.right - b.right); })"""


@pytest.mark.browser
def test_the_seven_diamonds_king_place_has_room(browser: Any, server: str, console: Any) -> None:
    """«شايب» in an empty place of a suit row stays clear of the place's borders on a phone."""
    host = player(browser, server, "سامي", lang="ar")
    body = {"game": "seven_diamonds", "public": True, "clock": 0, "options": {}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    for seat in range(4):
        assert host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"}).ok
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    page.wait_for_function("['bidding', 'play'].includes(document.body.dataset.phase)", timeout=30000)
    room = page.evaluate(ROOM)
    assert room and min(room) >= 3, room  # px of the place's width on each side of the word
    host.close()
    assert console.errors == []


@pytest.mark.browser
def test_remove_asks_first_and_the_removed_guest_gets_no_invitation(browser: Any, server: str,
                                                                    console: Any) -> None:
    host, guest = player(browser, server, "هالة", lang="ar"), player(browser, server, "سامي", lang="ar")
    body = {"game": "chkobba", "public": False, "clock": 0,
            "options": {"seats": 2, "target": 11, "best_of": 1}}
    t = host.request.post("/api/tables", data=body).json()
    assert host.request.post(f"/api/tables/{t['id']}/seats", data={"seat": 0}).ok
    address = f"/t/{t['id']}?code={t['code']}"
    hp, gp = console.watch(host.new_page()), console.watch(guest.new_page())
    hp.goto(address)
    gp.goto(address)
    gp.locator('#setup-seats button[data-seat="1"]').click()
    gp.wait_for_function("document.getElementById('leave-seat').hidden === false")
    assert gp.locator("#invite").is_visible()  # a seated guest may pass the link on
    hp.locator("#setup-seats button.ask-remove").click()
    question = hp.locator("#setup-seats .confirm-remove")
    assert question.inner_text() == "إزالة سامي من الطاولة؟"
    hp.locator("#setup-seats button.cancel-remove").click()  # Cancel: nothing happens
    hp.locator("#setup-seats button.ask-remove").wait_for(state="visible")
    gp.wait_for_timeout(500)
    assert gp.locator("#leave-seat").is_visible()
    assert host.request.get(f"/api/tables/{t['id']}").json()["seats"][1]["player"]
    hp.locator("#setup-seats button.ask-remove").click()
    hp.locator("#setup-seats button[data-remove-seat='1']").click()
    gp.locator("#notice").wait_for(state="visible", timeout=10000)
    gp.wait_for_function("document.getElementById('invite').hidden === true")
    assert gp.locator("#copy-invite").is_hidden()
    gp.reload()  # a page opened again: the notice, no link either
    gp.locator("#notice").wait_for(state="visible", timeout=10000)
    gp.wait_for_timeout(500)
    assert gp.locator("#invite").is_hidden()
    assert hp.locator("#invite").is_visible()  # the host keeps the link
    for ctx in (host, guest):
        ctx.close()
    assert console.errors == []


@pytest.mark.browser
def test_the_chkobba_legend_explains_the_chkobba(browser: Any, server: str, console: Any) -> None:
    """Two computers play a round; the Arabic spectator's summary legend has a chkobba line (R23,
    R24) before Karta's, and the Chkobbas row explains it as the other rows do."""
    host = player(browser, server, "سامي", lang="ar")
    body = {"game": "chkobba", "public": True, "clock": 0,
            "options": {"seats": 2, "target": 11, "best_of": 1}}
    t = host.request.post("/api/tables", data=body)
    assert t.ok, t.text()
    table_id = t.json()["id"]
    page = console.watch(host.new_page())
    page.goto(f"/t/{table_id}")
    for seat in range(2):
        assert host.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat, "level": "greedy"}).ok
    assert host.request.post(f"/api/tables/{table_id}/start", data={}).ok
    legend = page.locator("dialog[open] .legend li")
    legend.first.wait_for(state="visible", timeout=180000)
    line = "شكبة: نقطة عن كل أكلة تُفرغ الطاولة، إلا بآخر ورقة في الجولة."
    assert legend.first.get_attribute("data-legend") == "chkobba" and legend.first.inner_text() == line
    assert legend.count() == 6
    host.close()
    assert console.errors == []
