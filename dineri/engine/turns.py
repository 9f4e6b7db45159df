"""Turns (R11, R13–R25) and the end of a round (R25–R32): the hot path of :func:`apply`.

:func:`play` and :func:`claim` run for nearly every action of a match, so they
are written for speed (``benchmarks/engine.py``): each unpacks the two
NamedTuples it changes once and builds the new ones positionally with
``tuple.__new__`` (``_replace`` costs several times more), tests captures on the
table's value bytes (:mod:`dineri.engine.captures`), and checks the seat, phase
and turn in one comparison, falling back to :func:`refuse_turn` for the error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dineri.engine.actions import Claim, Play
from dineri.engine.captures import SUM_GETTERS, VALUES, VALUES_FROM, is_legal_capture, sum_getters
from dineri.engine.cards import CODE, VALUE, Card
from dineri.engine.errors import RuleError
from dineri.engine.scoring import game_winner, score_round
from dineri.engine.state import Deal, MatchState, Window

Event = dict[str, Any]
Piles = tuple[tuple[Card, ...], tuple[Card, ...]]

# Builds a NamedTuple from all its fields in order, skipping the keyword handling of
# its constructor and of ``_replace``.
_new = tuple.__new__
_code = CODE.__getitem__


# --- who may act --------------------------------------------------------------------------------


def need_seat(state: MatchState, seat: int) -> None:
    """R4: ``malformed`` unless ``seat`` is a seat of the table."""
    if not 0 <= seat < state.options.seats:
        raise RuleError("malformed", f"no seat {seat} at a {state.options.seats}-seat table")


def need_phase(state: MatchState, *phases: str) -> None:
    """``wrong_phase`` unless the match is in one of ``phases``."""
    if state.phase not in phases:
        raise RuleError("wrong_phase", f"not allowed in phase {state.phase!r}")


def need_turn(state: MatchState, seat: int) -> None:
    """``not_your_turn`` unless it is ``seat``'s turn (R12, R13)."""
    if seat != state.turn:
        raise RuleError("not_your_turn", f"it is seat {state.turn}'s turn, not seat {seat}'s")


def refuse_turn(state: MatchState, seat: int, phase: str) -> None:
    """Raise the first error of: ``seat`` not a seat, not in ``phase``, not its turn."""
    need_seat(state, seat)
    need_phase(state, phase)
    need_turn(state, seat)
    raise AssertionError("refuse_turn called for an allowed action")


# --- the deal -------------------------------------------------------------------------------------


def take_deck(state: MatchState) -> MatchState:
    """Begin a deal with the next supplied shuffle (R7, R8), or wait for one (phase ``shuffle``)."""
    cutter = state.cutter
    if state.decks_used < len(state.decks):
        return state._replace(phase="cut", turn=cutter, deck=state.decks[state.decks_used],
                              decks_used=state.decks_used + 1, drawn=None, deal=None, pending_redeal=None)
    return state._replace(phase="shuffle", turn=cutter, deck=None, drawn=None, deal=None,
                          pending_redeal=None)


def _deal_more(deal: Deal, cutter: int, n: int) -> Deal:
    # R11: 3 more to each seat, from the cutter to the dealer; none to the table.
    (pack, pos, _, table, piles, chkobba_cards, last_capturer, window, started, _, refused) = deal
    hands: list[tuple[Card, ...]] = [()] * n
    for i in range(n):
        hands[(cutter + i) % n] = pack[pos:pos + 3]
        pos += 3
    # An open window stays open: the next seat has not played yet (R21).
    return _new(Deal, (pack, pos, tuple(hands), table, piles, chkobba_cards, last_capturer, window, started,
                       False, refused))


def _add_pile(piles: Piles, side: int, cards: tuple[Card, ...]) -> Piles:
    if side == 0:
        return (piles[0] + cards, piles[1])
    return (piles[0], piles[1] + cards)


# --- a turn ---------------------------------------------------------------------------------------


def play(state: MatchState, action: Play) -> tuple[MatchState, list[Event]]:
    """R13–R18: play a card, capturing the named cards or laying it; a lay that could
    have captured opens the missed-capture window (R19); R11 deals more when every
    hand is empty; R23–R25 and the round's end (R26–R32) after the last card."""
    (options, first_dealer, decks, decks_used, phase, game, rnd, dealer, turn, deck, drawn, deal,
     pending, scores, games_won, rounds, winner, forfeited_by) = state
    seat = action.seat
    if seat != turn or phase != "play":
        refuse_turn(state, seat, "play")
    assert deal is not None
    (pack, pos, hands, table, piles, chkobba_cards, last_capturer, window, _, first_deal, refused) = deal
    card = action.card
    hand = hands[seat]
    if card not in hand:
        raise RuleError("card_not_in_hand", f"{CODE[card]} is not in your hand")
    capture = action.capture
    v = VALUE[card]
    if capture:
        if len(capture) == 1:
            taken = capture[0]
            if taken not in table:
                raise RuleError("card_not_on_table", f"{CODE[taken]} is not on the table")
            if VALUE[taken] != v:  # R14 (a card of value v is a match, so R16 holds)
                raise RuleError("illegal_capture", _why_illegal(card, capture, table))
            i = table.index(taken)
            new_table = table[:i] + table[i + 1:]
        else:
            for c in capture:
                if c not in table:
                    raise RuleError("card_not_on_table", f"{CODE[c]} is not on the table")
            # R15 (R16: no sum while a card of value v is on the table)
            if v in bytes(table).translate(VALUES) or sum(map(VALUE.__getitem__, capture)) != v:
                raise RuleError("illegal_capture", _why_illegal(card, capture, table))
            new_table = _without(table, capture)
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1:]
    new_hands = list(hands)
    new_hands[seat] = hand
    hands = tuple(new_hands)
    hands_empty = not hand and not any(hands)
    last_card = hands_empty and pos == len(pack)
    if capture:
        table = new_table
        chkobba = not table and not last_card  # R23, R24
        side = seat % 2
        taken_cards = (*capture, card)
        piles = (piles[0] + taken_cards, piles[1]) if side == 0 else (piles[0], piles[1] + taken_cards)
        if chkobba:
            chkobba_cards = _add_pile(chkobba_cards, side, (card,))
        last_capturer = side
        window = None
        event: Event = {"type": "play", "seat": seat, "card": CODE[card],
                        "capture": list(map(_code, capture)), "chkobba": chkobba, "auto": action.auto}
    else:
        # R19: the lay opens a window if the card could have captured (same test as legal_captures).
        values = bytes(table).translate(VALUES)
        if v in values:
            window = _new(Window, (card, table))
        else:
            smaller = values.translate(None, VALUES_FROM[v])
            sums = SUM_GETTERS[v].get(smaller)
            if sums is None:
                sums = sum_getters(v, smaller)
            window = _new(Window, (card, table)) if sums else None
        table = (*table, card)
        event = {"type": "play", "seat": seat, "card": CODE[card], "capture": [], "chkobba": False,
                 "auto": action.auto}
    n = options.seats
    deal = _new(Deal, (pack, pos, hands, table, piles, chkobba_cards, last_capturer, window, True,
                       first_deal, refused))
    events = [event]
    if hands_empty and not last_card:
        deal = _deal_more(deal, (dealer + 1) % n, n)
        events.append({"type": "deal_more", "hand_sizes": [3] * n, "deck_left": deal.deck_left})
    new = _new(MatchState, (options, first_dealer, decks, decks_used, phase, game, rnd, dealer,
                            (seat + 1) % n, deck, drawn, deal, pending, scores, games_won, rounds, winner,
                            forfeited_by))
    if last_card:
        return end_round(new, events)
    return new, events


def _without(cards: tuple[Card, ...], taken: Sequence[Card]) -> tuple[Card, ...]:
    # ``cards`` in order, minus those in ``taken`` (all cards 0-39, so bytes do it in C).
    return tuple(bytes(cards).translate(None, bytes(taken)))


def _why_illegal(card: Card, capture: Sequence[Card], table: Sequence[Card]) -> str:
    v = VALUE[card]
    if any(VALUE[t] == v for t in table):
        return f"a table card has the value of {CODE[card]}: take one such card, not a sum (R16)"
    if len(capture) == 1:
        return f"{CODE[capture[0]]} does not have the value of {CODE[card]} (R14)"
    return f"the named cards do not add up to {v} (R15)"


def claim(state: MatchState, action: Claim) -> tuple[MatchState, list[Event]]:
    """R19–R22: take the card just laid and what it could have taken; R23 chkobba."""
    seat = action.seat
    if seat != state.turn or state.phase != "play":
        refuse_turn(state, seat, "play")
    (options, first_dealer, decks, decks_used, phase, game, rnd, dealer, turn, deck, drawn, deal,
     pending, scores, games_won, rounds, winner, forfeited_by) = state
    assert deal is not None
    (pack, pos, hands, table, piles, chkobba_cards, _, win, started, first_deal, refused) = deal
    if win is None or win.card != action.card:
        raise RuleError("no_missed_capture", "there is no missed capture to claim with that card")
    before = win.table_before
    capture = action.capture
    for c in capture:
        if c not in before:
            raise RuleError("card_not_on_table",
                            f"{CODE[c]} was not on the table when {CODE[win.card]} was laid")
    if not is_legal_capture(win.card, capture, before):
        raise RuleError("illegal_capture",
                        f"{CODE[win.card]} could not have taken {' '.join(CODE[c] for c in capture)}")
    taken = (*capture, win.card)
    side = seat % 2
    table = _without(table, taken)
    chkobba = not table  # R20/R24: a claim is never the last card of the round
    piles = _add_pile(piles, side, taken)
    if chkobba:
        chkobba_cards = _add_pile(chkobba_cards, side, (win.card,))
    deal = _new(Deal, (pack, pos, hands, table, piles, chkobba_cards, side, None, started, first_deal,
                       refused))
    new = _new(MatchState, (options, first_dealer, decks, decks_used, phase, game, rnd, dealer, turn, deck,
                            drawn, deal, pending, scores, games_won, rounds, winner, forfeited_by))
    return new, [{"type": "claim", "seat": seat, "card": CODE[win.card],
                  "capture": list(map(_code, capture)), "chkobba": chkobba, "auto": action.auto}]


# --- the end of a round ---------------------------------------------------------------------------


def end_round(state: MatchState, events: list[Event]) -> tuple[MatchState, list[Event]]:
    """After the last card: leftovers (R25), scoring (R26–R29), the game (R30, R31) and
    match (R32) outcome; then the next round's deal (R6) unless the match is over."""
    deal = state.deal
    assert deal is not None
    piles = deal.piles
    leftovers = deal.table
    if leftovers and deal.last_capturer is not None:  # R25
        piles = _add_pile(piles, deal.last_capturer, leftovers)
        leftovers = ()
    chkobbas = (len(deal.chkobba_cards[0]), len(deal.chkobba_cards[1]))
    result = score_round(state.game, state.round, piles, chkobbas)
    scores = (state.scores[0] + result.points[0], state.scores[1] + result.points[1])  # R28
    final_deal = deal._replace(table=(), piles=piles, window=None)
    events.append({"type": "round_over", "leftovers": [CODE[c] for c in deal.table],
                   "leftovers_to": deal.last_capturer, "result": result.to_json(),
                   "scores": list(scores)})
    state = state._replace(deal=final_deal, scores=scores, rounds=(*state.rounds, result))
    winner = game_winner(scores, state.options)  # R31
    next_dealer = (state.dealer + 1) % state.options.seats  # R6
    if winner is None:
        state = state._replace(round=state.round + 1, dealer=next_dealer)
        return take_deck(state), events
    won = (state.games_won[0] + (winner == 0), state.games_won[1] + (winner == 1))
    events.append({"type": "game_over", "game": state.game, "winner": winner, "scores": list(scores),
                   "games_won": list(won)})
    if won[winner] >= state.options.games_to_win:  # R32
        events.append({"type": "match_over", "winner": winner, "games_won": list(won),
                       "reason": "won"})
        return state._replace(games_won=won, winner=winner, phase="over", turn=None), events
    state = state._replace(games_won=won, game=state.game + 1, round=1, scores=(0, 0),
                           dealer=next_dealer)
    return take_deck(state), events
