"""The golf4 computer player (``dineri.players.golf4_basic``): it sees only what its seat sees
(public events, its own private peek event, its seat view), what it remembers is true, it always
acts legally, and it plays better than chance."""

from __future__ import annotations

import random

import pytest

from dineri.games.golf4 import Golf4Game
from dineri.golf4 import (
    CODE,
    FULL_DECK,
    MatchState,
    Options,
    Peek,
    action_from_json,
    add_deck,
    apply,
    legal_actions,
    new_match,
    peek_slots,
    seat_view,
)
from dineri.players.base import PlayerError
from dineri.players.golf4_basic import Golf4Memory, choose
from dineri.players.levels import make_player


def _deck(rng: random.Random) -> tuple[int, ...]:
    d = list(FULL_DECK)
    rng.shuffle(d)
    return tuple(d)


def _check_memory(state: MatchState, memory: Golf4Memory) -> None:
    deal = state.deal
    if deal is None or state.phase == "over" or not memory.known:
        return
    for seat, slots in enumerate(memory.known):
        for slot, code in enumerate(slots):
            if code is not None:
                assert CODE[deal.hands[seat][slot]] == code, (memory.seat, seat, slot)


def play(seats: int, seed: int, bots: set[int], rounds: int = 9) -> MatchState:
    """A match where the seats in ``bots`` play :func:`choose` and the others random legal moves."""
    rng = random.Random(seed)
    state, events = new_match(Options(seats, rounds), rng.randrange(seats), [_deck(rng)])
    memories = {s: Golf4Memory(s, seats) for s in bots}
    for m in memories.values():
        for e in events:
            m.on_event(e)
    for _ in range(50000):
        if state.phase == "over":
            break
        if state.phase == "shuffle":
            state, events = add_deck(state, _deck(rng))
        else:
            seat = state.turn if state.phase == "play" else next(
                s for s in range(seats) if state.deal is not None and state.deal.peeks[s] is None)
            assert seat is not None
            if seat in bots:
                doc = choose(memories[seat], seat_view(state, seat))
                assert doc is not None
                action = action_from_json({**doc, "seat": seat}, seats)
                assert action in legal_actions(state, seat)
            else:
                action = rng.choice(legal_actions(state, seat, forfeit=False))
            before = state
            state, events = apply(state, action)
            if isinstance(action, Peek) and seat in memories:
                a, b = peek_slots(before.deal, seat)  # type: ignore[arg-type]
                memories[seat].on_event({"type": "peek_cards", "slots": {"2": CODE[a], "3": CODE[b]}})
        for m in memories.values():
            for e in events:
                m.on_event(e)
            if state.phase != "over":
                m.on_view(seat_view(state, m.seat))
            _check_memory(state, m)
    assert state.phase == "over"
    return state


@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_bots_play_legal_whole_matches_and_remember_only_true_cards(seats: int) -> None:
    state = play(seats, 1000 + seats, set(range(seats)))
    assert state.phase == "over" and len(state.rounds) == 9 and state.winners


def test_the_bot_remembers_its_peek_and_its_own_swaps() -> None:
    m = Golf4Memory(1, 3)
    m.on_event({"type": "deal", "round": 1, "dealer": 0, "discard": "5D", "stock_left": 39})
    m.on_event({"type": "peek_cards", "slots": {"2": "KS", "3": "9C"}})
    assert m.known[1] == [None, None, "KS", "9C"]
    assert m.worst_slot()[0] == 3  # the 9 is worse than an unknown card (about 6.5)
    m.on_view({"round": 1, "totals": [0, 0, 0], "turn": 1, "held": "AH", "holding": {"from": "stock"}})
    m.on_event({"type": "swap", "seat": 1, "slot": 3, "from": "stock", "card": "9C"})
    assert m.known[1] == [None, None, "KS", "AH"] and m.held is None
    m.on_event({"type": "take", "seat": 2, "card": "9C"})
    m.on_event({"type": "swap", "seat": 2, "slot": 0, "from": "discard", "card": "QD"})
    assert m.known[2][0] == "9C" and {"9C", "QD", "5D"} <= m.seen
    m.on_event({"type": "deal", "round": 2, "dealer": 1, "discard": "2D", "stock_left": 39})
    assert m.known[1] == [None] * 4


def test_the_bot_never_discards_a_taken_card_and_knocks_low() -> None:
    """G9, G10: holding a taken discard the bot swaps it in (it may not be discarded); it knocks
    when its known cards are low, and draws once somebody has knocked."""
    m = Golf4Memory(0, 2)
    view = {"phase": "play", "round": 1, "turn": 0, "totals": [0, 0], "peeks": ["peek", "peek"],
            "holding": {"from": "discard", "card": "QS"}, "held": None, "knocker": None, "stock_left": 30,
            "discard_top": None}
    assert choose(m, view)["type"] == "swap"  # type: ignore[index]
    m.known[0] = ["KS", "KD", "AH", "AS"]
    view = {**view, "holding": None, "discard_top": "9D"}
    assert choose(m, view) == {"type": "knock"}
    view = {**view, "knocker": 1}
    assert choose(m, view) == {"type": "draw"}


def test_the_bot_beats_random_play() -> None:
    wins = 0
    diff = 0
    for seed in range(12):
        state = play(2, seed, {seed % 2})
        bot = seed % 2
        diff += state.totals[1 - bot] - state.totals[bot]
        wins += bot in (state.winners or ())
    assert wins >= 10 and diff > 0


def _adapter_match(seats: int, seed: int, names: list[str]) -> tuple[object, list[object]]:
    """A match through the games interface where each seat is ``make_player(names[seat])``, fed
    only its own view, the public events and its own private events, as a bot at a table is."""
    rng = random.Random(seed)
    game = Golf4Game()
    match, events = game.new_match({"seats": seats}, [f"p{s}" for s in range(seats)],
                                   first_dealer=rng.randrange(seats))
    players = [make_player(names[s], seed + s, game="golf4") for s in range(seats)]
    seen: list[list[dict]] = [list(events) for _ in range(seats)]
    for _ in range(100000):
        if match.over:
            return match, players
        if match.needs_deck():
            match, events = match.add_deck()
            private: dict[int, list[dict]] = {}
        elif (imm := match.immediate_action()) is not None:
            match, events = match.apply(imm[0], imm[1], auto=True)
            private = match.private_events()
        else:
            seat = rng.choice(match.waiting_for())
            action = players[seat].choose(match.seat_view(seat), seen[seat], match.legal_actions(seat))
            assert action in match.legal_actions(seat)
            match, events = match.apply(seat, action)
            private = match.private_events()
        for s in range(seats):
            seen[s] += events + private.get(s, [])
    raise AssertionError("no end")


def test_players_on_the_player_interface_finish_matches_through_the_adapter() -> None:
    match, players = _adapter_match(5, 3, ["basic", "easy", "random", "medium", "hard"])
    assert match.over and match.result()["winners"]  # type: ignore[attr-defined]
    assert [p.name for p in players] == ["basic", "easy", "random", "medium", "hard"]  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_player("grandmaster", 1, game="golf4")


def test_the_basic_player_beats_random_through_the_adapter() -> None:
    lower = 0
    for seed in range(6):
        match, _ = _adapter_match(2, 50 + seed, ["basic", "random"] if seed % 2 else ["random", "basic"])
        totals = match.result()["totals"]  # type: ignore[attr-defined]
        bot = 0 if seed % 2 else 1
        lower += totals[bot] < totals[1 - bot]
    assert lower >= 5


def test_the_player_interface_bot_remembers_the_card_it_drew_and_swapped_in() -> None:
    from dineri.players.golf4_basic import BasicPlayer

    bot = BasicPlayer("basic", 1)
    events = [{"type": "deal", "round": 1, "dealer": 1, "discard": "5D", "stock_left": 43},
              {"type": "peek", "seat": 0, "auto": False},
              {"type": "peek_cards", "slots": {"2": "9S", "3": "QC"}},
              {"type": "skip_peek", "seat": 1, "auto": False}, {"type": "turn", "seat": 0},
              {"type": "draw", "seat": 0, "stock_left": 42, "auto": False}]
    view = {"seat": 0, "held": "AH", "phase": "play", "round": 1, "turn": 0, "totals": [0, 0],
            "holding": {"from": "stock"}, "peeks": ["peek", "skip"], "knocker": None, "stock_left": 42,
            "discard_top": "5D"}
    legal = [{"type": "swap", "slot": k} for k in range(4)] + [{"type": "discard"}]
    assert bot.choose(view, events, legal) == {"type": "swap", "slot": 3}  # the queen is its worst card
    events += [{"type": "swap", "seat": 0, "slot": 3, "from": "stock", "card": "QC", "auto": False},
               {"type": "turn", "seat": 1}]
    later = {**view, "held": None, "holding": None, "turn": 1, "discard_top": "QC"}
    assert bot.remember(later, events).known[0] == [None, None, "9S", "AH"]
    fresh = BasicPlayer("basic", 1)  # a restarted bot never saw the drawn card: it is unknown
    assert fresh.remember(later, events).known[0] == [None, None, "9S", None]
    with pytest.raises(PlayerError):
        bot.choose(view, events, [])
