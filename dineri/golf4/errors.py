"""Errors of the golf4 engine (``match-record-golf4.md``, Check order and error codes).

Every refused action raises :class:`RuleError` carrying one of :data:`CODES`;
nothing changes (G12). A bad record document raises :class:`RecordError`.
"""

from __future__ import annotations

CODES = frozenset({
    "malformed",
    "wrong_phase",
    "not_your_turn",
    "already_peeked",
    "already_holding",
    "already_knocked",
    "nothing_held",
    "cannot_discard_taken",
    "stock_empty",
    "already_forfeited",
})


class RuleError(ValueError):
    """An action refused by the rules (G12): nothing changed.

    ``code`` is one of :data:`CODES`; ``message`` is an English sentence.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RecordError(ValueError):
    """A golf4 record document that is malformed (not JSON, wrong format or game, bad options,
    first dealer or deck)."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about hostile input."""
    try:
        text = repr(value)
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= limit else text[: limit - 1] + "…"
