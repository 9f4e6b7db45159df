"""S13–S16: the end of a round, the count, the multiplier and the seven bonus, the game to 500."""

from __future__ import annotations

import random
from dataclasses import replace

from dineri.seven_diamonds import POINTS, Options, new_match, summary
from tests.seven_diamonds.helpers import all_pass, autoplay, deck_for, random_decks, run, start

# Dealer 3. Seat 0 goes out with 7H as its last card (hand order: the first fitting card is
# played, so the 7H waits until nothing else fits); seat 1 holds hearts it cannot start.
BONUS_HANDS = ("7D 8D 9D TD JD QD KD 7H", "8H 9H TH JH QH KH AH AD",
               "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")


def test_s13_the_round_ends_the_moment_a_seat_plays_its_last_card() -> None:
    state = all_pass(start(3, *BONUS_HANDS))
    state, events = autoplay(state)
    types = [e["type"] for e in events]
    assert types.count("round_over") == 1
    last_play = max(i for i, e in enumerate(events) if e["type"] == "play")
    assert events[last_play]["seat"] == 0 and events[last_play]["hand_size"] == 0
    assert types[last_play + 1] == "round_over"  # nothing is played after it
    result = state.rounds[0]
    assert result.out == 0 and result.left[0] == ()
    assert state.phase == "shuffle" and state.round == 2  # the next round (no deck yet)


def test_s14_the_opponents_hands_are_counted_the_partners_not() -> None:
    state, _ = autoplay(all_pass(start(3, *BONUS_HANDS)))
    r = summary(state)["rounds"][0]
    assert r["out"] == 0 and r["left"][2] is None and r["left"][0] == []
    assert r["left"][1] == ["8H", "9H", "TH", "JH", "QH", "KH", "AH"]  # AD went on KD
    assert r["left"][3] == ["AC"]
    assert r["card_points"] == 10 * 3 + 20 + 20  # J Q K, A of hearts, A of clubs
    # the partner still held AS (20): not looked at
    assert sum(POINTS[c] for c in state.rounds[0].left[1] + state.rounds[0].left[3]) == r["card_points"]


def test_s15_card_points_times_the_multiplier_then_200_for_a_seven_not_multiplied() -> None:
    state, _ = run(start(3, *BONUS_HANDS), "0 pass", "1 double", "2 pass", "0 three")
    state, events = autoplay(state)
    r = state.rounds[0]
    assert (r.multiplier, r.last_card, r.bonus, r.card_points) == (3, 5 * 0 + 8, 200, 70)  # 7H is card 8
    assert r.points == (70 * 3 + 200, 0)  # 410, not (70 + 200) * 3
    assert state.scores == (410, 0)
    assert next(e for e in events if e["type"] == "round_over")["result"]["points"] == [410, 0]


def test_s15_no_bonus_when_the_last_card_is_not_a_seven() -> None:
    spread = ("7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
              "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")
    state, _ = autoplay(all_pass(start(3, *spread)))
    r = summary(state)["rounds"][0]
    assert (r["last_card"], r["bonus"], r["card_points"], r["points"]) == ("AD", 0, 40, [40, 0])


def test_s15_the_losing_side_scores_nothing_and_a_round_can_score_zero() -> None:
    # Seat 1 goes out; the opponents (0, 2) hold only 7-10s at the end.
    hands = ("8H 9H TH 8S 9S TS 8C 9C", "7D 8D 9D TD JD QD KD AD",
             "7H 7S 7C TC JH QH KH AH", "JS QS KS AS JC QC KC AC")
    state, _ = autoplay(all_pass(start(0, *hands)))
    r = state.rounds[0]
    assert r.out == 1 and r.left[3] is None
    assert r.points[0] == 0 and r.points[1] == r.card_points * r.multiplier + r.bonus
    assert state.scores == r.points


def _near(score: int):
    # Seat 0 will go out with the 7H: 70 card points at multiplier 1, + 200 = 270.
    first = new_match(Options(), 3, [deck_for(3, *BONUS_HANDS), *random_decks(random.Random(1), 2)])
    return replace(all_pass(first), scores=(score, 120))


def test_s16_a_side_reaching_exactly_500_wins_the_game() -> None:
    state, events = autoplay(_near(230))
    assert (state.phase, state.winner, state.scores, state.turn) == ("over", 0, (500, 120), None)
    assert events[-1] == {"type": "match_over", "winner": 0, "reason": "won", "scores": [500, 120]}
    # the state stays as the round left it: the winner's hand empty, the others as they were
    assert state.hands[0] == () and len(state.hands[1]) == 7 and state.bids and state.table[:2] == (8, 1)


def test_s16_below_500_the_next_round_begins_at_once() -> None:
    state, events = autoplay(_near(229))
    assert state.phase == "bidding" and state.scores == (499, 120) and state.round == 2
    assert events[-1]["type"] == "deal" and events[-1]["dealer"] == 0
    assert (state.bids, state.multiplier, state.table) == ((), 1, (0, 0, 0, 0))
