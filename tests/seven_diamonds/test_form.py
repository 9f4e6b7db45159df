"""The record page's check order and error codes (form, phase, seat, rules), and the forfeit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dineri.seven_diamonds import (
    Bid,
    Forfeit,
    Options,
    Pass,
    Play,
    RuleError,
    action_from_json,
    action_to_json,
    apply,
    legal_actions,
    new_match,
    summary,
)
from tests.seven_diamonds.helpers import act, all_pass, random_decks, run, start

HANDS = ("8D 9D 7H 8H AS KC QD 9C", "TD 7S 8S JH TH 9H KS AC",
         "7D 7C JD QH 9S TS 8C JC", "KD AD QS JS KH AH QC TC")

MALFORMED: list[Any] = [
    None, [], "bid", 3,
    {"type": "pass"},                                   # no seat
    {"seat": True, "type": "pass"},                     # a boolean is not an integer
    {"seat": 1.0, "type": "pass"},
    {"seat": "1", "type": "pass"},
    {"seat": 4, "type": "pass"},
    {"seat": -1, "type": "pass"},
    {"seat": 1},                                        # no type
    {"seat": 1, "type": "jella"},
    {"seat": 1, "type": "Bid", "call": "pass"},
    {"seat": 1, "type": "bid"},
    {"seat": 1, "type": "bid", "call": "Double"},       # exact lower case
    {"seat": 1, "type": "bid", "call": "redouble"},
    {"seat": 1, "type": "bid", "call": 2},
    {"seat": 1, "type": "play"},
    {"seat": 1, "type": "play", "card": "6D"},
    {"seat": 1, "type": "play", "card": 7},
    {"seat": 1, "type": "play", "card": "10D"},
    {"seat": 1, "type": "pass", "auto": "yes"},
    {"seat": 1, "type": "pass", "auto": 1},
]


@pytest.mark.parametrize("raw", MALFORMED, ids=range(len(MALFORMED)))
def test_s12_malformed_actions(raw: Any) -> None:
    with pytest.raises(RuleError) as e:
        action_from_json(raw)
    assert e.value.code == "malformed"


@pytest.mark.parametrize("build", [lambda: Bid(0, "Pass"), lambda: Play(0, 32), lambda: Play(0, True),
                                   lambda: Pass(4), lambda: Forfeit(True), lambda: Pass(0, auto=1)])
def test_s12_a_malformed_action_cannot_be_built(build: Any) -> None:
    with pytest.raises(RuleError) as e:
        build()
    assert e.value.code == "malformed"


def test_action_json_round_trip() -> None:
    for raw in ({"seat": 2, "type": "bid", "call": "three"}, {"seat": 0, "type": "play", "card": "TH"},
                {"seat": 3, "type": "pass", "auto": True}, {"seat": 1, "type": "forfeit"}):
        assert action_to_json(action_from_json(raw)) == raw
    assert action_to_json(action_from_json({"seat": 0, "type": "play", "card": "th"}))["card"] == "TH"


def _code(state, raw: dict) -> str:
    with pytest.raises(RuleError) as e:
        apply(state, action_from_json(raw))
    return e.value.code


def test_s12_check_order_phase_before_seat_before_rules() -> None:
    bidding = start(3, *HANDS)  # seat 0 to call
    assert _code(bidding, {"seat": 2, "type": "play", "card": "7D"}) == "wrong_phase"  # not its turn either
    assert _code(bidding, {"seat": 2, "type": "bid", "call": "three"}) == "not_your_turn"  # illegal too
    assert _code(bidding, {"seat": 0, "type": "bid", "call": "three"}) == "illegal_call"
    play = all_pass(bidding)  # seat 2 to play the 7D
    assert _code(play, {"seat": 1, "type": "bid", "call": "pass"}) == "wrong_phase"
    assert _code(play, {"seat": 0, "type": "play", "card": "KD"}) == "not_your_turn"  # and not held
    assert _code(play, {"seat": 2, "type": "play", "card": "KD"}) == "card_not_in_hand"  # and no fit
    assert _code(play, {"seat": 2, "type": "play", "card": "JD"}) == "illegal_card"
    assert _code(play, {"seat": 2, "type": "pass"}) == "must_play"


def test_forfeit_from_any_seat_in_any_phase_but_over() -> None:
    states = [new_match(Options(), 0), start(3, *HANDS), all_pass(start(3, *HANDS))]
    for state in states:
        for seat in range(4):
            assert Forfeit(seat) in legal_actions(state, seat)
            new, events = apply(state, Forfeit(seat))
            assert (new.phase, new.turn, new.winner, new.forfeited) == ("over", None, 1 - seat % 2, seat)
            # the state stays as it was when the forfeit came
            assert (new.hands, new.table, new.bids, new.scores) == (state.hands, state.table, state.bids,
                                                                   state.scores)
            assert events == [{"type": "forfeit", "seat": seat, "side": seat % 2, "auto": False},
                              {"type": "match_over", "winner": 1 - seat % 2, "reason": "forfeit",
                               "scores": list(state.scores)}]
            assert legal_actions(new, seat) == []
            with pytest.raises(RuleError) as e:
                apply(new, Forfeit((seat + 1) % 4))
            assert e.value.code == "wrong_phase"
            assert summary(new)["forfeited"] == seat


def test_s12_nothing_is_accepted_once_over() -> None:
    state, _ = run(start(3, *HANDS), "1 forfeit")
    for line in ("0 pass", "2 play 7D", "0 forfeit"):
        with pytest.raises(RuleError) as e:
            apply(state, act(line, state))
        assert e.value.code == "wrong_phase"


def test_auto_is_carried_into_events() -> None:
    state = new_match(Options(), 0, random_decks(random.Random(3), 1))
    _, events = apply(state, Bid(1, "pass", auto=True))
    assert events == [{"type": "bid", "seat": 1, "call": "pass", "multiplier": 1, "auto": True}]
