"""S2–S4: seats and sides, the order of play, the deal."""

from __future__ import annotations

import random

import pytest

from dineri.seven_diamonds import (
    CODE,
    FULL_DECK,
    Options,
    add_deck,
    deal_hands,
    new_match,
    private_view,
    summary,
)
from tests.seven_diamonds.helpers import all_pass, autoplay, cards, random_decks, run, start

SPREAD = ("7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
          "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")


def test_s4_deck_card_k_goes_to_seat_dealer_plus_1_plus_k() -> None:
    deck = random_decks(random.Random(4), 1)[0]
    for dealer in range(4):
        hands = deal_hands(deck, dealer)
        for k, card in enumerate(deck):
            seat = (dealer + 1 + k) % 4
            assert hands[seat][k // 4] == card  # one at a time, in the order they arrived
        assert [len(h) for h in hands] == [8, 8, 8, 8]
        assert sorted(c for h in hands for c in h) == list(FULL_DECK)


def test_s4_the_first_dealer_deals_round_one_and_bidding_starts_after_him() -> None:
    deck = random_decks(random.Random(1), 1)[0]
    state = new_match(Options(), 2, [deck])
    assert (state.phase, state.round, state.dealer, state.turn) == ("bidding", 1, 2, 3)
    assert summary(state)["hands"][3][0] == CODE[deck[0]]  # the seat after the dealer gets the top card
    assert state.hands == deal_hands(deck, 2)


def test_s4_the_deal_passes_to_the_next_seat_each_round() -> None:
    decks = random_decks(random.Random(2), 3)
    state = new_match(Options(), 3, decks)
    dealers = [state.dealer]
    for _ in range(2):
        state, _ = autoplay(state)
        assert state.phase == "bidding"
        dealers.append(state.dealer)
        assert state.hands == deal_hands(decks[len(dealers) - 1], state.dealer)
        assert state.turn == (state.dealer + 1) % 4
    assert dealers == [3, 0, 1]


def test_s4_a_round_waits_in_shuffle_for_its_deck() -> None:
    state = new_match(Options(), 0)
    assert (state.phase, state.turn, state.hands) == ("shuffle", None, ((), (), (), ()))
    deck = random_decks(random.Random(3), 1)[0]
    state = add_deck(state, deck)
    assert state.phase == "bidding" and state.hands == deal_hands(deck, 0)
    state, _ = autoplay(state)
    assert (state.phase, state.round, state.dealer, state.turn) == ("shuffle", 2, 1, None)
    assert summary(state)["hands"] == [[], [], [], []]
    assert summary(state)["bids"] == [] and summary(state)["multiplier"] == 1


@pytest.mark.parametrize("bad", [[], list(range(31)), [*range(31), 0], [*range(31), 32]])
def test_s1_s4_a_deck_must_hold_the_32_cards_once(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        new_match(Options(), 0, [bad])
    with pytest.raises(ValueError):
        add_deck(new_match(Options(), 0), bad)


def test_s2_partners_sit_opposite_sides_are_seat_mod_2() -> None:
    assert [private_view(start(0, *SPREAD), s)["side"] for s in range(4)] == [0, 1, 0, 1]
    # Seat 1 holds all the hearts, seat 3 the clubs: whoever of a side goes out scores for it,
    # and the partner opposite is the one not counted (S14).
    state, _ = autoplay(all_pass(start(3, *SPREAD)))
    result = state.rounds[0]
    assert result.out == 0
    assert result.left[2] is None and result.left[1] is not None and result.left[3] is not None
    assert result.points[0] > 0 and result.points[1] == 0


def test_s3_play_passes_to_the_right_seat_plus_one() -> None:
    state = all_pass(start(1, *SPREAD))
    assert state.turn == 0  # holder of the 7D
    seen = []
    for line in ("0 play 7D", "1 play 7H", "2 play 7S", "3 play 7C", "0 play 8D"):
        seen.append(state.turn)
        state, _ = run(state, line)
    assert seen == [0, 1, 2, 3, 0] and state.turn == 1
    assert cards("7D")[0] not in state.hands[0]
