"""The games interface v2 adapter (dineri/games/seven_diamonds.py): options, form, views, clock,
results, records, fairness; and many random matches checked for hidden cards."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dineri import records
from dineri.fairness import verify_record
from dineri.games import GameError, game_names, get_game
from dineri.games.seven_diamonds import SevenDiamondsMatch
from dineri.games.seven_diamonds_events import EVENT_MODELS
from tests.seven_diamonds.helpers import codes, deck_for
from tests.seven_diamonds.leaks import check_event, check_view, table_cards

GAME = get_game("seven_diamonds")
OPTIONS = {"seats": 4, "target": 500}
PLAYERS = ["Fahad", "Noura", "Saad", "Reem"]
SPREAD = ("7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
          "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC")


def _next(match: Any, rng: random.Random, events: list[dict[str, Any]]) -> Any:
    """One random legal move (or a deck, or the immediate pass), its events appended."""
    if match.needs_deck():
        match, evs = match.add_deck()
    elif (imm := match.immediate_action()) is not None:
        match, evs = match.apply(imm[0], imm[1], auto=True)
    else:
        (seat,) = match.waiting_for()
        acts = [a for a in match.legal_actions(seat) if a["type"] != "forfeit"]
        match, evs = match.apply(seat, rng.choice(acts))
    events += evs
    return match


def _random_match(seed: int) -> tuple[Any, list[dict[str, Any]], list[Any]]:
    rng = random.Random(seed)
    match, events = GAME.new_match(OPTIONS, PLAYERS, rng.randrange(4))
    seen = [match]
    while not match.over:
        match = _next(match, rng, events)
        seen.append(match)
    return match, events, seen


def test_registered_with_sides_and_teams() -> None:
    """S2: four seats in two sides, partners opposite (``seat % 2``), chosen when sitting."""
    assert "seven_diamonds" in game_names()
    assert GAME.seats(OPTIONS) == 4 and GAME.teams(OPTIONS)
    assert [GAME.side_of(OPTIONS, s) for s in range(4)] == [0, 1, 0, 1]  # S2


@pytest.mark.parametrize("given", [{}, {"seats": 4}, {"target": 500}, OPTIONS])
def test_options_default_to_4_seats_and_500(given: dict[str, Any]) -> None:
    """S2, S16: four seats and a target of 500, whichever of them the options leave out."""
    assert GAME.check_options(given) == OPTIONS


@pytest.mark.parametrize("bad", [{"seats": 2}, {"seats": 4.0}, {"seats": True}, {"target": 300},
                                 {"target": "500"}, {"best_of": 1}, {"seats": 4, "target": 500, "x": 0},
                                 [], None])
def test_options_are_strict(bad: Any) -> None:
    with pytest.raises(GameError) as e:
        GAME.check_options(bad)
    assert e.value.code == "malformed"


def test_new_match_commits_then_deals() -> None:
    """S4: a new match commits to its deck and deals 8 cards each; the seat after the dealer
    calls first (S5). Bad players, dealer or deck are refused."""
    match, events = GAME.new_match(OPTIONS, PLAYERS, 2)
    assert [e["type"] for e in events] == ["commitment", "deal"]
    assert events[1] == {"type": "deal", "round": 1, "dealer": 2, "hand_sizes": [8] * 4, "turn": 3}
    assert match.phase == "bidding" and match.waiting_for() == (3,)
    with pytest.raises(GameError):
        GAME.new_match(OPTIONS, PLAYERS[:3], 0)
    with pytest.raises(GameError):
        GAME.new_match(OPTIONS, PLAYERS, 4)
    with pytest.raises(GameError):
        GAME.new_match(OPTIONS, PLAYERS, 0, decks=[["7D"] * 32])


@pytest.mark.parametrize("action", [{"type": "bid", "call": "Double"}, {"type": "bid"},
                                    {"type": "bid", "call": "pass", "seat": 1},
                                    {"type": "bid", "call": "pass", "auto": True},
                                    {"type": "play", "card": 7}, {"type": "play", "card": "6D"},
                                    {"type": "pass", "x": 1}, {"type": "jella"}, {}, "pass", None])
def test_client_actions_are_checked_strictly(action: Any) -> None:
    match, _ = GAME.new_match(OPTIONS, PLAYERS, 3)
    with pytest.raises(GameError) as e:
        match.apply(0, action)
    assert e.value.code == "malformed"
    assert match.actions_count() == 0


def test_rule_codes_come_through_and_nothing_changes() -> None:
    """S12: out of turn, a call not allowed (S5, S6), a card that does not fit (S8, S9), a pass
    while holding one that fits (S10): each refused with its code, and nothing changes."""
    match, _ = GAME.new_match(OPTIONS, PLAYERS, 3, decks=[codes(deck_for(3, *SPREAD))])
    for seat, action, code in [(1, {"type": "bid", "call": "pass"}, "not_your_turn"),
                               (0, {"type": "bid", "call": "three"}, "illegal_call"),
                               (0, {"type": "play", "card": "7D"}, "wrong_phase")]:
        with pytest.raises(GameError) as e:
            match.apply(seat, action)
        assert e.value.code == code
    for seat in (0, 1, 2, 3):
        match, _ = match.apply(seat, {"type": "bid", "call": "pass"})
    with pytest.raises(GameError) as e:
        match.apply(0, {"type": "play", "card": "8D"})
    assert e.value.code == "illegal_card"
    with pytest.raises(GameError) as e:
        match.apply(0, {"type": "pass"})
    assert e.value.code == "must_play"
    with pytest.raises(GameError) as e:
        match.apply(0, {"type": "play", "card": "7H"})
    assert e.value.code == "card_not_in_hand"
    assert match.actions_count() == 4 and match.last_action() == {"seat": 3, "type": "bid", "call": "pass"}


def test_clock_and_immediate_actions() -> None:
    """The rule page's Timeouts: in the bidding the clock passes (S5); in play it lays the lowest
    card that fits (the 7D first, S8; then up each pile, S9)."""
    match, _ = GAME.new_match(OPTIONS, PLAYERS, 3, decks=[codes(deck_for(3, *SPREAD))])
    assert match.auto_action(0) == {"type": "bid", "call": "pass"} and match.auto_action(1) is None
    for seat in (0, 1, 2, 3):
        match, _ = match.apply(seat, match.auto_action(seat), auto=True)
    assert match.last_action() == {"seat": 3, "type": "bid", "call": "pass", "auto": True}
    assert match.auto_action(0) == {"type": "play", "card": "7D"} and match.immediate_action() is None
    match, _ = match.apply(0, {"type": "play", "card": "7D"})
    assert match.auto_action(1) == {"type": "play", "card": "7H"}
    for seat, card in ((1, "7H"), (2, "7S"), (3, "7C")):
        match, _ = match.apply(seat, {"type": "play", "card": card})
    # seat 0 holds 8D..AD: the lowest card that fits is 8D
    assert match.auto_action(0) == {"type": "play", "card": "8D"}


def test_s10_a_seat_with_nothing_that_fits_is_passed_for_at_once() -> None:
    hands = ("8D 9D 7H 8H AS KC QD 9C", "TD 7S 8S JH TH 9H KS AC",
             "7D 7C JD QH 9S TS 8C JC", "KD AD QS JS KH AH QC TC")
    match, _ = GAME.new_match(OPTIONS, PLAYERS, 3, decks=[codes(deck_for(3, *hands))])
    for seat in (0, 1, 2, 3):
        match, _ = match.apply(seat, {"type": "bid", "call": "pass"})
    match, _ = match.apply(2, {"type": "play", "card": "7D"})
    assert match.immediate_action() == (3, {"type": "pass"})
    assert match.auto_action(3) == {"type": "pass"}
    match, events = match.apply(3, {"type": "pass"}, auto=True)
    assert events == [{"type": "jella", "seat": 3, "auto": True}]
    assert match.immediate_action() is None and match.waiting_for() == (0,)


def test_views_split_and_never_show_a_hidden_card_in_random_matches() -> None:
    for seed in range(12):
        final, events, seen = _random_match(seed)
        for m in seen[::3]:
            pub = m.public_view()
            assert pub == m.spectator_view()
            check_view(pub, None)
            for seat in range(4):
                priv = m.private_view(seat)
                assert set(priv) == {"seat", "side", "hand"} and not set(pub) & set(priv)
                assert m.seat_view(seat) == {**pub, **priv}
                check_view(m.seat_view(seat), m.summary()["hands"][seat])
        table = table_cards(final.public_view()["table"])
        last_cards = {r["last_card"] for r in final.rounds()}
        played: set[str] = set()
        for event in events:
            EVENT_MODELS[event["type"]].model_validate(event, strict=True)  # no undocumented key
            if event["type"] == "play":
                played.add(event["card"])
            if event["type"] == "round_over":
                played = set()
            check_event(event, table | played, last_cards)
        assert final.private_events() == {}


def test_result_ranks_scores_and_the_record() -> None:
    final, _, _ = _random_match(21)
    result = final.result()
    assert result is not None and result["reason"] == "won"
    winner = result["winner"]
    assert result["ranks"] == [1 if s % 2 == winner else 2 for s in range(4)]
    assert result["scores"][winner] >= 500 and result["forfeited"] is None
    doc = final.record()
    assert doc["game"] == "seven_diamonds" and doc["players"] == PLAYERS and "pending_decks" not in doc
    assert doc["result"] == records.replay_json(doc)
    assert len(doc["decks"]) == len(doc["fairness"]) == len(final.rounds())
    _, rec = records.load(doc)
    assert verify_record(rec) == []
    reloaded = GAME.load(doc)
    assert reloaded.summary() == final.summary() and reloaded.record() == doc
    assert final.reveal() == {"type": "reveal", "decks": doc["decks"], "fairness": doc["fairness"]}
    EVENT_MODELS["reveal"].model_validate(final.reveal(), strict=True)


def test_a_forfeit_ranks_the_side_last_and_reveal_waits_for_the_end() -> None:
    match, _ = GAME.new_match(OPTIONS, PLAYERS, 0)
    with pytest.raises(ValueError):
        match.reveal()
    assert match.result() is None
    match, events = match.apply(2, match.forfeit_action())
    assert [e["type"] for e in events] == ["forfeit", "match_over"]
    assert match.result() == {"reason": "forfeit", "winner": 1, "ranks": [2, 1, 2, 1], "scores": [0, 0],
                              "forfeited": 2}
    assert match.waiting_for() == () and match.legal_actions(0) == []


def test_replay_steps_agree_with_replay() -> None:
    final, events, seen = _random_match(5)
    steps = GAME.replay_steps(final.record())
    assert len(steps) == final.actions_count() + 1 == len(seen) - (len(final.rounds()) - 1)  # less decks
    assert steps[-1]["state"] == final.summary()
    # live: the first deal, then per deck a commitment before its deal; a replay has all the decks
    live = [e for e in events if e["type"] != "commitment"]
    assert live[0]["type"] == "deal"
    assert [e for s in steps for e in s["events"]] == live[1:]
    with pytest.raises(GameError):
        GAME.replay_steps({"format": "dineri-match/1", "game": "seven_diamonds"})


def test_a_stored_record_mid_match_reloads_and_deals_the_stacked_decks() -> None:
    decks = [codes(deck_for(d, *SPREAD)) for d in (1, 2)]
    match, _ = GAME.new_match(OPTIONS, PLAYERS, 1, decks=decks)
    rng = random.Random(0)
    events: list[dict[str, Any]] = []
    while len(match.rounds()) < 1:
        match = _next(match, rng, events)
    assert match.needs_deck()
    doc = json.loads(json.dumps(match.record()))
    assert doc["pending_decks"] == [decks[1]]
    again = GAME.load(doc)
    again, evs = again.add_deck()
    assert again.record()["decks"][1] == decks[1] and "pending_decks" not in again.record()
    assert [e["type"] for e in evs] == ["commitment", "deal"]
    assert isinstance(again, SevenDiamondsMatch) and again.phase == "bidding"


def test_cli_replay_and_verify(tmp_path: Path) -> None:
    final, _, _ = _random_match(8)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(final.record()))
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], capture_output=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == final.record()["result"]
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "verify", str(path)], capture_output=True)
    assert run.returncode == 0 and b"OK: all" in run.stdout
    doc = final.record()
    doc["decks"][1][0], doc["decks"][1][1] = doc["decks"][1][1], doc["decks"][1][0]
    path.write_text(json.dumps(doc))
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "verify", str(path)], capture_output=True)
    assert run.returncode == 1 and b"deck 1" in run.stdout
    path.write_text(json.dumps({**doc, "options": {"seats": 4, "target": 400}}))
    run = subprocess.run([sys.executable, "-m", "dineri.cli", "replay", str(path)], capture_output=True)
    assert run.returncode == 2 and b"target" in run.stderr and b"Traceback" not in run.stderr
