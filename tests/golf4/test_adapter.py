"""golf4 behind the games interface v2 (``dineri.games.golf4``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dineri.games import GameError
from dineri.games.golf4 import Golf4Game, Golf4Match
from dineri.games.golf4_events import EVENT_MODELS
from dineri.golf4 import CODE, load_record, replay
from tests.golf4.driver import Step, run
from tests.golf4.helpers import stacked

GAME = Golf4Game()


def _start(seats: int = 3, dealer: int = 0, decks: list[list[str]] | None = None) -> Golf4Match:
    decks = decks or [[CODE[c] for c in stacked(seats, dealer, {0: "AS 2S 3S 4S", 1: "KD QD JD TD"},
                                                discard="9H", stock="8C 7C 6C")]]
    match, _ = GAME.new_match({"seats": seats, "rounds": 9}, ["a", "b", "c", "d", "e", "f", "g", "h"][:seats],
                              first_dealer=dealer, decks=decks)
    return match


@pytest.mark.parametrize("options", [
    {"seats": 1}, {"seats": 9}, {"seats": True}, {"seats": 4.0}, {"seats": "4"}, {"rounds": 9},
    {"seats": 4, "rounds": 10}, {"seats": 4, "rounds": True}, {"seats": 4, "rounds": 9.0},
    {"seats": 4, "rounds": 9, "target": 11}, {"seats": 4, "clock": 30}, [], None,
])
def test_check_options_is_strict(options: object) -> None:
    with pytest.raises(GameError) as e:
        GAME.check_options(options)  # type: ignore[arg-type]
    assert e.value.code == "malformed"


def test_check_options_normalises_and_sides_are_seats() -> None:
    """G1: 2 to 8 seats, each its own side (everyone plays alone); 9 rounds unless 18 are asked."""
    assert GAME.check_options({"seats": 5}) == {"seats": 5, "rounds": 9}
    assert GAME.check_options({"rounds": 18, "seats": 8}) == {"seats": 8, "rounds": 18}
    assert [GAME.side_of({"seats": 5}, s) for s in range(5)] == [0, 1, 2, 3, 4]
    assert GAME.teams({"seats": 4}) is False and GAME.seats({"seats": 7, "rounds": 9}) == 7


def test_new_match_commits_then_deals_and_waits_on_every_seat_for_the_peek() -> None:
    """G5, G6: a new match commits to its deck, deals, and waits on every seat for the peek."""
    match, events = GAME.new_match({"seats": 4}, ["a", "b", "c", "d"], first_dealer=1)
    assert [e["type"] for e in events] == ["commitment", "deal"]
    assert events[0]["deck"] == 0 and len(events[0]["commitment"]) == 64
    assert match.phase == "peek" and match.waiting_for() == (0, 1, 2, 3)
    assert match.to_act() == 0 and not match.needs_deck()
    rec = match.record()
    assert rec["game"] == "golf4" and len(rec["decks"]) == 1 and len(rec["fairness"]) == 1
    with pytest.raises(ValueError):
        match.reveal()


def test_g6_the_peek_is_a_private_event_once_and_never_again() -> None:
    match = _start()
    m1, events = match.apply(0, {"type": "peek"})
    assert m1.private_events() == {0: [{"type": "peek_cards", "slots": {"2": "3S", "3": "4S"}}]}
    assert "3S" not in json.dumps(events) and "3S" not in json.dumps(m1.seat_view(0))
    assert m1.waiting_for() == (1, 2)
    m2, _ = m1.apply(1, {"type": "skip_peek"})
    assert m2.private_events() == {}
    assert GAME.load(m1.record()).private_events() == {}  # a reload (restart) never resends it
    with pytest.raises(GameError) as e:
        m1.apply(0, {"type": "peek"})
    assert e.value.code == "already_peeked"


def test_g8_private_view_holds_the_drawn_card_for_the_drawer_only() -> None:
    match = _start()
    for s in range(3):
        match, _ = match.apply(s, {"type": "skip_peek"})
    assert match.waiting_for() == (1,)
    match, _ = match.apply(1, {"type": "draw"})
    assert match.private_view(1) == {"seat": 1, "held": "8C"}
    assert match.private_view(0) == {"seat": 0, "held": None}
    assert match.seat_view(1) == {**match.public_view(), **match.private_view(1)}
    assert match.spectator_view() == match.public_view() and "8C" not in json.dumps(match.public_view())


def test_client_actions_are_checked_strictly() -> None:
    match = _start()
    for bad in ({"type": "peek", "seat": 1}, {"type": "peek", "auto": True}, {"type": "swap", "slot": True},
                {"type": "swap", "slot": 1.0}, {"type": "swap", "slot": "1"}, {"type": "swap"},
                {"type": "swap", "slot": 4}, {"type": "nap"}, {}, ["peek"], {"type": "draw", "slot": 1}):
        with pytest.raises(GameError) as e:
            match.apply(0, bad)  # type: ignore[arg-type]
        assert e.value.code == "malformed", bad
    assert match.actions_count() == 0


def test_timeouts_never_knock_and_a_timed_out_turn_draws_then_discards() -> None:
    """The rule page's Timeouts: skip the peek (G6); at the start of a turn draw, then discard at
    once (G8); holding a drawn card, discard it; holding a taken discard, swap it into slot 0
    (G9); never knock (G10)."""
    match = _start()
    assert match.auto_action(2) == {"type": "skip_peek"}
    for s in range(3):
        match, _ = match.apply(s, match.auto_action(s), auto=True)  # type: ignore[arg-type]
    assert match.auto_action(0) is None and match.auto_action(1) == {"type": "draw"}
    match, _ = match.apply(1, {"type": "draw"}, auto=True)
    assert match.immediate_action() == (1, {"type": "discard"})
    match, events = match.apply(1, {"type": "discard"}, auto=True)
    assert events[0] == {"type": "discard", "seat": 1, "card": "8C", "auto": True}
    assert match.immediate_action() is None and match.waiting_for() == (2,)
    match, _ = match.apply(2, {"type": "draw"})  # drawn by the player: no immediate discard
    assert match.immediate_action() is None and match.auto_action(2) == {"type": "discard"}
    match, _ = match.apply(2, {"type": "discard"})
    match, _ = match.apply(0, {"type": "take"})
    assert match.auto_action(0) == {"type": "swap", "slot": 0}
    assert all(a is None or a["type"] != "knock" for a in (match.auto_action(s) for s in range(3)))
    assert match.last_action() == {"seat": 0, "type": "take"}


def test_forfeited_seats_are_played_at_once_and_rank_last() -> None:
    match = _start()
    match, events = match.apply(2, {"type": "forfeit"})
    assert events[0] == {"type": "forfeit", "seat": 2, "side": 2, "auto": False}
    assert match.waiting_for() == (0, 1) and match.immediate_action() == (2, {"type": "skip_peek"})
    match, _ = match.apply(2, {"type": "skip_peek"}, auto=True)
    match, _ = match.apply(0, {"type": "peek"})
    match, _ = match.apply(1, {"type": "peek"})
    match, _ = match.apply(1, {"type": "knock"})
    assert match.waiting_for() == () and match.immediate_action() == (2, {"type": "draw"})
    match, _ = match.apply(2, {"type": "draw"}, auto=True)
    assert match.immediate_action() == (2, {"type": "discard"})
    match, _ = match.apply(0, {"type": "forfeit"})
    assert match.over and match.result() == {
        "reason": "forfeit", "winner": 1, "winners": [1], "ranks": [2, 1, 2], "totals": [0, 0, 0],
        "forfeited": [0, 2]}
    assert match.reveal()["decks"] == match.record()["decks"]
    assert match.record()["result"]["winners"] == [1]


def test_a_reshuffle_needs_a_new_committed_deck_mid_round() -> None:
    """G11: when the stock runs out mid-round the match asks for a new deck, commits to it and
    reshuffles; the same seat plays on."""
    seen: list[Step] = []

    def check(step: Step) -> None:
        if step.seat is None and step.before.phase == "shuffle" and step.before.state.deal is not None:
            seen.append(step)

    final = run(8, 7, check, forfeit_rate=0, knock_rate=0.02)
    assert seen, "an 8-seat match reshuffles"
    for step in seen:
        assert [e["type"] for e in step.events] == ["commitment", "reshuffle"]
        assert step.after.phase == "play" and step.after.state.turn == step.before.state.turn
    rec = final.record()
    assert len(rec["decks"]) == len(rec["fairness"]) == final.state.decks_used


def test_results_records_steps_and_verify_agree() -> None:
    final = run(5, 11, forfeit_rate=0)
    res = final.result()
    assert res is not None and res["reason"] == "won" and res["totals"] == final.summary()["totals"]
    assert res["winners"] == final.summary()["winners"]
    assert sorted(res["ranks"])[0] == 1 and all(res["ranks"][w] == 1 for w in res["winners"])
    rec = final.record()
    assert "pending_decks" not in rec and rec["result"]["ok"] is True
    assert replay(load_record(rec)).to_json() == rec["result"]
    again = GAME.load(rec)
    assert again.summary() == final.summary() and again.result() == res
    steps = GAME.replay_steps(rec)
    assert steps[0]["index"] is None and steps[0]["events"] == [] and steps[0]["state"]["phase"] == "peek"
    assert [s["index"] for s in steps[1:]] == list(range(len(rec["actions"])))
    assert steps[-1]["state"] == final.summary()
    assert all(s["action"] == rec["actions"][s["index"]] for s in steps[1:])
    run_ = subprocess.run([sys.executable, "-m", "dineri.cli", "verify", "-"], input=json.dumps(rec),
                          capture_output=True, text=True, check=False)
    assert run_.returncode == 0 and "OK" in run_.stdout, run_.stdout + run_.stderr
    rec["decks"][1][0], rec["decks"][1][1] = rec["decks"][1][1], rec["decks"][1][0]
    run_ = subprocess.run([sys.executable, "-m", "dineri.cli", "verify", "-"], input=json.dumps(rec),
                          capture_output=True, text=True, check=False)
    assert run_.returncode == 1 and "deck 1" in run_.stdout


def test_replay_steps_stop_before_a_refused_action() -> None:
    rec = _start().record()
    rec["actions"] = [{"seat": 0, "type": "peek"}, {"seat": 0, "type": "peek"}, {"seat": 1, "type": "peek"}]
    steps = GAME.replay_steps(rec)
    assert [s["index"] for s in steps] == [None, 0]
    with pytest.raises(GameError) as e:
        GAME.load(rec)
    assert e.value.code == "already_peeked"
    with pytest.raises(GameError):
        GAME.replay_steps({"format": "dineri-match/1", "game": "golf4"})


def test_every_event_fits_its_model() -> None:
    kinds: set[str] = set()

    def check(step: Step) -> None:
        for ev in step.events:
            EVENT_MODELS[ev["type"]].model_validate(ev)
            kinds.add(ev["type"])
        for evs in step.private.values():
            for ev in evs:
                EVENT_MODELS[ev["type"]].model_validate(ev)
                kinds.add(ev["type"])

    final = run(8, 3, check, rounds=9, forfeit_rate=0.001, knock_rate=0.03)
    EVENT_MODELS["reveal"].model_validate(final.reveal())
    assert {"commitment", "deal", "peek", "skip_peek", "peek_cards", "turn", "draw", "take", "swap",
            "discard", "knock", "reshuffle", "round_over", "match_over"} <= kinds
