"""The optional compiled playouts (``scripts/build_fast.py``), adopted only when current.

:func:`compiled_playout` returns the mypyc-compiled twin of :mod:`dineri.players.chkobba.playout`
when it is built *from the current source* (its SHA-256 stamp must match ``playout.py``: reading
that file is the one I/O here, done once), else ``None``. :func:`use_compiled` makes the search's
worlds use it. Without a build everything runs on the pure Python module, unchanged.
"""

from __future__ import annotations

import hashlib
import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

from dineri.players.chkobba import playout, world


@cache
def compiled_playout() -> ModuleType | None:
    """The compiled playouts built from the current ``playout.py``, or ``None``."""
    try:
        mod = importlib.import_module("dineri.players.chkobba._fast_playout")
    except ImportError:
        return None
    source = Path(playout.__file__).read_bytes()
    if getattr(mod, "SOURCE_SHA256", None) != hashlib.sha256(source).hexdigest():
        return None  # built from another version of playout.py: not used
    return mod


def use_compiled() -> bool:
    """Make the search's rollouts and opponent model use the compiled playouts, if current;
    return whether they do."""
    mod = compiled_playout()
    if mod is None:
        return False
    world.random_round_plays = mod.random_round_plays
    world.greedy_round_plays = mod.greedy_round_plays
    world.greedy_action = mod.greedy_action
    return True
