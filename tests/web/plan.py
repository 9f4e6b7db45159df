"""A scripted 1v1 match for the browser tests: stacked decks and a fixed policy, played
on a shadow engine so the test knows every expected state and round result.

The policy (for whichever seat acts): cut at a fixed position; keep in odd rounds,
table in even ones; claim a missed capture when one is open (R19-R22); otherwise take
the capture that empties the table (R23), else a sum (R15), else any capture; else lay
the lowest card. Once per match, the first seat that could capture lays instead, so a
missed capture happens (R19).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dineri.engine import (
    CODE,
    FULL_DECK,
    VALUE,
    Action,
    Claim,
    Cut,
    Keep,
    MatchState,
    Options,
    Play,
    TableDrawn,
    apply,
    legal_actions,
    new_match,
)


def decks_for(seed: int, count: int = 12) -> list[list[str]]:
    """``count`` deck orders (card codes) from a seeded shuffle."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        d = list(FULL_DECK)
        rng.shuffle(d)
        out.append([CODE[c] for c in d])
    return out


@dataclass
class Plan:
    """Shadow match state plus the policy's memory."""

    decks: list[list[str]]
    first_dealer: int = 0
    state: MatchState = field(init=False)
    missed_done: bool = False
    seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        from dineri.engine import parse_card

        decks = [[parse_card(c) for c in d] for d in self.decks]
        self.state = new_match(Options(2, 11, 1), self.first_dealer, decks)

    def actor(self) -> int | None:
        """The seat that acts next (None when the match is over)."""
        st = self.state
        if st.phase == "over":
            return None
        return st.turn

    def choose(self) -> Action:
        """The policy's next action for :meth:`actor`."""
        st, seat = self.state, self.actor()
        assert seat is not None
        if st.phase == "cut":
            return Cut(seat, (7 * st.round + 3) % 40)
        if st.phase == "cut_choice":
            return Keep(seat) if st.round % 2 else TableDrawn(seat)
        legal = [a for a in legal_actions(st, seat) if isinstance(a, Play | Claim)]
        claims = [a for a in legal if isinstance(a, Claim)]
        if claims:
            return max(claims, key=lambda a: len(a.capture))
        captures = [a for a in legal if isinstance(a, Play) and a.capture]
        deal = st.deal
        assert deal is not None
        if captures and not self.missed_done and len(deal.hands[seat]) > 1:
            self.missed_done = True
            return Play(seat, captures[0].card)
        sweep = [a for a in captures if len(a.capture) == len(deal.table)]
        sums = [a for a in captures if len(a.capture) >= 2]
        for group in (sweep, sums, captures):
            if group:
                return group[0]
        lays = [a for a in legal if isinstance(a, Play) and not a.capture]
        return min(lays, key=lambda a: VALUE[a.card])

    def pack_position(self, drawn: str) -> int:
        """The cut position that draws *drawn* from the current shuffle (R8: the drawn card is
        ``deck[k]``), to follow a random cut chosen by the server."""
        deck = self.state.deck
        assert deck is not None
        return [CODE[c] for c in deck].index(drawn)

    def step(self, action: Action) -> list[dict[str, Any]]:
        """Apply *action* to the shadow state; return its events and note what happened."""
        self.state, events = apply(self.state, action)
        for ev in events:
            if ev["type"] == "cut":
                self.seen.add("cut")
            if ev["type"] in ("play", "claim") and ev.get("chkobba"):
                self.seen.add("chkobba")
            if ev["type"] == "claim":
                self.seen.add("claim")
            if ev["type"] == "play" and len(ev.get("capture") or ()) >= 2:
                self.seen.add("sum")
        return events


def action_json(action: Action) -> dict[str, Any]:
    """The protocol's action object for *action* (card codes)."""
    if isinstance(action, Cut):
        return {"type": "cut", "at": action.at}
    if isinstance(action, Keep):
        return {"type": "keep"}
    if isinstance(action, TableDrawn):
        return {"type": "table"}
    if isinstance(action, Claim):
        return {"type": "claim", "card": CODE[action.card], "capture": [CODE[c] for c in action.capture]}
    assert isinstance(action, Play)
    return {"type": "play", "card": CODE[action.card], "capture": [CODE[c] for c in action.capture]}


def full_run(seed: int) -> Plan:
    """Play the whole scripted match offline."""
    plan = Plan(decks_for(seed))
    while plan.actor() is not None:
        plan.step(plan.choose())
    return plan


if __name__ == "__main__":
    for s in range(20):
        p = full_run(s)
        print(s, sorted(p.seen), len(p.state.rounds), p.state.winner, p.state.scores)
