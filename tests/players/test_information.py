"""A player sees only its seat's JSON, and its worlds agree with everything that seat saw (issue 12).

- the entry point refuses anything but JSON, and refuses a view holding every hand (``summary``);
- every world drawn for a seat agrees with the true state on all the seat may know (its hand,
  the table, the pack's size, the piles' counters, chkobbas, window, redeal flags, scores), R7–R29;
- two true states that agree on the seat's information (the other hands and the pack swapped
  around) give the same decision for a fixed seed: the hidden cards cannot matter.
"""

from __future__ import annotations

import random

import pytest

from dineri.engine import (
    FULL_DECK,
    Options,
    action_from_json,
    add_deck,
    apply,
    new_match,
    seat_view,
    summary,
)
from dineri.players.base import PlayerError
from dineri.players.chkobba.determinize import determinize
from dineri.players.chkobba.differential import engine_facts, sim_facts
from dineri.players.chkobba.info import legal_actions, seat_info
from dineri.players.chkobba.players import GreedyPlayer, RandomPlayer
from dineri.players.levels import make_player


def _matches(count: int, seed: int):  # type: ignore[no-untyped-def]
    """Yield (state, events) after every action of ``count`` random/greedy matches."""
    rng = random.Random(seed)
    for m in range(count):
        seats = (2, 4)[m % 2]
        st = new_match(Options(seats, 11, 1), rng.randrange(seats))
        events: list[dict] = []
        players = [RandomPlayer(m * 7 + s) if s % 2 else GreedyPlayer(s) for s in range(seats)]
        while st.phase != "over":
            if st.phase == "shuffle":
                deck = list(FULL_DECK)
                rng.shuffle(deck)
                st = add_deck(st, deck)
                continue
            yield st, events
            turn = seat_view(st, 0)["turn"]
            view = seat_view(st, turn)
            act = players[turn].choose(view, events, legal_actions(seat_info(view, events)))
            st, evs = apply(st, action_from_json({**act, "seat": turn}, seats))
            events = [*events, *evs]


def test_worlds_agree_with_everything_the_seat_saw() -> None:
    rng = random.Random(1)
    checked = 0
    for st, events in _matches(12, 2):
        if st.phase not in ("play", "redeal_vote"):
            continue
        for seat in range(st.options.seats):
            info = seat_info(seat_view(st, seat), events)
            assert info.history
            world = determinize(info, rng.random)
            e, s = engine_facts(st), sim_facts(world)
            assert e[:-1] == s[:-1]  # phase, turn, game, round, dealer, scores, games, vote
            (e_hands, *e_rest), (s_hands, *s_rest) = e[-1], s[-1]
            assert e_rest == s_rest  # table, pack size, piles' counters, chkobbas, window, flags
            assert s_hands[seat] == e_hands[seat]
            assert [len(h) for h in s_hands] == [len(h) for h in e_hands]
            hidden = sorted(c for i, h in enumerate(e_hands) if i != seat for c in h)
            drawn = sorted(c for i, h in enumerate(s_hands) if i != seat for c in h)
            assert len(hidden) == len(drawn)
            checked += 1
    assert checked > 500


def test_the_entry_point_takes_only_a_seat_views_json() -> None:
    st = add_deck(new_match(Options(2, 11, 1), 0), list(FULL_DECK))
    player = make_player("hard", 1, timed=False)
    with pytest.raises(PlayerError, match="not JSON"):
        player.choose(st, [], [{"type": "cut"}])  # type: ignore[arg-type]
    with pytest.raises(PlayerError):
        seat_info(summary(st), [])  # every hand: not a seat view
    with pytest.raises(PlayerError, match="not JSON"):
        seat_info(seat_view(st, 0), [{"type": "cut", "state": st}])  # type: ignore[list-item]
    with pytest.raises(PlayerError, match="no legal action"):
        player.choose(seat_view(st, 1), [], [])


def _swap_hidden(st, seat: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """The same state with the cards hidden from ``seat`` (other hands, the pack left) shuffled."""
    d = st.deal
    hidden = [c for i, h in enumerate(d.hands) if i != seat for c in h] + list(d.pack[d.pos:])
    rng.shuffle(hidden)
    hands, at = [], 0
    for i, h in enumerate(d.hands):
        if i == seat:
            hands.append(h)
        else:
            hands.append(tuple(hidden[at:at + len(h)]))
            at += len(h)
    pack = d.pack[:d.pos] + tuple(hidden[at:])
    return st._replace(deal=d._replace(hands=tuple(hands), pack=pack))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_hidden_cards_do_not_change_a_decision(level: str) -> None:
    rng = random.Random(level)
    compared = 0
    for st, events in _matches(2, 9):
        if st.phase != "play" or rng.random() > 0.15:
            continue
        seat = st.turn
        other = _swap_hidden(st, seat, rng)
        # The kept drawn card (R9) is known to all: keep states where it is not among the swapped.
        v1, v2 = seat_view(st, seat), seat_view(other, seat)
        assert v1 == v2
        i1, i2 = seat_info(v1, events), seat_info(v2, events)
        if any(i1.known.values()):
            continue
        legal = legal_actions(i1)
        a1 = make_player(level, 42, timed=False).choose(v1, events, legal)
        a2 = make_player(level, 42, timed=False).choose(v2, events, legal_actions(i2))
        assert a1 == a2
        compared += 1
        if compared >= 6:
            break
    assert compared >= 3
