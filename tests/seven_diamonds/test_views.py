"""Views (record page, Views): listed from what is visible; no hidden card in views or events."""

from __future__ import annotations

import random

from dineri.seven_diamonds import (
    CODE,
    Options,
    add_deck,
    apply,
    legal_actions,
    new_match,
    private_view,
    public_view,
    seat_view,
    spectator_view,
    summary,
)
from tests.seven_diamonds.helpers import all_pass, autoplay, random_decks, start
from tests.seven_diamonds.leaks import check_event, check_view, table_cards

PUBLIC_KEYS = {"phase", "options", "round", "dealer", "turn", "table", "hand_sizes", "bids", "multiplier",
               "doubler", "tripler", "scores", "rounds", "winner", "forfeited"}


def test_view_keys_public_and_private_never_overlap() -> None:
    state = all_pass(start(1))
    assert set(public_view(state)) == PUBLIC_KEYS
    assert spectator_view(state) == public_view(state)
    for seat in range(4):
        private = private_view(state, seat)
        assert set(private) == {"seat", "side", "hand"}
        assert not set(private) & PUBLIC_KEYS
        assert seat_view(state, seat) == {**public_view(state), **private}
        assert private["hand"] == [CODE[c] for c in state.hands[seat]]


def test_views_in_shuffle_and_bidding() -> None:
    """S4, S5: before the deal no hand and no turn; after it 8 cards each, and the seat after the
    dealer calls first."""
    state = new_match(Options(), 2)
    view = seat_view(state, 0)
    assert (view["phase"], view["turn"], view["hand"], view["hand_sizes"]) == ("shuffle", None, [], [0] * 4)
    state = add_deck(state, random_decks(random.Random(0), 1)[0])
    view = seat_view(state, 3)
    assert (view["phase"], view["turn"], view["hand_sizes"], len(view["hand"])) == ("bidding", 3, [8] * 4, 8)


def _random_match(seed: int):
    rng = random.Random(seed)
    state = new_match(Options(), rng.randrange(4), random_decks(rng, 40))
    history = [(state, [])]
    while state.phase != "over":
        acts = [a for a in legal_actions(state, state.turn) if type(a).__name__ != "Forfeit"]
        state, events = apply(state, rng.choice(acts))
        history.append((state, events))
    return history


def test_no_view_and_no_event_shows_a_hidden_card_in_random_matches() -> None:
    checked = 0
    for seed in range(6):
        for state, events in _random_match(seed):
            for seat in range(4):
                check_view(seat_view(state, seat), [CODE[c] for c in state.hands[seat]])
            check_view(spectator_view(state), None)
            table = table_cards(public_view(state)["table"])
            last_cards = {CODE[r.last_card] for r in state.rounds}
            for event in events:
                check_event(event, table, last_cards)
            checked += 1
    assert checked > 6 * 100


def test_at_the_round_end_the_losers_hands_are_shown_never_the_winners_partners() -> None:
    """S14: at the round end the two opponents' hands are shown (they are counted); the winner's
    partner's hand is never looked at, in views, events or the full state."""
    spread = ("7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
              "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")
    before = all_pass(start(3, *spread))
    state, events = autoplay(before)
    shown = public_view(state)["rounds"][0]["left"]
    assert shown == [[], ["AH"], None, ["AC"]]
    round_over = next(e for e in events if e["type"] == "round_over")
    assert round_over["result"]["left"] == shown
    assert "AS" not in str(public_view(state)) and "AS" not in str(events)  # the partner's last card
    assert summary(state)["rounds"][0]["left"][2] is None  # not even the full state records it
