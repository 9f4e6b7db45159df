"""Drive golf4 matches through the games interface as the table service does: supply decks when
asked, make the immediate actions, and otherwise let a seat the game waits on act (a random legal
action, or its clock's auto action). Every step is handed to ``check`` for inspection."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dineri.games.golf4 import Golf4Game, Golf4Match
from dineri.golf4 import CODE

Json = dict[str, Any]


@dataclass
class Step:
    """One change: the match before and after, who acted (``None`` for a deck), the action, the
    public events and the private events."""

    before: Golf4Match
    after: Golf4Match
    seat: int | None
    action: Json | None
    auto: bool
    events: list[Json]
    private: dict[int, list[Json]] = field(default_factory=dict)


def run(seats: int, seed: int, check: Callable[[Step], None] | None = None, *, rounds: int = 9,
        forfeit_rate: float = 0.0005, auto_rate: float = 0.1, knock_rate: float = 0.1,
        limit: int = 200000) -> Golf4Match:
    """Play one random match to its end; return the final match."""
    rng = random.Random(seed)
    game = Golf4Game()
    decks = []
    for _ in range(3):  # the first decks stacked from the seed (through ``pending_decks``), then secure ones
        d = list(CODE)
        rng.shuffle(d)
        decks.append(d)
    match, events = game.new_match({"seats": seats, "rounds": rounds}, [f"p{i}" for i in range(seats)],
                                   first_dealer=rng.randrange(seats), decks=decks)
    for _ in range(limit):
        if match.over:
            return match
        before = match
        if match.needs_deck():
            match, events = match.add_deck()
            step = Step(before, match, None, None, False, events)
        elif (imm := match.immediate_action()) is not None:
            seat, action = imm
            match, events = match.apply(seat, action, auto=True)
            step = Step(before, match, seat, action, True, events, match.private_events())
        else:
            waiting = match.waiting_for()
            assert waiting, match.summary()
            seat = rng.choice(waiting)
            auto = rng.random() < auto_rate
            if rng.random() < forfeit_rate:
                action: Json | None = match.forfeit_action()
            elif auto:
                action = match.auto_action(seat)
            else:
                legal = [a for a in match.legal_actions(seat) if a["type"] != "forfeit"]
                knocks = [a for a in legal if a["type"] == "knock"]
                action = knocks[0] if knocks and rng.random() < knock_rate else rng.choice(
                    [a for a in legal if a["type"] != "knock"] or legal)
            assert action is not None
            match, events = match.apply(seat, action, auto=auto)
            step = Step(before, match, seat, action, auto, events, match.private_events())
        if check is not None:
            check(step)
    raise AssertionError("the match did not end")
