"""Cards and card codes (R1–R3)."""

from __future__ import annotations

import pytest

from dineri.engine import CODE, FULL_DECK, VALUE, RuleError, card_code, card_codes, parse_card, parse_cards
from dineri.engine.cards import SUIT
from tests.engine.helpers import cards, deck

RANKS = "A234567QJK"
SUITS = "DHSC"


def test_r1_forty_cards_ten_per_suit() -> None:
    assert len(FULL_DECK) == 40
    assert len(set(FULL_DECK)) == 40
    codes = {CODE[c] for c in FULL_DECK}
    assert codes == {r + s for r in RANKS for s in SUITS}
    for suit in range(4):
        assert sum(1 for c in FULL_DECK if SUIT[c] == suit) == 10


def test_r1_diamond_suit_is_dinari() -> None:
    diamonds = [c for c in FULL_DECK if SUIT[c] == SUIT[parse_card("7D")]]
    assert sorted(CODE[c] for c in diamonds) == sorted(r + "D" for r in RANKS)


@pytest.mark.parametrize(("rank", "value"), list(zip(RANKS, range(1, 11), strict=True)))
def test_r2_values_ace_1_to_king_10(rank: str, value: int) -> None:
    for suit in SUITS:
        assert VALUE[parse_card(rank + suit)] == value


def test_r2_face_cards_queen_8_jack_9_king_10() -> None:
    assert [VALUE[c] for c in cards("QH JS KC AD 7D")] == [8, 9, 10, 1, 7]


def test_r3_every_code_round_trips() -> None:
    for c in FULL_DECK:
        assert parse_card(CODE[c]) == c
        assert card_code(c) == CODE[c]


@pytest.mark.parametrize("code", ["7d", "qh", "As", "kC", "jD"])
def test_r3_parse_is_case_insensitive_output_upper(code: str) -> None:
    card = parse_card(code)
    assert card == parse_card(code.upper())
    assert card_code(card) == code.upper()


def test_r3_named_cards() -> None:
    assert VALUE[parse_card("7D")] == 7 and SUIT[parse_card("7D")] == 0  # sab'a l-hayya
    assert VALUE[parse_card("QH")] == 8
    assert VALUE[parse_card("AS")] == 1


@pytest.mark.parametrize("bad", ["1H", "10D", "8S", "9C", "7X", "D7", "7", "", " 7D", "7D ", "7DD",
                                 7, None, 6.0, ["7D"], b"7D"])
def test_r3_bad_code_is_malformed(bad: object) -> None:
    with pytest.raises(RuleError) as info:
        parse_card(bad)
    assert info.value.code == "malformed"
    assert repr(bad) in info.value.message


def test_r3_parse_cards_list_and_errors() -> None:
    assert card_codes(parse_cards(["7d", "QH"])) == ["7D", "QH"]
    for bad in ("7D QH", None, ["7D", "ZZ"]):
        with pytest.raises(RuleError) as info:
            parse_cards(bad)
        assert info.value.code == "malformed"


def test_stacked_deck_helper_keeps_prefix_and_all_cards() -> None:
    d = deck("7D qh", "AS")
    assert [CODE[c] for c in d[:3]] == ["7D", "QH", "AS"]
    assert sorted(d) == list(FULL_DECK)
    assert list(d[3:]) == sorted(d[3:])
