"""The missed-capture window and claims (R19–R22)."""

from __future__ import annotations

from dineri.engine import MatchState, seat_view, spectator_view, summary
from tests.engine.helpers import (
    SWEEP_PREFIX,
    hands,
    lay_first,
    position,
    refuse,
    run,
    start,
    sweep_actions,
    table,
)

# seat 1 (cutter) to play; 3H could take 3C, QS and 2C could take nothing.
TABLE = "3C 6H 4S KD"
CUTTER = "3H 2C QS"
DEALER = "7D 5C AD"


def base() -> MatchState:
    """Seat 1 to play on TABLE."""
    return position(TABLE, CUTTER, DEALER)


# --- R19: a lay that could have captured opens a window for the very next seat ------------------


def test_r19_lay_that_could_capture_opens_a_window_for_next_seat() -> None:
    state, _ = run(base(), "1 play 3H")
    state, events = run(state, "0 claim 3H 3C")
    assert events == [{"type": "claim", "seat": 0, "card": "3H", "capture": ["3C"], "chkobba": False,
                       "auto": False}]
    assert table(state) == ["6H", "4S", "KD"]
    assert summary(state)["captured"] == [2, 0]
    assert state.turn == 0  # the claimer still plays its own card (R20)


def test_r19_no_window_when_the_laid_card_could_not_capture() -> None:
    state, _ = run(base(), "1 play QS")
    assert refuse(state, "0 claim QS 4S").code == "no_missed_capture"
    assert refuse(state, "0 claim QS KD").code == "no_missed_capture"


def test_r19_no_window_after_a_capture() -> None:
    state, _ = run(base(), "1 play 3H 3C")
    assert refuse(state, "0 claim 3H 3C").code == "no_missed_capture"


def test_r19_window_is_for_the_very_next_seat_only_four_seats() -> None:
    state = position(TABLE, CUTTER, DEALER, seats=4, others=["AH 2H 5H", "AS 2S 5S"])
    state, _ = run(state, "1 play 3H")
    assert refuse(state, "3 claim 3H 3C").code == "not_your_turn"
    assert refuse(state, "0 claim 3H 3C").code == "not_your_turn"  # an opponent, but not next
    assert refuse(state, "1 claim 3H 3C").code == "not_your_turn"
    state, _ = run(state, "2 claim 3H 3C")
    assert summary(state)["captured"] == [2, 0]  # seat 2 claims for side 0


# --- R20: what a claim may take -------------------------------------------------------------------


def test_r20_claim_by_sum_and_claimer_chooses() -> None:
    for capture, left in (("3C 4S", ["6H", "AD"]), ("6H AD", ["3C", "4S"])):
        state = position("3C 4S 6H AD", "7H 2C QS", "7D 5C JD")
        state, _ = run(state, "1 play 7H", f"0 claim 7H {capture}")
        assert table(state) == left
        assert summary(state)["captured"] == [3, 0]


def test_r20_claim_follows_value_before_sum() -> None:
    state = position("7S 3C 4S KD", "7H 2C QS", "7D 5C AD")
    state, _ = run(state, "1 play 7H")
    assert refuse(state, "0 claim 7H 3C 4S").code == "illegal_capture"
    assert refuse(state, "0 claim 7H 7S 3C").code == "illegal_capture"
    state, _ = run(state, "0 claim 7H 7S")
    assert table(state) == ["3C", "4S", "KD"]


def test_r20_claim_must_name_the_laid_card() -> None:
    state, _ = run(base(), "1 play 3H")
    assert refuse(state, "0 claim 3S 3C").code == "no_missed_capture"
    assert refuse(state, "0 claim 7D 3C").code == "no_missed_capture"


def test_r20_claim_names_only_cards_of_the_table_before() -> None:
    state, _ = run(base(), "1 play 3H")
    assert refuse(state, "0 claim 3H 3H").code == "card_not_on_table"  # the laid card itself
    assert refuse(state, "0 claim 3H 5C").code == "card_not_on_table"  # a card in a hand
    assert refuse(state, "0 claim 3H 3S").code == "card_not_on_table"  # in the pack
    assert refuse(state, "0 claim 3H 6H").code == "illegal_capture"  # on the table, wrong value


def test_r20_then_the_claimer_plays_its_turn() -> None:
    state, _ = run(base(), "1 play 3H", "0 claim 3H 3C")
    assert refuse(state, "0 claim 3H 3C").code == "no_missed_capture"  # only once
    state, _ = run(state, "0 play 5C")
    assert state.turn == 1 and table(state) == ["6H", "4S", "KD", "5C"]


def test_r20_claim_that_empties_the_table_is_a_chkobba() -> None:
    state = position("AD 2H 3S 4C", "KS 2C QS", "7D 5C JD")
    state, _ = run(state, "1 play KS")
    state, events = run(state, "0 claim KS AD 2H 3S 4C")
    assert events[0]["chkobba"] is True
    assert table(state) == []
    assert summary(state)["chkobbas"] == [1, 0]
    assert spectator_view(state)["chkobba_cards"] == [["KS"], []]  # R23: recorded face up


# --- R21: when the window closes, and that nobody is told --------------------------------------------


def test_r21_window_closes_when_that_seat_plays() -> None:
    state, _ = run(base(), "1 play 3H", "0 play 5C")
    assert refuse(state, "1 claim 3H 3C").code == "no_missed_capture"
    assert refuse(state, "0 claim 3H 3C").code == "not_your_turn"


def test_r21_window_closes_when_that_seat_captures() -> None:
    state, _ = run(base(), "1 play 3H", "0 play 7D 3C 4S")
    assert refuse(state, "1 claim 3H 3C").code == "no_missed_capture"


def test_r21_window_stays_open_across_a_later_deal() -> None:
    # seat 0's last card of the first hand (3H) could take 3C; the next seat claims after R11's deal
    state = position("3C 6H 4S KD", "2C QS JS", "AD 5C 3H")
    state, _ = run(state, "1 play 2C", "0 play AD", "1 play QS", "0 play 5C", "1 play JS")
    state, events = run(state, "0 play 3H")
    assert events[-1]["type"] == "deal_more"
    state, _ = run(state, "1 claim 3H 3C")
    assert summary(state)["captured"] == [0, 2]


def test_r21_window_closes_when_the_round_ends() -> None:
    actions = sweep_actions()
    assert actions[-1] == "0 play KS KH"
    actions[-1] = "0 play KS"  # the last card is laid where it could have taken KH
    state, _ = run(start([SWEEP_PREFIX, ()], target=31), *actions)
    assert state.round == 2 and state.phase == "cut"
    assert refuse(state, "1 claim KS KH").code == "wrong_phase"


def test_r21_nobody_is_told_about_a_window() -> None:
    with_window, ev1 = run(base(), "1 play 3H")
    without, ev2 = run(base(), "1 play QS")
    assert ev1[0].keys() == ev2[0].keys()
    assert ev1[0] == {**ev2[0], "card": "3H"}
    for seat in (0, 1):
        v1, v2 = seat_view(with_window, seat), seat_view(without, seat)
        assert v1.keys() == v2.keys()
        assert {k: v for k, v in v1.items() if k not in ("table", "hand")} == \
            {k: v for k, v in v2.items() if k not in ("table", "hand")}
    assert spectator_view(with_window).keys() == spectator_view(without).keys()
    assert "window" not in str(seat_view(with_window, 0)) and "claim" not in str(seat_view(with_window, 0))


def test_r21_claim_not_matching_a_window_changes_nothing() -> None:
    state, _ = run(base(), "1 play 3H")
    before = summary(state)
    for bad in ("0 claim 3H 6H", "0 claim QS 4S", "0 claim 3H 3C 6H", "1 claim 3H 3C"):
        refuse(state, bad)
    assert summary(state) == before
    assert hands(state)[0] == DEALER.split()


# --- R22: a claim is a capture for the leftovers (R25) --------------------------------------------------


def test_r22_claim_makes_the_claimer_last_capturer() -> None:
    state, _ = run(base(), "1 play 3H", "0 claim 3H 3C")
    events: list[dict[str, object]] = []
    while state.round == 1:  # nobody captures again: every card is laid
        state, ev = lay_first(state)
        events += ev
    over = next(e for e in events if e["type"] == "round_over")
    assert over["leftovers_to"] == 0
    result = over["result"]
    assert isinstance(result, dict) and isinstance(over["leftovers"], list)
    assert result["cards"] == [2 + len(over["leftovers"]), 0]


def test_r22_claim_in_the_last_hand_takes_the_leftovers() -> None:
    actions = sweep_actions()
    # seat 0 lays JC on JS (could take it): seat 1 claims it instead, then the last two cards are laid
    assert actions[-4:] == ["1 play JS", "0 play JC JS", "1 play KH", "0 play KS KH"]
    actions[-3:] = ["0 play JC", "1 claim JC JS", "1 play KH", "0 play KS"]
    _state, events = run(start([SWEEP_PREFIX, ()]), *actions)
    over = next(e for e in events if e["type"] == "round_over")
    assert over["leftovers"] == ["KH", "KS"] and over["leftovers_to"] == 1
    claim = next(e for e in events if e["type"] == "claim")
    assert claim["chkobba"] is True  # the table was empty after it, before the last card (R24)
