"""Records (match-record-seven-diamonds.md): validation, round trip, replay, replay steps."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from dineri.seven_diamonds import (
    CODE,
    MatchRecord,
    Options,
    RecordError,
    action_to_json,
    apply,
    legal_actions,
    load_record,
    new_match,
    replay,
    replay_json,
    replay_steps,
    summary,
)
from tests.seven_diamonds.helpers import random_decks


def _recorded_match(seed: int, forfeit_at: int | None = None) -> dict[str, Any]:
    """A record of random legal play (a whole match unless ``forfeit_at``)."""
    rng = random.Random(seed)
    decks = random_decks(rng, 40)
    dealer = rng.randrange(4)
    state = new_match(Options(), dealer, decks)
    actions = []
    while state.phase != "over":
        acts = [a for a in legal_actions(state, state.turn) if type(a).__name__ != "Forfeit"]
        action = rng.choice(acts)
        if forfeit_at is not None and len(actions) == forfeit_at:
            action = legal_actions(state, 3)[-1]
        state, _ = apply(state, action)
        actions.append(action_to_json(action))
    used = state.round
    return {"format": "dineri-match/1", "game": "seven_diamonds", "options": {"seats": 4, "target": 500},
            "players": ["Fahad", "Noura", "Saad", "Reem"], "first_dealer": dealer,
            "decks": [[CODE[c] for c in d] for d in decks[:used]], "actions": actions}


GOOD = _recorded_match(7)


def _bad(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is KeyError:
            doc.pop(key)
        else:
            doc[key] = value
    return doc


BAD = {
    "format": _bad(format="dineri-match/2"),
    "no game": _bad(game=KeyError),
    "chkobba game": _bad(game="chkobba"),
    "seats": _bad(options={"seats": 2, "target": 500}),
    "target": _bad(options={"seats": 4, "target": 300}),
    "float target": _bad(options={"seats": 4, "target": 500.0}),
    "bool seats": _bad(options={"seats": True, "target": 500}),
    "missing target": _bad(options={"seats": 4}),
    "extra option": _bad(options={"seats": 4, "target": 500, "best_of": 1}),
    "first dealer 4": _bad(first_dealer=4),
    "first dealer bool": _bad(first_dealer=True),
    "no first dealer": _bad(first_dealer=KeyError),
    "short deck": _bad(decks=[GOOD["decks"][0][:31]]),
    "repeated card": _bad(decks=[[*GOOD["decks"][0][:31], GOOD["decks"][0][0]]]),
    "six": _bad(decks=[[*GOOD["decks"][0][:31], "6H"]]),
    "deck not a list": _bad(decks=["7D"]),
    "decks missing": _bad(decks=KeyError),
    "actions not a list": _bad(actions={}),
    "players": _bad(players=["a", "b"]),
    "fairness": _bad(fairness=[{"salt": "x", "commitment": "ABC"}]),
    "result": _bad(result=[1]),
}


@pytest.mark.parametrize("doc", list(BAD.values()), ids=list(BAD))
def test_malformed_records_are_refused(doc: dict[str, Any]) -> None:
    with pytest.raises(RecordError):
        load_record(doc)


@pytest.mark.parametrize("text", ["", "{", "[]", "null", b"\xff\xfe", "[" * 100000])
def test_a_document_that_is_not_a_json_object_is_refused(text: Any) -> None:
    with pytest.raises(RecordError):
        load_record(text)


def test_decks_in_either_case_and_unknown_keys_are_kept() -> None:
    doc = _bad(decks=[[c.lower() for c in d] for d in GOOD["decks"]], note="kept")
    rec = load_record(json.dumps(doc))
    assert rec.to_json()["decks"] == GOOD["decks"] and rec.to_json()["note"] == "kept"


def test_the_record_round_trips() -> None:
    rec = load_record(GOOD)
    assert rec.to_json() == GOOD
    assert load_record(rec.dumps()) == rec
    out = replay(rec)
    assert out.error is None and out.state.phase == "over"
    with_result = load_record({**GOOD, "result": out.to_json()})
    assert with_result.result == out.to_json() and replay(with_result).to_json() == out.to_json()


def test_with_action_appends_the_record_form() -> None:
    rec = load_record(_bad(actions=[]))
    state = replay(rec).state
    action = legal_actions(state, state.turn)[0]
    rec2 = rec.with_action(action)
    assert rec2.actions == (action_to_json(action),) and rec.actions == ()
    assert replay(rec2).state == apply(state, action)[0]


def test_replay_stops_at_the_first_refused_action_with_the_state_before_it() -> None:
    doc = copy.deepcopy(GOOD)
    k = 20
    doc["actions"].insert(k, {"seat": doc["actions"][k]["seat"], "type": "bid", "call": "three"})
    out = replay_json(doc)
    assert out["ok"] is False and out["error"]["index"] == k
    assert out["error"]["code"] in ("wrong_phase", "illegal_call")
    assert {k2: v for k2, v in out.items() if k2 not in ("ok", "error")} == summary(
        replay(load_record(GOOD), upto=k).state)


def test_replay_waits_in_shuffle_when_a_deck_is_lacking() -> None:
    one_deck = _bad(decks=GOOD["decks"][:1])
    first = replay(load_record(GOOD), upto=None)
    ends = next(i + 1 for i, step in enumerate(replay_steps(load_record(GOOD))[1:])
                if step["state"]["rounds"])  # the actions of round 1
    out = replay_json({**one_deck, "actions": GOOD["actions"][:ends]})
    assert (out["ok"], out["phase"], out["round"], out["turn"]) == (True, "shuffle", 2, None)
    assert out["hands"] == [[], [], [], []] and out["bids"] == [] and len(out["rounds"]) == 1
    out = replay_json(one_deck)  # the next call has no deal to call on
    assert (out["ok"], out["phase"], out["error"]["index"], out["error"]["code"]) == (
        False, "shuffle", ends, "wrong_phase")
    assert first.state.round > 1


def test_replay_output_keys_are_the_record_pages() -> None:
    assert set(replay_json(GOOD)) == {"ok", "error", "phase", "round", "dealer", "turn", "hands", "table",
                                      "bids", "multiplier", "doubler", "tripler", "scores", "rounds",
                                      "winner", "forfeited"}


@pytest.mark.parametrize("seed", [7, 8])
def test_replay_steps_agree_with_replay(seed: int) -> None:
    rec = load_record(_recorded_match(seed) if seed != 7 else GOOD)
    steps = replay_steps(rec)
    assert len(steps) == len(rec.actions) + 1
    assert steps[0] == {"index": None, "action": None, "events": [], "state": summary(replay(rec, 0).state)}
    for i in range(0, len(rec.actions), 7):
        step = steps[i + 1]
        assert step["index"] == i and step["action"] == rec.actions[i]
        assert step["state"] == summary(replay(rec, i + 1).state)
        state = replay(rec, i).state
        from dineri.seven_diamonds import action_from_json

        assert step["events"] == apply(state, action_from_json(rec.actions[i]))[1]
    assert steps[-1]["state"] == summary(replay(rec).state)


def test_replay_steps_stop_at_a_refused_action() -> None:
    doc = copy.deepcopy(GOOD)
    doc["actions"].insert(5, {"seat": 0, "type": "dance"})
    steps = replay_steps(load_record(doc))
    assert len(steps) == 6 and steps[-1]["index"] == 4


def test_a_forfeit_record_replays() -> None:
    doc = _recorded_match(9, forfeit_at=30)
    out = replay_json(doc)
    assert out["ok"] and out["phase"] == "over" and out["forfeited"] == 3 and out["winner"] == 0


def test_match_record_defaults() -> None:
    rec = MatchRecord(options=Options(), first_dealer=0, decks=())
    assert rec.to_json() == {"format": "dineri-match/1", "game": "seven_diamonds",
                             "options": {"seats": 4, "target": 500}, "first_dealer": 0, "decks": [],
                             "actions": []}
