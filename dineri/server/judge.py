"""Judging a change through the games interface v2 (``docs/games.md``; issue 10 item 2).

The table service never looks inside a game: :func:`judge` applies one action (a client's, the
clock's or the grace period's) to a :class:`dineri.games.GameMatch`, then settles the match the
way v2 asks: it supplies every deck the game needs and makes every immediate action (a forfeited
golf4 seat's turn, the discard after a timed-out draw, Seven Diamonds' forced pass), each with
``auto``, until the game waits on players again (or is over). :func:`settle` does the second
half alone (a match that has just started). Nothing here stores or sends anything: the session
stores the :class:`Judgement` in one transaction, then broadcasts it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from dineri.games import GameMatch

Json = dict[str, Any]
#: Immediate actions one judgement may make: a game that keeps asking is a bug, not a loop.
MAX_IMMEDIATE = 10_000


@dataclass(frozen=True)
class Step:
    """One accepted action: ``idx`` (its index in the record's actions), ``seat``, ``action`` (as
    the record stores it, :meth:`GameMatch.last_action`), ``auto``, ``client_id`` (the sender's
    action id; ``None`` for the server's actions) and ``events_end`` (how many of the judgement's
    public events had been made once this action and the decks it needed were in; for the
    last action of a match, the ``reveal`` too, so that its stored ack is its live one)."""

    idx: int
    seat: int
    action: Json
    auto: bool
    client_id: str | None
    events_end: int


@dataclass(frozen=True)
class Judgement:
    """The outcome of one change, in order.

    - ``match``: the new match (adopt it only once everything below is stored);
    - ``events``: the public events, in order (to store and send to everybody); the ``reveal``
      last when the match ended;
    - ``steps``: the accepted actions (the first is the judged one, then the immediate ones);
    - ``private``: seat -> the one-time secrets shown to that seat alone
      (:meth:`GameMatch.private_events` of every step; golf4's ``peek_cards``): never stored,
      sent live to that seat's sockets only;
    - ``waiting``: the seats the game now waits on (:meth:`GameMatch.waiting_for`; one turn clock
      each), ``()`` when over;
    - ``decks_added``: how many decks were supplied (the record's header changed: issue 8 item 1).
    """

    match: GameMatch
    events: list[Json]
    steps: list[Step] = field(default_factory=list)
    private: dict[int, list[Json]] = field(default_factory=dict)
    waiting: tuple[int, ...] = ()
    decks_added: int = 0


def judge(match: GameMatch, seat: int, action: Json, *, auto: bool = False,
          client_id: str | None = None) -> Judgement:
    """Apply ``action`` (a client action object) for ``seat``, then :func:`settle`.

    Raises :class:`dineri.games.GameError` when the game refuses the action (nothing changed:
    ``match`` is immutable). An immediate action the game then refuses is a game bug and raises
    the same way (the whole judgement is void).
    """
    new, events = match.apply(seat, action, auto=auto)
    private = _merge({}, new.private_events())
    new, events, decks = _decks(new, list(events))
    steps = [Step(new.actions_count() - 1, seat, new.last_action(), auto, client_id, len(events))]
    return _settle(new, events, steps, private, decks)


def settle(match: GameMatch, events: list[Json] | None = None) -> Judgement:
    """Supply the decks and make the immediate actions of a match that did not just apply an
    action (a new match: ``events`` are its first public events). Raises
    :class:`dineri.games.GameError` when the game refuses its own immediate action (a bug)."""
    new, evs, decks = _decks(match, list(events or []))
    return _settle(new, evs, [], {}, decks)


def _decks(match: GameMatch, events: list[Json]) -> tuple[GameMatch, list[Json], int]:
    """Supply secure shuffles while the game needs a deck (a round's deal, golf4's reshuffle);
    also returns how many were supplied."""
    added = 0
    while match.needs_deck() and not match.over:
        match, more = match.add_deck()
        events.extend(more)
        added += 1
    return match, events, added


def _settle(match: GameMatch, events: list[Json], steps: list[Step],
            private: dict[int, list[Json]], decks: int) -> Judgement:
    for _ in range(MAX_IMMEDIATE):
        if match.over:
            break
        immediate = match.immediate_action()
        if immediate is None:
            break
        seat, action = immediate
        match, more = match.apply(seat, action, auto=True)
        _merge(private, match.private_events())
        events.extend(more)
        match, events, more_decks = _decks(match, events)
        decks += more_decks
        steps.append(Step(match.actions_count() - 1, seat, match.last_action(), True, None, len(events)))
    else:
        raise RuntimeError("the game kept asking for immediate actions")
    if match.over:
        events.append(match.reveal())
        if steps:  # a resend after a restart is answered from the stored ack (docs/protocol.md)
            steps[-1] = replace(steps[-1], events_end=len(events))
    return Judgement(match, events, steps, private, () if match.over else tuple(match.waiting_for()),
                     decks)


def _merge(into: dict[int, list[Json]], more: dict[int, list[Json]]) -> dict[int, list[Json]]:
    for seat, evs in more.items():
        into.setdefault(int(seat), []).extend(dict(e) for e in evs)
    return into
