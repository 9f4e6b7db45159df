"""Rating modes (issue 14, item 3): one rating per game and mode.

``chkobba-1v1`` (2 seats), ``chkobba-2v2`` (4 seats: partners rated by their side's mean),
``golf4`` (everyone alone), ``seven_diamonds`` (partners, by their side's mean).
"""

from __future__ import annotations

from typing import Any

from dineri.games import get_game

MODES = ("chkobba-1v1", "chkobba-2v2", "golf4", "seven_diamonds")


def mode_of(game: str, options: dict[str, Any]) -> str | None:
    """The rating mode of a table's ``game`` and ``options``, or ``None`` (not a rated game)."""
    if game == "chkobba":
        return {2: "chkobba-1v1", 4: "chkobba-2v2"}.get(options.get("seats", 0))
    return game if game in MODES else None


def sides_of(game: str, options: dict[str, Any], seats: int) -> list[int]:
    """The side of every seat: the game's ``side_of`` (games v2), else ``seat % 2`` (Chkobba R4)."""
    try:
        g: Any = get_game(game)
    except (KeyError, ValueError):
        g = None
    side_of = getattr(g, "side_of", None)
    if side_of is None:
        return [seat % 2 for seat in range(seats)]
    return [int(side_of(options, seat)) for seat in range(seats)]


def ranks_of(result: dict[str, Any], sides: list[int]) -> list[int] | None:
    """Each seat's rank (1 best) from a match result: its ``ranks`` (games v2), else from its
    ``winner`` side (v1: the winner's seats rank 1, the others 2). ``None`` when neither tells."""
    ranks = result.get("ranks")
    if isinstance(ranks, list) and len(ranks) == len(sides) and all(isinstance(r, int) for r in ranks):
        return list(ranks)
    winner = result.get("winner")
    if isinstance(winner, int) and not isinstance(winner, bool):
        return [1 if side == winner else 2 for side in sides]
    return None
