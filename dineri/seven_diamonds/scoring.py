"""The round's count and the game (S13–S16).

The round ends the moment a seat plays its last card (S13). Card points are the values (S14:
ace 20; K, Q, J 10; T, 9, 8, 7 nothing) of the two opponents' hands; the winner's partner's
cards are not looked at. Points = card points × multiplier + 200 when the last card is a 7
(S15: the bonus is added after and not multiplied), to the winning side. A side at 500 or more
after a round wins the game (S16); else the next seat deals the next round (S4).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dineri.seven_diamonds.cards import POINTS, RANK, Card
from dineri.seven_diamonds.deal import deal_event, take_deck
from dineri.seven_diamonds.state import SEATS, MatchState, RoundResult

Event = dict[str, Any]
SEVEN_BONUS = 200  # S15


def score_round(state: MatchState, out: int, last_card: Card) -> RoundResult:
    """The result of the round ``out`` just won by playing ``last_card`` (S13–S15).

    ``state.hands`` are the hands after that card (``out``'s is empty).
    """
    side = out % 2
    partner = (out + 2) % SEATS
    left = tuple(None if seat == partner else state.hands[seat] for seat in range(SEATS))
    card_points = sum(POINTS[c] for seat in range(SEATS) if seat % 2 != side for c in state.hands[seat])
    bonus = SEVEN_BONUS if RANK[last_card] == 0 else 0
    total = card_points * state.multiplier + bonus
    points = (total, 0) if side == 0 else (0, total)
    return RoundResult(round=state.round, dealer=state.dealer, bids=state.bids, multiplier=state.multiplier,
                       out=out, last_card=last_card, left=left, card_points=card_points, bonus=bonus,
                       points=points)


def match_winner(scores: tuple[int, int], target: int) -> int | None:
    """S16: the side at ``target`` or more, else ``None``. Only one side scores per round, so
    both can never be there at once."""
    for side in (0, 1):
        if scores[side] >= target:
            return side
    return None


def end_round(state: MatchState, out: int, last_card: Card,
              events: list[Event]) -> tuple[MatchState, list[Event]]:
    """S13–S16 after ``out`` played its last card: score the round, then end the match (phase
    ``over``, the state as the round left it) or begin the next round (S4)."""
    result = score_round(state, out, last_card)
    scores = (state.scores[0] + result.points[0], state.scores[1] + result.points[1])
    state = replace(state, scores=scores, rounds=(*state.rounds, result))
    events.append({"type": "round_over", "result": result.to_json(), "scores": list(scores)})
    winner = match_winner(scores, state.options.target)
    if winner is not None:
        events.append({"type": "match_over", "winner": winner, "reason": "won", "scores": list(scores)})
        return replace(state, phase="over", turn=None, winner=winner), events
    state = take_deck(replace(state, round=state.round + 1, dealer=(state.dealer + 1) % SEATS))
    if state.phase == "bidding":
        events.append(deal_event(state))
    return state, events
