"""The rule copy and the record spec follow the settled texts of ``shared/`` (issue 7, item 12),
and the product does what they say: R3 (WebSocket: upper case; records and the command line:
either ASCII case, ``7ſ`` is not ``7S``), R7 (every deck and salt revealed at the match's end),
``turn`` during ``redeal_vote`` (the proposer's next seat), and after a forfeit ``turn``,
``drawn`` and ``pending_redeal`` null."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dineri.engine import CODE, RecordError, RuleError, load_record, parse_card, replay
from dineri.fairness import commitment_codes
from dineri.games import GameMatch, get_game
from tests.server.harness import ROOT, Api, Client, Server

pytestmark = pytest.mark.timeout(120)
CASES = ROOT / "tests" / "cases" / "chkobba"
CODES = [CODE[i] for i in range(40)]


def _shared() -> Path | None:
    """``shared/`` beside the checkout (CI), or the session's ``/work/shared``."""
    for candidate in (ROOT.parent / "shared", Path("/work/shared")):
        if (candidate / "rules" / "chkobba.md").exists():
            return candidate
    return None


@pytest.mark.parametrize(("settled", "copy_in_repo"), [("rules/chkobba.md", "docs/rules/chkobba.md"),
                                                       ("design/match-record.md", "docs/match-record.md")])
def test_the_docs_are_the_settled_texts(settled: str, copy_in_repo: str) -> None:
    shared = _shared()
    if shared is None:
        (pytest.fail if os.environ.get("CI") else pytest.skip)("shared/ is not beside the checkout")
    assert (ROOT / copy_in_repo).read_text(encoding="utf-8") == (shared / settled).read_text(encoding="utf-8")


def _replay(doc: dict[str, Any]) -> dict[str, Any]:
    return dict(replay(load_record(json.dumps(doc))).to_json())


def _record() -> dict[str, Any]:
    """The card-codes case without its bad last action: cut, table, a capture."""
    rec = json.loads((CASES / "card-codes.json").read_text())["record"]
    rec["actions"] = rec["actions"][:3]
    return dict(rec)


def test_r3_records_take_either_ascii_case_and_print_upper_case(tmp_path: Path) -> None:
    rec = _record()
    upper = copy.deepcopy(rec)
    upper["actions"][2].update(card="7H", capture=["7S"])
    lower = copy.deepcopy(rec)
    lower["decks"] = [[c.lower() for c in rec["decks"][0]]]
    lower["actions"][2].update(card="7h", capture=["7s"])
    assert _replay(lower) == _replay(upper) and _replay(upper)["ok"]
    path = tmp_path / "lower.json"
    path.write_text(json.dumps(lower))
    out = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and json.loads(out.stdout) == _replay(upper)
    assert all(c == c.upper() for c in json.loads(out.stdout)["table"])


def test_r3_a_non_ascii_letter_is_not_a_card_code(tmp_path: Path) -> None:
    """``"7ſ"`` upper-cases to ``"7S"`` in Unicode, but only ASCII is a card code: in a deck the
    record is malformed (exit 2, nothing on standard output), in an action that action is
    ``malformed`` (it used to be taken for the 7♠)."""
    rec = _record()
    deck = copy.deepcopy(rec)
    deck["decks"][0][0] = "7ſ"  # the deck's 7S
    with pytest.raises(RecordError):
        load_record(json.dumps(deck))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(deck))
    out = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == "" and len(out.stderr.strip().splitlines()) == 1
    action = copy.deepcopy(rec)
    action["actions"][2]["capture"] = ["7ſ"]
    result = _replay(action)
    assert not result["ok"] and result["error"]["index"] == 2 and result["error"]["code"] == "malformed"
    for bad in ("7ſ", "ᴀs", "７S", "7Ｓ"):
        with pytest.raises(RuleError, match="not a card code"):
            parse_card(bad)


@pytest.mark.parametrize("change", ["decks", "actions"])
def test_record_lists_missing_or_not_lists_are_malformed_documents(change: str, tmp_path: Path) -> None:
    for bad in (None, {"a": 1}, "x"):
        doc = _record()
        if bad is None:
            del doc[change]
        else:
            doc[change] = bad
        path = tmp_path / "doc.json"
        path.write_text(json.dumps(doc))
        out = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and out.stdout == "" and out.stderr.strip(), (change, bad)


def test_a_seat_is_a_json_integer_and_actions_after_a_refusal_are_not_read() -> None:
    for seat in (1.0, True, "1"):
        doc = _record()
        doc["actions"][0]["seat"] = seat
        result = _replay(doc)
        assert not result["ok"] and result["error"] == {**result["error"], "index": 0, "code": "malformed"}
    doc = _record()
    doc["actions"][2]["card"] = "1H"  # refused: what follows is never read
    doc["actions"] += ["not an action", {"seat": "x"}, 42]
    result = _replay(doc)
    assert result["error"]["index"] == 2 and result["error"]["code"] == "malformed"


def _dealt(seats: int, rng: random.Random) -> tuple[GameMatch, int]:
    """A match of ``seats`` past its first deal where some seat may propose a redeal (R10)."""
    game = get_game("chkobba")
    for _ in range(5000):
        m, _ = game.new_match({"seats": seats, "target": 11, "best_of": 1}, [f"P{i}" for i in range(seats)],
                              0, [rng.sample(CODES, 40)])
        m, _ = m.apply(1, {"type": "cut", "at": rng.randrange(40)})
        m, _ = m.apply(1, {"type": rng.choice(["keep", "table"])})
        for seat in range(seats):
            if {"type": "propose_redeal"} in m.legal_actions(seat):
                return m, seat
    raise AssertionError("no redeal-able deal found")


@pytest.mark.parametrize("seats", [2, 4])
def test_turn_during_redeal_vote_is_the_proposers_next_seat(seats: int) -> None:
    """R10: while a proposed redeal waits for the proposer's opponents, every view and the replay
    give the turn to the proposer's next seat, with the pending proposal."""
    rng = random.Random(seats)
    for _ in range(6):
        m, proposer = _dealt(seats, rng)
        m, _ = m.apply(proposer, {"type": "propose_redeal"})
        assert m.phase == "redeal_vote"
        views = [m.spectator_view(), *(m.seat_view(s) for s in range(seats))]
        assert all(v["turn"] == (proposer + 1) % seats for v in views)
        assert all(v["pending_redeal"] == {"proposer": proposer} for v in views)
        summary = replay(load_record(json.dumps(m.record()))).to_json()
        assert summary["turn"] == (proposer + 1) % seats and summary["phase"] == "redeal_vote"


@pytest.mark.parametrize("where", ["cut_choice", "redeal_vote", "play"])
def test_after_a_forfeit_turn_drawn_and_pending_redeal_are_null(where: str) -> None:
    """R33: a forfeit ends the match from any phase; every view and the replay then show no turn,
    no drawn card and no pending redeal, and the other side as the winner."""
    rng = random.Random(where)
    game = get_game("chkobba")
    if where == "redeal_vote":
        m, proposer = _dealt(2, rng)
        m, _ = m.apply(proposer, {"type": "propose_redeal"})
    else:
        options = {"seats": 2, "target": 11, "best_of": 1}
        m, _ = game.new_match(options, ["A", "B"], 0, [rng.sample(CODES, 40)])
        m, _ = m.apply(1, {"type": "cut", "at": 5})
        if where == "play":
            m, _ = m.apply(1, {"type": "keep"})
    assert m.phase == where
    before = m.spectator_view()
    assert before["turn"] is not None and (before["drawn"] or before["pending_redeal"] or where == "play")
    m, _ = m.apply(0, {"type": "forfeit"})
    assert m.over
    for view in (m.spectator_view(), m.seat_view(0), m.seat_view(1),
                 replay(load_record(json.dumps(m.record()))).to_json()):
        assert view["turn"] is None and view["drawn"] is None and view["pending_redeal"] is None
        assert view["phase"] == "over" and view["winner"] == 1


def test_r7_every_deck_and_salt_is_revealed_when_the_match_ends(tmp_path: Path) -> None:
    """Over the table socket: each shuffle's ``commitment`` comes before its cut, no deck or salt
    before the end, and right after ``match_over`` one ``reveal`` with every deck of the match
    (two here: a redeal was accepted), each matching its commitment."""
    rng = random.Random(7)
    m, proposer = _dealt(2, rng)
    deck = m.record()["decks"][0]
    cut, choice = m.record()["actions"][0]["at"], m.record()["actions"][1]["type"]
    srv = Server(f"sqlite:///{tmp_path / 'r7.db'}").start()
    api = Api(srv)
    try:
        table, players = api.full_table(["A", "B"], decks=[deck, rng.sample(CODES, 40)], first_dealer=0)

        async def run() -> list[dict[str, Any]]:
            a, b = (Client(srv, table["id"], p["token"]) for p in players)
            for c in (a, b):
                await c.connect(last_event=0)  # every event from the first
            by_seat = {0: a, 1: b}
            await b.act({"type": "cut", "at": cut})
            await b.act({"type": choice})
            await by_seat[proposer].act({"type": "propose_redeal"})
            await by_seat[1 - proposer].act({"type": "answer_redeal", "accept": True})
            await a.act({"type": "forfeit"})
            await a.wait_for(lambda f: f["type"] == "event" and f["event"]["type"] == "reveal")
            events = [f["event"] for f in a.frames if f["type"] == "event"]
            for c in (a, b):
                await c.close()
            return events
        events = asyncio.run(run())
    finally:
        srv.stop()
        api.http.close()
    kinds = [e["type"] for e in events]
    assert kinds.count("commitment") == 2 and kinds[-2:] == ["match_over", "reveal"]
    assert "salt" not in json.dumps(events[:-1]) and all("decks" not in e for e in events[:-1])
    reveal = events[-1]
    assert len(reveal["decks"]) == 2 and reveal["decks"][0] == deck
    commitments = [e["commitment"] for e in events if e["type"] == "commitment"]
    salts = reveal["fairness"]
    revealed = [commitment_codes(s["salt"], d) for s, d in zip(salts, reveal["decks"], strict=True)]
    assert revealed == commitments


def test_r3_the_websocket_takes_upper_case_card_codes_only(tmp_path: Path) -> None:
    """On the table socket a lower-case card code is ``malformed`` (the schemas' pattern); the
    same action in upper case is judged by the rules."""
    srv = Server(f"sqlite:///{tmp_path / 'r3.db'}").start()
    api = Api(srv)
    try:
        deck = json.loads((CASES / "card-codes.json").read_text())["record"]["decks"][0]
        table, players = api.full_table(["A", "B"], decks=[deck], first_dealer=0)

        async def run() -> tuple[dict[str, Any], dict[str, Any]]:
            b = Client(srv, table["id"], players[1]["token"])
            await b.connect()
            await b.act({"type": "cut", "at": 0})
            await b.act({"type": "table"})
            lower = await b.act({"type": "play", "card": "7h", "capture": ["7s"]})
            upper = await b.act({"type": "play", "card": "7H", "capture": ["7S"]})
            await b.close()
            return lower, upper
        lower, upper = asyncio.run(run())
    finally:
        srv.stop()
        api.http.close()
    assert lower["type"] == "error" and lower["code"] == "malformed"
    assert upper["type"] == "ack"
