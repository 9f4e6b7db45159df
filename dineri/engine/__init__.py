"""The pure Chkobba rules engine (``docs/rules/chkobba.md``, R1–R33).

Standard library only: no clock, I/O, environment or global random generator.
Randomness arrives as deck orders; the same decks and actions always give the
same states. Entry points:

- :func:`new_match`, :func:`add_deck`, :func:`apply`, :func:`legal_actions`;
- :func:`seat_view`, :func:`spectator_view`, :func:`summary`;
- :func:`load_record`, :func:`replay` for ``dineri-match/1`` records.
"""

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
    action_from_json,
    action_to_json,
)
from dineri.engine.captures import can_capture, is_legal_capture, legal_captures
from dineri.engine.cards import CODE, FULL_DECK, VALUE, Card, card_code, card_codes, parse_card, parse_cards
from dineri.engine.errors import CODES, RecordError, RuleError
from dineri.engine.record import FORMAT, Fairness, MatchRecord, Replay, load_record, replay, replay_json
from dineri.engine.rules import Event, add_deck, apply, legal_actions, new_match
from dineri.engine.scoring import game_winner, score_round
from dineri.engine.state import Deal, MatchState, Options, RoundResult, Window
from dineri.engine.views import private_view, seat_view, spectator_view, summary

__all__ = [
    "CODE", "CODES", "FORMAT", "FULL_DECK", "VALUE",
    "Action", "AnswerRedeal", "Card", "Claim", "Cut", "Deal", "Event", "Fairness", "Forfeit",
    "Keep", "MatchRecord", "MatchState", "Options", "Play", "ProposeRedeal", "RecordError",
    "Replay", "RoundResult", "RuleError", "TableDrawn", "Window",
    "action_from_json", "action_to_json", "add_deck", "apply", "can_capture", "card_code",
    "card_codes", "game_winner", "is_legal_capture", "legal_actions", "legal_captures",
    "load_record", "new_match", "parse_card", "parse_cards", "private_view", "replay", "replay_json",
    "score_round", "seat_view", "spectator_view", "summary",
]
