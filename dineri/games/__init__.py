"""Games behind one interface, so the table service never looks inside a game.

The service, the storage and the protocol envelope handle a game's state, actions,
events, views and records only as opaque values and JSON documents. A game
registers under its name (``"chkobba"``); :func:`get_game` finds it.
"""

from __future__ import annotations

from dineri.games.base import Game, GameError, GameMatch

_REGISTRY: dict[str, Game] = {}
#: The built-in games: name -> (module, class), each imported when first asked for, so a
#: restarted server that serves a Chkobba table first loads no other game (issue 8 item 6).
_BUILTIN = {"chkobba": ("dineri.games.chkobba", "ChkobbaGame"),
            "golf4": ("dineri.games.golf4", "Golf4Game"),
            "seven_diamonds": ("dineri.games.seven_diamonds", "SevenDiamondsGame")}


def register(game: Game) -> None:
    """Register ``game`` under ``game.name`` (replacing any previous one)."""
    _REGISTRY[game.name] = game


def get_game(name: str) -> Game:
    """The registered game called ``name``; raises ``KeyError`` if there is none."""
    game = _REGISTRY.get(name)
    if game is None:
        _register_builtin(name)
        game = _REGISTRY[name]
    return game


def game_names() -> list[str]:
    """Names of the registered games, sorted."""
    for name in _BUILTIN:
        if name not in _REGISTRY:
            _register_builtin(name)
    return sorted(_REGISTRY)


def _register_builtin(name: str) -> None:
    """Import and register the built-in game ``name`` (nothing for another name)."""
    where = _BUILTIN.get(name)
    if where is not None:
        import importlib

        register(getattr(importlib.import_module(where[0]), where[1])())


__all__ = ["Game", "GameError", "GameMatch", "game_names", "get_game", "register"]
