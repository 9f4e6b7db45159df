"""The pydantic pieces every game's action and event models share (``*_actions.py``,
``*_events.py``): strict objects, and the fairness events' fields, which
:mod:`dineri.games.common` makes alike for every game. Each game's module subclasses them under
its own names and docstrings, so the JSON Schemas (titles, descriptions) stay the game's own."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    """An object with no key beyond its fields (``extra="forbid"``)."""

    model_config = ConfigDict(extra="forbid")


class CommitmentFields(Strict):
    """The fields of a ``commitment`` event (:func:`dineri.games.common.commitment_event`):
    ``deck``, the 0-based index of the deck in the record; ``commitment``, 64 hex digits."""

    type: Literal["commitment"]
    deck: int = Field(ge=0)
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$")


class FairnessFields(Strict):
    """The fields of one revealed deck's fairness entry: the ``salt`` and the ``commitment`` it
    opens."""

    salt: str
    commitment: str
