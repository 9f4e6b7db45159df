"""Every action a seat may take now (G6, G8–G10): for computer players and tests."""

from __future__ import annotations

from dineri.golf4.actions import Action, Discard, Draw, Forfeit, Knock, Peek, SkipPeek, Swap, Take
from dineri.golf4.state import STOCK, MatchState


def legal_actions(state: MatchState, seat: int, *, forfeit: bool = True) -> list[Action]:
    """The actions :func:`dineri.golf4.rules.apply` accepts from ``seat`` now, in a fixed order.

    In ``peek``: ``Peek``, ``SkipPeek`` for a seat that has not answered (G6). In ``play``, for the
    seat to play holding nothing: ``Draw`` (stock not empty), ``Take``, ``Knock`` (nobody knocked,
    G10); holding a card: ``Swap`` into slots 0–3, and ``Discard`` for a card drawn from the stock
    (G8, G9). Last, ``Forfeit`` for a seat still in (unless ``forfeit`` is False). ``[]`` once over
    or for a seat not at the table.
    """
    if state.phase == "over" or not 0 <= seat < state.seats:
        return []
    out: list[Action] = []
    deal = state.deal
    if state.phase == "peek" and deal is not None and deal.peeks[seat] is None:
        out += [Peek(seat), SkipPeek(seat)]
    elif state.phase == "play" and seat == state.turn and deal is not None:
        if deal.held is None:
            if deal.stock:
                out.append(Draw(seat))
            if deal.discard:
                out.append(Take(seat))
            if deal.knocker is None:
                out.append(Knock(seat))
        else:
            out += [Swap(seat, slot) for slot in range(4)]
            if deal.held.source == STOCK:
                out.append(Discard(seat))
    if forfeit and seat not in state.forfeited:
        out.append(Forfeit(seat))
    return out
