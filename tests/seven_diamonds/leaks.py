"""Checks that a view or an event shows no hidden card (record page, Views).

A receiver may see: its own hand, the cards on the table, and in a finished round's ``left`` the
two losers' cards (``[]`` for the seat that went out, ``null`` for its partner: S14). Every card
code anywhere else in what it receives must be one of those.
"""

from __future__ import annotations

from typing import Any

from tests.cardscan import card_strings as _card_strings

CODES = frozenset(r + s for r in "789TJQKA" for s in "DHSC")


def card_strings(obj: Any) -> set[str]:
    """Every Seven Diamonds card code in a JSON value (keys included, either case), upper case."""
    return _card_strings(obj, CODES)


def check_round(result: dict[str, Any]) -> None:
    """A finished round shows nothing of the winner's side: ``[]`` for out, ``null`` for its partner."""
    out = result["out"]
    left = result["left"]
    assert left[out] == [], result
    assert left[(out + 2) % 4] is None, result
    assert all(isinstance(left[s], list) for s in ((out + 1) % 4, (out + 3) % 4)), result


def table_cards(view_table: dict[str, list[str]]) -> set[str]:
    """The cards on a view's table."""
    return {c for pile in view_table.values() for c in pile}


def check_view(view: dict[str, Any], own_hand: list[str] | None) -> None:
    """``view`` (a seat's with ``own_hand``, or a spectator's with ``None``) shows only visible cards."""
    assert "hands" not in view and "decks" not in view
    for r in view.get("rounds", []):
        check_round(r)
    rest = {k: v for k, v in view.items() if k != "rounds"}
    allowed = table_cards(view["table"]) | set(own_hand or [])
    leaked = card_strings(rest) - allowed
    assert not leaked, f"hidden cards in a view: {sorted(leaked)}"
    if own_hand is None:
        assert "hand" not in view
    else:
        assert view["hand"] == own_hand


def check_event(event: dict[str, Any], table_after: set[str], last_cards: set[str]) -> None:
    """An event shows only played cards (now on the table, or a round's last card) and, in a
    ``round_over`` result, the losers' cards."""
    if event.get("type") == "round_over":
        check_round(event["result"])
        rest = {k: v for k, v in event.items() if k != "result"}
        assert not card_strings(rest)
        return
    leaked = card_strings(event) - table_after - last_cards
    assert not leaked, f"hidden cards in an event: {sorted(leaked)} in {event}"
