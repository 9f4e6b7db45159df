"""S5–S7: pass and double, the opponents' three, the multiplier (staged as the record page says)."""

from __future__ import annotations

import random

import pytest

from dineri.seven_diamonds import Bid, Options, RuleError, apply, legal_actions, new_match, summary
from tests.seven_diamonds.helpers import autoplay, random_decks, run

SPREAD = ("7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
          "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")


def _match(dealer: int, seed: int = 5):
    return new_match(Options(), dealer, random_decks(random.Random(seed), 6))


def _refused(state, line: str) -> str:
    from tests.seven_diamonds.helpers import act

    with pytest.raises(RuleError) as e:
        apply(state, act(line, state))
    return e.value.code


def test_s5_stage_1_order_is_dealer_plus_1_2_3_then_the_dealer() -> None:
    state = _match(dealer=2)
    order = []
    for _ in range(4):
        order.append(state.turn)
        state, events = run(state, f"{state.turn} pass")
    assert order == [3, 0, 1, 2]
    # S5: all pass, multiplier 1, play begins with the holder of the 7D (S8).
    assert state.phase == "play" and state.multiplier == 1 and state.doubler is None
    assert 0 in state.hands[state.turn]
    assert events[-1] == {"type": "play_begins", "multiplier": 1, "doubler": None, "tripler": None,
                          "turn": state.turn}


def test_s5_the_first_double_ends_stage_1_and_sets_2_at_once() -> None:
    state = _match(dealer=3)
    state, events = run(state, "0 pass", "1 double")
    assert state.phase == "bidding" and state.multiplier == 2 and state.doubler == 1
    assert events[-1] == {"type": "bid", "seat": 1, "call": "double", "multiplier": 2, "auto": False}
    # Stage 2: seat d+1 = 2 calls next; seats 2 and 3 of stage 1 never call.
    assert state.turn == 2
    assert [a.call for a in legal_actions(state, 2) if isinstance(a, Bid)] == ["pass", "three"]
    assert summary(state)["bids"] == [{"seat": 0, "call": "pass"}, {"seat": 1, "call": "double"}]


def test_s5_the_dealer_may_double_as_the_last_caller() -> None:
    state = _match(dealer=1)
    state, _ = run(state, "2 pass", "3 pass", "0 pass", "1 double")
    assert (state.phase, state.doubler, state.turn) == ("bidding", 1, 2)


def test_s6_three_from_the_first_opponent_begins_play_at_once() -> None:
    state = _match(dealer=3)
    state, events = run(state, "0 double", "1 three")
    assert (state.phase, state.multiplier, state.doubler, state.tripler) == ("play", 3, 0, 1)
    assert [e["type"] for e in events] == ["bid", "bid", "play_begins"]
    assert events[-1]["multiplier"] == 3


def test_s6_three_from_the_second_opponent_after_the_first_passes() -> None:
    state = _match(dealer=0)
    state, _ = run(state, "1 pass", "2 double", "3 pass")
    assert state.turn == 1  # d+3: the doubler's partner (seat 0) is skipped
    state, _ = run(state, "1 three")
    assert (state.phase, state.multiplier, state.tripler) == ("play", 3, 1)
    assert summary(state)["bids"] == [{"seat": 1, "call": "pass"}, {"seat": 2, "call": "double"},
                                      {"seat": 3, "call": "pass"}, {"seat": 1, "call": "three"}]


def test_s6_both_opponents_pass_and_2_stands() -> None:
    state = _match(dealer=2)
    state, _ = run(state, "3 double", "0 pass", "2 pass")
    assert (state.phase, state.multiplier, state.doubler, state.tripler) == ("play", 2, 3, None)


def test_s6_the_doubler_and_his_partner_never_call_after_the_double() -> None:
    state = _match(dealer=3)
    state, _ = run(state, "0 pass", "1 double")
    for seat in (1, 3, 0):
        assert _refused(state, f"{seat} pass") == "not_your_turn"
    state, _ = run(state, "2 pass")
    assert state.turn == 0
    for seat in (1, 2, 3):
        assert _refused(state, f"{seat} three") == "not_your_turn"


def test_s6_no_raise_beyond_three_and_no_second_double() -> None:
    state = _match(dealer=3)
    assert _refused(state, "0 three") == "illegal_call"  # stage 1: pass or double only
    state, _ = run(state, "0 double")
    assert _refused(state, "1 double") == "illegal_call"  # stage 2: pass or three only
    state, _ = run(state, "1 three")
    assert _refused(state, f"{state.turn} three") == "wrong_phase"  # play has begun


def test_s7_the_multiplier_applies_whichever_side_wins() -> None:
    # Seat 0 (side 0) goes out with every diamond; the double came from side 1 (seat 1).
    from tests.seven_diamonds.helpers import start

    state, _ = run(start(3, *SPREAD), "0 pass", "1 double", "2 pass", "0 pass")
    state, _ = autoplay(state)
    lost = state.rounds[0]
    assert lost.out == 0 and lost.multiplier == 2
    assert lost.points == (lost.card_points * 2 + lost.bonus, 0)
    # and the same deal with a double by the side that wins
    state, _ = run(start(3, *SPREAD), "0 double", "1 pass", "3 pass")
    state, _ = autoplay(state)
    assert state.rounds[0].points == (lost.card_points * 2, 0)
