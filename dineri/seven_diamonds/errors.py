"""Errors of the Seven Diamonds engine.

Every refused action raises :class:`RuleError` with one of the stable codes of the
record page (``match-record-seven-diamonds.md``, Check order and error codes):
``malformed``, ``wrong_phase``, ``not_your_turn``, ``illegal_call``,
``card_not_in_hand``, ``illegal_card``, ``must_play``.
"""

from __future__ import annotations

CODES = frozenset(
    {
        "malformed",
        "wrong_phase",
        "not_your_turn",
        "illegal_call",
        "card_not_in_hand",
        "illegal_card",
        "must_play",
    }
)


class RuleError(ValueError):
    """An action refused by the rules (S12): nothing changed.

    ``code`` is one of :data:`CODES`; ``message`` is a human sentence in English.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RecordError(ValueError):
    """A record document that is malformed (not JSON, wrong format or game, bad options or deck)."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about hostile input."""
    try:
        text = repr(value)
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= limit else text[: limit - 1] + "…"
