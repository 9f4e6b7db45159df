"""Drive whole matches through real sockets, following them with a shadow engine state.

The shadow state is built from the same stacked decks the test gave the server, and each
accepted action is applied to it, so the driver always knows each seat's legal actions
(``legal_actions``) and which cards each receiver may not see at every event number.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dineri import engine
from dineri.engine import CODE, FULL_DECK, MatchState, Options
from tests.cardscan import card_strings
from tests.server.harness import Client

CARD_CODES = frozenset(CODE)


def stacked_decks(rng: random.Random, n: int = 40) -> list[list[str]]:
    """``n`` shuffled decks (card codes) from a seeded generator."""
    out = []
    for _ in range(n):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        out.append([CODE[c] for c in deck])
    return out


def hidden_from(state: MatchState, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may not see in ``state``: other hands and the pack."""
    deal = state.deal
    if deal is None or state.phase in ("shuffle", "cut", "over"):
        return set()
    out = {CODE[c] for c in deal.pack[deal.pos:]}
    for i, hand in enumerate(deal.hands):
        if i != seat:
            out |= {CODE[c] for c in hand}
    return out


@dataclass
class Shadow:
    """The shadow match and, per acknowledged event number, the states around it."""

    state: MatchState
    actions: list[dict[str, Any]] = field(default_factory=list)
    # (ack seq, state before the action, state after it), in order
    steps: list[tuple[int, MatchState, MatchState]] = field(default_factory=list)

    @classmethod
    def start(cls, seats: int, target: int, best_of: int, first_dealer: int,
              decks: list[list[str]]) -> Shadow:
        opts = Options(seats, target, best_of)
        return cls(engine.new_match(opts, first_dealer, [engine.parse_cards(d) for d in decks]))

    def to_act(self) -> int | None:
        turn = engine.spectator_view(self.state)["turn"]
        return turn if isinstance(turn, int) and self.state.phase != "over" else None

    def apply(self, seat: int, action: dict[str, Any], ack_seq: int) -> None:
        before = self.state
        act = engine.action_from_json({**action, "seat": seat}, before.options.seats)
        self.state, _ = engine.apply(before, act)
        self.actions.append(engine.action_to_json(act))
        self.steps.append((ack_seq, before, self.state))

    def at(self, seq: int, initial: MatchState) -> MatchState:
        """The state after the last action acknowledged at or before event number ``seq``."""
        state = initial
        for ack, _before, after in self.steps:
            if ack <= seq:
                state = after
        return state

    def around(self, seq: int) -> tuple[MatchState, MatchState] | None:
        """The states before and after the action whose events include number ``seq``."""
        for ack, before, after in self.steps:
            if seq <= ack:
                return before, after
        return None


def pick(shadow: Shadow, seat: int, rng: random.Random, *, redeals: bool = True) -> dict[str, Any]:
    """A random legal action for ``seat`` (never a forfeit; a cut with an explicit position)."""
    acts = [a for a in engine.legal_actions(shadow.state, seat) if not isinstance(a, engine.Forfeit)]
    if not redeals:
        acts = [a for a in acts if not isinstance(a, engine.ProposeRedeal)] or acts
    # Prefer captures a little so rounds move and chkobbas happen.
    doc = engine.action_to_json(rng.choice(acts))
    doc.pop("seat")
    return doc


async def play_out(shadow: Shadow, clients: list[Client], rng: random.Random, *,
                   max_actions: int = 5000, stop_after: int | None = None) -> int:
    """Play random legal actions through the seats' sockets until the match is over (or
    ``stop_after`` actions); every action must be acknowledged. Returns actions played."""
    played = 0
    while shadow.to_act() is not None and played < max_actions:
        if stop_after is not None and played >= stop_after:
            break
        seat = shadow.to_act()
        assert seat is not None
        action = pick(shadow, seat, rng)
        reply = await clients[seat].act(action)
        assert reply["type"] == "ack", (action, reply)
        shadow.apply(seat, action, reply["seq"])
        played += 1
    return played


def check_no_leak(frames: list[dict[str, Any]], shadow: Shadow, seat: int | None) -> int:
    """Assert no frame showed ``seat`` a card it may not see; returns the number of frames checked.

    An event may show a card hidden before *or* after its action (a played card was in a hand
    before), never one hidden both before and after; a view only what the state after shows.
    Decks appear only in the ``reveal`` event, after ``match_over``.
    """
    over = False
    checked = 0
    for f in frames:
        if f["type"] == "event":
            ev = f["event"]
            if ev["type"] == "match_over":
                over = True
            if ev["type"] == "reveal":
                assert over, "decks revealed before the match ended"
                continue
            span = shadow.around(f["seq"])
            if span is None:
                continue
            forbidden = hidden_from(span[0], seat) & hidden_from(span[1], seat)
            shown = card_strings(ev, CARD_CODES)
        elif f["type"] == "view":
            view = f["view"]
            if view is None:
                continue
            assert "hands" not in view and "deck" not in view and "decks" not in view
            if seat is None:
                assert "hand" not in view
            else:
                assert view["seat"] == seat
            state = shadow.at(f["seq"], shadow.steps[0][1] if shadow.steps else shadow.state)
            forbidden = hidden_from(state, seat)
            shown = card_strings(view, CARD_CODES)
        else:
            continue
        leaked = shown & forbidden
        assert not leaked, f"seat {seat} saw {sorted(leaked)} in {f}"
        checked += 1
    return checked


def check_events(frames: list[dict[str, Any]]) -> int:
    """Validate every event frame against its documented model (no unknown type, no extra key);
    returns how many were checked."""
    from dineri.games import get_game
    from dineri.server.protocol import SERVICE_EVENT_MODELS

    models = {**SERVICE_EVENT_MODELS, **get_game("chkobba").event_models()}
    n = 0
    for f in frames:
        if f["type"] == "event":
            ev = f["event"]
            assert ev["type"] in models, f"undocumented event {ev}"
            models[ev["type"]].model_validate(ev)
            n += 1
    return n
