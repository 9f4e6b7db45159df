"""A turn (R13–R18): capture by value, by sum, value before sum, laying, and every refusal."""

from __future__ import annotations

import pytest

from dineri.engine import (
    Forfeit,
    MatchRecord,
    MatchState,
    Options,
    Play,
    RuleError,
    action_from_json,
    legal_actions,
    parse_card,
    replay,
    summary,
)
from tests.engine import helpers
from tests.engine.helpers import (
    action,
    action_json,
    cards,
    deck,
    hands,
    keep_prefix,
    refuse,
    run,
    start,
    table,
)

# 2 seats, dealer 0, cutter 1 plays first (keep).
CUTTER = "7H KC 5C"
DEALER = "2S AD QH"


def position(table_cards: str = "7S 3C 4D 6H", cutter: str = CUTTER, dealer: str = DEALER) -> MatchState:
    """The play position after the cut and keep, cutter (seat 1) to play."""
    return helpers.position(table_cards, cutter, dealer)


# --- R13: one card, capturing named cards or laid ----------------------------------------------


def test_r13_capture_moves_the_named_cards_and_the_card_to_the_pile() -> None:
    state, events = run(position(), "1 play KC 4D 6H")
    assert table(state) == ["7S", "3C"]
    assert hands(state)[1] == ["7H", "5C"]
    assert summary(state)["captured"] == [0, 3]
    assert events[0]["capture"] == ["4D", "6H"] and events[0]["card"] == "KC"
    assert state.turn == 0


def test_r13_lay_puts_the_card_on_the_table() -> None:
    state, events = run(position(), "1 play 5C")
    assert table(state) == ["7S", "3C", "4D", "6H", "5C"]
    assert summary(state)["captured"] == [0, 0]
    assert events[0]["capture"] == [] and state.turn == 0


def test_r13_server_never_chooses_a_capture() -> None:
    # 7H could take 7S; played without naming it, it is laid.
    state, _ = run(position(), "1 play 7H")
    assert table(state) == ["7S", "3C", "4D", "6H", "7H"]
    assert summary(state)["captured"] == [0, 0]


def test_r13_one_card_per_turn_then_next_seat() -> None:
    state, _ = run(position(), "1 play 5C")
    assert refuse(state, "1 play 7H").code == "not_your_turn"


# --- R14–R16: value, sum, value before sum -------------------------------------------------------


def test_r14_capture_by_value() -> None:
    state, _ = run(position(), "1 play 7H 7S")
    assert table(state) == ["3C", "4D", "6H"]
    assert summary(state)["captured"] == [0, 2]


def test_r14_single_card_of_another_value_is_illegal() -> None:
    assert refuse(position(), "1 play KC 7S").code == "illegal_capture"
    assert refuse(position(), "1 play 5C 4D").code == "illegal_capture"


def test_r15_capture_by_sum_of_two() -> None:
    for capture in ("7S 3C", "4D 6H"):
        state, _ = run(position(), f"1 play KC {capture}")
        assert sorted(table(state)) == sorted({"7S", "3C", "4D", "6H"} - set(capture.split()))


@pytest.mark.parametrize(("tab", "capture"), [("AD 2H 3S 4C", "AD 2H 3S 4C"), ("QS 2C 5S 6S", "QS 2C"),
                                              ("6D 4H 7C 3S", "7C 3S")])
def test_r15_king_examples(tab: str, capture: str) -> None:
    state = position(tab, cutter="KC 5C 7H", dealer="2S AD QH" if "AD" not in tab else "2S JD QH")
    state, _ = run(state, f"1 play KC {capture}")
    assert summary(state)["captured"] == [0, len(capture.split()) + 1]


def test_r15_sum_that_does_not_add_up_is_illegal() -> None:
    state = position()
    err = refuse(state, "1 play KC 6H 3C")  # 9, not 10
    assert err.code == "illegal_capture"
    assert refuse(state, "1 play KC 7S 3C 4D").code == "illegal_capture"  # 14
    assert refuse(state, "1 play 5C 3C").code == "illegal_capture"  # single, wrong value


def test_r16_value_before_sum_refuses_sum() -> None:
    state = position()  # 7S is on the table, so 7H may not take 3C+4D
    err = refuse(state, "1 play 7H 3C 4D")
    assert err.code == "illegal_capture"
    assert "R16" in err.message


def test_r16_value_match_takes_only_one_card() -> None:
    state = position("7S 7C 3C 4D")
    assert refuse(state, "1 play 7H 7S 7C").code == "illegal_capture"


def test_r16_two_matches_the_player_chooses() -> None:
    for pick, left in (("7S", "7C"), ("7C", "7S")):
        state, _ = run(position("7S 7C 3C 4D"), f"1 play 7H {pick}")
        assert table(state) == [left, "3C", "4D"]


def test_r16_several_sums_the_player_chooses() -> None:
    tab = "3S 4S AC 2C"  # no 7 on the table; 7 = 3+4 = 1+2+4
    for capture, left in (("3S 4S", ["AC", "2C"]), ("AC 2C 4S", ["3S"])):
        state, _ = run(position(tab, cutter="7H KC 5H", dealer="2S AD QH"), f"1 play 7H {capture}")
        assert table(state) == left


def test_r13_r16_legal_actions_lists_exactly_the_captures() -> None:
    state = position()
    got = {(a.card, frozenset(a.capture)) for a in legal_actions(state, 1) if isinstance(a, Play)}
    c = dict(zip(["7H", "KC", "5C", "7S", "3C", "4D", "6H"], cards("7H KC 5C 7S 3C 4D 6H"), strict=True))
    want = {(c["7H"], frozenset()), (c["KC"], frozenset()), (c["5C"], frozenset()),
            (c["7H"], frozenset({c["7S"]})),
            (c["KC"], frozenset({c["7S"], c["3C"]})), (c["KC"], frozenset({c["4D"], c["6H"]}))}
    assert got == want
    assert Forfeit(1) in legal_actions(state, 1)
    assert [a for a in legal_actions(state, 0) if not isinstance(a, Forfeit)] == []


# --- R17: capturing is optional ----------------------------------------------------------------


def test_r17_a_card_that_could_capture_may_be_laid() -> None:
    for card in ("7H", "KC"):
        state, _ = run(position(), f"1 play {card}")
        assert table(state)[-1] == card
        assert card not in hands(state)[1]


# --- R18: every refusal, in the documented order, changes nothing --------------------------------


@pytest.mark.parametrize("raw", [
    {"seat": 1, "type": "play", "card": "ZZ"},
    {"seat": 1, "type": "play", "card": "7H", "capture": "7S"},
    {"seat": 1, "type": "play", "card": "7H", "capture": ["7S", "7s"]},
    {"seat": 1, "type": "play", "card": "KC", "capture": ["4D", "XX"]},
    {"seat": 2, "type": "play", "card": "7H"},
    {"seat": "1", "type": "play", "card": "7H"},
    {"type": "play", "card": "7H"},
    {"seat": 1, "type": "play", "card": "7H", "auto": "yes"},
    {"seat": 1, "type": "claim", "card": "7H", "capture": []},
    {"seat": 1, "type": "answer_redeal", "accept": "yes"},
    {"seat": 1, "type": "dance"},
    ["play", "7H"],
])
def test_r18_malformed_action(raw: object) -> None:
    with pytest.raises(RuleError) as info:
        action_from_json(raw, 2)
    assert info.value.code == "malformed"


def _replay_error(texts_or_raw: list[object], state_prefix: list[str] | None = None) -> dict[str, object]:
    prefix = state_prefix if state_prefix is not None else keep_prefix(2, 0, [DEALER, CUTTER], "7S 3C 4D 6H")
    actions = [action_json(a) if isinstance(a, str) else a for a in texts_or_raw]
    rec = MatchRecord(Options(2, 11, 1), 0, (deck(*prefix),), tuple(actions))
    out = replay(rec)
    assert out.error is not None
    return out.error


def test_r18_check_order_malformed_before_wrong_phase() -> None:
    # in the cut phase, by the wrong seat, with a bad card: the form is checked first
    err = _replay_error([{"seat": 0, "type": "play", "card": "ZZ"}])
    assert err == {"index": 0, "code": "malformed", "message": err["message"]}


def test_r18_check_order_wrong_phase_before_not_your_turn() -> None:
    state = start([keep_prefix(2, 0, [DEALER, CUTTER], "7S 3C 4D 6H")])
    assert refuse(state, "0 play 2S").code == "wrong_phase"  # cut phase, and not seat 0's turn
    state, _ = run(state, "1 cut 0")
    assert refuse(state, "0 play 2S").code == "wrong_phase"
    assert refuse(state, "0 cut 3").code == "wrong_phase"


def test_r18_check_order_not_your_turn_before_card_checks() -> None:
    state = position()
    assert refuse(state, "0 play 2S").code == "not_your_turn"
    assert refuse(state, "0 play 7H JS").code == "not_your_turn"  # not its card, not on the table
    assert refuse(state, "0 claim 7H 7S").code == "not_your_turn"


def test_r18_card_not_in_hand_before_table_checks() -> None:
    state = position()
    assert refuse(state, "1 play 2S").code == "card_not_in_hand"  # the dealer's card
    assert refuse(state, "1 play 7S").code == "card_not_in_hand"  # a table card
    assert refuse(state, "1 play JS JD").code == "card_not_in_hand"  # neither in hand nor on table


def test_r18_card_not_on_table_before_illegal_capture() -> None:
    state = position()
    assert refuse(state, "1 play 7H 7D").code == "card_not_on_table"
    assert refuse(state, "1 play KC 6H 2S").code == "card_not_on_table"  # 2S is in a hand
    assert refuse(state, "1 play KC 6H 3C JS").code == "card_not_on_table"  # also an illegal sum


def test_r18_illegal_capture_for_a_card_that_cannot_capture() -> None:
    assert refuse(position(), "1 play 5C 3C 4D 6H").code == "illegal_capture"


def test_r18_claim_without_window_and_redeal_not_allowed() -> None:
    state = position()
    assert refuse(state, "1 claim 7H 7S").code == "no_missed_capture"
    assert refuse(state, "1 propose").code == "redeal_not_allowed"


def test_r18_refused_action_in_a_replay_reports_index_and_state_before() -> None:
    err = _replay_error(["1 cut 0", "1 keep", "1 play KC 6H 3C", "0 play 2S"])
    assert err["index"] == 2 and err["code"] == "illegal_capture"
    rec = MatchRecord(Options(2, 11, 1), 0, (deck(*keep_prefix(2, 0, [DEALER, CUTTER], "7S 3C 4D 6H")),),
                      tuple(action_json(a) for a in ("1 cut 0", "1 keep", "1 play KC 6H 3C")))
    assert replay(rec).to_json() == {**replay(rec, upto=2).to_json(), "ok": False, "error": err}


def test_r18_refusals_after_accepted_moves_leave_the_state_as_it_was() -> None:
    state, _ = run(position(), "1 play KC 4D 6H", "0 play 2S")
    before = summary(state)
    for bad in ("1 play KC", "1 play 7H 3C 4D", "0 play AD", "1 play 7H 2S 7S", "1 claim 2S 7S"):
        refuse(state, bad)
    assert summary(state) == before
    state2, _ = run(state, "1 play 7H 7S")
    assert summary(state2) != before and summary(state) == before


def test_r18_actions_built_from_json_and_dataclasses_agree() -> None:
    assert action("1 play KC 4D 6H") == Play(1, parse_card("KC"), cards("4D 6H"))
