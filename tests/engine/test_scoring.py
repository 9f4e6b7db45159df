"""Chkobba, the last card, leftovers (R23–R25) and round scoring with baji (R26–R29)."""

from __future__ import annotations

import pytest

from dineri.engine import FULL_DECK, RoundResult, score_round, spectator_view, summary
from tests.engine.helpers import (
    SWEEP_PREFIX,
    Event,
    cards,
    finish_round,
    lay_first,
    position,
    run,
    start,
    sweep_actions,
)


def _sweep_round(actions: list[str] | None = None, target: int = 31) -> tuple[dict[str, object], list[Event]]:
    state, events = run(start([SWEEP_PREFIX, ()], target=target), *(actions or sweep_actions()))
    over = next(e for e in events if e["type"] == "round_over")
    assert state.round == 2  # the round is over and the next has begun
    return over, events


def _plays(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] in ("play", "claim")]


# --- R23: chkobba ------------------------------------------------------------------------------


def test_r23_capture_that_empties_the_table_is_a_chkobba() -> None:
    state, events = run(start([SWEEP_PREFIX]), *sweep_actions()[:3])
    assert events[-1]["chkobba"] is True
    s = summary(state)
    assert s["table"] == [] and s["chkobbas"] == [0, 1] and s["captured"] == [0, 5]
    assert spectator_view(state)["chkobba_cards"] == [[], ["KC"]]  # the capturing card, face up


def test_r23_capture_that_leaves_cards_is_not_a_chkobba() -> None:
    state = position("7S 3C 4D 6H", "7H KC 5C", "2S AD QH")
    state, events = run(state, "1 play 7H 7S")
    assert events[0]["chkobba"] is False and summary(state)["chkobbas"] == [0, 0]


def test_r23_each_chkobba_is_a_point() -> None:
    over, events = _sweep_round()
    flags = [e["chkobba"] for e in _plays(events)]
    result = over["result"]
    assert isinstance(result, dict)
    assert result["chkobbas"] == [sum(flags[1::2]), sum(flags[0::2])]  # seat 1 plays first
    assert result["chkobbas"] == [16, 1]
    assert result["points"] == [4 + 16, 0 + 1]  # side 0 also takes every category


# --- R24: the last card ----------------------------------------------------------------------------


def test_r24_no_chkobba_with_the_last_card() -> None:
    over, events = _sweep_round()
    plays = _plays(events)
    assert len(plays) == 36
    assert plays[-1]["capture"] == ["KH"] and plays[-1]["chkobba"] is False  # empties the table
    assert over["leftovers"] == []


def test_r24_sweep_earlier_in_the_last_hand_counts() -> None:
    _, events = _sweep_round()
    plays = _plays(events)
    last_deal = max(i for i, e in enumerate(events) if e["type"] == "deal_more")
    assert sum(1 for e in plays[30:35] if e["chkobba"]) == 2  # plays 32 and 34, both in the last hand
    assert events.index(plays[30]) > last_deal


def test_r24_claim_before_the_last_card_counts() -> None:
    actions = sweep_actions()
    actions[-3:] = ["0 play JC", "1 claim JC JS", "1 play KH", "0 play KS KH"]
    over, events = _sweep_round(actions)
    claim = next(e for e in events if e["type"] == "claim")
    assert claim["chkobba"] is True
    assert _plays(events)[-1]["chkobba"] is False  # the last card sweeps KH: no chkobba
    result = over["result"]
    assert isinstance(result, dict)
    assert result["chkobbas"] == [1 + 14, 1 + 1]  # KD, pairs 1-14 | KC, the claim


# --- R25: leftovers ------------------------------------------------------------------------------------


def test_r25_leftovers_go_to_the_last_capturer_without_chkobba() -> None:
    actions = sweep_actions()
    actions[-1] = "0 play KS"  # laid on KH (it could take it): the round ends with 2 on the table
    over, events = _sweep_round(actions)
    assert over["leftovers"] == ["KH", "KS"]
    assert over["leftovers_to"] == 0  # seat 0 took JS with JC just before
    result = over["result"]
    assert isinstance(result, dict)
    assert result["cards"] == [35, 5]
    assert result["chkobbas"] == [16, 1]  # the leftovers emptying the table are no chkobba
    assert _plays(events)[-1]["chkobba"] is False


def test_r25_leftovers_go_to_the_last_capturer_even_several_plays_earlier() -> None:
    actions = sweep_actions()
    assert actions[-3] == "0 play JC JS"
    actions[-3:] = ["0 play JC", "1 play KH", "0 play KS"]  # the last 4 cards are all laid
    over, _ = _sweep_round(actions)
    # the last capture was seat 0's QC taking QS: side 0 takes JS JC KH KS
    assert over["leftovers"] == ["JS", "JC", "KH", "KS"] and over["leftovers_to"] == 0
    result = over["result"]
    assert isinstance(result, dict) and result["cards"] == [35, 5]


def test_r25_nobody_captured_leftovers_go_to_nobody() -> None:
    state = start([(), ()], target=11)
    state, events = run(state, "1 cut 0", "1 keep")
    while state.round == 1:
        state, ev = lay_first(state)
        events += ev
    over = next(e for e in events if e["type"] == "round_over")
    assert over["leftovers_to"] is None and len(over["leftovers"]) == 40
    assert over["result"]["cards"] == [0, 0]
    assert over["result"]["points"] == [0, 0]
    assert (over["result"]["karta"], over["result"]["dinari"], over["result"]["barmila"],
            over["result"]["sabaa"]) == (None, None, None, None)
    assert summary(state)["scores"] == [0, 0]


# --- R26: the categories -----------------------------------------------------------------------------


def _score(pile0: str, pile1: str, chkobbas: tuple[int, int] = (0, 0)) -> RoundResult:
    return score_round(1, 1, [cards(pile0), cards(pile1)], chkobbas)


def test_r26_karta_more_cards() -> None:
    assert _score("AH 2H 3H", "AS 2S").karta == 0
    assert _score("AH", "AS 2S").karta == 1


def test_r26_dinari_more_diamonds() -> None:
    r = _score("AD 2D AH AS AC", "3D 4D 5D 2H")
    assert r.dinari_cards == (2, 3) and r.dinari == 1 and r.karta == 0


def test_r26_barmila_more_sevens() -> None:
    r = _score("7H 7S 6H", "7C 6S 6C 6D")
    assert r.sevens == (2, 1) and r.sixes == (1, 3) and r.barmila == 0


def test_r26_barmila_falls_back_to_sixes() -> None:
    r = _score("7H 6S 6C", "7C 6H")
    assert r.sevens == (1, 1) and r.sixes == (2, 1) and r.barmila == 0
    r = _score("AH", "6H")  # no 7s at all: 6s decide
    assert r.sevens == (0, 0) and r.barmila == 1


def test_r26_sabaa_the_seven_of_diamonds() -> None:
    assert _score("7D", "AH 2H").sabaa == 0
    assert _score("AH 2H", "7D").sabaa == 1
    assert _score("AH", "2H").sabaa is None  # nobody holds it (left on the table with nobody capturing)


def test_r26_points_are_categories_plus_chkobbas() -> None:
    rest = "AH 2H 3H 4H 5H QH JH KH AS 2S 3S 4S 5S QS JS KS"
    r = _score("7D 7H 6D AD 2D " + rest, "7S 6S 3D", (2, 3))
    assert (r.karta, r.dinari, r.barmila, r.sabaa) == (0, 0, 0, 0)
    assert r.points == (4 + 2, 0 + 3)


def test_r26_whole_deck_split() -> None:
    # FULL_DECK order: all ♦ and ♥ to side 0, all ♠ and ♣ to side 1
    r = score_round(2, 3, [FULL_DECK[:20], FULL_DECK[20:]], (0, 1))
    assert (r.game, r.round) == (2, 3)
    assert r.cards == (20, 20) and r.karta is None
    assert r.dinari_cards == (10, 0) and r.dinari == 0
    assert r.sevens == (2, 2) and r.sixes == (2, 2) and r.barmila is None
    assert r.sabaa == 0
    assert r.points == (2, 1)


# --- R27: baji ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("pile0", "pile1", "category"), [
    ("AH 2H", "AS 2S", "karta"),
    ("AD 2H", "2D AS", "dinari"),
    ("7H 6H", "7S 6S", "barmila"),
    ("AH", "AS", "barmila"),
])
def test_r27_tie_is_baji(pile0: str, pile1: str, category: str) -> None:
    r = _score(pile0, pile1)
    assert getattr(r, category) is None


def test_r27_barmila_baji_only_after_sixes_tie() -> None:
    assert _score("7H 7S 6H", "7C 7D 6S").barmila is None
    assert _score("7H 7S 6H 6D", "7C 7D 6S").barmila == 0
    assert _score("7H 7S 6H", "7C 7D 6S 6D").barmila == 1


def test_r27_all_baji_gives_only_chkobba_points() -> None:
    r = _score("AH 2D 7H 6H", "AS 2C 7S 6S", (1, 0))
    assert (r.karta, r.dinari, r.barmila, r.sabaa) == (None, 0, None, None)
    assert r.points == (1 + 1, 0)


# --- R28: points are added at the end of the round ---------------------------------------------------


def test_r28_scores_change_only_when_the_round_ends() -> None:
    state = start([SWEEP_PREFIX, ()], target=11)
    actions = sweep_actions()
    for i, a in enumerate(actions[:-1]):
        state, _ = run(state, a)
        assert summary(state)["scores"] == [0, 0], i
        assert state.phase == "play" or i < 2
    assert summary(state)["chkobbas"] == [16, 1]  # side 0 is far past 11 in chkobbas: still playing
    state, _ = run(state, actions[-1])
    assert summary(state)["scores"] == [20, 1]


def test_r28_the_other_side_plays_the_round_out() -> None:
    state = start([SWEEP_PREFIX], target=11)
    state, _ = run(state, *sweep_actions()[:-2])
    assert state.phase == "play" and state.turn == 1  # seat 1 still plays its last card


# --- R29: what a round's result records -----------------------------------------------------------------


def test_r29_round_result_records_everything() -> None:
    over, _ = _sweep_round()
    expected = {"game": 1, "round": 1, "cards": [35, 5], "dinari_cards": [8, 2], "sevens": [4, 0],
                "sixes": [4, 0], "chkobbas": [16, 1], "karta": 0, "dinari": 0, "barmila": 0, "sabaa": 0,
                "points": [20, 1]}
    assert over["result"] == expected
    state, _ = run(start([SWEEP_PREFIX, ()], target=31), *sweep_actions())
    assert summary(state)["rounds"] == [expected]
    assert summary(state)["scores"] == [20, 1]
    assert summary(state)["captured"] == [0, 0] and summary(state)["chkobbas"] == [0, 0]  # new round


def test_r29_rounds_accumulate_with_game_and_round_numbers() -> None:
    state = start([SWEEP_PREFIX, *[()] * 5], target=31)
    state, _ = run(state, *sweep_actions())
    state, _ = finish_round(state)
    rounds = summary(state)["rounds"]
    assert [(r["game"], r["round"]) for r in rounds[:2]] == [(1, 1), (1, 2)]
    for r in rounds:
        assert set(r) == {"game", "round", "cards", "dinari_cards", "sevens", "sixes", "chkobbas", "karta",
                          "dinari", "barmila", "sabaa", "points"}
        assert sum(r["cards"]) <= 40 and sum(r["dinari_cards"]) <= 10
