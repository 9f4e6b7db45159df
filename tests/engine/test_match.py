"""Games and matches (R30–R33): targets, the equal-scores rule, best of 1/3/5, forfeit."""

from __future__ import annotations

import pytest

from dineri.engine import MatchState, Options, RuleError, game_winner, new_match, summary
from tests.engine.helpers import (
    REDEAL_PREFIX,
    SWEEP_PREFIX,
    Event,
    finish_round,
    refuse,
    run,
    shuffled,
    start,
    sweep_actions,
)


def play_match(seats: int, target: int, best_of: int, seed: int) -> tuple[MatchState, list[Event]]:
    """A whole match with fixed pseudo-random decks, each seat taking its first capture."""
    state = new_match(Options(seats, target, best_of), 0, [shuffled(seed * 1000 + i) for i in range(400)])
    events: list[Event] = []
    while state.phase != "over":
        state, ev = finish_round(state)
        events += ev
    return state, events


# --- R30: targets ---------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [11, 21, 31])
def test_r30_game_to_target(target: int) -> None:
    opts = Options(2, target, 1)
    assert game_winner((target - 1, target - 1), opts) is None
    assert game_winner((target, 0), opts) == 0
    assert game_winner((target - 1, target), opts) == 1
    assert game_winner((target + 5, target - 1), opts) == 0


@pytest.mark.parametrize("target", [0, 10, 15, 32, "11", None])
def test_r30_only_11_21_31(target: object) -> None:
    with pytest.raises(RuleError) as info:
        Options.from_json({"seats": 2, "target": target, "best_of": 1})
    assert info.value.code == "malformed" and "target" in info.value.message


@pytest.mark.parametrize("target", [11, 21, 31])
def test_r30_live_game_ends_at_target(target: int) -> None:
    state, events = play_match(2, target, 1, seed=target)
    over = [e for e in events if e["type"] == "game_over"]
    assert len(over) == 1
    scores = over[0]["scores"]
    assert max(scores) >= target and scores[over[0]["winner"]] == max(scores)
    rounds_over = [e for e in events if e["type"] == "round_over"]
    assert rounds_over[-1]["scores"] == scores
    for e in rounds_over[:-1]:  # every earlier round left both below the target, or equal (R31)
        s = e["scores"]
        assert max(s) < target or s[0] == s[1]
    assert state.winner == over[0]["winner"]


# --- R31: the equal-scores rule ----------------------------------------------------------------------


def test_r31_both_over_target_higher_wins() -> None:
    opts = Options(2, 11, 1)
    assert game_winner((12, 11), opts) == 0
    assert game_winner((11, 14), opts) == 1
    assert game_winner((13, 12), Options(4, 11, 1)) == 0


@pytest.mark.parametrize(("scores", "target"),
                         [((11, 11), 11), ((13, 13), 11), ((21, 21), 21), ((35, 35), 31)])
def test_r31_equal_at_or_over_target_plays_another_round(scores: tuple[int, int], target: int) -> None:
    assert game_winner(scores, Options(2, target, 1)) is None


@pytest.mark.parametrize(("seats", "seed"), [(2, 38), (4, 13)])
def test_r31_live_equal_scores_play_another_round(seats: int, seed: int) -> None:
    # Seeds found by search: the match reaches equal scores at or over 11 after a round.
    state = new_match(Options(seats, 11, 1), 0, [shuffled(seed * 100 + i) for i in range(60)])
    tie_seen = False
    while state.phase != "over":
        before = state
        state, events = finish_round(state)
        over = next(e for e in events if e["type"] == "round_over")
        a, b = over["scores"]
        if a == b and a >= 11:
            tie_seen = True
            assert not any(e["type"] == "game_over" for e in events)
            assert state.phase == "cut" and state.game == before.game and state.round == before.round + 1
            assert summary(state)["scores"] == [a, b] and state.winner is None
    assert tie_seen
    final = summary(state)
    assert final["rounds"][-1]["game"] == 1
    a, b = sum(r["points"][0] for r in final["rounds"]), sum(r["points"][1] for r in final["rounds"])
    assert a != b and max(a, b) >= 11 and state.winner == (0 if a > b else 1)


# --- R32: best of 1, 3, 5; scores restart -----------------------------------------------------------


@pytest.mark.parametrize(("best_of", "to_win"), [(1, 1), (3, 2), (5, 3)])
def test_r32_best_of(best_of: int, to_win: int) -> None:
    assert Options(2, 11, best_of).games_to_win == to_win
    state, events = play_match(2, 11, best_of, seed=best_of)
    games = [e for e in events if e["type"] == "game_over"]
    assert max(state.games_won) == to_win
    assert to_win <= len(games) <= best_of
    assert state.games_won[state.winner or 0] == to_win and state.winner == games[-1]["winner"]
    assert [e["games_won"] for e in games][-1] == list(state.games_won)
    match_over = [e for e in events if e["type"] == "match_over"]
    assert len(match_over) == 1 and match_over[0]["reason"] == "won"


def test_r32_other_best_of_refused() -> None:
    for bad in (0, 2, 4, 7, True):
        with pytest.raises(RuleError):
            Options.from_json({"seats": 2, "target": 11, "best_of": bad})


@pytest.mark.parametrize("seats", [2, 4])
def test_r32_scores_restart_for_each_game(seats: int) -> None:
    state = new_match(Options(seats, 11, 5), 0, [shuffled(7000 + i) for i in range(400)])
    games_seen = 0
    while state.phase != "over":
        game = state.game
        state, events = finish_round(state)
        if any(e["type"] == "game_over" for e in events) and state.phase != "over":
            games_seen += 1
            assert state.game == game + 1 and state.round == 1
            assert summary(state)["scores"] == [0, 0]
            assert summary(state)["rounds"][-1]["game"] == game  # old rounds are kept
    assert games_seen >= 2


def test_r32_game_scores_sum_their_rounds() -> None:
    state, events = play_match(2, 11, 3, seed=99)
    rounds = summary(state)["rounds"]
    for e in events:
        if e["type"] == "game_over":
            mine = [r for r in rounds if r["game"] == e["game"]]
            assert e["scores"] == [sum(r["points"][0] for r in mine), sum(r["points"][1] for r in mine)]


# --- R33: forfeit ---------------------------------------------------------------------------------------


def _phases() -> dict[str, MatchState]:
    out = {"shuffle": new_match(Options(2, 11, 1), 0)}
    out["cut"] = start([SWEEP_PREFIX])
    out["cut_choice"], _ = run(out["cut"], "1 cut 0")
    out["play"], _ = run(out["cut_choice"], "1 keep", "1 play KC AD AH 4D 4H")
    out["redeal_vote"], _ = run(start([REDEAL_PREFIX, ()]), "1 cut 0", "1 keep", "0 propose")
    return out


@pytest.mark.parametrize("phase", ["shuffle", "cut", "cut_choice", "play", "redeal_vote"])
@pytest.mark.parametrize("seat", [0, 1])
def test_r33_forfeit_in_any_phase(phase: str, seat: int) -> None:
    state = _phases()[phase]
    assert state.phase == phase
    before = summary(state)
    new, events = run(state, f"{seat} forfeit")
    after = summary(new)
    assert new.phase == "over" and after["winner"] == 1 - seat and after["turn"] is None
    assert events[-1] == {"type": "match_over", "winner": 1 - seat, "games_won": [0, 0], "reason": "forfeit"}
    for key in ("table", "hands", "captured", "chkobbas", "scores", "games_won", "rounds",
                "dealer", "game", "round"):
        assert after[key] == before[key], key  # the state stays as it was
    if phase != "cut":  # see the report: deck_left of a forfeit in the cut phase
        assert after["deck_left"] == before["deck_left"]


def test_r33_forfeit_four_seats_other_side_wins() -> None:
    for seat in range(4):
        state, _ = run(start(seats=4), f"{seat} forfeit")
        assert state.winner == 1 - seat % 2


def test_r33_nothing_after_the_match_is_over() -> None:
    state, _ = run(start([SWEEP_PREFIX]), "1 cut 0", "1 forfeit")
    for bad in ("0 forfeit", "1 forfeit", "1 keep", "1 cut 0", "0 play AD"):
        assert refuse(state, bad).code == "wrong_phase"
    won, _ = run(start([SWEEP_PREFIX]), *sweep_actions())  # 20-1 at target 11: the match is over
    assert won.phase == "over" and won.winner == 0
    assert refuse(won, "1 forfeit").code == "wrong_phase"


def test_r33_result_final_only_when_the_match_ends() -> None:
    state = start([SWEEP_PREFIX, *[()] * 30], best_of=3)
    state, events = run(state, *sweep_actions())
    assert any(e["type"] == "game_over" for e in events)
    assert state.phase == "cut" and state.winner is None and state.games_won == (1, 0)
    state, _ = run(state, "0 forfeit")  # side 0 leads 1-0 in games but forfeits
    assert state.winner == 1 and state.games_won == (1, 0)
