"""Result hooks: code that must run in the transaction that stores a match's final result.

The writer calls :func:`result_stored` with its open session right after storing the result
(``repo.finish_match``); registered hooks (the ratings, issue 14) write in that same
transaction, so the result and what follows from it commit together or not at all. A hook that
raises makes the whole write fail (nothing is stored).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

#: ``hook(session, table_id, match_id, result)``.
ResultHook = Callable[[Session, str, int, dict[str, Any]], object]

_HOOKS: list[ResultHook] = []


def on_result(hook: ResultHook) -> None:
    """Register ``hook`` (once; registering it again changes nothing)."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)


def result_stored(s: Session, table_id: str, match_id: int, result: dict[str, Any]) -> None:
    """Run every registered hook in the caller's transaction, in registration order."""
    for hook in list(_HOOKS):
        hook(s, table_id, match_id, result)
