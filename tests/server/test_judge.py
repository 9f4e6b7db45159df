"""dineri/server/judge.py: one change through the games interface v2 (issue 10 item 2), as the
table session stores and sends it: the judged action, then every immediate action (``auto``) and
deck, the private events per seat, the seats now awaited."""

from __future__ import annotations

import pytest

from dineri.games import GameError, get_game
from dineri.golf4 import CODE
from dineri.server import judge
from tests.golf4.helpers import stacked
from tests.seven_diamonds.helpers import codes, deck_for


def _golf4(seats: int = 3):  # type: ignore[no-untyped-def]
    deck = [CODE[c] for c in stacked(seats, 0, {0: "AS 2S 3S 4S", 1: "KD QD JD TD"}, discard="9H",
                                     stock="8C 7C 6C")]
    match, events = get_game("golf4").new_match({"seats": seats, "rounds": 9}, list("abcdefgh")[:seats],
                                                first_dealer=0, decks=[deck])
    return match, events


def test_a_peek_is_private_to_its_seat_and_every_unanswered_seat_is_awaited() -> None:
    """G6: the peeked cards go to the peeking seat alone, once; every seat not yet answered is
    awaited."""
    match, _ = _golf4()
    j = judge.judge(match, 1, {"type": "peek"}, client_id="c1")
    assert j.events == [{"type": "peek", "seat": 1, "auto": False}]
    assert j.private == {1: [{"type": "peek_cards", "slots": {"2": "JD", "3": "TD"}}]}
    assert j.waiting == (0, 2)
    assert [(s.idx, s.seat, s.client_id, s.auto, s.events_end) for s in j.steps] == [(0, 1, "c1", False, 1)]
    assert j.steps[0].action == {"seat": 1, "type": "peek"}
    # nothing private leaks into the public events, and the next judgement has no private part
    assert "JD" not in str(j.events)
    j2 = judge.judge(j.match, 0, {"type": "skip_peek"})
    assert j2.private == {} and j2.waiting == (2,)


def test_a_timed_out_draw_is_completed_by_the_immediate_discard_in_the_same_judgement() -> None:
    """G8 and the rule page's Timeouts: a draw made by the clock is discarded at once, in the same
    judgement; a player's own draw waits for the player."""
    match, _ = _golf4()
    for seat in range(3):
        match = judge.judge(match, seat, {"type": "skip_peek"}, auto=True).match
    j = judge.judge(match, 1, {"type": "draw"}, auto=True)
    assert [e["type"] for e in j.events] == ["draw", "discard", "turn"]
    assert [(s.seat, s.action["type"], s.auto, s.client_id) for s in j.steps] == [
        (1, "draw", True, None), (1, "discard", True, None)]
    assert [s.idx for s in j.steps] == [3, 4] and j.steps[0].events_end == 1
    assert j.waiting == (2,)
    # a player's own draw waits for the player
    j = judge.judge(j.match, 2, {"type": "draw"})
    assert len(j.steps) == 1 and j.waiting == (2,)


def test_a_forfeited_seat_is_played_at_once_until_the_game_waits_on_a_player() -> None:
    match, _ = _golf4()
    j = judge.judge(match, 2, {"type": "forfeit"})
    assert [(s.seat, s.action["type"]) for s in j.steps] == [(2, "forfeit"), (2, "skip_peek")]
    assert j.waiting == (0, 1)
    match = judge.judge(j.match, 0, {"type": "peek"}).match
    j = judge.judge(match, 1, {"type": "peek"})
    j = judge.judge(j.match, 1, {"type": "knock"})
    # seat 2 (out) has its last turn at once, then seat 0's
    assert [(s.seat, s.action["type"], s.auto) for s in j.steps[:3]] == [
        (1, "knock", False), (2, "draw", True), (2, "discard", True)]
    assert j.waiting == (0,)
    j = judge.judge(j.match, 0, {"type": "forfeit"})
    assert j.match.over and j.waiting == () and j.events[-1]["type"] == "reveal"


def test_a_refused_action_raises_and_the_match_is_unchanged() -> None:
    """G12: a refused action (a draw in the peek) raises its code and changes nothing."""
    match, _ = _golf4()
    with pytest.raises(GameError) as e:
        judge.judge(match, 0, {"type": "draw"})
    assert e.value.code == "wrong_phase"
    assert match.actions_count() == 0 and match.waiting_for() == (0, 1, 2)


def test_seven_diamonds_forced_pass_is_made_by_the_server() -> None:
    """S10: a seat to play with no card that fits has only the pass; the server makes it at once
    (``auto``, announced as jella)."""
    hands = ("8D 9D 7H 8H AS KC QD 9C", "TD 7S 8S JH TH 9H KS AC",
             "7D 7C JD QH 9S TS 8C JC", "KD AD QS JS KH AH QC TC")
    game = get_game("seven_diamonds")
    match, _ = game.new_match({"seats": 4, "target": 500}, ["a", "b", "c", "d"], 3,
                              decks=[codes(deck_for(3, *hands))])
    for seat in (0, 1, 2, 3):
        match = judge.judge(match, seat, {"type": "bid", "call": "pass"}).match
    j = judge.judge(match, 2, {"type": "play", "card": "7D"}, client_id="x")
    assert [(s.seat, s.action, s.client_id) for s in j.steps] == [
        (2, {"seat": 2, "type": "play", "card": "7D"}, "x"),
        (3, {"seat": 3, "type": "pass", "auto": True}, None)]
    assert {"type": "jella", "seat": 3, "auto": True} in j.events and j.waiting == (0,)


def test_settle_of_a_new_match_changes_nothing_when_nothing_is_due() -> None:
    match, events = _golf4()
    j = judge.settle(match, events)
    assert j.match is match and j.events == events and j.steps == [] and j.waiting == (0, 1, 2)
    chk, first = get_game("chkobba").new_match({"seats": 2, "target": 11, "best_of": 1}, ["a", "b"], 0)
    j = judge.settle(chk, first)
    assert j.steps == [] and j.waiting == (chk.to_act(),) and j.events == first
