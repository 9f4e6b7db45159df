"""Games behind one interface, so the table service never looks inside a game.

The service, the storage and the protocol envelope handle a game's state, actions,
events, views and records only as opaque values and JSON documents. A game
registers under its name (``"chkobba"``); :func:`get_game` finds it.
"""

from __future__ import annotations

from dineri.games.base import Game, GameError, GameMatch

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> None:
    """Register ``game`` under ``game.name`` (replacing any previous one)."""
    _REGISTRY[game.name] = game


def get_game(name: str) -> Game:
    """The registered game called ``name``; raises ``KeyError`` if there is none."""
    if not _REGISTRY:
        _register_builtin()
    return _REGISTRY[name]


def game_names() -> list[str]:
    """Names of the registered games, sorted."""
    if not _REGISTRY:
        _register_builtin()
    return sorted(_REGISTRY)


def _register_builtin() -> None:
    from dineri.games.chkobba import ChkobbaGame
    from dineri.games.golf4 import Golf4Game
    from dineri.games.seven_diamonds import SevenDiamondsGame

    register(ChkobbaGame())
    register(Golf4Game())
    register(SevenDiamondsGame())


__all__ = ["Game", "GameError", "GameMatch", "game_names", "get_game", "register"]
