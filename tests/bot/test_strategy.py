"""The bot's choices (issue 3, item 8) against the engine itself.

Each bot decides from its own seat view and the public events only (what the
server would send it); the engine must accept every choice, and matches end.
"""

from __future__ import annotations

import random

import pytest

from dineri.bot.strategy import SeatMemory, choose
from dineri.engine import (
    CODE,
    Options,
    RuleError,
    action_from_json,
    add_deck,
    apply,
    legal_captures,
    new_match,
    parse_card,
    seat_view,
)
from dineri.engine.cards import FULL_DECK


def play_out(seats: int, strategies: list[str], seed: int, target: int = 11) -> tuple[object, list[dict]]:
    """Play a whole match with bots; return the final state and every event (in order)."""
    rng = random.Random(seed)
    state = new_match(Options(seats, target, 1), first_dealer=rng.randrange(seats))
    memories = [SeatMemory(seat=s, seats=seats) for s in range(seats)]
    events_seen: list[dict] = []
    for _ in range(5000):
        if state.phase == "over":
            return state, events_seen
        if state.phase == "shuffle":
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            state = add_deck(state, tuple(deck))
            continue
        for m in memories:
            m.on_view(seat_view(state, m.seat))
        moves = [(s, choose(seat_view(state, s), memories[s], strategies[s], rng)) for s in range(seats)]
        moves = [(s, a) for s, a in moves if a is not None]
        assert len(moves) >= 1, f"nobody moves in phase {state.phase}"
        seat, action = moves[0]
        try:
            state, events = apply(state, action_from_json({**action, "seat": seat}, seats))
        except RuleError as e:  # pragma: no cover - the assertion message is the point
            raise AssertionError(f"engine refused {action} from seat {seat}: {e.code} {e.message}") from None
        for ev in events:
            events_seen.append(ev)
            for m in memories:
                m.on_event(ev)
    raise AssertionError("match did not end in 5000 actions")


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("seed", range(6))
def test_bots_play_legal_actions_to_the_end(seats: int, seed: int) -> None:
    strategies = ["random", "greedy"] * (seats // 2)
    state, events = play_out(seats, strategies, seed)
    assert state.phase == "over"
    assert events[-1]["type"] == "match_over"


def test_random_lays_open_windows_and_bots_claim_them() -> None:
    """R19–R20: over many random matches some lay could capture, and the next bot claims it."""
    claims = 0
    for seed in range(10):
        _, events = play_out(2, ["random", "random"], seed)
        claims += sum(1 for e in events if e["type"] == "claim")
    assert claims > 0


def test_greedy_beats_random_over_many_matches() -> None:
    wins = [0, 0]
    for seed in range(20):
        state, _ = play_out(2, ["greedy", "random"], seed)
        wins[state.winner] += 1
    assert wins[0] > wins[1]


def view(**kw: object) -> dict:
    base = {"seat": 0, "phase": "play", "turn": 0, "options": {"seats": 2, "target": 11, "best_of": 1},
            "table": [], "hand": [], "hand_sizes": [3, 3], "deck_left": 20, "pending_redeal": None}
    base.update(kw)
    return base


def test_greedy_prefers_a_chkobba() -> None:
    """R23: the 7H sweeping 5S+2C empties the table (a chkobba): preferred to the 5D taking 5S."""
    v = view(table=["5S", "2C"], hand=["7H", "5D", "AS"])
    act = choose(v, SeatMemory(0), "greedy", random.Random(0))
    assert act == {"type": "play", "card": "7H", "capture": ["5S", "2C"]}


def test_greedy_takes_the_seven_of_diamonds() -> None:
    """R26 Sab'a l-hayya: of two sevens on the table, greedy's seven takes the 7D (R16: one card)."""
    v = view(table=["7S", "7D", "3C"], hand=["7H", "2S", "QC"])
    act = choose(v, SeatMemory(0), "greedy", random.Random(0))
    assert act == {"type": "play", "card": "7H", "capture": ["7D"]}


def test_greedy_lays_its_least_useful_card() -> None:
    v = view(table=["KS"], hand=["7D", "2H", "6C"])
    act = choose(v, SeatMemory(0), "greedy", random.Random(0))
    assert act == {"type": "play", "card": "2H", "capture": []}


def test_no_chkobba_bonus_on_the_last_card() -> None:
    """R24: the round's last card never makes a chkobba, so greedy weighs it as a plain capture."""
    v = view(table=["3S", "4S", "7C"], hand=["7H"], hand_sizes=[1, 0], deck_left=0)
    act = choose(v, SeatMemory(0), "greedy", random.Random(0))
    assert act == {"type": "play", "card": "7H", "capture": ["7C"]}


def test_memory_claims_only_a_lay_by_the_previous_seat() -> None:
    """R19: a window opens for the very next seat only, when the laid card could have captured."""
    me = SeatMemory(seat=1, seats=2)
    me.on_view(view(seat=1, table=["3C", "4D"]))
    me.on_event({"type": "play", "seat": 0, "card": "7S", "capture": [], "chkobba": False, "auto": False})
    assert me.window == ("7S", ["3C", "4D"])
    assert me.table == ["3C", "4D", "7S"]
    act = choose(view(seat=1, turn=1, table=me.table, hand=["AH"]), me, "random", random.Random(1))
    assert act == {"type": "claim", "card": "7S", "capture": ["3C", "4D"]}
    other = SeatMemory(seat=2, seats=4)
    other.on_view(view(seat=2, table=["3C", "4D"], options={"seats": 4, "target": 11, "best_of": 1}))
    other.on_event({"type": "play", "seat": 0, "card": "7S", "capture": []})
    assert other.window is None


def test_no_window_for_a_card_that_could_not_capture() -> None:
    """R19: a laid card that could have captured nothing opens no missed-capture window."""
    me = SeatMemory(seat=1, seats=2)
    me.on_view(view(seat=1, table=["KC"]))
    me.on_event({"type": "play", "seat": 0, "card": "2S", "capture": []})
    assert me.window is None


def test_not_my_move_means_no_action() -> None:
    assert choose(view(turn=1, hand=["AH"]), SeatMemory(0), "greedy", random.Random(0)) is None
    with pytest.raises(ValueError, match="unknown strategy"):
        choose(view(hand=["AH"]), SeatMemory(0), "clever", random.Random(0))


def test_only_cards_in_view_are_named() -> None:
    """The bot names only its own hand and table cards it was shown (it sees nothing else)."""
    rng = random.Random(3)
    for _ in range(200):
        cards = rng.sample(range(40), 7)
        hand, table = [CODE[c] for c in cards[:3]], [CODE[c] for c in cards[3:]]
        act = choose(view(table=table, hand=hand), SeatMemory(0), rng.choice(["random", "greedy"]), rng)
        assert act is not None and act["card"] in hand
        assert set(act["capture"]) <= set(table)
        if act["capture"]:
            assert act["capture"] in [[CODE[c] for c in cap]
                                      for cap in legal_captures(parse_card(act["card"]), cards[3:])]


def test_table_urls() -> None:
    from dineri.bot.client import BotError, parse_table_url

    link = parse_table_url("http://127.0.0.1:8123/t/abc_DEF-1")
    assert (link.base, link.table_id, link.code) == ("http://127.0.0.1:8123", "abc_DEF-1", None)
    assert link.ws_url == "ws://127.0.0.1:8123/ws/tables/abc_DEF-1"
    inv = parse_table_url("https://dineri.example/t/T1?code=s3cr3t")
    assert (inv.table_id, inv.code, inv.ws_url) == ("T1", "s3cr3t", "wss://dineri.example/ws/tables/T1")
    join = parse_table_url("http://h:1/join/T1.c0de-x_y")
    assert (join.base, join.table_id, join.code) == ("http://h:1", "T1", "c0de-x_y")
    for bad in ("ftp://x/t/1", "http://x/tables/1", "http://x/t/", "not a url", "http://x/t/1/2",
                "http://x/join/T1", "http://x/join/.code"):
        with pytest.raises(BotError):
            parse_table_url(bad)
