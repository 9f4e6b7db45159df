"""The events of a golf4 match (what the engine's ``apply`` returns, plus the fairness events and
the one private event), as pydantic models: they document the ``event`` messages, give their JSON
Schemas (``docs/schemas/golf4/events/``), and let tests check that no event ever carries a key it
should not (a hidden card could only leak through an undocumented key)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from dineri.games.models import CommitmentFields, FairnessFields, Strict

CardCode = Annotated[str, Field(pattern=r"^[A2-9TJQK][DHSC]$", description="a card code, e.g. TH (G3)")]
Seat = Annotated[int, Field(ge=0, le=7)]
Slot = Annotated[int, Field(ge=0, le=3)]
PerSeat = Annotated[list[int], Field(min_length=2, max_length=8)]


class CommitmentEvent(CommitmentFields):
    """The commitment to the next deck (``deck``: its 0-based index in the record), published
    before the deck is used (a round's deal, or a reshuffle, G11)."""


class DealEvent(Strict):
    """G5: a round dealt; its first discard, face up. The four cards of each seat lie face down."""

    type: Literal["deal"]
    round: int = Field(ge=1)
    dealer: Seat
    discard: CardCode
    stock_left: int = Field(ge=0)


class PeekEvent(Strict):
    """G6: a seat looked at its slots 2 and 3 (the cards go to that seat alone: ``peek_cards``)."""

    type: Literal["peek"]
    seat: Seat
    auto: bool


class SkipPeekEvent(Strict):
    """G6: a seat declined to look (``auto``: the time limit passed)."""

    type: Literal["skip_peek"]
    seat: Seat
    auto: bool


class PeekCardsEvent(Strict):
    """G6, private: to the peeking seat alone, once, never logged or resent: its slots 2 and 3."""

    type: Literal["peek_cards"]
    slots: dict[Literal["2", "3"], CardCode]


class TurnEvent(Strict):
    """G4: ``seat`` plays next."""

    type: Literal["turn"]
    seat: Seat


class DrawEvent(Strict):
    """G8: a seat drew the top stock card (which card: to the drawer alone, in its view)."""

    type: Literal["draw"]
    seat: Seat
    stock_left: int = Field(ge=0)
    auto: bool


class TakeEvent(Strict):
    """G9: a seat took the top discard ``card``."""

    type: Literal["take"]
    seat: Seat
    card: CardCode
    auto: bool


class SwapEvent(Strict):
    """G8, G9: the held card (``from`` the stock or the discard pile) went face down into ``slot``;
    ``card``, the one that lay there, went face up on the discard pile."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    type: Literal["swap"]
    seat: Seat
    slot: Slot
    from_: Literal["stock", "discard"] = Field(alias="from")
    card: CardCode
    auto: bool


class DiscardEvent(Strict):
    """G8: the drawn ``card`` went face up on the discard pile."""

    type: Literal["discard"]
    seat: Seat
    card: CardCode
    auto: bool


class KnockEvent(Strict):
    """G10: ``seat`` knocked; ``final_turns``: the seats owed one last turn, in order."""

    type: Literal["knock"]
    seat: Seat
    final_turns: list[Seat]
    auto: bool


class ReshuffleEvent(Strict):
    """G11: the discards but the top one became the new stock, in the order of deck ``deck``."""

    type: Literal["reshuffle"]
    stock_left: int = Field(ge=0)
    deck: int = Field(ge=0)


class RoundOverEvent(Strict):
    """G13, G14: the round ended; every hand turned up, each seat's ``cards``, ``penalty`` and
    ``points``, and the running ``totals``."""

    type: Literal["round_over"]
    round: int = Field(ge=1)
    dealer: Seat
    knocker: Seat | None
    hands: list[Annotated[list[CardCode], Field(min_length=4, max_length=4)]]
    cards: PerSeat
    penalty: PerSeat
    points: PerSeat
    totals: PerSeat


class ForfeitEvent(Strict):
    """A seat forfeited: it is out and cannot win (``side``: the seat itself, everyone plays alone)."""

    type: Literal["forfeit"]
    seat: Seat
    side: Seat
    auto: bool


class MatchOverEvent(Strict):
    """G15: the match is over; ``winners``: the seats still in with the lowest total."""

    type: Literal["match_over"]
    reason: Literal["won", "forfeit"]
    winners: list[Seat]
    totals: PerSeat


class Fairness(FairnessFields):
    """A revealed salt and the commitment it opens."""


class RevealEvent(Strict):
    """After the match: every deck (52 codes, top first) and its salt."""

    type: Literal["reveal"]
    decks: list[Annotated[list[CardCode], Field(min_length=52, max_length=52)]]
    fairness: list[Fairness]


EVENT_MODELS: dict[str, type[BaseModel]] = {
    "commitment": CommitmentEvent, "deal": DealEvent, "peek": PeekEvent, "skip_peek": SkipPeekEvent,
    "peek_cards": PeekCardsEvent, "turn": TurnEvent, "draw": DrawEvent, "take": TakeEvent,
    "swap": SwapEvent, "discard": DiscardEvent, "knock": KnockEvent, "reshuffle": ReshuffleEvent,
    "round_over": RoundOverEvent, "forfeit": ForfeitEvent, "match_over": MatchOverEvent,
    "reveal": RevealEvent,
}
