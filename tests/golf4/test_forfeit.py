"""Forfeit (record page: not in the rule page): out seats, the end at once, winners among seats in."""

from __future__ import annotations

from dineri.golf4 import add_deck, legal_actions, ranks, summary
from tests.golf4.helpers import act, begin, refused, stacked


def test_forfeit_with_two_seats_ends_the_match_at_once_and_keeps_the_state() -> None:
    state, _ = act(begin(2, 0), "1 draw")
    before = summary(state)
    state, events = act(state, "1 forfeit")
    out = summary(state)
    assert out["phase"] == "over" and out["winners"] == [0] and out["forfeited"] == [1]
    assert out["turn"] is None and out["held"] == before["held"] and out["hands"] == before["hands"]
    assert events == [{"type": "forfeit", "seat": 1, "auto": False},
                      {"type": "match_over", "reason": "forfeit", "winners": [0], "totals": [0, 0]}]
    refused(state, "0 forfeit", "wrong_phase")
    assert legal_actions(state, 0) == []


def test_forfeit_in_the_peek_and_from_any_seat_at_any_time() -> None:
    state = begin(3, 0, peek=False)
    state, _ = act(state, "2 forfeit")
    assert state.phase == "peek" and state.forfeited == (2,)
    refused(state, "2 forfeit", "already_forfeited")
    # an out seat still answers the peek and plays (the server plays its turns for it)
    state, _ = act(state, "0 skip", "1 skip", "2 peek", "1 draw", "1 discard", "2 knock")
    assert state.deal is not None and state.deal.knocker == 2


def test_forfeit_the_match_goes_on_and_the_winners_are_among_the_seats_still_in() -> None:
    """G15 with a forfeit: the lowest total among the seats still in wins; an out seat ranks last."""
    hands = {0: "9S 9D 9H 9C", 1: "QS QD QH QC", 2: "KS KD KH KC"}
    state = begin(3, 0, [stacked(3, 0, hands=hands)], rounds=9)
    state, _ = act(state, "2 forfeit")
    for i in range(9):
        first = state.turn
        assert first is not None
        state, _ = act(state, f"{first} knock", *(f"{(first + k) % 3} draw" if j == 0 else
                                                   f"{(first + k) % 3} discard"
                                                   for k in (1, 2) for j in (0, 1)))
        if i < 8:
            state, _ = add_deck(state, stacked(3, state.dealer, hands))
            state, _ = act(state, "0 skip", "1 skip", "2 skip")
    out = summary(state)
    assert out["phase"] == "over" and out["totals"][2] < out["totals"][0] < out["totals"][1]
    assert out["winners"] == [0]  # seat 2 has the lowest total but is out
    assert ranks(state.totals, state.forfeited) == [1, 2, 3]


def test_forfeit_of_all_but_one_seat_ends_the_match() -> None:
    state = begin(4, 0)
    state, _ = act(state, "1 take", "0 forfeit", "3 forfeit")
    assert state.phase == "play" and state.turn == 1
    state, events = act(state, "1 forfeit")
    out = summary(state)
    assert events[-1] == {"type": "match_over", "reason": "forfeit", "winners": [2], "totals": [0, 0, 0, 0]}
    assert out["phase"] == "over" and out["winners"] == [2] and out["forfeited"] == [0, 1, 3]
    assert out["held"] is not None and out["turn"] is None
    assert ranks(state.totals, state.forfeited) == [2, 2, 1, 2]


def test_forfeit_keeps_knocker_and_final_turns() -> None:
    """G10: a forfeit after a knock keeps the knocker and the final turns of the round."""
    state, _ = act(begin(2, 0), "1 knock", "0 forfeit")
    out = summary(state)
    assert out["knocker"] == 1 and out["final_turns"] == [0] and out["winners"] == [1]
