"""The Seven Diamonds action objects a client sends inside an ``action`` message.

They are the actions of ``match-record-seven-diamonds.md`` without ``seat`` (the server knows the
sender's seat) and without ``auto`` (only the server makes auto actions). These models give the
JSON Schemas in ``docs/schemas/seven_diamonds/`` and check a client's form strictly; the engine
(:mod:`dineri.seven_diamonds`) remains the judge of the rules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from dineri.games.models import Strict

CardCode = Annotated[str, Field(pattern=r"^[789TJQKAtjqka][DHSCdhsc]$",
                                description="a card code of S1, e.g. 7D or TH (either case)")]


class BidAction(Strict):
    """S5–S6: the seat whose call it is says ``pass`` or ``double`` (stage 1), ``pass`` or
    ``three`` (stage 2, the doubler's opponents)."""

    type: Literal["bid"]
    call: Literal["pass", "double", "three"]


class PlayAction(Strict):
    """S8–S9: play ``card`` on its suit's pile (the round's first card is the 7D)."""

    type: Literal["play"]
    card: CardCode


class PassAction(Strict):
    """S10: pass, holding no card that fits (announced as jella)."""

    type: Literal["pass"]


class ForfeitAction(Strict):
    """The sender's side forfeits the match."""

    type: Literal["forfeit"]


ACTION_MODELS: dict[str, type[BaseModel]] = {
    "bid": BidAction, "play": PlayAction, "pass": PassAction, "forfeit": ForfeitAction,
}
