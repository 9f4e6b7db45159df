"""No hidden card leaves the golf4 adapter (G6–G8, issue 10 Tests): through many random 3- to
8-seat matches, after every change, no public event, no seat's view and no spectator's view lists
a face-down card (its owner's included) or a stock card; a drawn card is listed only in its
drawer's private view while held; the two bottom cards reach their owner once per round, in the
peek's private event only; a reloaded match (a restart, a reconnect) never shows them again."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dineri.games.golf4 import Golf4Game
from dineri.golf4 import CODE
from tests.golf4.driver import Step, run

_CODES = frozenset(CODE)


def codes(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(set(), *(codes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(codes(v) for v in value))
    return {value} if isinstance(value, str) and value in _CODES else set()


class Checker:
    """Inspects every step of a match; counts what it checked."""

    def __init__(self) -> None:
        self.peeks: set[tuple[int, int]] = set()
        self.steps = 0
        self.drawn_seen = 0

    def __call__(self, step: Step) -> None:
        self.steps += 1
        m = step.after
        st = m.state
        deal = st.deal
        hidden: set[str] = set()
        drawn = None
        if deal is not None and st.phase != "over":
            hidden = {CODE[c] for h in deal.hands for c in h} | {CODE[c] for c in deal.stock}
            if deal.held is not None and deal.held.source == "stock":
                drawn = CODE[deal.held.card]
                hidden.add(drawn)
        for ev in step.events:
            assert not codes(ev) & hidden, (ev, codes(ev) & hidden)
        # private events: only after a peek, only to the peeker, its own slots 2 and 3, once a round
        if step.action == {"type": "peek"}:
            assert step.seat is not None and step.before.state.deal is not None
            hand = step.before.state.deal.hands[step.seat]
            assert step.private == {step.seat: [{"type": "peek_cards",
                                                 "slots": {"2": CODE[hand[2]], "3": CODE[hand[3]]}}]}
            key = (st.round, step.seat)
            assert key not in self.peeks
            self.peeks.add(key)
        else:
            assert step.private == {}
        rounds = [r.to_json() for r in st.rounds]
        public = m.public_view()
        assert public == m.spectator_view() and public["rounds"] == rounds
        shown_public = codes({k: v for k, v in public.items() if k != "rounds"})
        assert not shown_public & hidden
        for seat in range(m.seats):
            private = m.private_view(seat)
            assert not set(private) & set(public)
            assert m.seat_view(seat) == {**public, **private}
            mine = codes(private)
            if drawn is not None and seat == st.turn:
                assert mine == {drawn}
                self.drawn_seen += 1
            else:
                assert not mine
        if self.steps % 97 == 0 and not m.needs_deck():
            again = Golf4Game().load(json.loads(json.dumps(m.record())))  # a restart
            assert again.private_events() == {}
            assert again.public_view() == public
            assert all(again.private_view(s) == m.private_view(s) for s in range(m.seats))


@pytest.mark.parametrize("seats,seed", [(s, 100 + 17 * s + k) for s in range(3, 9) for k in range(2)])
def test_g6_g7_g8_no_hidden_card_in_any_event_or_view(seats: int, seed: int) -> None:
    checker = Checker()
    final = run(seats, seed, checker, forfeit_rate=0.0003, knock_rate=0.05)
    assert final.over and checker.steps > 50 and checker.drawn_seen > 0
    assert checker.peeks  # some seat peeked
