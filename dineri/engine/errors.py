"""Errors of the rules engine.

Every refused action raises :class:`RuleError` carrying one of the stable codes
of the match record (``match-record.md``): ``malformed``, ``wrong_phase``,
``not_your_turn``, ``card_not_in_hand``, ``card_not_on_table``,
``illegal_capture``, ``no_missed_capture``, ``redeal_not_allowed``.
"""

from __future__ import annotations

CODES = frozenset(
    {
        "malformed",
        "wrong_phase",
        "not_your_turn",
        "card_not_in_hand",
        "card_not_on_table",
        "illegal_capture",
        "no_missed_capture",
        "redeal_not_allowed",
    }
)


class RuleError(ValueError):
    """An action refused by the rules (R18): nothing changed.

    ``code`` is one of :data:`CODES`; ``message`` is a human sentence in English.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RecordError(ValueError):
    """A match record document that is malformed (not JSON, wrong format, bad deck …)."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about hostile input."""
    try:
        text = repr(value)
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= limit else text[: limit - 1] + "…"
