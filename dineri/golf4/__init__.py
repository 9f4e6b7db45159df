"""The pure Four-card Golf engine (``docs/rules/golf4.md``, G1–G15; records:
``docs/match-record-golf4.md``).

Standard library only: no clock, I/O, environment or global random generator.
Randomness arrives as deck orders; the same decks and actions always give the
same states, and states are immutable. Entry points:

- :func:`new_match`, :func:`add_deck`, :func:`apply`, :func:`legal_actions`;
- :func:`public_view`, :func:`private_view`, :func:`seat_view`, :func:`spectator_view`,
  :func:`summary`;
- :func:`load_record`, :func:`replay`, :func:`steps` for ``dineri-match/1`` golf4 records.
"""

from dineri.golf4.actions import (
    ACTION_TYPES,
    Action,
    Discard,
    Draw,
    Forfeit,
    Knock,
    Peek,
    SkipPeek,
    Swap,
    Take,
    action_from_json,
    action_to_json,
)
from dineri.golf4.cards import CODE, FULL_DECK, VALUE, Card, card_codes, hand_value, parse_card
from dineri.golf4.deal import check_deck, peek_slots
from dineri.golf4.errors import CODES, RecordError, RuleError
from dineri.golf4.legal import legal_actions
from dineri.golf4.options import Options
from dineri.golf4.record import (
    FORMAT,
    GAME,
    Fairness,
    MatchRecord,
    Replay,
    Step,
    load_record,
    parse_deck,
    replay,
    replay_json,
    start,
    steps,
)
from dineri.golf4.rules import Event, add_deck, apply, new_match
from dineri.golf4.scoring import ranks, score_round, winners
from dineri.golf4.state import Deal, Held, MatchState, RoundResult
from dineri.golf4.views import private_view, public_view, seat_view, spectator_view, summary

__all__ = [
    "ACTION_TYPES", "CODE", "CODES", "FORMAT", "FULL_DECK", "GAME", "VALUE",
    "Action", "Card", "Deal", "Discard", "Draw", "Event", "Fairness", "Forfeit", "Held", "Knock",
    "MatchRecord", "MatchState", "Options", "Peek", "RecordError", "Replay", "RoundResult",
    "RuleError", "SkipPeek", "Step", "Swap", "Take",
    "action_from_json", "action_to_json", "add_deck", "apply", "card_codes", "check_deck",
    "hand_value", "legal_actions", "load_record", "new_match", "parse_card", "parse_deck",
    "peek_slots", "private_view", "public_view", "ranks", "replay", "replay_json", "score_round",
    "seat_view", "spectator_view", "start", "steps", "summary", "winners",
]
