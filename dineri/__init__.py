"""Dineri: a real-time multiplayer card-table server for Chkobba.

The rules engine lives in :mod:`dineri.engine` (pure, standard library only);
everything else (server, storage, fan-out, CLI) imports it, never the reverse.
"""

__version__ = "0.1.0"
