"""S1: the 32 cards and their codes; S14's card values."""

from __future__ import annotations

import pytest

from dineri.seven_diamonds import CODE, FULL_DECK, POINTS, RANK, SUIT, RuleError, card_codes, parse_card


def test_s1_thirty_two_cards_seven_to_ace_in_four_suits() -> None:
    assert len(FULL_DECK) == 32 == len(set(CODE))
    assert {c[0] for c in CODE} == set("789TJQKA")
    assert {c[1] for c in CODE} == set("DHSC")
    assert all(CODE.count(r + s) == 1 for r in "789TJQKA" for s in "DHSC")
    assert CODE[0] == "7D" and CODE[7] == "AD" and CODE[31] == "AC"
    assert [RANK[parse_card(r + "S")] for r in "789TJQKA"] == list(range(8))  # S9's order
    assert SUIT[parse_card("9H")] == 1


def test_s1_codes_parse_in_either_case_and_print_upper_case() -> None:
    for card in FULL_DECK:
        assert parse_card(CODE[card]) == card
        assert parse_card(CODE[card].lower()) == card
    assert card_codes([parse_card("tc"), parse_card("Qh")]) == ["TC", "QH"]


BAD = ["6H", "2D", "10D", "1H", "7X", "7", "", " 7D", "7D ", "AD!", 7, None, True, ["7D"]]


@pytest.mark.parametrize("bad", BAD)
def test_s1_anything_else_is_malformed(bad: object) -> None:
    with pytest.raises(RuleError) as e:
        parse_card(bad)
    assert e.value.code == "malformed"


def test_s14_card_values() -> None:
    values = {CODE[c]: POINTS[c] for c in FULL_DECK}
    for s in "DHSC":
        assert values["A" + s] == 20
        assert values["K" + s] == values["Q" + s] == values["J" + s] == 10
        assert values["T" + s] == values["9" + s] == values["8" + s] == values["7" + s] == 0
    assert sum(POINTS) == 4 * 50
