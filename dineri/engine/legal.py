"""Legal-action enumeration: every action a seat may take now (R8–R22, R33).

For bots and tests only: the product never shows it to players (R21: nobody is
told that a missed-capture window is open).

Speed (``benchmarks/engine.py``): the enumeration runs before every random move,
so it reuses the shared action instances of :mod:`dineri.engine.actions` and the
memoized sum search of :mod:`dineri.engine.captures`; the table is turned into
bytes once per call, and each hand card then costs a few C-level bytes
operations.
"""

from __future__ import annotations

from dineri.engine.actions import (
    CAPTURE_PLAYS,
    CUTS,
    FORFEITS,
    KEEPS,
    LAYS,
    TABLE_DRAWNS,
    Action,
    AnswerRedeal,
    Claim,
    Cut,
    Forfeit,
    Keep,
    Play,
    ProposeRedeal,
    TableDrawn,
    capture_play,
)
from dineri.engine.captures import CARDS_FROM, SUM_GETTERS, VALUES, VALUES_FROM, legal_captures, sum_getters
from dineri.engine.cards import VALUE, Card
from dineri.engine.state import Deal, MatchState


def redeal_possible(deal: Deal) -> bool:
    """R10: the first deal, no card played yet, and 3+ of the 4 table cards share one value."""
    if not deal.first_deal or deal.started:
        return False
    counts: dict[int, int] = {}
    for c in deal.table:
        counts[VALUE[c]] = counts.get(VALUE[c], 0) + 1
    return max(counts.values(), default=0) >= 3


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; :func:`dineri.engine.rules.apply` accepts exactly these.

    Order: claims (R20), then for each hand card in hand order its lay (R17)
    followed by its captures in table order (R14–R16); a redeal proposal (R10);
    ``Forfeit`` (R33, always allowed before the end) as the last item. In the cut
    phase, every cut position 0–39 (R8); then keep and table (R9); in a redeal
    vote, accept and refuse for an opponent of the proposer (R10). ``[]`` once over.
    """
    phase = state.phase
    if phase == "play" and seat == state.turn:  # the common case: a seat's own turn
        deal = state.deal
        assert deal is not None
        out = _turn_actions(deal, seat)
        if not deal.started and redeal_possible(deal) and not deal.refused[seat % 2]:
            out.append(ProposeRedeal(seat))
        out.append(FORFEITS[seat])  # ``seat == turn``: a seat 0-3
        return out
    if phase == "over":
        return []
    # The shared instances cover seats 0-3; any other value gets fresh actions.
    known = type(seat) is int and 0 <= seat < 4
    out = []
    if phase == "play":
        deal = state.deal
        assert deal is not None
        if redeal_possible(deal) and not deal.refused[seat % 2]:
            out.append(ProposeRedeal(seat))
    elif phase == "cut" and seat == state.turn:
        out.extend(CUTS[seat] if known else [Cut(seat, k) for k in range(40)])
    elif phase == "cut_choice" and seat == state.turn:
        out.extend((KEEPS[seat], TABLE_DRAWNS[seat]) if known else (Keep(seat), TableDrawn(seat)))
    elif phase == "redeal_vote":
        assert state.pending_redeal is not None
        if seat % 2 != state.pending_redeal % 2:
            out.extend((AnswerRedeal(seat, True), AnswerRedeal(seat, False)))
    out.append(FORFEITS[seat] if known else Forfeit(seat))
    return out


#: OTHER_VALUES[v]: for ``bytes(table).translate(None, ...)``, every byte but the cards of value v.
OTHER_VALUES: tuple[bytes, ...] = tuple(
    bytes(c for c in range(256) if c >= len(VALUE) or VALUE[c] != v) for v in range(11)
)
#: SAME_VALUE_PLAYS[seat][card][same-value table cards]: the lay and the R14 captures.
SAME_VALUE_PLAYS: tuple[tuple[dict[bytes, tuple[Play, ...]], ...], ...] = tuple(
    tuple({} for _ in range(40)) for _ in range(4)
)


def _same_value_plays(seat: int, card: Card, same: bytes) -> tuple[Play, ...]:
    """Lay ``card``, or take one of the ``same`` table cards (its value, R14; R16 forbids
    any sum then). At most 3 such cards, so the memo stays small."""
    plays = (LAYS[seat][card], *(capture_play(seat, card, (c,)) for c in same))
    SAME_VALUE_PLAYS[seat][card][same] = plays
    return plays


def _turn_actions(deal: Deal, seat: int) -> list[Action]:
    """The claims (R20) and plays (R13–R17) of the seat whose turn it is."""
    out: list[Action] = []
    win = deal.window
    if win is not None:
        out.extend(Claim(seat, win.card, cap) for cap in legal_captures(win.card, win.table_before))
    table = deal.table
    raw = bytes(table)
    values = raw.translate(VALUES)
    lays = LAYS[seat]
    captures = CAPTURE_PLAYS[seat]
    same_plays = SAME_VALUE_PLAYS[seat]
    for card in deal.hands[seat]:
        v = VALUE[card]
        if v in values:
            # R14, R16: the lay, then each single card of the same value (memoized per
            # the same-value cards on the table, in table order).
            same = raw.translate(None, OTHER_VALUES[v])
            plays = same_plays[card].get(same)
            if plays is None:
                plays = _same_value_plays(seat, card, same)
            out += plays
        else:
            out.append(lays[card])
            # R15: sums of the smaller cards (usually none: then nothing more to do).
            smaller = values.translate(None, VALUES_FROM[v])
            getters = SUM_GETTERS[v].get(smaller)
            if getters is None:
                getters = sum_getters(v, smaller)
            if getters:
                cards = raw.translate(None, CARDS_FROM[v])
                for get in getters:
                    cap = get(cards)
                    out.append(captures[card].get(cap) or capture_play(seat, card, cap))
    return out


__all__ = ["Action", "Play", "legal_actions", "redeal_possible"]
