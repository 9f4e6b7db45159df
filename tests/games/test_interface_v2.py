"""The games interface v2 (dineri/games/base.py) on Chkobba: the view split, ranks, replay steps,
and the record dispatch and fairness helpers every game uses."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from dineri import records
from dineri.engine import RecordError
from dineri.fairness import commit_codes, commitment_codes, shuffled, verify_record
from dineri.games import GameError, get_game
from dineri.games.base import GameMatch

OPTIONS = {"seats": 4, "target": 11, "best_of": 1}


def _play(seed: int, options: dict[str, int] = OPTIONS) -> tuple[GameMatch, list[GameMatch]]:
    """A random legal Chkobba match (no forfeits) and every match state it went through."""
    rng = random.Random(seed)
    game = get_game("chkobba")
    match, _ = game.new_match(options, [f"p{i}" for i in range(options["seats"])], 0)
    seen = [match]
    while not match.over:
        (seat,) = match.waiting_for()
        acts = [a for a in match.legal_actions(seat) if a["type"] != "forfeit"]
        match, _ = match.apply(seat, rng.choice(acts))
        while match.needs_deck() and not match.over:
            match, _ = match.add_deck()
        seen.append(match)
    return match, seen


def test_seat_view_is_public_plus_private_and_they_share_no_key() -> None:
    _, seen = _play(1)
    for m in seen[::7]:
        pub = m.public_view()
        assert pub == m.spectator_view()
        for seat in range(m.seats):
            priv = m.private_view(seat)
            assert not set(pub) & set(priv)
            assert m.seat_view(seat) == {**pub, **priv}
            assert priv["seat"] == seat and priv["side"] == seat % 2


def test_private_view_of_a_seat_not_at_the_table_is_refused() -> None:
    match, _ = get_game("chkobba").new_match(OPTIONS, ["a", "b", "c", "d"], 0)
    with pytest.raises(ValueError):
        match.private_view(4)


def test_waiting_for_is_the_seat_to_act_and_empty_when_over() -> None:
    final, seen = _play(2)
    for m in seen[:-1]:
        assert m.waiting_for() == ((m.to_act(),) if m.to_act() is not None else ())
    assert final.waiting_for() == () and final.immediate_action() is None
    assert final.private_events() == {}


def test_r32_ranks_put_the_winning_side_first() -> None:
    final, _ = _play(3)
    result = final.result()
    assert result is not None
    winner = result["winner"]
    assert result["ranks"] == [1 if s % 2 == winner else 2 for s in range(4)]


def test_r33_a_forfeiting_side_ranks_last() -> None:
    match, _ = get_game("chkobba").new_match(OPTIONS, ["a", "b", "c", "d"], 0)
    match, _ = match.apply(1, {"type": "forfeit"})
    result = match.result()
    assert result is not None and result["reason"] == "forfeit" and result["ranks"] == [1, 2, 1, 2]


def test_replay_steps_walk_the_record_to_the_final_summary() -> None:
    final, _ = _play(4)
    steps = get_game("chkobba").replay_steps(final.record())
    assert len(steps) == final.actions_count() + 1
    assert steps[0]["index"] is None and steps[0]["action"] is None
    assert [s["index"] for s in steps[1:]] == list(range(final.actions_count()))
    assert steps[-1]["state"] == final.summary()
    replayed = records.replay_json(final.record())
    assert {k: v for k, v in replayed.items() if k not in ("ok", "error")} == steps[-1]["state"]


def test_replay_steps_stop_before_a_refused_action() -> None:
    final, _ = _play(5)
    doc = final.record()
    doc["actions"] = [*doc["actions"][:3], {"seat": 9, "type": "keep"}, *doc["actions"][3:]]
    steps = get_game("chkobba").replay_steps(doc)
    assert len(steps) == 4 and steps[-1]["index"] == 2
    with pytest.raises(GameError):
        get_game("chkobba").replay_steps({"format": "dineri-match/1", "game": "chkobba"})


def test_sides_and_teams() -> None:
    game = get_game("chkobba")
    assert [game.side_of(OPTIONS, s) for s in range(4)] == [0, 1, 0, 1]
    assert game.teams(OPTIONS) and not game.teams({"seats": 2, "target": 11, "best_of": 1})


def test_record_dispatch_names_the_known_games() -> None:
    with pytest.raises(RecordError, match="game must be one of 'chkobba'"):
        records.load({"format": "dineri-match/1", "game": "poker"})
    with pytest.raises(RecordError, match="format must be"):
        records.load({"format": "other", "game": "chkobba"})
    with pytest.raises(RecordError, match="not JSON"):
        records.load(b"{")
    with pytest.raises(RecordError, match="not UTF-8"):
        records.load(b"{\"a\": \"\xff\"}")


def test_r7_commitments_over_codes_verify_for_any_record() -> None:
    codes = shuffled(["7H", "KS", "TD", "2C"])
    assert sorted(codes) == sorted(["7H", "KS", "TD", "2C"])
    fair = commit_codes(codes)
    assert fair.commitment == commitment_codes(fair.salt, [c.lower() for c in codes])  # R3: either case
    final, _ = _play(6)
    _, rec = records.load(final.record())
    assert verify_record(rec) == []
    doc = final.record()
    doc["decks"][0][0], doc["decks"][0][1] = doc["decks"][0][1], doc["decks"][0][0]
    _, bad = records.load(doc)
    assert verify_record(bad) and "deck 0" in verify_record(bad)[0]


def test_cli_replay_and_verify_go_through_the_dispatch(tmp_path) -> None:  # type: ignore[no-untyped-def]
    final, _ = _play(7, {"seats": 2, "target": 11, "best_of": 1})
    path = tmp_path / "m.json"
    path.write_text(json.dumps(final.record()))
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], capture_output=True)
    assert run.returncode == 0 and json.loads(run.stdout)["phase"] == "over"
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "verify", str(path)], capture_output=True)
    assert run.returncode == 0 and b"OK: all" in run.stdout
    path.write_text(json.dumps({**final.record(), "game": "nope"}))
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], capture_output=True)
    assert run.returncode == 2 and b"game must be one of" in run.stderr and b"Traceback" not in run.stderr


def test_to_act_is_the_views_turn_and_views_reuse_the_round_documents() -> None:
    """``to_act`` reads the turn without building the view, and successive views of a match
    share their finished rounds' documents (built once per round, issue 8), each view still
    getting its own list and the same content as building them afresh."""
    final, seen = _play(3, {"seats": 2, "target": 21, "best_of": 1})
    for m in seen:
        turn = m.spectator_view()["turn"]
        assert m.to_act() == (None if m.state.phase in ("over", "shuffle") else turn)
    assert len(final.state.rounds) >= 2
    a, b = final.public_view(), final.public_view()
    assert a["rounds"] == [r.to_json() for r in final.state.rounds]
    assert a["rounds"] is not b["rounds"]
    assert all(x is y for x, y in zip(a["rounds"], b["rounds"], strict=True))
    a["rounds"].append({"changed": True})  # a caller's list is its own
    assert final.public_view()["rounds"] == b["rounds"]


def test_the_clock_lays_a_card_that_opens_no_missed_capture_window() -> None:
    """The turn clock's lay (issue 3 item 5) never captures, and it lays the lowest card that
    could capture nothing (so the next seat gets no claim, R19); only a hand whose every card
    could capture lays its lowest card (a trial saw the clock's lay hand the next seat a claim)."""
    from dineri.engine import VALUE, can_capture, parse_card

    def rank(code: str) -> tuple[int, int]:
        c = parse_card(code)
        return (VALUE[c], c)

    both = 0
    for seed in range(6):
        _, seen = _play(seed, {"seats": 2, "target": 11, "best_of": 1})
        for m in seen:
            if m.over or m.phase != "play":
                continue
            (seat,) = m.waiting_for()
            view = m.seat_view(seat)
            hand, table = view["hand"], view["table"]
            auto = m.auto_action(seat)
            assert auto is not None and auto["type"] == "play" and "capture" not in auto
            safe = [c for c in hand if not can_capture(parse_card(c), [parse_card(t) for t in table])]
            assert auto["card"] == min(safe or hand, key=rank)
            _, events = m.apply(seat, auto, auto=True)
            assert all(e.get("capture") in (None, []) for e in events if e["type"] == "play")
            both += bool(safe) and len(safe) < len(hand)
    assert both > 20  # hands with cards of both kinds were seen, so the choice was tested
