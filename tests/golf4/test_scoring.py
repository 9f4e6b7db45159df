"""Scoring: round scores, the knock penalty, nine or eighteen rounds, shared wins (G13–G15)."""

from __future__ import annotations

from dineri.golf4 import MatchState, add_deck, ranks, summary
from tests.golf4.helpers import act, begin, stacked


def _round(state: MatchState, knocker: int) -> MatchState:
    """Play one round where ``knocker`` knocks on its first turn and everybody then discards."""
    n = state.seats
    first = state.turn
    assert first is not None
    seat = first
    while seat != knocker:
        state, _ = act(state, f"{seat} draw", f"{seat} discard")
        seat = (seat + 1) % n
    state, _ = act(state, f"{knocker} knock")
    for i in range(1, n):
        s = (knocker + i) % n
        state, _ = act(state, f"{s} draw", f"{s} discard")
    return state


def _next(state: MatchState, hands: dict[int, str] | None = None) -> MatchState:
    state, _ = add_deck(state, stacked(state.seats, state.dealer, hands))
    state, _ = act(state, *(f"{s} skip" for s in range(state.seats)))
    return state


def test_g13_a_round_score_is_the_sum_of_the_four_values() -> None:
    state = begin(3, 0, [stacked(3, 0, hands={0: "KS KD KH KC", 1: "QS QD JH TC", 2: "AS 5D 9H 2C"})])
    state = _round(state, 0)
    r = state.rounds[0]
    assert r.cards == (0, 40, 17) and r.penalty == (0, 0, 0) and r.points == (0, 40, 17)
    assert summary(state)["totals"] == [0, 40, 17]
    assert r.to_json()["hands"] == [["KS", "KD", "KH", "KC"], ["QS", "QD", "JH", "TC"],
                                    ["AS", "5D", "9H", "2C"]]


def test_g14_knocker_beaten_strictly_adds_ten() -> None:
    state = begin(3, 0, [stacked(3, 0, hands={0: "AS 2S KS KD", 1: "AH KH KC QC", 2: "9S 9D 9H 9C"})])
    state = _round(state, 1)  # seat 1 has 11, seat 0 has 3 < 11
    assert state.rounds[0].cards == (3, 11, 36)
    assert state.rounds[0].penalty == (0, 10, 0) and state.rounds[0].points == (3, 21, 36)


def test_g14_a_tie_for_lowest_is_no_penalty() -> None:
    state = begin(3, 0, [stacked(3, 0, hands={0: "AS 2S KS KD", 1: "AH 2H KH KC", 2: "9S 9D 9H 9C"})])
    state = _round(state, 1)  # 3 against 3
    assert state.rounds[0].cards == (3, 3, 36) and state.rounds[0].penalty == (0, 0, 0)


def test_g14_knocker_lowest_is_no_penalty_and_others_never_pay() -> None:
    state = begin(2, 0, [stacked(2, 0, hands={0: "9S 9D 9H 9C", 1: "KH KC KS KD"})])
    state = _round(state, 1)
    assert state.rounds[0].penalty == (0, 0) and state.rounds[0].points == (36, 0)


def test_g15_nine_rounds_make_a_game_lowest_total_wins() -> None:
    state = begin(2, 0, [stacked(2, 0, hands={0: "KS KD KH KC", 1: "AS AD AH AC"})])
    for i in range(9):
        state = _round(state, state.turn)  # type: ignore[arg-type]
        if i < 8:
            assert state.phase == "shuffle" and state.round == i + 2
            state = _next(state, {0: "KS KD KH KC", 1: "AS AD AH AC"})
    assert state.phase == "over" and state.round == 9 and len(state.rounds) == 9
    out = summary(state)
    assert out["winners"] == [0] and out["totals"][0] < out["totals"][1]
    assert out["totals"] == [sum(r["points"][s] for r in out["rounds"]) for s in (0, 1)]
    assert out["turn"] is None and out["final_turns"] == [] and out["hands"][0] == ["KS", "KD", "KH", "KC"]


def test_g15_eighteen_rounds() -> None:
    state = begin(2, 1, rounds=18)
    for i in range(18):
        state = _round(state, state.turn)  # type: ignore[arg-type]
        if i < 17:
            state = _next(state)
    assert state.phase == "over" and len(state.rounds) == 18 and state.winners is not None


def test_g15_equal_lowest_totals_share_the_win() -> None:
    same = {0: "KS KD 2H 2C", 1: "9S 9D 9H 9C", 2: "KH KC 2S 2D"}
    state = begin(3, 0, [stacked(3, 0, hands=same)])
    for i in range(9):
        state = _round(state, 0)
        if i < 8:
            state = _next(state, same)
    assert state.winners == (0, 2)
    assert ranks(state.totals, state.forfeited) == [1, 3, 1]
