"""Cards, seats, the deal and the peek (G1–G6)."""

from __future__ import annotations

import pytest

from dineri.golf4 import (
    CODE,
    FULL_DECK,
    VALUE,
    Options,
    RuleError,
    add_deck,
    check_deck,
    hand_value,
    new_match,
    parse_card,
    peek_slots,
    summary,
)
from tests.golf4.helpers import act, begin, refused, stacked


def test_g1_two_to_eight_seats_and_one_52_card_deck() -> None:
    for n in range(2, 9):
        assert Options(n, 9).seats == n
    for bad in (0, 1, 9, 10, True, 4.0, "4", None):
        with pytest.raises(RuleError) as e:
            Options.from_json({"seats": bad, "rounds": 9})
        assert e.value.code == "malformed"
    assert len(FULL_DECK) == 52 and len(set(CODE)) == 52
    with pytest.raises(ValueError):
        check_deck(FULL_DECK[:51])
    with pytest.raises(ValueError):
        check_deck((*FULL_DECK[:51], 0))


def test_g2_values_ace_one_faces_ten_king_zero() -> None:
    want = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
            "J": 10, "Q": 10, "K": 0}
    for rank, value in want.items():
        for suit in "DHSC":
            assert VALUE[parse_card(rank + suit)] == value
    assert hand_value([parse_card(c) for c in ("KS", "KD", "QH", "AC")]) == 11
    assert sum(VALUE) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10)


def test_g3_card_codes_rank_then_suit_either_case() -> None:
    assert CODE[parse_card("TH")] == "TH"
    assert parse_card("th") == parse_card("tH") == parse_card("TH")
    assert sorted(CODE) == sorted(r + s for r in "A23456789TJQK" for s in "DHSC")
    for bad in ("10H", "1S", "HT", "", "KX", 7, None, ["KS"]):
        with pytest.raises(RuleError) as e:
            parse_card(bad)
        assert e.value.code == "malformed"


def test_g4_clockwise_turns_and_the_deal_passes_to_the_next_seat() -> None:
    state = begin(4, dealer=2)
    assert state.turn == 3  # the seat after the dealer plays first
    state, _ = act(state, "3 draw", "3 discard")
    assert state.turn == 0
    state, _ = act(state, "0 take", "0 swap 1", "1 draw", "1 swap 0")
    assert state.turn == 2
    state, _ = act(state, "2 knock", "3 draw", "3 discard", "0 draw", "0 discard", "1 draw", "1 discard")
    assert state.round == 2 and state.dealer == 3 and state.phase == "shuffle"
    state, _ = add_deck(state, stacked(4, 3))
    state, _ = act(state, *(f"{s} skip" for s in range(4)))
    assert state.turn == 0


def test_g5_deal_one_at_a_time_from_the_seat_after_the_dealer() -> None:
    deck = stacked(3, 1)
    state, events = new_match(Options(3, 9), 1, [deck])
    out = summary(state)
    # k-th card to seat (dealer + 1 + k) mod 3, slot k div 3
    for k in range(12):
        assert out["hands"][(1 + 1 + k) % 3][k // 3] == CODE[deck[k]]
    assert out["discard"] == [CODE[deck[12]]]
    assert out["stock_left"] == 52 - 13
    assert state.deal is not None and state.deal.stock == deck[13:]
    assert out["phase"] == "peek" and out["turn"] is None and out["peeks"] == [None] * 3
    assert events == [{"type": "deal", "round": 1, "dealer": 1, "discard": CODE[deck[12]], "stock_left": 39}]


def test_g5_stacked_helper_places_named_slots() -> None:
    deck = stacked(5, 3, hands={0: "AS 2S 3S 4S", 4: "KD QD JD TD"}, discard="9H", stock="8C 7C")
    state, _ = new_match(Options(5, 9), 3, [deck])
    out = summary(state)
    assert out["hands"][0] == ["AS", "2S", "3S", "4S"] and out["hands"][4] == ["KD", "QD", "JD", "TD"]
    assert out["discard"] == ["9H"]
    assert state.deal is not None and [CODE[c] for c in state.deal.stock[:2]] == ["8C", "7C"]


def test_g6_every_seat_answers_the_peek_once_in_any_order_then_play_begins() -> None:
    deck = stacked(3, 0, hands={2: "AS 2S 3S 4S"})
    state, _ = new_match(Options(3, 9), 0, [deck])
    assert peek_slots(state.deal, 2) == (parse_card("3S"), parse_card("4S"))  # type: ignore[arg-type]
    state, events = act(state, "2 peek")
    assert events == [{"type": "peek", "seat": 2, "auto": False}]  # the cards are never in a public event
    refused(state, "2 peek", "already_peeked")
    refused(state, "2 skip", "already_peeked")
    refused(state, "1 draw", "wrong_phase")
    state, _ = act(state, "0 skip")
    assert state.phase == "peek" and summary(state)["peeks"] == ["skip", None, "peek"]
    state, events = act(state, "1 peek")
    assert state.phase == "play" and state.turn == 1
    assert events[-1] == {"type": "turn", "seat": 1}
    refused(state, "0 peek", "wrong_phase")


def test_g6_peeks_reset_at_each_deal() -> None:
    state = begin(2, dealer=0)
    assert summary(state)["peeks"] == ["skip", "skip"]
    state, _ = act(state, "1 knock", "0 draw", "0 discard")
    state, _ = add_deck(state, stacked(2, 1))
    assert summary(state)["peeks"] == [None, None] and state.phase == "peek"
