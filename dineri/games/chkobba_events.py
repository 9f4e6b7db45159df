"""The public events of a Chkobba match (what ``apply`` returns, plus the fairness events),
as pydantic models: they document the ``event`` messages of ``docs/protocol.md``, give their
JSON Schemas, and let tests check that no event ever carries a key it should not (a hidden
card could only leak through an undocumented key)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from dineri.games.chkobba_actions import CardCode
from dineri.games.models import CommitmentFields, FairnessFields, Strict

Side = Annotated[int, Field(ge=0, le=1)]
Seat = Annotated[int, Field(ge=0, le=3)]
Pair = Annotated[list[int], Field(min_length=2, max_length=2)]


class CommitmentEvent(CommitmentFields):
    """R7: the commitment to the next shuffle (``deck`` = its 0-based index), before its cut."""


class CutEvent(Strict):
    """R8: the cutter cut at ``at``; ``drawn`` is the card shown to every player."""

    type: Literal["cut"]
    seat: Seat
    at: int = Field(ge=0, le=39)
    drawn: CardCode
    auto: bool


class DealEvent(Strict):
    """R9: the cutter kept or tabled the drawn card; the 4 table cards (hands come in views)."""

    type: Literal["deal"]
    seat: Seat
    choice: Literal["keep", "table"]
    table: list[CardCode] = Field(min_length=4, max_length=4)
    hand_sizes: list[int]
    deck_left: int
    auto: bool


class DealMoreEvent(Strict):
    """R11: 3 more cards to each seat."""

    type: Literal["deal_more"]
    hand_sizes: list[int]
    deck_left: int


class PlayEvent(Strict):
    """R13–R18, R23: a card played; ``capture`` empty = laid; ``chkobba`` when it swept the table."""

    type: Literal["play"]
    seat: Seat
    card: CardCode
    capture: list[CardCode]
    chkobba: bool
    auto: bool


class ClaimEvent(Strict):
    """R19–R22: a missed capture claimed with the laid ``card``."""

    type: Literal["claim"]
    seat: Seat
    card: CardCode
    capture: list[CardCode] = Field(min_length=1)
    chkobba: bool
    auto: bool


class RedealProposedEvent(Strict):
    """R10: a redeal proposed."""

    type: Literal["redeal_proposed"]
    seat: Seat
    auto: bool


class RedealAnsweredEvent(Strict):
    """R10: an opponent of the proposer answered."""

    type: Literal["redeal_answered"]
    seat: Seat
    accept: bool
    auto: bool


class RoundResultModel(Strict):
    """R26–R29: a finished round (``match-record.md``); categories hold the side or null (baji)."""

    game: int
    round: int
    cards: Pair
    dinari_cards: Pair
    sevens: Pair
    sixes: Pair
    chkobbas: Pair
    karta: Side | None
    dinari: Side | None
    barmila: Side | None
    sabaa: Side | None
    points: Pair


class RoundOverEvent(Strict):
    """R25–R29: the round ended: leftovers (to the last capturing side), result, game scores."""

    type: Literal["round_over"]
    leftovers: list[CardCode]
    leftovers_to: Side | None
    result: RoundResultModel
    scores: Pair


class GameOverEvent(Strict):
    """R31: a side won the game."""

    type: Literal["game_over"]
    game: int
    winner: Side
    scores: Pair
    games_won: Pair


class ForfeitEvent(Strict):
    """R33: a seat's side forfeited (``auto``: its grace period ran out)."""

    type: Literal["forfeit"]
    seat: Seat
    side: Side
    auto: bool


class MatchOverEvent(Strict):
    """R32, R33: the match is over."""

    type: Literal["match_over"]
    winner: Side
    games_won: Pair
    reason: Literal["won", "forfeit"]


class Fairness(FairnessFields):
    """A revealed salt and the commitment it opens (R7)."""


class RevealEvent(Strict):
    """R7: after the match, every deck (top first, before its cut) and its salt."""

    type: Literal["reveal"]
    decks: list[list[CardCode]]
    fairness: list[Fairness]


EVENT_MODELS: dict[str, type[BaseModel]] = {
    "commitment": CommitmentEvent, "cut": CutEvent, "deal": DealEvent, "deal_more": DealMoreEvent,
    "play": PlayEvent, "claim": ClaimEvent, "redeal_proposed": RedealProposedEvent,
    "redeal_answered": RedealAnsweredEvent, "round_over": RoundOverEvent, "game_over": GameOverEvent,
    "forfeit": ForfeitEvent, "match_over": MatchOverEvent, "reveal": RevealEvent,
}
