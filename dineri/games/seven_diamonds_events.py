"""The public events of a Seven Diamonds match (what the engine's ``apply`` returns, plus the
fairness events), as pydantic models: they document the ``event`` messages of
``docs/protocol.md``, give their JSON Schemas, and let tests check that no event carries a key
it should not (a hidden card could only leak through an undocumented key)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from dineri.games.models import CommitmentFields, FairnessFields, Strict

CardCode = Annotated[str, Field(pattern=r"^[789TJQKA][DHSC]$", description="a card code (S1)")]
Side = Annotated[int, Field(ge=0, le=1)]
Seat = Annotated[int, Field(ge=0, le=3)]
Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
Four = Annotated[list[int], Field(min_length=4, max_length=4)]
Multiplier = Annotated[int, Field(ge=1, le=3)]


class CommitmentEvent(CommitmentFields):
    """The commitment to the next deck (``deck`` = its 0-based index), before it is dealt."""


class DealEvent(Strict):
    """S4: ``dealer`` dealt round ``round``, 8 cards each (hands come in the seat views);
    ``turn`` calls first (S5)."""

    type: Literal["deal"]
    round: int = Field(ge=1)
    dealer: Seat
    hand_sizes: Four
    turn: Seat


class Call(Strict):
    """One call of the bidding."""

    seat: Seat
    call: Literal["pass", "double", "three"]


class BidEvent(Strict):
    """S5–S6: a call, and the multiplier standing after it."""

    type: Literal["bid"]
    seat: Seat
    call: Literal["pass", "double", "three"]
    multiplier: Multiplier
    auto: bool


class PlayBeginsEvent(Strict):
    """S6–S8: the bidding is over; ``turn`` is the holder of the 7D, who plays it first."""

    type: Literal["play_begins"]
    multiplier: Multiplier
    doubler: Seat | None
    tripler: Seat | None
    turn: Seat


class PlayEvent(Strict):
    """S8–S9: a card played on its pile; ``hand_size`` is what the seat holds after it."""

    type: Literal["play"]
    seat: Seat
    card: CardCode
    hand_size: int = Field(ge=0, le=7)
    auto: bool


class LastCardEvent(Strict):
    """S11: the seat is down to one card (the server announces it)."""

    type: Literal["last_card"]
    seat: Seat


class JellaEvent(Strict):
    """S10: the seat passed, holding no card that fits (جلى)."""

    type: Literal["jella"]
    seat: Seat
    auto: bool


class RoundResultModel(Strict):
    """S13–S15: a finished round (record page): ``left`` per seat, ``[]`` for ``out``, null for
    its partner (not looked at); ``points`` = card points × multiplier + bonus, to one side."""

    round: int = Field(ge=1)
    dealer: Seat
    bids: list[Call]
    multiplier: Multiplier
    out: Seat
    last_card: CardCode
    left: Annotated[list[list[CardCode] | None], Field(min_length=4, max_length=4)]
    card_points: int = Field(ge=0)
    bonus: Literal[0, 200]
    points: Pair


class RoundOverEvent(Strict):
    """S13–S16: the round ended; its result and the running scores."""

    type: Literal["round_over"]
    result: RoundResultModel
    scores: Pair


class ForfeitEvent(Strict):
    """A seat's side forfeited (``auto``: its grace period ran out)."""

    type: Literal["forfeit"]
    seat: Seat
    side: Side
    auto: bool


class MatchOverEvent(Strict):
    """S16 or a forfeit: the match is over."""

    type: Literal["match_over"]
    winner: Side
    reason: Literal["won", "forfeit"]
    scores: Pair


class Fairness(FairnessFields):
    """A revealed salt and the commitment it opens."""


class RevealEvent(Strict):
    """After the match: every deck (top first) and its salt."""

    type: Literal["reveal"]
    decks: list[list[CardCode]]
    fairness: list[Fairness]


EVENT_MODELS: dict[str, type[BaseModel]] = {
    "commitment": CommitmentEvent, "deal": DealEvent, "bid": BidEvent, "play_begins": PlayBeginsEvent,
    "play": PlayEvent, "last_card": LastCardEvent, "jella": JellaEvent, "round_over": RoundOverEvent,
    "forfeit": ForfeitEvent, "match_over": MatchOverEvent, "reveal": RevealEvent,
}
