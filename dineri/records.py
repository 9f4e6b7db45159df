"""Which pure engine reads a ``dineri-match/1`` document: dispatch on its ``"game"``.

``dineri replay`` and ``dineri verify`` (and anything else that opens a record without a table
service) go through here, so the command line stays light: only the engine of the document's
game is imported. Each engine module listed in :data:`RECORD_ENGINES` exposes
``load_record(doc) -> record`` (raising its ``RecordError``, a ``ValueError``) and
``replay(record) -> Replay`` (with ``.to_json()``: the replay output of its record page).
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

from dineri.engine.errors import RecordError

FORMAT = "dineri-match/1"
# game name -> the pure engine module that reads its records (docs/match-record*.md)
RECORD_ENGINES: dict[str, str] = {
    "chkobba": "dineri.engine",
    "golf4": "dineri.golf4",
    "seven_diamonds": "dineri.seven_diamonds",
}


def parse_document(doc: object) -> dict[str, Any]:
    """``doc`` as a JSON object: parsed from ``str``/``bytes`` (UTF-8) or given as a dict.

    Raises :class:`~dineri.engine.errors.RecordError` (``malformed record: …``) for text that
    is not UTF-8 or not JSON, nesting too deep, or a value that is not an object.
    """
    if isinstance(doc, str | bytes):
        try:
            doc = json.loads(doc)
        except UnicodeDecodeError:
            raise RecordError("malformed record: not UTF-8 text") from None
        except ValueError as e:
            raise RecordError(f"malformed record: not JSON ({str(e)[:120]})") from None
        except RecursionError:
            raise RecordError("malformed record: nesting too deep") from None
    if not isinstance(doc, dict):
        raise RecordError("malformed record: the document must be a JSON object")
    return doc


def engine_for(doc: dict[str, Any]) -> ModuleType:
    """The engine module of the document's ``game`` (see :data:`RECORD_ENGINES`).

    Raises :class:`RecordError` for an unknown ``format`` or ``game``.
    """
    if doc.get("format") != FORMAT:
        raise RecordError(f"malformed record: format must be {FORMAT!r}, got {str(doc.get('format'))[:40]!r}")
    game = doc.get("game")
    name = RECORD_ENGINES.get(game) if isinstance(game, str) else None
    if name is None:
        known = ", ".join(repr(g) for g in sorted(RECORD_ENGINES))
        raise RecordError(f"malformed record: game must be one of {known}, got {str(game)[:40]!r}")
    return importlib.import_module(name)


def load(doc: object) -> tuple[ModuleType, Any]:
    """Parse and validate a record of any game: ``(engine module, record)``.

    Raises a ``ValueError`` (the engine's ``RecordError``) naming the first problem.
    """
    parsed = parse_document(doc)
    engine = engine_for(parsed)
    return engine, engine.load_record(parsed)


def replay_json(doc: object) -> dict[str, Any]:
    """The replay output of a record of any game (its record page's shape).

    Raises a ``ValueError`` (``RecordError``) for a malformed document.
    """
    engine, record = load(doc)
    out: dict[str, Any] = engine.replay(record).to_json()
    return out


def decks_and_fairness(record: Any) -> tuple[list[list[str]], list[dict[str, str]]]:
    """A loaded record's decks (card codes, top first, as its game writes them) and its fairness
    entries (``{"salt", "commitment"}``), read from the record's own JSON form."""
    doc = record.to_json()
    return [list(d) for d in doc.get("decks", [])], list(doc.get("fairness") or [])
