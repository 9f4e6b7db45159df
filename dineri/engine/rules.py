"""The rules: starting a match and applying an action.

``apply(state, action)`` is the single transition function: it validates the
action in the documented order (form, phase, seat, then the rules) and returns
``(new_state, events)``; a refused action raises :class:`RuleError` and changes
nothing (R18). Events are JSON-ready dicts holding only public information.
Turns and the end of a round live in :mod:`dineri.engine.turns`, the
enumeration of legal actions in :mod:`dineri.engine.legal`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dineri.engine.actions import (
    Action,
    AnswerRedeal,
    Claim,
    Cut,
    Forfeit,
    Keep,
    Play,
    ProposeRedeal,
    TableDrawn,
)
from dineri.engine.cards import CODE, Card
from dineri.engine.errors import RuleError, shown
from dineri.engine.legal import legal_actions, redeal_possible
from dineri.engine.state import EMPTY_PILES, Deal, MatchState, Options
from dineri.engine.turns import Event, claim, need_phase, need_seat, need_turn, play, take_deck

__all__ = ["Event", "add_deck", "apply", "check_deck", "legal_actions", "new_match"]

_FULL_SET = frozenset(range(40))


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """Return ``deck`` as a tuple if it holds all 40 cards exactly once (R1), else raise ``ValueError``."""
    t = tuple(deck)
    if len(t) != 40 or set(t) != _FULL_SET:
        raise ValueError("a deck must hold each of the 40 cards exactly once")
    return t


def new_match(options: Options, first_dealer: int, decks: Sequence[Sequence[Card]] = ()) -> MatchState:
    """Start a match (R6): ``first_dealer`` deals the first round.

    ``decks`` are the shuffles to use, in order, each 40 distinct cards top first
    before the cut (R7). With none left the state waits in phase ``shuffle``
    until :func:`add_deck` supplies one. Raises ``ValueError`` for a bad seat or deck.
    """
    if not 0 <= first_dealer < options.seats:
        raise ValueError(f"first_dealer must be a seat from 0 to {options.seats - 1}")
    state = MatchState(
        options=options,
        first_dealer=first_dealer,
        decks=tuple(check_deck(d) for d in decks),
        decks_used=0,
        phase="shuffle",
        game=1,
        round=1,
        dealer=first_dealer,
        turn=(first_dealer + 1) % options.seats,
        deck=None,
        drawn=None,
        deal=None,
        pending_redeal=None,
        scores=(0, 0),
        games_won=(0, 0),
        rounds=(),
        winner=None,
    )
    return take_deck(state)


def add_deck(state: MatchState, deck: Sequence[Card]) -> MatchState:
    """Supply the next shuffle (R7). In phase ``shuffle`` the deal starts at once (phase ``cut``)."""
    state = state._replace(decks=(*state.decks, check_deck(deck)))
    return take_deck(state) if state.phase == "shuffle" else state


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply one action (R8–R33); return the new state and the public events it caused.

    Raises :class:`RuleError` with the record's error code when the action is
    refused; ``state`` is never modified (it is immutable).
    """
    # Actions check their own form when built (R18: form first, then phase, seat, rules).
    if type(action) is Play:  # the common case; it checks the seat against the turn itself
        return play(state, action)
    need_seat(state, action.seat)
    handler = _HANDLERS.get(type(action))
    if handler is not None:
        return handler(state, action)
    raise RuleError("malformed", f"not an action: {shown(action)}")


def _cut(state: MatchState, action: Cut) -> tuple[MatchState, list[Event]]:
    need_phase(state, "cut")
    need_turn(state, action.seat)
    if type(action.at) is not int or not 0 <= action.at <= 39:
        raise RuleError("malformed", "cut position must be from 0 to 39")
    assert state.deck is not None
    k = action.at
    pack = state.deck[k:] + state.deck[:k]  # R8
    n = state.options.seats
    deal = Deal(pack=pack, pos=1, hands=((),) * n, table=(), piles=EMPTY_PILES,
                chkobba_cards=EMPTY_PILES, last_capturer=None, window=None, started=False,
                first_deal=True, refused=(False, False))
    new = state._replace(phase="cut_choice", deal=deal, drawn=pack[0])
    return new, [{"type": "cut", "seat": action.seat, "at": k, "drawn": CODE[pack[0]],
                  "auto": action.auto}]


def _choose(state: MatchState, action: Keep | TableDrawn) -> tuple[MatchState, list[Event]]:
    need_phase(state, "cut_choice")
    need_turn(state, action.seat)
    deal = state.deal
    assert deal is not None
    n = state.options.seats
    cutter, dealer = state.cutter, state.dealer
    pack = deal.pack
    hands: list[tuple[Card, ...]] = [()] * n
    if isinstance(action, Keep):
        # R9 keep: cutter drawn+2, then cutter+1 .. before the dealer 3 each, 4 to the table, dealer 3.
        hands[cutter] = pack[0:3]
        pos = 3
        seat = (cutter + 1) % n
        while seat != dealer:
            hands[seat] = pack[pos:pos + 3]
            pos += 3
            seat = (seat + 1) % n
        table = pack[pos:pos + 4]
        pos += 4
        hands[dealer] = pack[pos:pos + 3]
        pos += 3
        choice = "keep"
    else:
        # R9 table: drawn+3 to the table, then 3 each from the cutter to the dealer.
        table = pack[0:4]
        pos = 4
        for i in range(n):
            hands[(cutter + i) % n] = pack[pos:pos + 3]
            pos += 3
        choice = "table"
    new_deal = deal._replace(pos=pos, hands=tuple(hands), table=table)
    new = state._replace(phase="play", deal=new_deal, drawn=None, turn=cutter)  # R12
    return new, [{"type": "deal", "seat": action.seat, "choice": choice, "table": [CODE[c] for c in table],
                  "hand_sizes": [3] * n, "deck_left": new_deal.deck_left, "auto": action.auto}]


def _propose(state: MatchState, action: ProposeRedeal) -> tuple[MatchState, list[Event]]:
    need_phase(state, "play")
    deal = state.deal
    assert deal is not None
    side = action.seat % 2
    if not redeal_possible(deal):
        raise RuleError("redeal_not_allowed",
                        "a redeal needs the first deal, no card played, and 3 table cards of one value")
    if deal.refused[side]:
        raise RuleError("redeal_not_allowed", "your side's proposal was already refused in this deal")
    new = state._replace(phase="redeal_vote", pending_redeal=action.seat)
    return new, [{"type": "redeal_proposed", "seat": action.seat, "auto": action.auto}]


def _answer(state: MatchState, action: AnswerRedeal) -> tuple[MatchState, list[Event]]:
    need_phase(state, "redeal_vote")
    proposer = state.pending_redeal
    assert proposer is not None and state.deal is not None
    if action.seat % 2 == proposer % 2:
        raise RuleError("not_your_turn", "only an opponent of the proposer may answer a redeal")
    if type(action.accept) is not bool:
        raise RuleError("malformed", "accept must be true or false")
    events: list[Event] = [{"type": "redeal_answered", "seat": action.seat, "accept": action.accept,
                            "auto": action.auto}]
    if action.accept:
        # R10: all cards return; the same dealer shuffles again and the same cutter cuts.
        return take_deck(state), events
    side = proposer % 2
    refused = (True, state.deal.refused[1]) if side == 0 else (state.deal.refused[0], True)
    new = state._replace(phase="play", pending_redeal=None,
                  deal=state.deal._replace(refused=refused))
    return new, events


def _forfeit(state: MatchState, action: Forfeit) -> tuple[MatchState, list[Event]]:
    if state.phase == "over":
        raise RuleError("wrong_phase", "the match is over")
    side = action.seat % 2
    winner = 1 - side
    new = state._replace(phase="over", turn=None, winner=winner, forfeited_by=side, pending_redeal=None)
    return new, [{"type": "forfeit", "seat": action.seat, "side": side, "auto": action.auto},
                 {"type": "match_over", "winner": winner, "games_won": list(state.games_won),
                  "reason": "forfeit"}]


_HANDLERS: dict[type, Callable[[MatchState, Any], tuple[MatchState, list[Event]]]] = {
    Claim: claim, Cut: _cut, Keep: _choose, TableDrawn: _choose,
    ProposeRedeal: _propose, AnswerRedeal: _answer, Forfeit: _forfeit,
}
