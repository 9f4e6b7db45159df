"""S8–S12: the 7♦ first, building upward, compulsory play and jella, the last card, refusals."""

from __future__ import annotations

import random

import pytest

from dineri.seven_diamonds import (
    Options,
    Pass,
    Play,
    RuleError,
    apply,
    fits,
    legal_actions,
    legal_cards,
    new_match,
    public_view,
)
from tests.seven_diamonds.helpers import act, all_pass, cards, codes, random_decks, run, start

# Dealer 3: seat 0 calls first. Seat 2 holds the 7D.
HANDS = ("8D 9D 7H 8H AS KC QD 9C", "TD 7S 8S JH TH 9H KS AC",
         "7D 7C JD QH 9S TS 8C JC", "KD AD QS JS KH AH QC TC")


def _refused(state, line: str) -> str:
    with pytest.raises(RuleError) as e:
        apply(state, act(line, state))
    return e.value.code


def test_s8_the_holder_of_the_7d_plays_it_first() -> None:
    state = all_pass(start(3, *HANDS))
    assert state.phase == "play" and state.turn == 2
    assert legal_cards(state, 2) == list(cards("7D"))  # even with 7C in hand
    assert _refused(state, "2 play 7C") == "illegal_card"
    assert _refused(state, "2 pass") == "must_play"
    assert _refused(state, "0 play 8D") == "not_your_turn"
    state, events = run(state, "2 play 7D")
    assert public_view(state)["table"]["D"] == ["7D"] and state.turn == 3
    assert events == [{"type": "play", "seat": 2, "card": "7D", "hand_size": 7, "auto": False}]


def test_s8_the_7d_opens_play_whoever_doubled() -> None:
    state, _ = run(start(3, *HANDS), "0 double", "1 three")
    assert (state.phase, state.turn) == ("play", 2)


def test_s9_each_suit_builds_upward_from_its_seven() -> None:
    state, _ = run(all_pass(start(3, *HANDS)), "2 play 7D")
    # Seat 3 holds KD AD QS JS KH AH QC TC: nothing fits (8D is seat 0's, no 7).
    assert legal_cards(state, 3) == []
    state, _ = run(state, "3 pass")
    # Seat 0: 8D goes on 7D, 7H opens hearts; 9D does not (skips 8D), 8H not (hearts not open).
    assert codes(legal_cards(state, 0)) == ["8D", "7H"]
    assert _refused(state, "0 play 9D") == "illegal_card"
    assert _refused(state, "0 play 8H") == "illegal_card"
    state, _ = run(state, "0 play 7H", "1 play 7S", "2 play 7C")
    table = public_view(state)["table"]
    assert table == {"D": ["7D"], "H": ["7H"], "S": ["7S"], "C": ["7C"]}
    state, _ = run(state, "3 pass", "0 play 8D", "1 play 8S")
    assert public_view(state)["table"]["D"] == ["7D", "8D"]
    assert codes(legal_cards(state, 2)) == ["9S", "8C"]


def test_s9_a_card_fits_exactly_when_it_is_the_next_rank_of_its_pile() -> None:
    rng = random.Random(9)
    for _ in range(300):
        table = (rng.randint(1, 8), rng.randint(0, 8), rng.randint(0, 8), rng.randint(0, 8))
        for card in range(32):
            suit, rank = card // 8, card % 8
            assert fits(table, card) == (rank == table[suit])
    assert [c for c in range(32) if fits((0, 0, 0, 0), c)] == [0]  # S8


def test_s9_one_card_per_turn() -> None:
    state, _ = run(all_pass(start(3, *HANDS)), "2 play 7D")
    assert _refused(state, "2 play 7C") == "not_your_turn"


def test_s10_playing_is_compulsory_and_any_fitting_card_will_do() -> None:
    state, _ = run(all_pass(start(3, *HANDS)), "2 play 7D", "3 pass")
    assert _refused(state, "0 pass") == "must_play"
    for card in ("8D", "7H"):
        new, _ = run(state, f"0 play {card}")
        assert new.turn == 1
    assert [type(a) for a in legal_actions(state, 0)][:2] == [Play, Play]


def test_s10_a_seat_with_no_fitting_card_passes_and_jella_is_announced() -> None:
    state, _ = run(all_pass(start(3, *HANDS)), "2 play 7D")
    assert legal_actions(state, 3)[0] == Pass(3)
    assert _refused(state, "3 play KD") == "illegal_card"
    new, events = run(state, "3 pass")
    assert events == [{"type": "jella", "seat": 3, "auto": False}]
    assert new.turn == 0 and new.hands == state.hands and new.table == state.table


def test_s11_a_seat_down_to_one_card_is_announced_to_all() -> None:
    spread = ("7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
              "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")
    state = all_pass(start(3, *spread))
    announced = []
    for _ in range(7 * 4):
        seat = state.turn
        state, events = apply(state, legal_actions(state, seat)[0])
        announced += [e["seat"] for e in events if e["type"] == "last_card"]
        if seat is not None and len(state.hands[seat]) == 1:
            assert {"type": "last_card", "seat": seat} in events
            assert public_view(state)["hand_sizes"][seat] == 1
    assert announced == [0, 1, 2, 3]


def test_s12_refusals_change_nothing() -> None:
    state, _ = run(all_pass(start(3, *HANDS)), "2 play 7D")
    before = state
    for line in ("0 play 8D", "3 play KD", "3 play 8D", "3 play 7H", "3 double", "1 pass"):
        with pytest.raises(RuleError):
            apply(state, act(line, state))
        assert state == before
    assert _refused(state, "3 play 8D") == "card_not_in_hand"


def test_s12_play_or_pass_outside_play_is_wrong_phase() -> None:
    state = new_match(Options(), 0, random_decks(random.Random(0), 1))
    assert _refused(state, "1 play 7D") == "wrong_phase"
    with pytest.raises(RuleError) as e:
        apply(state, Pass(1))  # a play pass during the bidding
    assert e.value.code == "wrong_phase"
    state = all_pass(state)
    assert _refused(state, f"{state.turn} double") == "wrong_phase"
