"""The Chkobba action objects a client sends inside an ``action`` message.

They are the actions of ``match-record.md`` without ``seat`` (the server knows
the sender's seat) and without ``auto`` (only the server makes auto actions).
These models give the JSON Schemas in ``docs/schemas/chkobba/``; the engine's
``action_from_json`` remains the judge of the form (code ``malformed``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from dineri.games.models import Strict

CardCode = Annotated[str, Field(pattern=r"^[A2-7QJK][DHSC]$", description="a card code, e.g. 7D (R1)")]


class CutAction(Strict):
    """R8: cut at position ``at`` (0–39); absent or null lets the server pick one at random."""

    type: Literal["cut"]
    at: int | None = Field(default=None, ge=0, le=39)


class KeepAction(Strict):
    """R9: the cutter keeps the drawn card."""

    type: Literal["keep"]


class TableAction(Strict):
    """R9: the cutter puts the drawn card on the table."""

    type: Literal["table"]


class ProposeRedealAction(Strict):
    """R10: propose a redeal."""

    type: Literal["propose_redeal"]


class AnswerRedealAction(Strict):
    """R10: an opponent of the proposer accepts or refuses."""

    type: Literal["answer_redeal"]
    accept: bool


class ClaimAction(Strict):
    """R19–R22: claim a missed capture with the laid ``card``, naming the cards it could take."""

    type: Literal["claim"]
    card: CardCode
    capture: list[CardCode] = Field(min_length=1)


class PlayAction(Strict):
    """R13–R18: play ``card``; ``capture`` names the cards taken (absent or empty = lay it)."""

    type: Literal["play"]
    card: CardCode
    capture: list[CardCode] = Field(default_factory=list)


class ForfeitAction(Strict):
    """R33: the sender's side forfeits the match."""

    type: Literal["forfeit"]


ChkobbaAction = Annotated[
    CutAction | KeepAction | TableAction | ProposeRedealAction | AnswerRedealAction | ClaimAction
    | PlayAction | ForfeitAction,
    Field(discriminator="type"),
]

ACTION_MODELS: dict[str, type[BaseModel]] = {
    "cut": CutAction, "keep": KeepAction, "table": TableAction, "propose_redeal": ProposeRedealAction,
    "answer_redeal": AnswerRedealAction, "claim": ClaimAction, "play": PlayAction,
    "forfeit": ForfeitAction,
}
