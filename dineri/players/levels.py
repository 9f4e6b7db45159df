"""The levels a host picks for a computer player (issue 12), and how to make one.

- ``easy``: greedy with mistakes (a random play one time in four, half the missed captures
  overlooked);
- ``medium``: ISMCTS with a small iteration budget;
- ``hard``: ISMCTS with a larger budget, capped by a time budget per move (the issue's limit:
  at most 1 s a move, median under 0.3 s, on one core).

``random`` and ``greedy`` (the first bots) remain strategies too. The display names and
descriptions of the levels, in every language, are the web layer's (``dineri/web/levels.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LEVELS = ("easy", "medium", "hard")
STRATEGY_NAMES = ("random", "greedy", *LEVELS)


@dataclass(frozen=True)
class SearchBudget:
    """A search level's budget: ``iterations`` per move, and ``seconds`` (``None``: none) as a
    cap; ``eps``: its rollouts' share of random moves; ``infer``: draws tried for other hands that
    agree with their play (``dineri.players.chkobba.determinize``)."""

    iterations: int
    seconds: float | None
    eps: float = 0.0
    infer: int = 0


BUDGETS = {
    "medium": SearchBudget(iterations=250, seconds=0.15),
    # The cap keeps the slowest move (a deal's first, 8 cards to search) far under 1 s on a busy
    # core; on an idle one the iterations run out first (about 0.1 s a move).
    "hard": SearchBudget(iterations=1500, seconds=0.25),
}

#: The search levels of golf4 and Seven Diamonds (``players/golf4_search.py``,
#: ``players/seven_diamonds_search.py``); their other names are the basic players'.
GAME_BUDGETS = {
    "golf4": {
        "medium": SearchBudget(iterations=200, seconds=0.15),
        "hard": SearchBudget(iterations=800, seconds=0.25),
    },
    "seven_diamonds": {
        "medium": SearchBudget(iterations=200, seconds=0.15),
        "hard": SearchBudget(iterations=800, seconds=0.25),
    },
}


def make_player(name: str, seed: int | None = None, *, timed: bool = True, game: str = "chkobba") -> Any:
    """A player of ``game`` for a strategy or level name, seeded. ``timed=False`` drops the time
    caps (decisions then depend only on the seed and the input: tests).

    Raises ``ValueError`` for an unknown name or game.
    """
    if game == "golf4":
        if name in GAME_BUDGETS["golf4"]:
            from dineri.players.golf4_search import Golf4SearchPlayer

            b = GAME_BUDGETS["golf4"][name]
            return Golf4SearchPlayer(name, iterations=b.iterations, seconds=b.seconds if timed else None,
                                     seed=seed)
        from dineri.players.golf4_basic import make_player as golf4_player

        return golf4_player(name, seed)
    if game == "seven_diamonds":
        if name in GAME_BUDGETS["seven_diamonds"]:
            from dineri.players.seven_diamonds_search import SevenDiamondsSearchPlayer

            b = GAME_BUDGETS["seven_diamonds"][name]
            return SevenDiamondsSearchPlayer(name, iterations=b.iterations,
                                             seconds=b.seconds if timed else None, seed=seed)
        from dineri.players.seven_diamonds_basic import make_player as seven_diamonds_player

        return seven_diamonds_player(name, seed)
    if game != "chkobba":
        raise ValueError(f"no computer players for {game!r} yet")
    from dineri.players.chkobba import players as p

    if name == "random":
        return p.RandomPlayer(seed)
    if name == "greedy":
        return p.GreedyPlayer(seed)
    if name == "easy":
        return p.EasyPlayer(seed)
    if name in BUDGETS:
        b = BUDGETS[name]
        return p.SearchPlayer(name, iterations=b.iterations, seconds=b.seconds if timed else None, seed=seed,
                              eps=b.eps, infer=b.infer)
    raise ValueError(f"unknown player {name!r} (one of {', '.join(STRATEGY_NAMES)})")
