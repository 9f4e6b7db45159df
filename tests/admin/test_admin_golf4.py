"""Admin and golf4 (issue 10 item 5): a Chkobba match and a golf4 match, both played to their end
by in-process computers on one real server, are listed side by side in the admin's match list
(each with its game and options), and the admin replays the stored golf4 match step by step in
Chromium (``/replay?match=``, the admin's cookie) to exactly what ``dineri replay`` computes: the
totals, and every hand of the last round face up."""

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
GAMES = {"chkobba": {"seats": 2, "target": 11, "best_of": 1}, "golf4": {"seats": 3, "rounds": 9}}


def _play(api: Api, host: dict[str, Any], game: str) -> str:
    """A table of ``game`` with a computer in every seat, started and played to its end."""
    r = api.call("POST", "/api/tables", host, json={"game": game, "options": GAMES[game], "public": True,
                                                    "clock": 0})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    for seat in range(GAMES[game]["seats"]):
        assert api.call("POST", f"/api/tables/{table}/bots", host, json={"seat": seat}).status_code == 200
    assert api.call("POST", f"/api/tables/{table}/start", host, json={}).status_code == 200
    deadline = time.monotonic() + 300
    while api.call("GET", f"/api/tables/{table}", host).json()["status"] != "over":
        assert time.monotonic() < deadline, f"the computers did not finish the {game} match"
        time.sleep(0.3)
    return str(table)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db: Path = tmp_path_factory.mktemp("admin-golf4") / "dineri.db"
    srv = Server(f"sqlite:///{db}", DINERI_ADMIN_TOKEN=TOKEN,
                 DINERI_MESSAGES_PER_SECOND="5000").start(timeout=90)
    api = Api(srv)
    try:
        host = api.player("Host")
        yield {"server": srv, "api": api, "tables": {g: _play(api, host, g) for g in GAMES}}
    finally:
        api.http.close()
        srv.stop()


def test_golf4_and_chkobba_matches_are_listed_side_by_side(played: dict[str, Any]) -> None:
    api, admin = played["api"], {"Authorization": f"Bearer {TOKEN}"}
    listed = api.http.get("/admin/api/matches", headers=admin).json()["matches"]
    by_table = {m["table_id"]: m for m in listed}
    for game, table in played["tables"].items():
        item = by_table[table]
        assert item["game"] == game and item["status"] == "over"
        assert len(item["players"]) == GAMES[game]["seats"]
    # the golf4 record the admin gets is the one dineri replay reads: nine rounds, its totals
    golf4 = by_table[played["tables"]["golf4"]]
    record = api.http.get(f"/admin/api/matches/{golf4['id']}/record", headers=admin).json()
    out = records.replay_json(record)
    assert record["game"] == "golf4" and out["ok"] and len(out["rounds"]) == 9
    assert record["result"] == out


SEATS = """() => [...document.querySelectorAll('.g4-slots[data-seat]')]
  .sort((a, b) => a.dataset.seat - b.dataset.seat)
  .map(u => [...u.querySelectorAll('img')]
    .map(i => i.getAttribute('src').split('/').pop().replace('.svg', '')))"""


@pytest.mark.browser
def test_the_admin_replays_a_golf4_match_step_by_step(browser: Any, played: dict[str, Any]) -> None:
    api, admin = played["api"], {"Authorization": f"Bearer {TOKEN}"}
    listed = api.http.get("/admin/api/matches", headers=admin).json()["matches"]
    [item] = [m for m in listed if m["table_id"] == played["tables"]["golf4"]]
    record = api.http.get(f"/admin/api/matches/{item['id']}/record", headers=admin).json()
    expect = records.replay_json(record)
    base = played["server"].base
    ctx = browser.new_context(viewport={"width": 1000, "height": 1100}, base_url=base, locale="en")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.goto("/admin/login")
    page.fill("#token", TOKEN)
    page.press("#token", "Enter")
    page.wait_for_url(re.compile(r"/admin$"))
    page.goto(f"/replay?match={item['id']}")
    page.locator("#viewer").wait_for(state="visible")
    # step 0: the first deal, nothing played; then one step per action
    page.wait_for_function("document.getElementById('prev').disabled")
    assert page.locator("#replay-error").inner_text() == ""
    assert page.evaluate("document.body.dataset.phase") == "peek"
    page.click("#next")
    page.wait_for_function("!document.getElementById('prev').disabled")
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('next').disabled")
    bar = page.locator("#scorebar").inner_text()
    for seat, total in enumerate(expect["totals"]):
        shown = page.evaluate("(n) => Dineri.displayName(n)", record["players"][seat])  # as drawn
        assert f"{shown}: {total}" in bar, bar
    assert page.evaluate(SEATS) == expect["hands"]  # every hand of the last round, face up
    ctx.close()
    assert errors == []


LOG_ITEM = re.compile(r'<li class="[^"]*" value="(\d+)">(.*?)</li>', re.S)
TAG = re.compile(r"<[^>]+>")


def test_the_golf4_action_log_is_in_words(played: dict[str, Any]) -> None:
    """The admin's golf4 log words each step in the page's language as the Chkobba and Seven
    Diamonds logs do (issue 13, the fifth Arabic trial read ``peek``, ``skip_peek``, ``take``,
    ``swap slot=0``, ``draw``, ``discard``), its slots numbered from 1 as the players see them
    (G5-G8: «الموضع 1» to 4)."""
    api, admin = played["api"], {"Authorization": f"Bearer {TOKEN}"}
    listed = api.http.get("/admin/api/matches", headers=admin).json()["matches"]
    [item] = [m for m in listed if m["table_id"] == played["tables"]["golf4"]]
    record = api.http.get(f"/admin/api/matches/{item['id']}/record", headers=admin).json()
    pages = {lang: api.http.get(f"/admin/matches/{item['id']}",
                                headers={**admin, "Accept-Language": lang}).text
             for lang in ("en", "fr", "ar")}
    logs = {lang: {int(step): " ".join(TAG.sub(" ", text).split()) for step, text in LOG_ITEM.findall(html)}
            for lang, html in pages.items()}
    actions = record["actions"]
    assert len(logs["ar"]) == len(actions), (len(logs["ar"]), len(actions))
    raw = re.compile(r"\b(peek|skip_peek|take|swap|draw|discard|knock|slot=\d)\b")
    for lang in ("fr", "ar"):
        bad = {s: t for s, t in logs[lang].items() if raw.search(t)}
        assert not bad, (lang, list(bad.items())[:3])
    en_words = {"peek": "looks at the two bottom cards", "skip_peek": "does not look",
                "draw": "draws from the stock", "take": "from the discard pile", "discard": "discards",
                "knock": "knocks"}
    places = ["أعلى اليسار", "أعلى اليمين", "أسفل اليسار", "أسفل اليمين"]
    seen = set()
    for i, a in enumerate(actions):
        step, kind = i + 1, a["type"]
        seen.add(kind)
        if kind == "swap":
            assert f"slot {a['slot'] + 1} (" in logs["en"][step], logs["en"][step]
            assert f"الموضع {a['slot'] + 1} ({places[a['slot']]})" in logs["ar"][step], logs["ar"][step]
            assert "كومة الرمي" in logs["ar"][step]
        elif kind in en_words:
            assert en_words[kind] in logs["en"][step], (kind, logs["en"][step])
    assert {"peek", "swap", "draw"} <= seen or {"skip_peek", "swap"} <= seen, seen
