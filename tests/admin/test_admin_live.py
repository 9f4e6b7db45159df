"""The admin against a real server (issue 3 item 7, issue 4 item 3).

Matches are actually played: two ``dineri bot`` processes play a whole match on stacked decks;
a clock table is played by the server's turn clock alone (auto actions); one match is forfeited
by a player and one stays in progress. The admin must list, filter, show, download and replay
them; the downloaded record replays with ``dineri replay`` to the stored result and verifies
with ``dineri verify``; user strings are escaped; without a token there is no admin at all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dineri.engine import load_record, replay
from tests.admin.conftest import EVIL, TOKEN
from tests.server.harness import ROOT, Api, Server

pytestmark = pytest.mark.timeout(300)


def dineri(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dineri.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


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
        assert a.get(f"/admin/matches/{m['id']}/replay", params={"step": "x"}).status_code == 422
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
