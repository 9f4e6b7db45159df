"""R18: malformed actions built in Python (not from JSON) are refused as ``malformed``.

Actions check their own form when built, so a malformed one never reaches
``apply``; ``apply`` itself checks the seat against the table size (R4).
"""

from __future__ import annotations

import pytest

from dineri.engine import AnswerRedeal, Claim, Cut, Forfeit, Keep, Play, RuleError, apply, parse_card, summary
from tests.engine.helpers import SWEEP_PREFIX, position, refuse, run, start


def _malformed(build: object) -> RuleError:
    assert callable(build)
    with pytest.raises(RuleError) as info:
        build()
    assert info.value.code == "malformed"
    return info.value


def test_r18_capture_naming_a_card_twice_is_malformed() -> None:
    # 6H "capturing" 3H twice would put 3H into the pile twice (41 cards).
    err = _malformed(lambda: Play(1, parse_card("6H"), (parse_card("3H"), parse_card("3H"))))
    assert "twice" in err.message


def test_r20_claim_naming_a_card_twice_is_malformed() -> None:
    err = _malformed(lambda: Claim(0, parse_card("6S"), (parse_card("3C"), parse_card("3C"))))
    assert "twice" in err.message


def test_r20_claim_naming_no_card_is_malformed() -> None:
    _malformed(lambda: Claim(0, parse_card("6S"), ()))


def test_r18_form_is_checked_before_phase_and_seat() -> None:
    # A cut at 99 cannot even be built, in any phase and for any seat.
    _malformed(lambda: Cut(1, 99))
    _malformed(lambda: Cut(0, -1))
    _malformed(lambda: Cut(0, True))  # type: ignore[arg-type]


@pytest.mark.parametrize("card", [40, 45, -1, "7D", None, 1.0])
def test_r18_card_out_of_range_is_malformed(card: object) -> None:
    _malformed(lambda: Play(1, card))  # type: ignore[arg-type]


def test_r18_other_fields_are_checked() -> None:
    _malformed(lambda: Play(1, 5, [3]))  # type: ignore[arg-type]
    _malformed(lambda: Play(True, 5))
    _malformed(lambda: Play(-1, 5))
    _malformed(lambda: Keep(0, auto=1))  # type: ignore[arg-type]
    _malformed(lambda: AnswerRedeal(1, 1))  # type: ignore[arg-type]
    _malformed(lambda: Forfeit("0"))  # type: ignore[arg-type]


def test_r4_seat_beyond_the_table_is_malformed_and_changes_nothing() -> None:
    state = position("3C 6H 4S KD", "3H 2C QS", "7D 5C AD")
    assert refuse(state, Forfeit(2)).code == "malformed"
    assert refuse(state, Play(3, parse_card("3H"))).code == "malformed"


def test_r33_forfeit_in_cut_phase_keeps_deck_left() -> None:
    # match-record.md: "After a forfeit the state stays as it was when the forfeit came, with turn null."
    state = start([SWEEP_PREFIX])
    assert summary(state)["deck_left"] == 40
    over, _ = run(state, "0 forfeit")
    out = summary(over)
    assert out["deck_left"] == 40
    assert out["phase"] == "over" and out["turn"] is None and out["winner"] == 1


def test_r18_well_formed_actions_still_apply() -> None:
    state = position("3C 6H 4S KD", "3H 2C QS", "7D 5C AD")
    new, events = apply(state, Play(1, parse_card("3H"), (parse_card("3C"),)))
    assert events[0]["capture"] == ["3C"]
    assert summary(new)["captured"][1] == 2
