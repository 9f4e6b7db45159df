"""The rules: starting a match, applying an action, enumerating legal actions.

``apply(state, action)`` is the single transition function: it validates the
action in the documented order (form, phase, seat, then the rules) and returns
``(new_state, events)``; a refused action raises :class:`RuleError` and changes
nothing (R18). Events are JSON-ready dicts holding only public information.
"""

from __future__ import annotations

from collections.abc import Sequence
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
from dineri.engine.captures import can_capture, is_legal_capture, legal_captures
from dineri.engine.cards import CODE, VALUE, Card
from dineri.engine.errors import RuleError
from dineri.engine.scoring import game_winner, score_round
from dineri.engine.state import EMPTY_PILES, Deal, MatchState, Options, Window

Event = dict[str, Any]


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    """Return ``deck`` as a tuple if it holds all 40 cards exactly once (R1), else raise ``ValueError``."""
    t = tuple(deck)
    if len(t) != 40 or set(t) != set(range(40)):
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
    return _take_deck(state)


def add_deck(state: MatchState, deck: Sequence[Card]) -> MatchState:
    """Supply the next shuffle (R7). In phase ``shuffle`` the deal starts at once (phase ``cut``)."""
    state = state._replace(decks=(*state.decks, check_deck(deck)))
    return _take_deck(state) if state.phase == "shuffle" else state


def _take_deck(state: MatchState) -> MatchState:
    """Begin a deal with the next supplied shuffle, or wait for one (phase ``shuffle``)."""
    cutter = state.cutter
    if state.decks_used < len(state.decks):
        return state._replace(phase="cut", turn=cutter, deck=state.decks[state.decks_used],
                       decks_used=state.decks_used + 1, drawn=None, deal=None, pending_redeal=None)
    return state._replace(phase="shuffle", turn=cutter, deck=None, drawn=None, deal=None,
                   pending_redeal=None)


# --- validation helpers -------------------------------------------------------------------


def _need_phase(state: MatchState, *phases: str) -> None:
    if state.phase not in phases:
        raise RuleError("wrong_phase", f"not allowed in phase {state.phase!r}")


def _need_turn(state: MatchState, seat: int) -> None:
    if seat != state.turn:
        raise RuleError("not_your_turn", f"it is seat {state.turn}'s turn, not seat {seat}'s")


def _need_seat(state: MatchState, seat: int) -> None:
    if not 0 <= seat < state.options.seats:
        raise RuleError("malformed", f"no seat {seat} at a {state.options.seats}-seat table")


# --- apply ----------------------------------------------------------------------------------


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply one action (R8–R33); return the new state and the public events it caused.

    Raises :class:`RuleError` with the record's error code when the action is
    refused; ``state`` is never modified (it is immutable).
    """
    _need_seat(state, action.seat)
    if isinstance(action, Play):
        return _play(state, action)
    if isinstance(action, Claim):
        return _claim(state, action)
    if isinstance(action, Cut):
        return _cut(state, action)
    if isinstance(action, Keep | TableDrawn):
        return _choose(state, action)
    if isinstance(action, ProposeRedeal):
        return _propose(state, action)
    if isinstance(action, AnswerRedeal):
        return _answer(state, action)
    if isinstance(action, Forfeit):
        return _forfeit(state, action)
    raise RuleError("malformed", f"not an action: {action!r}")


def _cut(state: MatchState, action: Cut) -> tuple[MatchState, list[Event]]:
    _need_phase(state, "cut")
    _need_turn(state, action.seat)
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
    _need_phase(state, "cut_choice")
    _need_turn(state, action.seat)
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


def _redeal_possible(deal: Deal) -> bool:
    # R10: first deal, no card played, 3+ of the 4 table cards share one value.
    if not deal.first_deal or deal.started:
        return False
    counts: dict[int, int] = {}
    for c in deal.table:
        counts[VALUE[c]] = counts.get(VALUE[c], 0) + 1
    return max(counts.values(), default=0) >= 3


def _propose(state: MatchState, action: ProposeRedeal) -> tuple[MatchState, list[Event]]:
    _need_phase(state, "play")
    deal = state.deal
    assert deal is not None
    side = action.seat % 2
    if not _redeal_possible(deal):
        raise RuleError("redeal_not_allowed",
                        "a redeal needs the first deal, no card played, and 3 table cards of one value")
    if deal.refused[side]:
        raise RuleError("redeal_not_allowed", "your side's proposal was already refused in this deal")
    new = state._replace(phase="redeal_vote", pending_redeal=action.seat)
    return new, [{"type": "redeal_proposed", "seat": action.seat, "auto": action.auto}]


def _answer(state: MatchState, action: AnswerRedeal) -> tuple[MatchState, list[Event]]:
    _need_phase(state, "redeal_vote")
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
        return _take_deck(state), events
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


def _claim(state: MatchState, action: Claim) -> tuple[MatchState, list[Event]]:
    _need_phase(state, "play")
    _need_turn(state, action.seat)
    deal = state.deal
    assert deal is not None
    win = deal.window
    if win is None or win.card != action.card:
        raise RuleError("no_missed_capture", "there is no missed capture to claim with that card")
    before = win.table_before
    for c in action.capture:
        if c not in before:
            raise RuleError("card_not_on_table",
                            f"{CODE[c]} was not on the table when {CODE[win.card]} was laid")
    if not is_legal_capture(win.card, action.capture, before):
        raise RuleError("illegal_capture",
                        f"{CODE[win.card]} could not have taken {' '.join(CODE[c] for c in action.capture)}")
    taken = (*action.capture, win.card)
    side = action.seat % 2
    table = tuple(c for c in deal.table if c not in taken)
    chkobba = not table  # R20/R24: a claim is never the last card of the round
    piles = _add_pile(deal.piles, side, taken)
    chk = _add_pile(deal.chkobba_cards, side, (win.card,)) if chkobba else deal.chkobba_cards
    new_deal = deal._replace(table=table, piles=piles, chkobba_cards=chk, last_capturer=side, window=None)
    new = state._replace(deal=new_deal)
    return new, [{"type": "claim", "seat": action.seat, "card": CODE[win.card],
                  "capture": [CODE[c] for c in action.capture], "chkobba": chkobba,
                  "auto": action.auto}]


def _add_pile(piles: tuple[tuple[Card, ...], tuple[Card, ...]], side: int,
              cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    if side == 0:
        return (piles[0] + cards, piles[1])
    return (piles[0], piles[1] + cards)


def _play(state: MatchState, action: Play) -> tuple[MatchState, list[Event]]:
    _need_phase(state, "play")
    _need_turn(state, action.seat)
    deal = state.deal
    assert deal is not None
    seat = action.seat
    card = action.card
    hand = deal.hands[seat]
    if card not in hand:
        raise RuleError("card_not_in_hand", f"{CODE[card]} is not in your hand")
    table = deal.table
    capture = action.capture
    for c in capture:
        if c not in table:
            raise RuleError("card_not_on_table", f"{CODE[c]} is not on the table")
    if capture and not is_legal_capture(card, capture, table):
        raise RuleError("illegal_capture", _why_illegal(card, capture, table))
    n = state.options.seats
    hands = list(deal.hands)
    hands[seat] = tuple(c for c in hand if c != card)
    side = seat % 2
    last_card = deal.pos == len(deal.pack) and not any(hands)
    event: Event = {"type": "play", "seat": seat, "card": CODE[card],
                    "capture": [CODE[c] for c in capture], "chkobba": False, "auto": action.auto}
    if capture:
        new_table = tuple(c for c in table if c not in capture)
        chkobba = not new_table and not last_card  # R23, R24
        event["chkobba"] = chkobba
        taken = (*capture, card)
        piles = _add_pile(deal.piles, side, taken)
        chk = _add_pile(deal.chkobba_cards, side, (card,)) if chkobba else deal.chkobba_cards
        new_deal = deal._replace(hands=tuple(hands), table=new_table, piles=piles, chkobba_cards=chk,
                           last_capturer=side, window=None, started=True)
    else:
        window = Window(card, table) if can_capture(card, table) else None  # R19
        new_deal = deal._replace(hands=tuple(hands), table=(*table, card), window=window, started=True)
    events = [event]
    nxt = (seat + 1) % n
    if not last_card and not any(hands):
        new_deal = _deal_more(new_deal, state.cutter, n)
        events.append({"type": "deal_more", "hand_sizes": [3] * n, "deck_left": new_deal.deck_left})
    new = state._replace(deal=new_deal, turn=nxt)
    if last_card:
        return _end_round(new, events)
    return new, events


def _why_illegal(card: Card, capture: Sequence[Card], table: Sequence[Card]) -> str:
    v = VALUE[card]
    if any(VALUE[t] == v for t in table):
        return f"a table card has the value of {CODE[card]}: take one such card, not a sum (R16)"
    if len(capture) == 1:
        return f"{CODE[capture[0]]} does not have the value of {CODE[card]} (R14)"
    return f"the named cards do not add up to {v} (R15)"


def _deal_more(deal: Deal, cutter: int, n: int) -> Deal:
    # R11: 3 more to each seat, from the cutter to the dealer; none to the table.
    hands: list[tuple[Card, ...]] = [()] * n
    pos = deal.pos
    for i in range(n):
        hands[(cutter + i) % n] = deal.pack[pos:pos + 3]
        pos += 3
    # An open window stays open: the next seat has not played yet (R21).
    return deal._replace(hands=tuple(hands), pos=pos, first_deal=False)


def _end_round(state: MatchState, events: list[Event]) -> tuple[MatchState, list[Event]]:
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
        return _take_deck(state), events
    won = (state.games_won[0] + (winner == 0), state.games_won[1] + (winner == 1))
    events.append({"type": "game_over", "game": state.game, "winner": winner, "scores": list(scores),
                   "games_won": list(won)})
    if won[winner] >= state.options.games_to_win:  # R32
        events.append({"type": "match_over", "winner": winner, "games_won": list(won),
                       "reason": "won"})
        return state._replace(games_won=won, winner=winner, phase="over", turn=None), events
    state = state._replace(games_won=won, game=state.game + 1, round=1, scores=(0, 0),
                    dealer=next_dealer)
    return _take_deck(state), events


# --- enumeration ----------------------------------------------------------------------------


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; :func:`apply` accepts exactly these.

    For bots and tests only: the product never shows it to players (R21). Includes
    every cut position, and ``Forfeit`` (always allowed before the end) as the last item.
    """
    phase = state.phase
    if phase == "over":
        return []
    out: list[Action] = []
    if phase == "cut" and seat == state.turn:
        out.extend(Cut(seat, k) for k in range(40))
    elif phase == "cut_choice" and seat == state.turn:
        out.extend((Keep(seat), TableDrawn(seat)))
    elif phase == "redeal_vote":
        assert state.pending_redeal is not None
        if seat % 2 != state.pending_redeal % 2:
            out.extend((AnswerRedeal(seat, True), AnswerRedeal(seat, False)))
    elif phase == "play":
        deal = state.deal
        assert deal is not None
        if seat == state.turn:
            win = deal.window
            if win is not None:
                out.extend(Claim(seat, win.card, cap) for cap in legal_captures(win.card, win.table_before))
            table = deal.table
            for card in deal.hands[seat]:
                out.append(Play(seat, card))
                out.extend(Play(seat, card, cap) for cap in legal_captures(card, table))
        if _redeal_possible(deal) and not deal.refused[seat % 2]:
            out.append(ProposeRedeal(seat))
    out.append(Forfeit(seat))
    return out
