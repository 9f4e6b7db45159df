"""The admin against a real server (issue 3 item 7, issue 4 item 3).

Matches are actually played: two ``dineri bot`` processes play a whole match on stacked decks;
a clock table is played by the server's turn clock alone (auto actions); one match is forfeited
by a player and one stays in progress. The admin must list, filter, show, download and replay
them; the downloaded record replays with ``dineri replay`` to the stored result and verifies
with ``dineri verify``; user strings are escaped; without a token there is no admin at all.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dineri.engine import load_record, replay
from tests.server.driver import stacked_decks
from tests.server.harness import ROOT, Api, Client, Server

TOKEN = "admin-token-for-tests"
EVIL = "<script>x()</script>"  # 20 characters: a valid display name
pytestmark = pytest.mark.timeout(300)


def dineri(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dineri.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with an admin token, and its matches: ``bots`` (over), ``forfeit``, ``idle``
    (in progress), ``clock`` (auto actions). Yields the server, an Api, and what each saw."""
    tmp = tmp_path_factory.mktemp("admin")
    srv = Server(f"sqlite:///{tmp / 'dineri.db'}", DINERI_ADMIN_TOKEN=TOKEN, DINERI_CLOCK_SCALE="0.02",
                 DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    procs: list[subprocess.Popen[str]] = []
    try:
        host = api.player("Host")
        table = api.table(host)
        url = f"{srv.base}/t/{table['id']}"
        for seat, (name, strategy) in enumerate([(EVIL, "random"), ("Greedy", "greedy")]):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "dineri.cli", "bot", url, "--seat", str(seat), "--name", name,
                 "--strategy", strategy, "--seed", str(seat), "--record", str(tmp / f"bot{seat}.json")],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        deadline = time.monotonic() + 30
        def seated() -> int:
            seats = api.call("GET", f"/api/tables/{table['id']}").json()["seats"]
            return sum(s["player"] is not None for s in seats)
        while seated() < 2:
            dead = [p.communicate()[1] for p in procs if p.poll() is not None]
            assert not dead and time.monotonic() < deadline, f"the bots did not sit down: {dead}"
            time.sleep(0.1)
        decks = stacked_decks(random.Random(7))
        assert api.start(host, table, first_dealer=0, decks=decks).status_code == 200
        outs = []
        for p in procs:
            out, err = p.communicate(timeout=240)
            assert p.returncode == 0, err
            outs.append(json.loads(out.strip().splitlines()[-1]))

        # A forfeited match, and one left in progress.
        ftable, fplayers = api.full_table(["Forfeiter", "Stayer"], decks=decks)

        async def forfeit() -> dict[str, Any]:
            c = await Client(srv, ftable["id"], fplayers[0]["token"]).connect()
            reply = await c.act({"type": "forfeit"})
            await c.close()
            return reply
        assert asyncio.run(forfeit())["type"] == "ack"
        itable, iplayers = api.full_table(["Idle One", "Idle Two"], decks=decks)
        # A clock table nobody plays: the turn clock acts for the players (auto actions).
        ctable, _ = api.full_table(["Sleepy A", "Sleepy B"], decks=decks, clock=15)
        time.sleep(2.0)
        yield {"server": srv, "api": api, "tmp": tmp, "bots": table, "bot_out": outs, "host": host,
               "forfeit": ftable, "idle": itable, "idle_players": iplayers, "clock": ctable}
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
        api.http.close()
        srv.stop()


def admin(played: dict[str, Any]) -> httpx.Client:
    return httpx.Client(base_url=played["server"].base, headers={"Authorization": f"Bearer {TOKEN}"},
                        follow_redirects=False, timeout=30)


def match_of(played: dict[str, Any], key: str) -> dict[str, Any]:
    with admin(played) as a:
        items = a.get("/admin/api/matches").json()["matches"]
    return next(m for m in items if m["table_id"] == played[key]["id"])


def test_no_token_setting_means_no_admin(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'd.db'}").start()
    try:
        with httpx.Client(base_url=srv.base, follow_redirects=False) as h:
            for method, path in [("GET", "/admin"), ("GET", "/admin/login"), ("POST", "/admin/login"),
                                 ("GET", "/admin/api/matches"), ("GET", "/admin/matches/1"),
                                 ("GET", "/admin/matches/1/replay?step=0"),
                                 ("GET", "/admin/api/matches/1/record")]:
                r = h.request(method, path, headers={"Authorization": "Bearer anything"})
                assert r.status_code == 404, (method, path)
    finally:
        srv.stop()


def test_wrong_or_missing_token_is_refused(played: dict[str, Any]) -> None:
    base = played["server"].base
    with httpx.Client(base_url=base, follow_redirects=False) as h:
        assert h.get("/admin/api/matches").status_code == 401
        assert h.get("/admin/api/matches", headers={"Authorization": "Bearer nope"}).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert h.get("/admin/api/matches/1/record", headers=wrong).status_code == 401
        r = h.get("/admin")
        assert r.status_code == 303 and r.headers["location"] == "/admin/login"
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        r = h.post("/admin/login", content="token=nope", headers=form)
        assert r.status_code == 401 and "dineri_admin" not in r.headers.get("set-cookie", "")
        h.cookies.set("dineri_admin", "forged.value.sig")
        assert h.get("/admin").status_code == 303


def test_browser_login_sets_a_signed_httponly_cookie(played: dict[str, Any]) -> None:
    with httpx.Client(base_url=played["server"].base, follow_redirects=False) as h:
        r = h.post("/admin/login", content=f"token={TOKEN}",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 303 and r.headers["location"] == "/admin"
        cookie = r.headers["set-cookie"].lower()
        assert "dineri_admin=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        page = h.get("/admin")
        assert page.status_code == 200 and "Dineri admin" in page.text
        assert h.post("/admin/logout").status_code == 303


def test_list_and_filters(played: dict[str, Any]) -> None:
    today = datetime.now(UTC).date()
    with admin(played) as a:
        def ids(**params: str) -> set[str]:
            r = a.get("/admin/api/matches", params=params)
            assert r.status_code == 200, r.text
            return {m["table_id"] for m in r.json()["matches"]}
        tables = {k: played[k]["id"] for k in ("bots", "forfeit", "idle", "clock")}
        assert ids() >= set(tables.values())
        assert ids(player="SCRIPT>") == {tables["bots"]}
        assert ids(player="idle") == {tables["idle"]}
        assert ids(player="%") == set()  # LIKE wildcards are plain characters
        assert ids(status="forfeited") == {tables["forfeit"]}
        assert tables["bots"] in ids(status="over") and tables["forfeit"] not in ids(status="over")
        assert tables["idle"] in ids(status="playing") and tables["bots"] not in ids(status="playing")
        assert ids(**{"from": today.isoformat(), "to": today.isoformat()}) >= set(tables.values())
        assert ids(to=(today - timedelta(days=1)).isoformat()) == set()
        assert ids(**{"from": (today + timedelta(days=1)).isoformat()}) == set()
        assert a.get("/admin/api/matches", params={"from": "yesterday"}).status_code == 422
        assert a.get("/admin/api/matches", params={"status": "lost"}).status_code == 422
        page = a.get("/admin", params={"status": "forfeited"}).text
        assert page.count('<tr class="match"') == 1 and "Forfeiter" in page


def test_detail_shows_players_rounds_result_and_log(played: dict[str, Any]) -> None:
    m = match_of(played, "bots")
    with admin(played) as a:
        d = a.get(f"/admin/api/matches/{m['id']}").json()
        record = a.get(f"/admin/api/matches/{m['id']}/record").json()
        html = a.get(f"/admin/matches/{m['id']}").text
    bots = played["bot_out"]
    assert d["players"] == [EVIL, "Greedy"] and d["status"] == "over"
    assert d["final"]["winner"] == bots[0]["winner"] == bots[1]["winner"]
    assert d["final"]["games_won"] == bots[0]["games_won"]
    assert len(d["log"]) == len(record["actions"]) == m["actions"]
    assert d["rounds"] == record["result"]["rounds"] and d["rounds"]
    assert all(set(r) >= {"karta", "dinari", "barmila", "sabaa", "points", "cards"} for r in d["rounds"])
    assert html.count("<li") >= len(record["actions"])
    assert "Sab'a l-hayya" in html and "Karta" in html


def test_auto_actions_are_marked(played: dict[str, Any]) -> None:
    m = match_of(played, "clock")
    with admin(played) as a:
        d = a.get(f"/admin/api/matches/{m['id']}").json()
        html = a.get(f"/admin/matches/{m['id']}").text
    assert d["log"], "the turn clock made no action"
    assert all(e["auto"] and e["action"].get("auto") is True for e in d["log"])
    assert 'class="badge auto"' in html


def test_downloaded_record_replays_to_the_stored_result_and_verifies(played: dict[str, Any]) -> None:
    m = match_of(played, "bots")
    tmp: Path = played["tmp"]
    with admin(played) as a:
        r = a.get(f"/admin/matches/{m['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp / "admin-record.json"
    path.write_bytes(r.content)
    doc = json.loads(r.content)
    out = dineri("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == doc["result"]
    assert json.loads(out.stdout)["winner"] == played["bot_out"][0]["winner"]
    ver = dineri("verify", str(path))
    assert ver.returncode == 0 and ver.stdout.startswith("OK"), ver.stdout + ver.stderr
    # each player downloaded the same record after the end (decks and salts revealed)
    for seat in (0, 1):
        mine = json.loads((tmp / f"bot{seat}.json").read_text(encoding="utf-8"))
        assert mine["decks"] == doc["decks"] and mine["fairness"] == doc["fairness"]
        assert dineri("verify", str(tmp / f"bot{seat}.json")).returncode == 0


def test_a_player_cannot_download_before_the_end(played: dict[str, Any]) -> None:
    api: Api = played["api"]
    idle = played["idle"]
    for p in played["idle_players"]:
        r = api.call("GET", f"/api/tables/{idle['id']}/record", p)
        assert r.status_code == 409 and "decks" not in r.text
    stranger = api.player("Stranger")
    assert api.call("GET", f"/api/tables/{played['bots']['id']}/record", stranger).status_code == 403


def test_replay_steps(played: dict[str, Any]) -> None:
    m = match_of(played, "bots")
    with admin(played) as a:
        record = a.get(f"/admin/api/matches/{m['id']}/record").json()
        rec = load_record(record)
        n = len(record["actions"])
        for i in (0, 1, 2, n // 2, n):
            s = a.get(f"/admin/api/matches/{m['id']}/replay/{i}").json()
            assert s["step"] == i and s["total"] == n
            assert s["state"] == replay(rec, upto=i).to_json()
        assert a.get(f"/admin/api/matches/{m['id']}/replay/{n + 1}").status_code == 404
        page = a.get(f"/admin/matches/{m['id']}/replay", params={"step": 5}).text
        state = replay(rec, upto=5).to_json()
        for hand in state["hands"]:
            for code in hand:
                assert f'title="{code}"' in page
        assert 'id="prev" href="/admin/matches/{}/replay?step=4"'.format(m["id"]) in page
        assert 'id="next" href="/admin/matches/{}/replay?step=6"'.format(m["id"]) in page
        assert '<script src="/static/admin/replay.js">' in page
        assert a.get("/static/admin/replay.js").status_code == 200
        assert a.get(f"/admin/matches/{m['id']}/replay", params={"step": "x"}).status_code == 404
        assert a.get("/admin/matches/999999").status_code == 404


def test_user_strings_are_escaped(played: dict[str, Any]) -> None:
    m = match_of(played, "bots")
    with admin(played) as a:
        pages = [a.get("/admin").text, a.get(f"/admin/matches/{m['id']}").text,
                 a.get(f"/admin/matches/{m['id']}/replay", params={"step": 3}).text,
                 a.get("/admin", params={"player": EVIL}).text]
    for html in pages:
        assert EVIL not in html
        assert "&lt;script&gt;x()&lt;/script&gt;" in html


@pytest.mark.parametrize(("lang", "word", "direction"), [("fr", "Matchs", "ltr"), ("ar", "المباريات", "rtl")])
def test_admin_speaks_french_and_arabic(played: dict[str, Any], lang: str, word: str, direction: str) -> None:
    with admin(played) as a:
        a.cookies.set("dineri_lang", lang)
        html = a.get("/admin").text
    assert f'<html lang="{lang}" dir="{direction}">' in html
    assert word in html
