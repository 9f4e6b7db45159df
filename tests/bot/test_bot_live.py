"""Bots at a real server (issue 3, item 8): a ``dineri bot`` process against a computer opponent
seated by the host (``POST /api/tables/{id}/bots``), a whole match on stacked decks.

The bot process downloads the record as a player after the end; it must replay (``dineri
replay``) to the very result every client was shown, and verify (``dineri verify``).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from dineri.bot.client import BotError, new_guest, parse_table_url, take_seat
from tests.bot.helpers import seated_bot
from tests.server.driver import stacked_decks
from tests.server.harness import ROOT, Api, Client, Server, running

pytestmark = pytest.mark.timeout(300)


def dineri(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dineri.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("seats", [2, 4])
def test_bot_process_against_computer_opponents(live: tuple[Server, Api], tmp_path: Path, seats: int) -> None:
    srv, api = live
    host = api.player("Host")
    table = api.table(host, seats=seats)
    # The host seats computers everywhere but seat 0.
    for seat in range(1, seats):
        r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": seat})
        assert r.status_code == 200, r.text
    info = api.call("GET", f"/api/tables/{table['id']}").json()
    assert [s["player"] is not None for s in info["seats"]] == [False] + [True] * (seats - 1)
    record_path = tmp_path / "record.json"

    async def watch() -> dict:
        spectator = await Client(srv, table["id"]).connect()
        r = api.start(host, table, first_dealer=0, decks=stacked_decks(random.Random(seats)))
        assert r.status_code == 200, r.text
        over = await spectator.wait_for(
            lambda f: f["type"] == "event" and f["event"]["type"] == "match_over", timeout=240)
        final = await spectator.wait_for(lambda f: f["type"] == "view" and f["seq"] >= over["seq"])
        await spectator.close()
        return {"over": over["event"], "view": final["view"]}
    with seated_bot(srv, api, table["id"], "--strategy", "random", "--seed", "3",
                    "--record", str(record_path)) as proc:
        seen = asyncio.run(watch())
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["winner"] == seen["over"]["winner"] and summary["refused"] == 0
    rep = dineri("replay", str(record_path))
    assert rep.returncode == 0, rep.stderr
    result = json.loads(rep.stdout)
    assert result["ok"] and result["phase"] == "over"
    for key in ("winner", "games_won", "scores", "rounds"):
        assert result[key] == seen["view"][key], key
    ver = dineri("verify", str(record_path))
    assert ver.returncode == 0 and ver.stdout.startswith("OK"), ver.stdout + ver.stderr
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["players"][1:] == [f"Bot {i + 1} (greedy)" for i in range(1, seats)]  # distinct names


def test_only_the_host_seats_a_computer_on_a_free_seat(live: tuple[Server, Api]) -> None:
    _, api = live
    host, guest = api.player("Host"), api.player("Guest")
    table = api.table(host)
    path = f"/api/tables/{table['id']}/bots"
    assert api.call("POST", path, guest, json={"seat": 1}).status_code == 403
    assert api.call("POST", path, host, json={"seat": 1}).status_code == 200
    taken = api.call("POST", path, host, json={"seat": 1})
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"


def test_a_removed_computer_frees_its_seat_for_another(live: tuple[Server, Api]) -> None:
    _, api = live
    host = api.player("Host")
    table = api.table(host)
    path = f"/api/tables/{table['id']}"
    assert api.call("POST", f"{path}/bots", host, json={"seat": 1}).status_code == 200
    assert api.call("DELETE", f"{path}/seats/1", host).status_code == 200
    assert api.call("GET", path).json()["seats"][1]["player"] is None
    assert api.call("POST", f"{path}/bots", host, json={"seat": 1}).status_code == 200
    assert api.call("GET", path).json()["seats"][1]["player"] == "Bot 2 (greedy)"


def test_computer_plays_on_after_a_sigkill_restart(tmp_path: Path) -> None:
    """Issue 3 item 6 with a computer opponent: kill the server mid-match; after the restart the
    computer resumes its seat (it does not forfeit) and the human client plays on to the end."""
    with running(tmp_path / "dineri.db", DINERI_MESSAGES_PER_SECOND="5000",
                 DINERI_GRACE_SECONDS="10") as (srv, api):
        host = api.player("Host")
        table = api.table(host)
        assert api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": 1}).status_code == 200
        record_path = tmp_path / "record.json"
        with seated_bot(srv, api, table["id"], "--seed", "5", "--delay", "0.1",
                        "--record", str(record_path)) as proc:
            decks = stacked_decks(random.Random(11))
            assert api.start(host, table, first_dealer=0, decks=decks).status_code == 200
            time.sleep(2.0)  # some actions are played
            assert api.call("GET", f"/api/tables/{table['id']}").json()["status"] == "playing"
            srv.kill()
            srv.start()
            out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        summary = json.loads(out.strip().splitlines()[-1])
        assert summary["reason"] == "won"  # nobody forfeited: the computer came back
        result = json.loads(dineri("replay", str(record_path)).stdout)
        assert result["phase"] == "over" and result["winner"] == summary["winner"]


def test_bot_takes_a_seat_at_a_private_table_by_its_invitation_link(live: tuple[Server, Api]) -> None:
    srv, api = live
    host = api.player("Host")
    table = api.table(host, public=False)

    async def join(url: str) -> int:
        link = parse_table_url(url)
        async with httpx.AsyncClient(timeout=10) as http:
            token = await new_guest(http, link.base, "Invited bot")
            return await take_seat(http, link, token, seat=1)
    assert asyncio.run(join(f"{srv.base}/join/{table['id']}.{table['code']}")) == 1
    with pytest.raises(BotError, match="not_found"):  # without the code it does not exist (issue 7, item 9)
        asyncio.run(join(f"{srv.base}/t/{table['id']}"))
