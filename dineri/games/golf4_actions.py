"""The golf4 action objects a client sends inside an ``action`` message.

They are the actions of ``match-record-golf4.md`` without ``seat`` (the server knows the sender's
seat) and without ``auto`` (only the server makes auto actions). These models give the JSON
Schemas in ``docs/schemas/golf4/`` and are checked strictly (``True`` is not a slot, ``1.0`` is
not ``1``); the engine's ``action_from_json`` stays the judge of the rules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from dineri.games.models import Strict


class PeekAction(Strict):
    """G6: look once at your slots 2 and 3 (shown to you alone, once)."""

    type: Literal["peek"]


class SkipPeekAction(Strict):
    """G6: decline to look."""

    type: Literal["skip_peek"]


class DrawAction(Strict):
    """G8: take the top stock card (seen by you alone while you hold it)."""

    type: Literal["draw"]


class TakeAction(Strict):
    """G9: take the top discard (it must then be swapped in)."""

    type: Literal["take"]


class SwapAction(Strict):
    """G8, G9: put the held card face down into ``slot`` (0 top-left, 1 top-right, 2 bottom-left,
    3 bottom-right); the card there goes face up on the discard pile."""

    type: Literal["swap"]
    slot: int = Field(ge=0, le=3)


class DiscardAction(Strict):
    """G8: discard the card you drew from the stock."""

    type: Literal["discard"]


class KnockAction(Strict):
    """G10: knock at the start of your turn, if nobody has knocked this round."""

    type: Literal["knock"]


class ForfeitAction(Strict):
    """Leave the match: your seat is out and cannot win (``match-record-golf4.md``)."""

    type: Literal["forfeit"]


ACTION_MODELS: dict[str, type[BaseModel]] = {
    "peek": PeekAction, "skip_peek": SkipPeekAction, "draw": DrawAction, "take": TakeAction,
    "swap": SwapAction, "discard": DiscardAction, "knock": KnockAction, "forfeit": ForfeitAction,
}
