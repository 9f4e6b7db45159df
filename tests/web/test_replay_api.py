"""``POST /api/replay`` (issue 13, item 6): a record document stepped by the game's own
``replay_steps``, its final state exactly ``dineri replay``'s; bad documents refused clearly,
large ones by size."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dineri import records
from dineri.server.bodylimit import BodyLimit
from dineri.web import mount_web
from dineri.web.replay import MAX_RECORD_BYTES

CASES = Path(__file__).resolve().parents[1] / "cases" / "chkobba"


@pytest.fixture
def client() -> TestClient:
    app = FastAPI()
    app.add_middleware(BodyLimit)
    mount_web(app, None)
    return TestClient(app)


def _case(name: str) -> dict[str, Any]:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def test_a_whole_match_is_stepped_to_the_dineri_replay_state(client: TestClient) -> None:
    case = _case("full-match-4seats-t11-bo3")
    record = case["record"]
    r = client.post("/api/replay", content=json.dumps(record), headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["game"] == "chkobba" and body["options"] == record["options"]
    steps = body["steps"]
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["index"] is None and steps[0]["action"] is None and steps[0]["events"] == []
    assert [s["index"] for s in steps[1:]] == list(range(len(record["actions"])))
    assert body["result"] == records.replay_json(record)
    assert {k: body["result"][k] for k in case["expect"]} == case["expect"]  # the case's expected output
    final = {k: v for k, v in body["result"].items() if k not in ("ok", "error")}
    assert steps[-1]["state"] == final
    # Any step's state is what ``dineri replay`` prints for the record cut after that action.
    for i in (1, 17, len(steps) // 2):
        cut = {**record, "actions": record["actions"][:i]}
        expect = {k: v for k, v in records.replay_json(cut).items() if k not in ("ok", "error")}
        assert steps[i]["state"] == expect, i


def test_a_refused_action_stops_the_steps_and_says_why(client: TestClient) -> None:
    record = copy.deepcopy(_case("full-match-2seats-t11-bo1")["record"])
    record["actions"][5] = {**record["actions"][5], "seat": 1 - record["actions"][5]["seat"]}
    body = client.post("/api/replay", json=record).json()
    assert len(body["steps"]) == 6  # before the first action, then actions 0..4
    assert body["result"]["ok"] is False and body["result"]["error"]["index"] == 5


@pytest.mark.parametrize("doc", [
    "not json", "[]", json.dumps({"format": "dineri-match/1", "game": "chess"}),
    json.dumps({"format": "other/1", "game": "chkobba"}),
    json.dumps({"format": "dineri-match/1", "game": "chkobba", "options": {"seats": 3}}),
])
def test_what_is_not_a_record_is_malformed(client: TestClient, doc: str) -> None:
    r = client.post("/api/replay", content=doc, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["detail"]["code"] == "malformed"


def test_records_larger_than_the_limit_are_refused_by_size(client: TestClient) -> None:
    big = json.dumps({**_case("full-match-2seats-t11-bo1")["record"], "padding": "x" * MAX_RECORD_BYTES})
    r = client.post("/api/replay", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"
    # Other REST paths keep their small limit: a 20 KiB body elsewhere is still too large.
    r = client.post("/api/players", content="x" * 20000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_the_replay_page_loads_every_game_page_module(client: TestClient) -> None:
    html = client.get("/replay").text
    assert '<input type="file" id="record-file"' in html
    assert '<template id="board-chkobba">' in html and 'id="table-cards"' in html
    assert "/static/js/games/chkobba.js" in html and "/static/js/replay.js" in html
    assert client.get("/replay?match=12").status_code == 200
    assert '"match": "12"' in client.get("/replay?match=12").text
    assert '"match": null' in client.get("/replay?match=../x").text
