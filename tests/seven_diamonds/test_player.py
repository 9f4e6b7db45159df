"""The Seven Diamonds computer player: legal moves from its own view and the public events only,
the choices its strategy promises, and that it beats a random player clearly."""

from __future__ import annotations

import random

import pytest

from dineri.players.seven_diamonds_basic import Memory, choose, hand_strength
from dineri.seven_diamonds import (
    Options,
    action_from_json,
    apply,
    legal_actions,
    new_match,
    parse_card,
    seat_view,
)
from tests.seven_diamonds.helpers import all_pass, cards, random_decks, run, start


def _play_match(strategies: list[str], seed: int) -> tuple[int, int]:
    """A whole match with each seat's player; (winning side, decisions checked legal)."""
    rng = random.Random(seed)
    state = new_match(Options(), rng.randrange(4), random_decks(rng, 60))
    memories = [Memory(s) for s in range(4)]
    checked = 0
    while state.phase != "over":
        seat = state.turn
        view = seat_view(state, seat)
        memories[seat].on_view(view)
        for other in range(4):
            if other != seat:
                assert choose(seat_view(state, other), memories[other], strategies[other], rng) is None
        action = action_from_json({**choose(view, memories[seat], strategies[seat], rng), "seat": seat})
        assert action in legal_actions(state, seat)
        checked += 1
        state, events = apply(state, action)
        for event in events:
            for m in memories:
                m.on_event(event)
    assert state.winner is not None
    return state.winner, checked


def test_every_decision_is_legal_and_only_on_its_turn() -> None:
    for seed in range(3):
        _, checked = _play_match(["basic", "random", "basic", "random"], seed)
        assert checked > 100


def test_basic_beats_random_clearly() -> None:
    won = 0
    n = 30
    for i in range(n):
        basic_side = i % 2
        strategies = ["basic" if s % 2 == basic_side else "random" for s in range(4)]
        winner, _ = _play_match(strategies, 1000 + i)
        won += winner == basic_side
    assert won >= 0.7 * n, won  # about 85% over 300 matches (benchmarks/bots_seven_diamonds.py)


def _decide(state, seat: int, memory: Memory | None = None) -> dict:
    memory = memory or Memory(seat)
    view = seat_view(state, seat)
    memory.on_view(view)
    action = choose(view, memory, "basic", random.Random(0))
    assert action is not None
    return action


def test_it_holds_back_a_seven_that_opens_a_suit_for_the_opponents() -> None:
    # Seat 1 may open spades with its lone 7S, or put 8D on the 7D; the other spades are
    # elsewhere, so it keeps the suit shut and plays the diamond.
    hands = ("7D 7C 8C 9C TC JC QC KC", "7S 8D AH KH QH JH TH 9H",
             "9D TD 8S 9S TS JS QS KS", "JD QD KD AD AS 7H 8H AC")
    state, _ = run(all_pass(start(3, *hands)), "0 play 7D")
    assert _decide(state, 1) == {"type": "play", "card": "8D"}


def test_it_opens_a_suit_it_holds_itself() -> None:
    # Seat 1 holds 7S 8S 9S: opening spades keeps the suit in its own hand.
    hands = ("7D 7C 8C 9C TC JC QC KC", "8D 7S 8S 9S AH KH QH JH",
             "9D TD TS JS QS KS AS TH", "JD QD KD AD 7H 8H 9H AC")
    state, _ = run(all_pass(start(3, *hands)), "0 play 7D")
    assert _decide(state, 1) == {"type": "play", "card": "7S"}


def test_s15_it_keeps_a_seven_to_go_out_on() -> None:
    hands = ("7H 7D 8D 9D TD JD QD KD", "8H 9H TH JH QH KH AH AD",
             "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")
    state = all_pass(start(3, *hands))
    memory = Memory(0)
    for _ in range(6 * 4):  # seat 0 plays 7D..QD, the others what they can
        seat = state.turn
        view = seat_view(state, seat)
        action = choose(view, memory if seat == 0 else Memory(seat), "basic", random.Random(0))
        state, events = apply(state, action_from_json({**action, "seat": seat}))
        for e in events:
            memory.on_event(e)
    assert state.turn == 0 and sorted(state.hands[0]) == sorted(cards("KD 7H"))
    assert _decide(state, 0, memory) == {"type": "play", "card": "KD"}


def test_jella_tells_it_what_a_seat_does_not_hold() -> None:
    memory = Memory(0)
    memory.on_view({"phase": "play", "table": {"D": ["7D", "8D"], "H": [], "S": ["7S"], "C": []}})
    memory.on_event({"type": "jella", "seat": 3, "auto": False})
    assert memory.lacks[3] == {parse_card(c) for c in ("9D", "7H", "8S", "7C")}
    memory.on_event({"type": "play", "seat": 0, "card": "9D", "hand_size": 5, "auto": False})
    memory.on_event({"type": "jella", "seat": 3, "auto": False})
    assert parse_card("TD") in memory.lacks[3] and parse_card("9D") in memory.lacks[3]
    memory.on_event({"type": "deal", "round": 2, "dealer": 1, "hand_sizes": [8] * 4, "turn": 2})
    assert memory.lacks[3] == set() and memory.table == (0, 0, 0, 0)


def test_it_passes_only_with_nothing_that_fits_and_bids_on_strength() -> None:
    hands = ("8D 9D 7H 8H AS KC QD 9C", "TD 7S 8S JH TH 9H KS AC",
             "7D 7C JD QH 9S TS 8C JC", "KD AD QS JS KH AH QC TC")
    state, _ = run(all_pass(start(3, *hands)), "2 play 7D")
    assert _decide(state, 3) == {"type": "pass"}
    strong = start(3, "7D 8D 9D 7H 8H 7S 8S 7C")
    weak = start(3, "AD KD QD AH KH AS KS AC")
    assert hand_strength(list(strong.hands[0])) > 5 > hand_strength(list(weak.hands[0]))
    assert _decide(strong, 0) == {"type": "bid", "call": "double"}
    assert _decide(weak, 0) == {"type": "bid", "call": "pass"}
    doubled, _ = run(start(3, "AD KD QD AH KH AS KS AC", "7D 8D 9D 7H 8H 7S 8S 7C"), "0 double")
    assert _decide(doubled, 1) == {"type": "bid", "call": "three"}


def test_an_unknown_strategy_is_refused() -> None:
    state = start(0)
    with pytest.raises(ValueError):
        choose(seat_view(state, 1), Memory(1), "clever", random.Random(0))


def test_the_player_interface_plays_whole_matches_through_the_adapter() -> None:
    from dineri.games import get_game
    from dineri.players.seven_diamonds_basic import SevenDiamondsPlayer

    game = get_game("seven_diamonds")
    match, events = game.new_match({}, ["a", "b", "c", "d"], 1)
    players = [SevenDiamondsPlayer("basic" if s % 2 == 0 else "random", seed=s) for s in range(4)]
    moves = 0
    while not match.over:
        if match.needs_deck():
            match, evs = match.add_deck()
        else:
            (seat,) = match.waiting_for()
            legal = match.legal_actions(seat)
            action = players[seat].choose(match.seat_view(seat), list(events), legal)
            assert action in legal and action["type"] != "forfeit"
            match, evs = match.apply(seat, action)
            moves += 1
        events += evs
    assert moves > 100 and match.result() is not None
    with pytest.raises(ValueError):
        players[0].choose(match.seat_view(0), events, [])
    with pytest.raises(ValueError):
        SevenDiamondsPlayer("clever")


def test_make_player_maps_every_level_name() -> None:
    from dineri.players.seven_diamonds_basic import NAMES, make_player

    for name in ("random", "basic", "greedy", "easy", "medium", "hard"):
        player = make_player(name, seed=1)
        assert player.name == name and player.strategy == NAMES[name]
    with pytest.raises(ValueError):
        make_player("expert")


def test_the_levels_give_seven_diamonds_players() -> None:
    from dineri.players.levels import make_player
    from dineri.players.seven_diamonds_search import SevenDiamondsSearchPlayer

    player = make_player("hard", 3, game="seven_diamonds")
    assert player.name == "hard" and isinstance(player, SevenDiamondsSearchPlayer)  # issue 12 item 4
    assert player.basic.strategy == "basic"  # its bidding
    assert make_player("random", 3, game="seven_diamonds").strategy == "random"
