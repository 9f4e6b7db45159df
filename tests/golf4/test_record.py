"""Golf4 records (``match-record-golf4.md``): load, write, replay, steps."""

from __future__ import annotations

import json

import pytest

from dineri.golf4 import (
    CODE,
    FULL_DECK,
    MatchRecord,
    Options,
    RecordError,
    Replay,
    Step,
    action_from_json,
    apply,
    load_record,
    replay,
    replay_json,
    start,
    steps,
    summary,
)
from tests.golf4.helpers import raw, stacked

DECK = [CODE[c] for c in stacked(3, 2)]


def _doc(**changes: object) -> dict:
    doc = {"format": "dineri-match/1", "game": "golf4", "options": {"seats": 3, "rounds": 9},
           "players": ["Ana", "Mihai", "Ioana"], "first_dealer": 2, "decks": [DECK],
           "actions": [raw(a) for a in ("1 peek", "0 skip", "2 peek", "0 draw", "0 swap 2", "1 take",
                                         "1 swap 0", "2 knock", "0 draw", "0 discard", "1 take")]}
    doc.update(changes)
    return doc


def test_the_record_pages_example_replays() -> None:
    out = replay_json(_doc())
    assert out["ok"] is True and out["error"] is None
    assert out["phase"] == "play" and out["turn"] == 1 and out["knocker"] == 2
    assert out["held"]["from"] == "discard" and out["final_turns"] == [1]
    assert out["peeks"] == ["skip", "peek", "peek"] and out["decks_used"] == 1
    assert list(out) == ["ok", "error", "phase", "round", "dealer", "turn", "hands", "peeks", "stock_left",
                         "discard", "held", "knocker", "final_turns", "decks_used", "totals", "rounds",
                         "winners", "forfeited"]


@pytest.mark.parametrize("change", [
    {"format": "dineri-match/2"}, {"game": "chkobba"}, {"game": None},
    {"options": {"seats": 9, "rounds": 9}}, {"options": {"seats": 3, "rounds": 10}},
    {"options": {"seats": 3, "rounds": True}}, {"options": None},
    {"first_dealer": 3}, {"first_dealer": True}, {"first_dealer": None},
    {"decks": [DECK[:51]]}, {"decks": [[*DECK[:51], DECK[0]]]}, {"decks": [[*DECK[:51], "XX"]]},
    {"decks": "x"}, {"actions": {}}, {"players": ["a"]}, {"fairness": [{"salt": "s", "commitment": "x"}]},
    {"result": []},
])
def test_malformed_documents_are_refused(change: dict) -> None:
    with pytest.raises(RecordError):
        load_record(_doc(**change))


def test_malformed_text() -> None:
    for text in ("{", b"\xff\xfe", "[]", "null"):
        with pytest.raises(RecordError):
            load_record(text)


def test_decks_either_case_and_json_round_trip() -> None:
    rec = load_record(_doc(decks=[[c.lower() for c in DECK]], extra_key=1))
    assert rec.to_json()["decks"] == [DECK] and rec.to_json()["extra_key"] == 1
    again = load_record(json.dumps(rec.to_json()))
    assert again == rec and replay(again).to_json() == replay(rec).to_json()


def test_a_refused_action_stops_the_replay_with_the_state_before_it() -> None:
    doc = _doc()
    doc["actions"] = [*doc["actions"][:4], raw("0 discard"), raw("1 draw"), raw("0 swap 1"), raw("1 discard")]
    out = replay_json(doc)
    assert out["ok"] is False and out["error"]["index"] == 6 and out["error"]["code"] == "not_your_turn"
    assert out["error"]["message"]
    upto = replay_json({**doc, "actions": doc["actions"][:6]})
    assert upto["ok"] is True
    assert {k: v for k, v in out.items() if k not in ("ok", "error")} == \
        {k: v for k, v in upto.items() if k not in ("ok", "error")}


def test_a_missing_deck_stops_the_replay_in_shuffle_and_later_actions_are_not_read() -> None:
    doc = _doc(decks=[])
    out = replay_json(doc)
    assert out["ok"] is True and out["phase"] == "shuffle" and out["hands"] == [[], [], []]
    assert out["turn"] is None and out["stock_left"] == 0 and out["discard"] == [] and out["round"] == 1
    assert out["dealer"] == 2 and out["decks_used"] == 0


def test_steps_agree_with_replay_and_with_apply() -> None:
    rec = load_record(_doc())
    items = list(steps(rec))
    assert isinstance(items[-1], Replay) and all(isinstance(s, Step) for s in items[:-1])
    assert len(items) - 1 == len(rec.actions)
    state = start(rec)
    for step in items[:-1]:
        assert isinstance(step, Step)
        state, events = apply(state, action_from_json(rec.actions[step.index], 3))
        assert state == step.state and events == step.events
    assert summary(state) == summary(replay(rec).state)


def test_with_action_appends_the_record_form() -> None:
    rec = MatchRecord(options=Options(2, 9), first_dealer=0, decks=(tuple(FULL_DECK),))
    rec = rec.with_action(action_from_json({"seat": 1, "type": "skip_peek", "auto": True}, 2))
    assert rec.to_json()["actions"] == [{"seat": 1, "type": "skip_peek", "auto": True}]
    assert replay(rec).to_json()["peeks"] == [None, "skip"]
