"""The pure Seven Diamonds rules engine (``docs/rules/seven-diamonds.md``, S1–S16).

Standard library only: no clock, I/O, environment or global random generator. Randomness
arrives as deck orders; the same decks and actions always give the same states, which are
frozen dataclasses over tuples. Entry points:

- :func:`new_match`, :func:`add_deck`, :func:`apply`, :func:`legal_actions`, :func:`legal_cards`;
- :func:`seat_view`, :func:`spectator_view`, :func:`public_view`, :func:`private_view`,
  :func:`summary`;
- :func:`load_record`, :func:`replay`, :func:`replay_steps` for ``dineri-match/1`` records
  (``docs/match-record-seven-diamonds.md``).
"""

from dineri.seven_diamonds.actions import (
    CALLS,
    Action,
    Bid,
    Forfeit,
    Pass,
    Play,
    action_from_json,
    action_to_json,
)
from dineri.seven_diamonds.bidding import calls_allowed, holder_of_seven
from dineri.seven_diamonds.cards import (
    CODE,
    FULL_DECK,
    POINTS,
    RANK,
    SEVEN_OF_DIAMONDS,
    SUIT,
    Card,
    card_codes,
    parse_card,
)
from dineri.seven_diamonds.deal import deal_event, deal_hands
from dineri.seven_diamonds.errors import CODES, RecordError, RuleError
from dineri.seven_diamonds.play import fits, legal_cards
from dineri.seven_diamonds.record import (
    FORMAT,
    GAME,
    Fairness,
    MatchRecord,
    Replay,
    load_record,
    parse_deck,
    replay,
    replay_json,
    replay_steps,
)
from dineri.seven_diamonds.rules import add_deck, apply, legal_actions, new_match
from dineri.seven_diamonds.scoring import SEVEN_BONUS, match_winner, score_round
from dineri.seven_diamonds.state import MatchState, Options, RoundResult
from dineri.seven_diamonds.views import private_view, public_view, seat_view, spectator_view, summary

__all__ = [
    "CALLS", "CODE", "CODES", "FORMAT", "FULL_DECK", "GAME", "POINTS", "RANK", "SEVEN_BONUS",
    "SEVEN_OF_DIAMONDS", "SUIT",
    "Action", "Bid", "Card", "Fairness", "Forfeit", "MatchRecord", "MatchState", "Options", "Pass",
    "Play", "RecordError", "Replay", "RoundResult", "RuleError",
    "action_from_json", "action_to_json", "add_deck", "apply", "calls_allowed", "card_codes",
    "deal_event", "deal_hands", "fits", "holder_of_seven", "legal_actions", "legal_cards",
    "load_record", "match_winner", "new_match", "parse_card", "parse_deck", "private_view",
    "public_view", "replay", "replay_json", "replay_steps", "score_round", "seat_view",
    "spectator_view", "summary",
]
