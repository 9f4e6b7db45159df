"""Turns (G8–G11), the end of a round (G13, G14) and the next deal (G4, G5).

Each function takes a state whose action already passed the checks of
:func:`dineri.golf4.rules.apply` and returns ``(new_state, events)``; events are
JSON-ready dicts holding public information only (a card drawn from the stock
is never named in them).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dineri.golf4.cards import CODE
from dineri.golf4.deal import can_reshuffle, deal_round, reshuffled
from dineri.golf4.scoring import score_round, winners
from dineri.golf4.state import DISCARD, STOCK, Deal, Held, MatchState

Event = dict[str, Any]


def take_deck(state: MatchState) -> tuple[MatchState, list[Event]]:
    """In phase ``shuffle``, use the next deck if there is one: at a round's start, deal it (G5;
    phase ``peek``); mid-round, reshuffle the discards under the top card into the stock (G11;
    phase ``play``). Otherwise the state stays waiting for :func:`dineri.golf4.rules.add_deck`."""
    if state.phase != "shuffle" or state.decks_used >= len(state.decks):
        return state, []
    deck = state.decks[state.decks_used]
    used = state.decks_used + 1
    if state.deal is None:
        deal = deal_round(state.seats, state.dealer, deck)
        state = replace(state, deal=deal, decks_used=used, phase="peek", turn=None)
        return state, [{"type": "deal", "round": state.round, "dealer": state.dealer,
                        "discard": CODE[deal.discard[-1]], "stock_left": len(deal.stock)}]
    deal = reshuffled(state.deal, deck)
    state = replace(state, deal=deal, decks_used=used, phase="play")
    return state, [{"type": "reshuffle", "stock_left": len(deal.stock), "deck": used - 1}]


def _deal(state: MatchState) -> Deal:
    assert state.deal is not None, "a round in progress has its deal"
    return state.deal


def answer_peek(state: MatchState, seat: int, look: bool) -> tuple[MatchState, list[Event]]:
    """G6: record the seat's answer; once every seat has answered, play begins with the seat after
    the dealer. The cards themselves are not in the events (the adapter shows them privately)."""
    deal = _deal(state)
    peeks = tuple(("peek" if look else "skip") if s == seat else p for s, p in enumerate(deal.peeks))
    deal = replace(deal, peeks=peeks)
    events: list[Event] = [{"type": "peek" if look else "skip_peek", "seat": seat}]
    if all(p is not None for p in peeks):
        first = (state.dealer + 1) % state.seats
        events.append({"type": "turn", "seat": first})
        return replace(state, deal=deal, phase="play", turn=first), events
    return replace(state, deal=deal), events


def draw(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """G8: the top stock card becomes the seat's held card (the event does not name it)."""
    deal = _deal(state)
    deal = replace(deal, stock=deal.stock[1:], held=Held(deal.stock[0], STOCK))
    return replace(state, deal=deal), [{"type": "draw", "seat": seat, "stock_left": len(deal.stock)}]


def take(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """G9: the top discard becomes the seat's held card (face up: the event names it)."""
    deal = _deal(state)
    card = deal.discard[-1]
    deal = replace(deal, discard=deal.discard[:-1], held=Held(card, DISCARD))
    return replace(state, deal=deal), [{"type": "take", "seat": seat, "card": CODE[card]}]


def swap(state: MatchState, seat: int, slot: int) -> tuple[MatchState, list[Event]]:
    """G8, G9: the held card goes face down into ``slot``; the card there goes face up on the
    discard pile; the turn ends."""
    deal = _deal(state)
    assert deal.held is not None
    hand = deal.hands[seat]
    out = hand[slot]
    hands = tuple(h if s != seat else (*hand[:slot], deal.held.card, *hand[slot + 1:])
                  for s, h in enumerate(deal.hands))
    event = {"type": "swap", "seat": seat, "slot": slot, "from": deal.held.source, "card": CODE[out]}
    deal = replace(deal, hands=hands, discard=(*deal.discard, out), held=None)
    return end_turn(state, deal, seat, [event])


def discard(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """G8: the drawn card goes face up on the discard pile; the turn ends."""
    deal = _deal(state)
    assert deal.held is not None
    card = deal.held.card
    deal = replace(deal, discard=(*deal.discard, card), held=None)
    return end_turn(state, deal, seat, [{"type": "discard", "seat": seat, "card": CODE[card]}])


def knock(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """G10: every other seat, from the knocker's next, plays exactly one more turn; the knocker's
    cards are frozen. The knock ends the knocker's turn."""
    n = state.seats
    final = tuple((seat + i) % n for i in range(1, n))
    deal = replace(_deal(state), knocker=seat, final_turns=final)
    return end_turn(state, deal, seat, [{"type": "knock", "seat": seat, "final_turns": list(final)}])


def end_turn(state: MatchState, deal: Deal, seat: int, events: list[Event]) -> tuple[MatchState, list[Event]]:
    """After a turn: the round ends when the last seat owed a final turn has played (G10);
    otherwise the next seat plays, after a reshuffle if the stock is empty (G11: the round's last
    turn never reshuffles)."""
    if deal.knocker is not None and deal.knocker != seat:
        final = deal.final_turns[1:]  # final_turns[0] is ``seat``
        deal = replace(deal, final_turns=final)
        if not final:
            return end_round(state, deal, events)
    nxt = deal.final_turns[0] if deal.knocker is not None else (seat + 1) % state.seats
    state = replace(state, deal=deal, turn=nxt)
    if can_reshuffle(deal):
        state, more = take_deck(replace(state, phase="shuffle"))
        events.extend(more)
    events.append({"type": "turn", "seat": nxt})
    return state, events


def end_round(state: MatchState, deal: Deal, events: list[Event]) -> tuple[MatchState, list[Event]]:
    """G13, G14: score the round and add it to the totals. After the last round (G15) the match is
    over and the state stays as the round left it; otherwise the next seat deals the next round."""
    result = score_round(state.round, state.dealer, deal)
    totals = tuple(t + p for t, p in zip(state.totals, result.points, strict=True))
    state = replace(state, deal=deal, totals=totals, rounds=(*state.rounds, result), turn=None)
    events.append({"type": "round_over", **result.to_json(), "totals": list(totals)})
    if state.round >= state.options.rounds:
        won = winners(totals, state.in_seats)
        events.append({"type": "match_over", "reason": "won", "winners": list(won), "totals": list(totals)})
        return replace(state, phase="over", winners=won), events
    state = replace(state, phase="shuffle", round=state.round + 1, dealer=(state.dealer + 1) % state.seats,
                    deal=None)
    state, more = take_deck(state)
    return state, events + more


def forfeit(state: MatchState, seat: int) -> tuple[MatchState, list[Event]]:
    """The seat is out and cannot win (record page, forfeit). When one seat only is left in (two
    seats, or every other out) the match ends at once and that seat wins; the state stays as it
    was (a held card, ``knocker`` and ``final_turns`` included) with ``turn`` null."""
    out = tuple(sorted((*state.forfeited, seat)))
    state = replace(state, forfeited=out)
    events: list[Event] = [{"type": "forfeit", "seat": seat}]
    left = state.in_seats
    if len(left) == 1:
        events.append({"type": "match_over", "reason": "forfeit", "winners": list(left),
                       "totals": list(state.totals)})
        return replace(state, phase="over", turn=None, winners=left), events
    return state, events
