"""Match records (``match-record.md``): validation, round trip, replay, and the CLI."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dineri.engine import (
    CODE,
    Options,
    Play,
    RecordError,
    load_record,
    new_match,
    parse_card,
    replay,
    summary,
)
from dineri.fairness import commit
from tests.engine.helpers import SWEEP_PREFIX, action_json, cards, deck, run, shuffled, sweep_actions

ROOT = Path(__file__).resolve().parents[2]


def codes(d: tuple[int, ...]) -> list[str]:
    return [CODE[c] for c in d]


def good_doc() -> dict[str, Any]:
    """A valid record: the scripted sweep round, then the first cut of round 2 (target 31)."""
    return {
        "format": "dineri-match/1",
        "game": "chkobba",
        "options": {"seats": 2, "target": 31, "best_of": 1},
        "players": ["Amira", "Youssef"],
        "first_dealer": 0,
        "decks": [codes(deck(*SWEEP_PREFIX)), codes(shuffled(1))],
        "actions": [action_json(a) for a in [*sweep_actions(), "0 cut 5"]],
    }


def with_fairness(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with a fairness entry per deck (R7), placed after ``decks`` as documented."""
    entries = [commit(cards(" ".join(d))) for d in doc["decks"]]
    out: dict[str, Any] = {}
    for key, value in copy.deepcopy(doc).items():
        out[key] = value
        if key == "decks":
            out["fairness"] = [{"salt": f.salt, "commitment": f.commitment} for f in entries]
    return out


def mutate(path: list[Any], value: Any) -> dict[str, Any]:
    """good_doc() with the value at ``path`` replaced (or deleted when value is DELETE)."""
    doc = good_doc()
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


DELETE = object()


# --- load_record: every malformed document is a RecordError ---------------------------------------


@pytest.mark.parametrize("text", ["", "{", "nope", '{"format": "dineri-match/1",}', b"\xff\xfe"])
def test_record_not_json(text: str | bytes) -> None:
    with pytest.raises(RecordError, match="malformed record"):
        load_record(text)


@pytest.mark.parametrize("doc", [[], "[]", "3", 3, None, '"text"', ["format"]])
def test_record_not_an_object(doc: object) -> None:
    with pytest.raises(RecordError, match="object"):
        load_record(doc)


BAD_DOCUMENTS: dict[str, tuple[list[Any], Any]] = {
    "format missing": (["format"], DELETE),
    "format wrong": (["format"], "dineri-match/2"),
    "game missing": (["game"], DELETE),
    "game wrong": (["game"], "scopa"),
    "options missing": (["options"], DELETE),
    "options not object": (["options"], [2, 11, 1]),
    "seats 3": (["options", "seats"], 3),
    "seats missing": (["options", "seats"], DELETE),
    "target 15": (["options", "target"], 15),
    "target text": (["options", "target"], "11"),
    "best_of 2": (["options", "best_of"], 2),
    "first_dealer missing": (["first_dealer"], DELETE),
    "first_dealer 2 of 2": (["first_dealer"], 2),
    "first_dealer -1": (["first_dealer"], -1),
    "first_dealer text": (["first_dealer"], "0"),
    "first_dealer bool": (["first_dealer"], True),
    "decks missing": (["decks"], DELETE),
    "decks not list": (["decks"], "7D AH"),
    "deck not list": (["decks", 0], "7D,AH"),
    "deck 39 cards": (["decks", 1], codes(shuffled(1))[:39]),
    "deck 41 cards": (["decks", 1], [*codes(shuffled(1)), "7D"]),
    "deck duplicate": (["decks", 1], [*codes(shuffled(1))[:39], codes(shuffled(1))[0]]),
    "deck bad code": (["decks", 0, 5], "8D"),
    "deck code not text": (["decks", 0, 0], 7),
    "actions missing": (["actions"], DELETE),
    "actions not list": (["actions"], {"0": {"seat": 1, "type": "cut", "at": 0}}),
    "fairness not list": (["fairness"], {"salt": "a", "commitment": "0" * 64}),
    "fairness entry not object": (["fairness"], ["0" * 64]),
    "fairness no salt": (["fairness"], [{"commitment": "0" * 64}, {"salt": "a", "commitment": "0" * 64}]),
    "fairness salt number": (["fairness"], [{"salt": 5, "commitment": "0" * 64}]),
    "fairness short": (["fairness"], [{"salt": "a", "commitment": "0" * 63}]),
    "fairness upper hex": (["fairness"], [{"salt": "a", "commitment": "A" * 64}]),
    "fairness not hex": (["fairness"], [{"salt": "a", "commitment": "g" * 64}]),
    "players not list": (["players"], "Amira"),
    "players too few": (["players"], ["Amira"]),
    "players too many": (["players"], ["A", "B", "C"]),
    "players not text": (["players"], ["Amira", 7]),
    "result not object": (["result"], ["ok"]),
}


@pytest.mark.parametrize("name", list(BAD_DOCUMENTS))
def test_record_malformed_document(name: str) -> None:
    path, value = BAD_DOCUMENTS[name]
    doc = mutate(path, value)
    with pytest.raises(RecordError) as info:
        load_record(doc)
    assert str(info.value).startswith("malformed record: ")
    with pytest.raises(RecordError):
        load_record(json.dumps(doc))  # the same as JSON text


def test_record_messages_name_the_problem() -> None:
    cases: dict[str, tuple[list[Any], Any]] = {
        "first_dealer": (["first_dealer"], 5), "decks[1]": (["decks", 1], codes(shuffled(1))[:39]),
        "options.target": (["options", "target"], 12), "fairness[0]": (["fairness"], [{}]),
        "players": (["players"], [1, 2]), "actions": (["actions"], None), "format": (["format"], "x")}
    for needle, (path, value) in cases.items():
        with pytest.raises(RecordError, match=needle.replace("[", r"\[").replace(".", r"\.")):
            load_record(mutate(path, value))


# --- what a valid record allows ---------------------------------------------------------------------


def test_record_optional_keys_may_be_absent_and_decks_empty() -> None:
    doc = good_doc()
    del doc["players"]
    doc["decks"] = []
    doc["actions"] = []
    rec = load_record(doc)
    assert rec.players is None and rec.fairness is None and rec.decks == ()
    assert replay(rec).to_json()["phase"] == "shuffle"


def test_record_lower_case_codes_accepted_and_written_upper() -> None:
    doc = good_doc()
    doc["decks"][0] = [c.lower() for c in doc["decks"][0]]
    assert load_record(doc).to_json()["decks"][0] == good_doc()["decks"][0]


def test_record_round_trips_to_json() -> None:
    doc = with_fairness(good_doc())
    doc["result"] = replay(load_record(doc)).to_json()
    doc["server"] = {"table": "abc"}  # unknown keys are kept (the format grows by optional keys)
    rec = load_record(doc)
    assert rec.to_json() == doc
    assert list(rec.to_json()) == list(doc)  # documented key order
    assert load_record(rec.dumps()) == rec
    assert load_record(json.dumps(doc)) == rec


def test_record_with_action_appends_the_json_form() -> None:
    rec = load_record({**good_doc(), "actions": []})
    rec2 = rec.with_action(Play(1, parse_card("KC"), cards("AD AH")))
    assert rec.actions == ()
    assert rec2.actions == ({"seat": 1, "type": "play", "card": "KC", "capture": ["AD", "AH"]},)



def test_record_with_action_keeps_every_other_field() -> None:
    """``with_action`` builds the copy itself (issue 8: not ``dataclasses.replace``): every other
    field, a field added later included, is the same object as in the original."""
    import dataclasses

    from dineri.engine import Fairness, MatchRecord

    values: dict[str, Any] = {"options": Options.from_json({"seats": 2, "target": 11, "best_of": 1}),
                              "first_dealer": 1, "decks": (tuple(deck()),), "actions": ({"x": 1},),
                              "players": ("a", "b"), "fairness": (Fairness("s", "c"),),
                              "result": {"winner": 0}, "extra": {"k": "v"}}
    assert set(values) == {f.name for f in dataclasses.fields(MatchRecord)}
    rec = MatchRecord(**values)
    new = rec.with_action(Play(1, parse_card("KC"), cards("AD AH")))
    for f in dataclasses.fields(MatchRecord):
        if f.name != "actions":
            assert getattr(new, f.name) is values[f.name], f.name
    assert new.actions[:1] == values["actions"] and len(new.actions) == 2

def test_record_with_action_shares_the_log_and_never_shows_a_branch() -> None:
    """Appending is O(1) (issue 8: the whole actions tuple was copied on every accepted action):
    successive records share one list, each seeing only its own first n actions; appending to an
    older record (a judgement that was not adopted) copies, and neither sees the other's action."""
    from dineri.engine.record import ActionLog

    rec = load_record({**good_doc(), "actions": []})
    plays = [Play(0, parse_card(c), ()) for c in ("AD", "2D", "3D")]
    r1 = rec.with_action(plays[0])
    r2 = r1.with_action(plays[1])
    assert isinstance(r2.actions, ActionLog) and r2.actions._items is r1.actions._items  # shared
    branch = r1.with_action(plays[2])  # r1 is not the longest any more: a copy
    assert branch.actions._items is not r2.actions._items
    assert [a["card"] for a in r1.actions] == ["AD"]
    assert [a["card"] for a in r2.actions] == ["AD", "2D"]
    assert [a["card"] for a in branch.actions] == ["AD", "3D"]
    assert r2.actions == tuple(r2.actions) and r2.actions == list(r2.actions) and r2.actions != r1.actions
    assert (len(r2.actions), r2.actions[-1]["card"], r2.actions[:1], r2.actions[-5:]) == (
        2, "2D", (r1.actions[0],), tuple(r2.actions))
    with pytest.raises(IndexError):
        r1.actions[1]  # the shared list holds 2D there: not r1's
    doc = r2.to_json()
    assert doc["actions"] == [{"seat": 0, "type": "play", "card": c} for c in ("AD", "2D")]
    assert load_record(r2.dumps()) == r2 and load_record(doc).actions == r2.actions


# --- replay -----------------------------------------------------------------------------------------


def test_replay_equals_the_live_state() -> None:
    rec = load_record(good_doc())
    out = replay(rec)
    live = new_match(Options(2, 31, 1), 0, [deck(*SWEEP_PREFIX), shuffled(1)])
    live, _ = run(live, *sweep_actions(), "0 cut 5")
    assert out.error is None and out.applied == len(rec.actions)
    assert out.state == live
    assert out.to_json() == {"ok": True, "error": None, **summary(live)}
    assert out.to_json()["phase"] == "cut_choice" and out.to_json()["drawn"] == CODE[shuffled(1)[5]]
    assert out.to_json()["ok"] is True


@pytest.mark.parametrize(("index", "raw"), [
    (0, {"seat": 1, "type": "cut", "at": 40}),
    (2, {"seat": 1, "type": "play", "card": "ZZ"}),
    (5, {"seat": 0, "type": "play", "card": "KD", "capture": ["5D", "5D"]}),
    (7, "play"),
    (7, {"seat": 9, "type": "play", "card": "AC", "capture": ["AS"]}),
    (9, {"seat": 0, "type": "jump"}),
])
def test_replay_malformed_action_is_reported_at_its_index(index: int, raw: object) -> None:
    doc = good_doc()
    doc["actions"][index] = raw
    rec = load_record(doc)  # a bad action is not a document error
    out = replay(rec)
    assert out.error is not None
    assert out.error["index"] == index and out.error["code"] == "malformed" and out.error["message"]
    assert out.applied == index
    assert out.state == replay(rec, upto=index).state  # the state before it


def test_replay_stops_when_a_deck_is_missing() -> None:
    doc = good_doc()
    doc["decks"] = doc["decks"][:1]
    doc["actions"] = doc["actions"][:-1]
    out = replay(load_record(doc)).to_json()
    assert out["ok"] is True and out["phase"] == "shuffle" and out["round"] == 2 and out["deck_left"] == 0


# --- the CLI ----------------------------------------------------------------------------------------


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dineri.cli", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60, check=False)


def expected_output(doc: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(replay(load_record(doc)).to_json()))


def test_cli_replay_file(tmp_path: Path) -> None:
    f = tmp_path / "match.json"
    f.write_text(json.dumps(good_doc()))
    run_ = cli("replay", str(f))
    assert run_.returncode == 0, run_.stderr
    assert json.loads(run_.stdout) == expected_output(good_doc())


def test_cli_replay_stdin_and_refused_action_exit_0() -> None:
    doc = good_doc()
    doc["actions"].append({"seat": 0, "type": "play", "card": "AD"})  # phase cut_choice
    run_ = cli("replay", "-", stdin=json.dumps(doc))
    assert run_.returncode == 0, run_.stderr
    out = json.loads(run_.stdout)
    assert out == expected_output(doc)
    assert out["ok"] is False and out["error"]["index"] == len(doc["actions"]) - 1
    assert out["error"]["code"] == "wrong_phase"


@pytest.mark.parametrize("text", ["{", json.dumps({"format": "x"}),
                                  json.dumps({**good_doc(), "decks": [["7D"] * 40]})])
def test_cli_replay_malformed_document_exit_2(text: str) -> None:
    run_ = cli("replay", "-", stdin=text)
    assert run_.returncode == 2
    assert run_.stdout == ""
    assert "malformed record" in run_.stderr


def test_cli_replay_missing_file_exit_2(tmp_path: Path) -> None:
    run_ = cli("replay", str(tmp_path / "nope.json"))
    assert run_.returncode == 2 and "cannot read" in run_.stderr


def test_cli_replay_jsonl(tmp_path: Path) -> None:
    short = {**good_doc(), "actions": good_doc()["actions"][:3]}
    lines = [json.dumps(good_doc()), json.dumps(short), ""]
    f = tmp_path / "many.jsonl"
    f.write_text("\n".join(lines) + "\n")
    run_ = cli("replay", "--jsonl", str(f))
    assert run_.returncode == 0, run_.stderr
    outs = [json.loads(x) for x in run_.stdout.splitlines()]
    assert outs == [expected_output(good_doc()), expected_output(short)]


def test_cli_replay_jsonl_malformed_line_exit_2_others_still_print() -> None:
    short = {**good_doc(), "actions": good_doc()["actions"][:3]}
    text = "\n".join([json.dumps(good_doc()), "{not json", json.dumps(short)]) + "\n"
    run_ = cli("replay", "--jsonl", "-", stdin=text)
    assert run_.returncode == 2
    outs = [json.loads(x) for x in run_.stdout.splitlines()]
    assert len(outs) == 3
    assert outs[0] == expected_output(good_doc()) and outs[2] == expected_output(short)
    assert outs[1]["ok"] is False and "line 2" in outs[1]["error"]["message"]


def test_cli_verify_passes(tmp_path: Path) -> None:
    f = tmp_path / "fair.json"
    f.write_text(json.dumps(with_fairness(good_doc())))
    run_ = cli("verify", str(f))
    assert run_.returncode == 0, run_.stdout + run_.stderr
    assert "OK" in run_.stdout


def test_cli_verify_names_the_altered_deck(tmp_path: Path) -> None:
    doc = with_fairness(good_doc())
    d = doc["decks"][1]
    d[0], d[1] = d[1], d[0]  # the deck no longer matches what was committed
    f = tmp_path / "unfair.json"
    f.write_text(json.dumps(doc))
    run_ = cli("verify", str(f))
    assert run_.returncode == 1
    assert "deck 1" in run_.stdout and "deck 0" not in run_.stdout


def test_cli_verify_without_fairness_fails(tmp_path: Path) -> None:
    f = tmp_path / "bare.json"
    f.write_text(json.dumps(good_doc()))
    run_ = cli("verify", str(f))
    assert run_.returncode == 1 and "deck 0" in run_.stdout and "deck 1" in run_.stdout


def test_cli_verify_malformed_document_exit_2() -> None:
    run_ = cli("verify", "-", stdin="[]")
    assert run_.returncode == 2 and "malformed record" in run_.stderr
