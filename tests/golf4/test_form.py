"""The form of actions and the check order (record page, Check order and error codes; G12)."""

from __future__ import annotations

import pytest

from dineri.golf4 import ACTION_TYPES, RuleError, Swap, action_from_json, action_to_json
from tests.golf4.helpers import act, begin, refused


@pytest.mark.parametrize("doc", [
    None, [], "draw", 3,
    {"type": "draw"}, {"seat": True, "type": "draw"}, {"seat": 1.0, "type": "draw"},
    {"seat": "1", "type": "draw"}, {"seat": -1, "type": "draw"}, {"seat": 3, "type": "draw"},
    {"seat": 1}, {"seat": 1, "type": "DRAW"}, {"seat": 1, "type": "pass"}, {"seat": 1, "type": None},
    {"seat": 1, "type": "swap"}, {"seat": 1, "type": "swap", "slot": True},
    {"seat": 1, "type": "swap", "slot": 1.0}, {"seat": 1, "type": "swap", "slot": "1"},
    {"seat": 1, "type": "swap", "slot": 4}, {"seat": 1, "type": "draw", "auto": 1},
])
def test_g12_malformed_forms(doc: object) -> None:
    with pytest.raises(RuleError) as e:
        action_from_json(doc, 3)
    assert e.value.code == "malformed"


def test_g12_malformed_comes_before_the_phase() -> None:
    state = begin(3, 0, peek=False)
    refused(state, {"seat": 1, "type": "swap", "slot": 9}, "malformed")
    refused(state, "1 swap 0", "wrong_phase")


def test_g12_phase_comes_before_the_seat_and_the_seat_before_the_rules() -> None:
    state = begin(3, 0, peek=False)
    refused(state, "0 discard", "wrong_phase")
    state, _ = act(state, "0 skip", "1 skip", "2 skip")
    refused(state, "0 discard", "not_your_turn")  # not nothing_held
    refused(state, "2 knock", "not_your_turn")
    state, _ = act(state, "1 knock")
    refused(state, "0 knock", "not_your_turn")  # not already_knocked


def test_g12_forfeit_and_peek_answers_are_not_turn_bound() -> None:
    state = begin(3, 0, peek=False)
    state, _ = act(state, "2 peek", "0 forfeit")  # any order, any seat
    assert state.forfeited == (0,)


def test_action_json_round_trip() -> None:
    for kind in ACTION_TYPES:
        doc = {"seat": 2, "type": kind, **({"slot": 3} if kind == "swap" else {})}
        assert action_to_json(action_from_json(doc, 3)) == doc
        auto = {**doc, "auto": True}
        assert action_to_json(action_from_json(auto, 3)) == auto
    assert action_from_json({"seat": 0, "type": "swap", "slot": 1, "extra": 5}, 2) == Swap(0, 1)
