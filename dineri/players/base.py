"""The interface of a computer player (issue 12), for every game.

A player decides from what its seat may know and nothing else: the seat's view (the JSON
``seat_view`` the server sends that seat), the public events it has seen (JSON, oldest
first), and the action objects that seat may send now (JSON, as ``GameMatch.legal_actions``
lists them, or as the game's player module computes them from the view and events). It returns
one of those action objects. Nothing else crosses the interface: :func:`check_json` refuses any
value that is not plain JSON, so an engine state cannot be handed to a player by mistake, and
each game's determinizer builds its hidden worlds from this JSON alone.

Players are pure: no I/O, no clock unless a time budget is asked for, no global random
generator (each takes a seed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

Json = dict[str, Any]


class PlayerError(ValueError):
    """Input a player cannot decide from (not JSON, not a seat view, no legal action)."""


def check_json(value: object, where: str = "input", depth: int = 0) -> None:
    """Raise :class:`PlayerError` unless ``value`` is plain JSON (dict with str keys, list,
    str, int, float, bool, None), at most 32 levels deep."""
    if depth > 32:
        raise PlayerError(f"{where}: nested too deeply")
    if value is None or type(value) in (str, int, float, bool):
        return
    if type(value) is dict:
        for k, v in value.items():
            if type(k) is not str:
                raise PlayerError(f"{where}: a key is not a string")
            check_json(v, where, depth + 1)
        return
    if type(value) is list:
        for v in value:
            check_json(v, where, depth + 1)
        return
    raise PlayerError(f"{where}: {type(value).__name__} is not JSON (a player sees only its seat's JSON)")


class Player(Protocol):
    """A computer player of one game."""

    #: the level or strategy name (``random``, ``greedy``, ``easy``, ``medium``, ``hard``).
    name: str

    def choose(self, view: Json, events: Sequence[Json], legal: Sequence[Json]) -> Json:
        """One of ``legal`` (a copy), decided from ``view`` (the seat's own view), ``events`` (the
        public events the seat saw, oldest first) and ``legal`` alone. Raises :class:`PlayerError`
        for input that is not the JSON of a seat, or an empty ``legal``."""
        ...
