"""A turn: draw, take, swap, discard, knock and the last turns (G8–G10, G12)."""

from __future__ import annotations

from dineri.golf4 import private_view, public_view, summary
from tests.golf4.helpers import act, begin, card_set, refused, stacked, with_deal


def _three() -> object:
    deck = stacked(3, 0, hands={0: "AS 2S 3S 4S", 1: "AH 2H 3H 4H", 2: "AD 2D 3D 4D"}, discard="KC",
                   stock="7C 8C 9C TC JC")
    return begin(3, 0, [deck])


def test_g8_draw_then_swap_puts_the_replaced_card_face_up() -> None:
    state = _three()
    state, events = act(state, "1 draw")
    assert events == [{"type": "draw", "seat": 1, "stock_left": 38, "auto": False}]
    out = summary(state)
    assert out["held"] == {"card": "7C", "from": "stock"} and out["stock_left"] == 38
    assert private_view(state, 1)["held"] == "7C"  # the drawer alone sees it
    assert private_view(state, 0)["held"] is None and public_view(state)["holding"] == {"from": "stock"}
    state, events = act(state, "1 swap 2")
    out = summary(state)
    assert out["hands"][1] == ["AH", "2H", "7C", "4H"]
    assert out["discard"] == ["KC", "3H"] and out["held"] is None and out["turn"] == 2
    assert events[0] == {"type": "swap", "seat": 1, "slot": 2, "from": "stock", "card": "3H", "auto": False}


def test_g8_draw_then_discard() -> None:
    state, events = act(_three(), "1 draw", "1 discard")
    out = summary(state)
    assert out["discard"] == ["KC", "7C"] and out["hands"][1] == ["AH", "2H", "3H", "4H"]
    assert {"type": "discard", "seat": 1, "card": "7C", "auto": False} in events and out["turn"] == 2


def test_g9_take_the_top_discard_and_swap_it() -> None:
    state, events = act(_three(), "1 take")
    assert events == [{"type": "take", "seat": 1, "card": "KC", "auto": False}]
    assert public_view(state)["holding"] == {"from": "discard", "card": "KC"}  # face up: seen by all
    assert private_view(state, 1)["held"] is None
    assert summary(state)["discard"] == []
    state, _ = act(state, "1 swap 0")
    out = summary(state)
    assert out["hands"][1] == ["KC", "2H", "3H", "4H"] and out["discard"] == ["AH"]


def test_g9_a_taken_discard_may_not_be_discarded_again() -> None:
    state, _ = act(_three(), "1 take")
    refused(state, "1 discard", "cannot_discard_taken")


def test_g10_knock_then_each_other_seat_plays_one_last_turn() -> None:
    state = begin(5, 0, [stacked(5, 0)])
    state, _ = act(state, "1 draw", "1 discard", "2 draw", "2 discard")
    state, events = act(state, "3 knock")
    assert events[0] == {"type": "knock", "seat": 3, "final_turns": [4, 0, 1, 2], "auto": False}
    out = summary(state)
    assert out["knocker"] == 3 and out["final_turns"] == [4, 0, 1, 2] and out["turn"] == 4
    frozen = out["hands"][3]
    state, _ = act(state, "4 draw", "4 discard", "0 take", "0 swap 1", "1 draw", "1 swap 3")
    assert summary(state)["final_turns"] == [2] and state.turn == 2
    refused(state, "3 draw", "not_your_turn")  # the knocker plays no more
    state, events = act(state, "2 draw", "2 discard")
    assert state.round == 2 and state.rounds[0].knocker == 3
    assert state.rounds[0].to_json()["hands"][3] == frozen
    assert any(e["type"] == "round_over" for e in events)


def test_g10_knock_on_the_first_turn_and_no_second_knock() -> None:
    state, _ = act(_three(), "1 knock")
    assert state.turn == 2 and summary(state)["final_turns"] == [2, 0]
    refused(state, "2 knock", "already_knocked")
    state, _ = act(state, "2 take")
    refused(state, "2 knock", "already_knocked")  # checked before already_holding


def test_g10_knock_only_at_the_start_of_a_turn() -> None:
    state, _ = act(_three(), "1 draw")
    refused(state, "1 knock", "already_holding")


def test_g10_round_ends_after_the_seat_before_the_knocker() -> None:
    state, _ = act(_three(), "1 draw", "1 discard", "2 knock")
    assert summary(state)["final_turns"] == [0, 1]
    state, _ = act(state, "0 draw", "0 discard")
    assert state.round == 1 and state.turn == 1
    state, _ = act(state, "1 draw", "1 discard")
    assert state.round == 2 and state.phase == "shuffle" and state.rounds[0].round == 1


def test_g12_refusals_change_nothing() -> None:
    state = _three()
    refused(state, "0 draw", "not_your_turn")
    refused(state, "2 take", "not_your_turn")
    refused(state, "1 swap 0", "nothing_held")
    refused(state, "1 discard", "nothing_held")
    refused(state, {"seat": 1, "type": "swap", "slot": 4}, "malformed")
    refused(state, {"seat": 1, "type": "swap", "slot": -1}, "malformed")
    refused(state, {"seat": 3, "type": "draw"}, "malformed")
    state, _ = act(state, "1 draw")
    refused(state, "1 draw", "already_holding")
    refused(state, "1 take", "already_holding")
    refused(state, "1 peek", "wrong_phase")


def test_g12_draw_from_an_empty_stock_is_refused() -> None:
    state = with_deal(_three(), stock=())  # cannot happen with 2–8 seats (G11): set up directly
    refused(state, "1 draw", "stock_empty")


def test_g8_g9_cards_are_conserved_through_a_turn() -> None:
    state = _three()
    every = card_set(state)
    for lines in (("1 draw", "1 swap 3"), ("2 take", "2 swap 0"), ("0 draw", "0 discard")):
        state, _ = act(state, lines[0])
        assert card_set(state) == every
        state, _ = act(state, lines[1])
        assert card_set(state) == every and len(every) == 52
