"""The reshuffle of the discards when the stock runs out (G11; record page, A reshuffle)."""

from __future__ import annotations

from dineri.golf4 import CODE, FULL_DECK, Draw, add_deck, legal_actions, summary
from tests.golf4.helpers import act, begin, codes, refused, stacked, with_deal


def _nearly_empty() -> object:
    """Two seats, seat 1 to play; the stock holds 5S only; the pile 2C 3C 4C (top)."""
    state = begin(2, 0, [stacked(2, 0, hands={0: "AS 2S 3S 4S", 1: "AH 2H 3H 4H"})])
    return with_deal(state, stock=tuple(codes("5S")), discard=tuple(codes("2C 3C 4C")))


def test_g11_the_turn_that_empties_the_stock_waits_for_the_next_deck() -> None:
    state, events = act(_nearly_empty(), "1 draw", "1 discard")
    out = summary(state)
    assert out["phase"] == "shuffle" and out["turn"] == 0  # mid-round: the seat that plays next
    assert out["stock_left"] == 0 and out["discard"] == ["2C", "3C", "4C", "5S"] and out["decks_used"] == 1
    refused(state, "0 draw", "wrong_phase")
    order = tuple(reversed(FULL_DECK))  # KC QC … : the new stock follows this entry's order
    state, events = add_deck(state, order)
    out = summary(state)
    assert out["phase"] == "play" and out["turn"] == 0 and out["decks_used"] == 2
    assert out["discard"] == ["5S"]  # the top discard stays as the whole pile
    assert [CODE[c] for c in state.deal.stock] == ["4C", "3C", "2C"]  # type: ignore[union-attr]
    assert events == [{"type": "reshuffle", "stock_left": 3, "deck": 1}]


def test_g11_reshuffle_uses_a_deck_already_in_the_record_at_once() -> None:
    state = begin(2, 0, [stacked(2, 0), tuple(FULL_DECK)])
    state = with_deal(state, stock=tuple(codes("5S")), discard=tuple(codes("KC 3C 2D")))
    state, events = act(state, "1 draw", "1 swap 0")
    assert state.phase == "play" and state.decks_used == 2
    assert [CODE[c] for c in state.deal.stock] == ["2D", "3C", "KC"]  # type: ignore[union-attr]
    assert [e["type"] for e in events] == ["draw", "swap", "reshuffle", "turn"]


def test_g11_a_whole_stock_drawn_in_play_is_reshuffled() -> None:
    state = begin(2, 0, [stacked(2, 0), tuple(reversed(FULL_DECK))])
    for i in range(43):  # 52 - 8 dealt - 1 discard
        seat = 1 - i % 2
        assert state.phase == "play" and state.decks_used == 1
        state, _ = act(state, f"{seat} draw", f"{seat} discard")
    out = summary(state)
    assert out["decks_used"] == 2 and out["stock_left"] == 43 and len(out["discard"]) == 1
    assert state.deal is not None
    stock = [CODE[c] for c in state.deal.stock]
    every = sorted([c for h in out["hands"] for c in h] + out["discard"] + stock)
    assert every == sorted(CODE)


def test_g11_the_rounds_last_turn_never_reshuffles() -> None:
    state = _nearly_empty()
    state, _ = act(state, "1 knock")
    state = with_deal(state, stock=tuple(codes("5S")))
    state, events = act(state, "0 draw", "0 discard")
    assert "reshuffle" not in [e["type"] for e in events]
    assert state.round == 2 and state.phase == "shuffle" and state.deal is None and state.decks_used == 1
    assert summary(state)["turn"] is None  # a round-start shuffle
    state, events = add_deck(state, stacked(2, 1))
    assert state.phase == "peek" and state.decks_used == 2 and events[0]["type"] == "deal"


def test_g11_a_pile_of_one_card_is_not_reshuffled_and_draw_is_refused() -> None:
    state = with_deal(_nearly_empty(), stock=(), discard=tuple(codes("4C")))
    state, events = act(state, "1 take", "1 swap 0")
    assert "reshuffle" not in [e["type"] for e in events]
    assert state.phase == "play" and state.decks_used == 1 and summary(state)["discard"] == ["AH"]
    refused(state, "0 draw", "stock_empty")
    assert not any(isinstance(a, Draw) for a in legal_actions(state, 0))
