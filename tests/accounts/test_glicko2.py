"""Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import pytest

from dineri.ratings.glicko2 import Glicko, update


def test_glickman_worked_example() -> None:
    """Rating 1500, RD 200, volatility 0.06 beats 1400/30, loses to 1550/100 and 1700/300:
    the paper gives 1464.06, RD 151.52 and, for step 5, A = -5.62697, so volatility
    exp(A / 2) = 0.059996 (printed truncated as 0.05999)."""
    player = Glicko(1500, 200, 0.06)
    new = update(player, [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)])
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.059996, abs=0.0000005)


def test_volatility_uses_the_rd_not_the_rating() -> None:
    """The same example moved 300 points up (player and opponents alike) changes nothing but
    the ratings' offset: f(x) depends on phi, not on mu (the slip of the PyPI package)."""
    base = update(Glicko(1500, 200), [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0)])
    moved = update(Glicko(1800, 200), [(Glicko(1700, 30), 1.0), (Glicko(1850, 100), 0.0)])
    assert moved.rating - 300 == pytest.approx(base.rating, abs=1e-9)
    assert moved.rd == pytest.approx(base.rd, abs=1e-9)
    assert moved.vol == pytest.approx(base.vol, abs=1e-12)


def test_winner_rises_loser_falls_and_rd_shrinks() -> None:
    a, b = Glicko(), Glicko()
    a2, b2 = update(a, [(b, 1.0)]), update(b, [(a, 0.0)])
    assert a2.rating > 1500 > b2.rating
    assert a2.rating - 1500 == pytest.approx(1500 - b2.rating)
    assert a2.rd < 350 and b2.rd < 350 and a2.provisional


def test_no_match_only_widens_the_rd() -> None:
    new = update(Glicko(1600, 100, 0.06), [])
    assert new.rating == 1600 and new.rd > 100


def test_bad_score_is_refused() -> None:
    with pytest.raises(ValueError):
        update(Glicko(), [(Glicko(), 2.0)])
