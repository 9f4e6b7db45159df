"""Admin lists and replays matches of the other games (issue 11 item 5; golf4 alike): a whole
Seven Diamonds match played to 500 by four in-process computer players on a real server; the
admin list names the game, the match page shows its players, sides, scores and rounds as
``dineri replay`` computes them, and the visual replay of the stored match steps to that state."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dineri import records
from tests.admin.conftest import TOKEN
from tests.server.harness import Api, Server

pytestmark = [pytest.mark.timeout(600)]
OPTIONS = {"seven_diamonds": {}, "golf4": {"seats": 4, "rounds": 9}}


def _play(api: Api, host: dict[str, Any], game: str) -> tuple[str, int] | None:
    """A public ``game`` table of four computer players, started and played to its end; its id
    and stored match id. ``None`` when the server has no such game."""
    r = api.call("POST", "/api/tables", host, json={"game": game, "options": OPTIONS[game], "public": True,
                                                    "clock": 0})
    if r.status_code == 422:
        return None
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    for seat in range(4):
        assert api.call("POST", f"/api/tables/{table}/bots", host, json={"seat": seat}).status_code == 200
    assert api.call("POST", f"/api/tables/{table}/start", host, json={}).status_code == 200
    deadline = time.monotonic() + 240
    while api.call("GET", f"/api/tables/{table}", host).json()["status"] != "over":
        assert time.monotonic() < deadline, "the computers did not finish the match"
        time.sleep(0.3)
    admin = {"Authorization": f"Bearer {TOKEN}"}
    listed = api.http.get("/admin/api/matches", headers=admin).json()["matches"]
    [match] = [m for m in listed if m["table_id"] == table]
    return table, int(match["id"])


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db: Path = tmp_path_factory.mktemp("admin-games") / "dineri.db"
    srv = Server(f"sqlite:///{db}", DINERI_ADMIN_TOKEN=TOKEN, DINERI_MESSAGES_PER_SECOND="5000")
    srv.start(timeout=90)
    api = Api(srv)
    try:
        host = api.player("Host")
        yield {"server": srv, "api": api, "matches": {g: _play(api, host, g) for g in OPTIONS}}
    finally:
        api.http.close()
        srv.stop()


@pytest.mark.parametrize("game", list(OPTIONS))
def test_admin_lists_and_shows_the_match_as_dineri_replay_does(games: dict[str, Any], game: str) -> None:
    found = games["matches"][game]
    if found is None:
        pytest.skip(f"{game} is not registered on this server yet")
    _, match_id = found
    api, admin = games["api"], {"Authorization": f"Bearer {TOKEN}"}
    listed = api.http.get("/admin/api/matches", headers=admin).json()["matches"]
    [item] = [m for m in listed if m["id"] == match_id]
    assert item["game"] == game and item["status"] == "over" and len(item["players"]) == 4
    record = api.http.get(f"/admin/api/matches/{match_id}/record", headers=admin).json()
    expect = records.replay_json(record)
    assert expect["ok"] and expect["phase"] == "over"
    detail = api.http.get(f"/admin/api/matches/{match_id}", headers=admin).json()
    assert detail["final"] == expect and detail["rounds"] == expect["rounds"]
    assert len(detail["log"]) == len(record["actions"]) and all(e["refused"] is None for e in detail["log"])
    assert detail["log"][0]["player"] == record["players"][detail["log"][0]["seat"]]
    # The page (a signed-in admin's cookie): the game, every player, the result and each round.
    api.http.post("/admin/login", data={"token": TOKEN})
    html = api.http.get(f"/admin/matches/{match_id}").text
    list_html = api.http.get("/admin").text
    assert f'data-game="{game}"' in html and f'data-game="{game}"' in list_html
    # Computers named as the players' pages name them; the strategy id in its own column.
    for name in ("Computer 1 · easy", "Computer 4 · easy"):
        assert f'<td class="name">{name}</td>' in html
    assert '<td class="strategy" data-strategy="greedy">easy</td>' in html and "Bot 1 (greedy)" not in html
    if game == "seven_diamonds":
        a, b = expect["scores"]
        assert f"Scores: {a} – {b}" in html and f"Winner: side {expect['winner'] + 1}" in html
    else:
        assert all(f'<td class="points">{t}</td>' in html for t in expect["totals"])
        assert f"Winner: seat {expect['winners'][0] + 1}" in html
    assert html.count('<td class="points">') >= len(expect["rounds"])
    # Its step-by-step view is the visual replay, which draws any game.
    r = api.http.get(f"/admin/matches/{match_id}/replay", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/replay?match={match_id}"


DRAWN = """() => ({
  rows: Object.fromEntries([...document.querySelectorAll('.sd-row')].map(r =>
    [r.dataset.suit, [...r.querySelectorAll('.card[data-card]')].map(c => c.dataset.card)])),
  scores: document.getElementById('scorebar').innerText
})"""


@pytest.mark.browser
def test_the_admin_replays_a_stored_seven_diamonds_match_on_a_french_phone(browser: Any, games: dict[str, Any]
                                                                           ) -> None:
    found = games["matches"]["seven_diamonds"]
    assert found is not None
    _, match_id = found
    base = games["server"].base
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, base_url=base, locale="fr")
    ctx.add_cookies([{"name": "dineri_lang", "value": "fr", "url": base}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/admin/login")
    page.fill("#token", TOKEN)
    page.press("#token", "Enter")
    page.wait_for_url(base + "/admin")
    row = page.locator(f'tr.match[data-id="{match_id}"]')
    assert row.locator("td.game").inner_text() == "Sept de carreau"
    row.locator('a[href^="/admin/matches/"]').first.click()
    page.wait_for_url(re.compile(rf"/admin/matches/{match_id}$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # its tables scroll in their box
    page.click("a.visual")
    page.wait_for_url(re.compile(rf"/replay\?match={match_id}$"))
    page.locator("#viewer").wait_for(state="visible")
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('next').disabled")
    record = page.evaluate(f"fetch('/admin/api/matches/{match_id}/record').then(r => r.json())")
    expect = records.replay_json(record)
    drawn = page.evaluate(DRAWN)
    assert drawn["rows"] == expect["table"]
    for score in expect["scores"]:
        assert f"Score : {score}" in drawn["scores"].replace("\u202f", " ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ctx.close()
    assert errors == []
