"""Finding card codes anywhere in what a receiver got (the leak checks of every game's tests)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def card_strings(obj: Any, codes: Collection[str]) -> set[str]:
    """Every string of a JSON value (keys included) that is one of ``codes`` in either case
    (R3: records and the command line take either case), as upper case. ``codes``: upper-case
    card codes of one game."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if x.upper() in codes:
                out.add(x.upper())
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list | tuple):
            stack.extend(x)
    return out
