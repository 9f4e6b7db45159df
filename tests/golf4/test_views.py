"""Views (G6–G9, G13; record page, Views): built by listing what each may see."""

from __future__ import annotations

from dineri.golf4 import CODE, private_view, public_view, seat_view, spectator_view, summary
from tests.golf4.helpers import act, begin, stacked


def _codes_in(view: object) -> set[str]:
    out: set[str] = set()
    if isinstance(view, dict):
        for v in view.values():
            out |= _codes_in(v)
    elif isinstance(view, list):
        for v in view:
            out |= _codes_in(v)
    elif isinstance(view, str) and view in CODE:
        out.add(view)
    return out


def test_g7_no_face_down_card_in_any_view_its_owners_included() -> None:
    deck = stacked(3, 0, hands={0: "AS 2S 3S 4S", 1: "AH 2H 3H 4H", 2: "AD 2D 3D 4D"}, discard="KC",
                   stock="7C 8C")
    state = begin(3, 0, [deck], peek=False)
    state, _ = act(state, "0 peek", "1 peek", "2 peek")
    hidden = {c for h in summary(state)["hands"] for c in h}
    for seat in range(3):
        assert not _codes_in(seat_view(state, seat)) & hidden
    assert not _codes_in(spectator_view(state)) & hidden
    assert _codes_in(public_view(state)) == {"KC"}


def test_g8_the_drawn_card_only_to_the_drawer_while_held() -> None:
    state = begin(3, 0, [stacked(3, 0, discard="KC", stock="7C 8C")])
    state, _ = act(state, "1 draw")
    assert seat_view(state, 1)["held"] == "7C"
    assert "7C" not in _codes_in(seat_view(state, 0)) | _codes_in(seat_view(state, 2))
    assert "7C" not in _codes_in(spectator_view(state))
    state, _ = act(state, "1 swap 0")  # now face down in slot 0: nobody sees it
    assert all("7C" not in _codes_in(seat_view(state, s)) for s in range(3))


def test_g9_a_taken_discard_is_seen_by_all_and_the_view_keys_are_disjoint() -> None:
    state, _ = act(begin(3, 0, [stacked(3, 0, discard="KC")]), "1 take")
    for s in range(3):
        v = seat_view(state, s)
        assert v["holding"] == {"from": "discard", "card": "KC"} and v["held"] is None
        assert not set(public_view(state)) & set(private_view(state, s))
        assert v == {**public_view(state), **private_view(state, s)}


def test_g13_a_finished_rounds_cards_are_seen_by_all() -> None:
    hands = {0: "AS 2S 3S 4S", 1: "AH 2H 3H 4H"}
    state, _ = act(begin(2, 0, [stacked(2, 0, hands=hands)]), "1 knock", "0 draw", "0 discard")
    for view in (spectator_view(state), seat_view(state, 0)):
        assert view["rounds"][0]["hands"] == [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]]
        assert view["phase"] == "shuffle" and view["cards"] == [0, 0]


def test_public_view_lists_what_the_record_page_says() -> None:
    state, _ = act(begin(4, 2), "3 draw")
    v = public_view(state)
    assert set(v) == {"phase", "options", "round", "dealer", "turn", "peeks", "stock_left", "discard_top",
                      "discard_size", "holding", "knocker", "final_turns", "cards", "totals", "rounds",
                      "winners", "forfeited"}
    assert v["cards"] == [4, 4, 4, 4] and v["discard_size"] == 1 and v["turn"] == 3
    assert v["holding"] == {"from": "stock"} and v["stock_left"] == 52 - 17 - 1
