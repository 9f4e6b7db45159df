"""Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013 revision): a short
implementation, pure and deterministic.

Why not the ``glicko2`` package on PyPI (2.1.0): its volatility step's ``f(x)`` uses the
player's rating where the paper has ``phi**2`` (the RD), so volatilities come out wrong for any
player not rated exactly 1500; its own test uses a 1500 player, where the slip is invisible.

Ratings are on the Glicko scale (1500, RD 350, volatility 0.06 for a new player); each rated
match is one rating period. ``tau`` = 0.5 and the convergence tolerance 0.000001 are the paper's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5
EPSILON = 0.000001
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOL = 0.06
#: An RD above this is shown as provisional ("1500?"): the rating is still a guess.
PROVISIONAL_RD = 110.0


@dataclass(frozen=True)
class Glicko:
    """A rating ``r``, its deviation ``rd`` (Glicko scale) and volatility ``vol``."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    vol: float = DEFAULT_VOL

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain (RD above :data:`PROVISIONAL_RD`)."""
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """The player's rating after one rating period against ``results``: ``(opponent, score)``
    pairs, score 1 for a win, 0.5 a draw, 0 a loss (steps 1–8 of the paper). With no results
    only the RD grows (step 6). Raises ``ValueError`` for a score outside [0, 1]."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    if not results:
        return Glicko(player.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, DEFAULT_RD), sigma)
    if any(not 0.0 <= s <= 1.0 for _, s in results):
        raise ValueError("scores are between 0 and 1")
    opp = [((o.rating - DEFAULT_RATING) / SCALE, o.rd / SCALE, s) for o, s in results]
    # Step 3: the estimated variance v; step 4: the estimated improvement delta.
    v = 1.0 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj)) for mj, pj, _ in opp)
    delta = v * sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opp)
    # Step 5: the new volatility by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    # Steps 6–8: the pre-period RD, the new RD and rating, back to the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opp)
    return Glicko(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, new_sigma)
