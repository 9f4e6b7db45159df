"""The computer players play whole matches legally, and the search decides like a player (issue 12).

Matches are refereed by the public engine (``dineri.players.chkobba.arena``): every action a
player returns must be accepted. The search is deterministic given its seed and its input, it
claims a missed capture that pays (R19–R22), keeps a chkobba (R23), and weighs redeals (R10).
"""

from __future__ import annotations

import random

import pytest

from dineri.engine import FULL_DECK, Options
from dineri.players.chkobba.arena import play_match
from dineri.players.chkobba.players import GreedyPlayer, RandomPlayer, SearchPlayer
from dineri.players.levels import LEVELS, STRATEGY_NAMES, make_player


def _decks(seed: int):  # type: ignore[no-untyped-def]
    cache: dict[int, list[int]] = {}

    def deck(i: int) -> list[int]:
        if i not in cache:
            d = list(FULL_DECK)
            random.Random(f"{seed}-{i}").shuffle(d)
            cache[i] = d
        return cache[i]
    return deck


def _small(name: str, seed: int) -> SearchPlayer:
    return SearchPlayer(name, iterations=40, seed=seed, redeal_playouts=20)


@pytest.mark.parametrize("seats", [2, 4])
def test_every_level_plays_a_whole_match_legally(seats: int) -> None:
    players = [_small("medium", 1), make_player("easy", 2), _small("hard", 3), GreedyPlayer(4)][:seats]
    out = play_match(players, Options(seats, 11, 1), 0, _decks(seats))
    assert out.winner in (0, 1) and max(out.games_won) == 1
    assert all(times for times in out.move_times)


def test_levels_are_made_by_name() -> None:
    assert LEVELS == ("easy", "medium", "hard")
    for name in STRATEGY_NAMES:
        assert make_player(name, 1).name == name
    with pytest.raises(ValueError, match="unknown player"):
        make_player("clever", 1)
    with pytest.raises(ValueError, match="no computer players"):
        make_player("hard", 1, game="poker")


def test_a_search_is_a_function_of_its_seed_and_input() -> None:
    first = play_match([_small("medium", 7), RandomPlayer(8)], Options(2, 11, 1), 1, _decks(3))
    again = play_match([_small("medium", 7), RandomPlayer(8)], Options(2, 11, 1), 1, _decks(3))
    assert (first.winner, first.games_won, first.rounds, first.actions) == \
        (again.winner, again.games_won, again.rounds, again.actions)


def _view(**kw: object) -> dict:
    base = {"seat": 1, "phase": "play", "turn": 1, "options": {"seats": 2, "target": 11, "best_of": 1},
            "game": 1, "round": 1, "dealer": 1, "table": [], "hand": [], "hand_sizes": [2, 3],
            "deck_left": 24, "drawn": None, "captured": [0, 0], "chkobbas": [0, 0],
            "chkobba_cards": [[], []], "pending_redeal": None, "scores": [0, 0], "games_won": [0, 0],
            "rounds": [], "winner": None}
    base.update(kw)
    return base


def _deal_events(table: list[str], plays: list[dict]) -> list[dict]:
    return [{"type": "cut", "seat": 0, "at": 0, "drawn": table[0], "auto": False},
            {"type": "deal", "seat": 0, "choice": "table", "table": table, "hand_sizes": [3, 3],
             "deck_left": 30, "auto": False}, *plays]


def test_the_search_claims_a_missed_capture_that_pays() -> None:
    """R19–R20: seat 0 laid the 7D where it could take 3C+4S; seat 1 claims the 7♦ and both."""
    events = _deal_events(["3C", "4S", "KH", "JH"],
                          [{"type": "play", "seat": 0, "card": "7D", "capture": [], "chkobba": False}])
    view = _view(table=["3C", "4S", "KH", "JH", "7D"], hand=["2H", "5S", "QC"], hand_sizes=[2, 3],
                 deck_left=30)
    from dineri.players.chkobba.info import legal_actions, seat_info

    legal = legal_actions(seat_info(view, events))
    assert {"type": "claim", "card": "7D", "capture": ["3C", "4S"]} in legal
    act = SearchPlayer("hard", iterations=300, seed=1).choose(view, events, legal)
    assert act == {"type": "claim", "card": "7D", "capture": ["3C", "4S"]}


def test_the_search_sweeps_the_table() -> None:
    """R23: after seat 0's jack took 5H+4C, seat 1's king takes QH+2S: a chkobba, worth a point."""
    from dineri.players.chkobba.info import legal_actions, seat_info

    events = _deal_events(["QH", "2S", "5H", "4C"], [
        {"type": "play", "seat": 0, "card": "JD", "capture": ["5H", "4C"], "chkobba": False}])
    view = _view(table=["QH", "2S"], hand=["KS", "4H", "6C"], captured=[3, 0], deck_left=30)
    legal = legal_actions(seat_info(view, events))
    act = SearchPlayer("hard", iterations=300, seed=2).choose(view, events, legal)
    assert act == {"type": "play", "card": "KS", "capture": ["QH", "2S"]}


def test_a_redeal_vote_is_answered_by_an_opponent_of_the_proposer() -> None:
    """R10: in a vote, the search answers (accept or refuse); it never answers its own side's."""
    table = ["5H", "5S", "5C", "KD"]
    events = _deal_events(table, [{"type": "redeal_proposed", "seat": 0, "auto": False}])
    view = _view(phase="redeal_vote", table=table, hand=["AH", "2H", "3H"], hand_sizes=[3, 3],
                 pending_redeal={"proposer": 0}, turn=1, deck_left=30)
    from dineri.players.chkobba.info import legal_actions, seat_info

    legal = legal_actions(seat_info(view, events))
    assert [d["type"] for d in legal] == ["answer_redeal", "answer_redeal"]
    act = SearchPlayer("hard", iterations=10, seed=3, redeal_playouts=50).choose(view, events, legal)
    assert act is not None and act["type"] == "answer_redeal" and isinstance(act["accept"], bool)
    same_side = _view(**{**view, "seat": 0, "hand": ["AD", "2D", "3D"]})
    assert legal_actions(seat_info(same_side, events)) == []
