"""Seats, sides and order (R4–R6), the shuffle, cut and deal (R7–R11), the first player (R12)."""

from __future__ import annotations

import hashlib

import pytest

from dineri.engine import (
    CODE,
    FULL_DECK,
    MatchRecord,
    Options,
    RuleError,
    action_from_json,
    add_deck,
    load_record,
    new_match,
    replay,
    seat_view,
    spectator_view,
    summary,
)
from dineri.fairness import commit, commitment, secure_deck, verify_record
from tests.engine.helpers import (
    action_json,
    deck,
    finish_round,
    hands,
    keep_prefix,
    refuse,
    run,
    shuffled,
    start,
    table,
)

SIXTEEN = "AD 2D 3D 4D 5D 6D 7D QD JD KD AH 2H 3H 4H 5H 6H"


# --- R4–R6: seats, sides, order, dealer and cutter --------------------------------------------


def test_r4_only_two_or_four_seats() -> None:
    assert Options.from_json({"seats": 4, "target": 11, "best_of": 1}).seats == 4
    for seats in (1, 3, 5, "2", None):
        with pytest.raises(RuleError) as info:
            Options.from_json({"seats": seats, "target": 11, "best_of": 1})
        assert info.value.code == "malformed"
        assert "seats" in info.value.message


@pytest.mark.parametrize("seats", [2, 4])
def test_r4_play_passes_to_next_seat(seats: int) -> None:
    dealer = seats - 1  # cutter is seat 0
    state, _ = run(start(seats=seats, first_dealer=dealer), "0 cut 0", "0 keep")
    order = []
    for _ in range(2 * seats):
        seat = state.turn
        assert seat is not None
        order.append(seat)
        state, _ = run(state, f"{seat} play {hands(state)[seat][0]}")
    assert order == [i % seats for i in range(2 * seats)]


def test_r5_side_is_seat_mod_2_and_partners_share_a_pile() -> None:
    # 4 seats, dealer 3, cutter 0; keep: 0, 1, 2 get 3 each, table 4, dealer 3.
    prefix = keep_prefix(4, 3, ["AH 2H 3H", "4H 6H 7H", "KD 2S 3S", "4S 6S 7S"], "KS QC JC 5C")
    state = start([prefix], seats=4, first_dealer=3)
    for seat in range(4):
        assert seat_view(state, seat)["side"] == seat % 2
    state, _ = run(state, "0 cut 0", "0 keep", "0 play AH", "1 play 4H", "2 play KD KS")
    assert summary(state)["captured"] == [2, 0]  # seat 2 captures for side 0
    state, _ = run(state, "3 play 4S 4H")
    assert summary(state)["captured"] == [2, 2]  # seat 3 for side 1


@pytest.mark.parametrize(("seats", "dealer"), [(2, 0), (2, 1), (4, 0), (4, 1), (4, 2), (4, 3)])
def test_r6_cutter_is_dealer_plus_one(seats: int, dealer: int) -> None:
    state = start(seats=seats, first_dealer=dealer)
    cutter = (dealer + 1) % seats
    assert state.phase == "cut" and state.dealer == dealer and state.turn == cutter
    assert summary(state)["turn"] == cutter
    others = [s for s in range(seats) if s != cutter]
    for seat in others:
        assert refuse(state, f"{seat} cut 0").code == "not_your_turn"
    state, _ = run(state, f"{cutter} cut 0")
    for seat in others:
        assert refuse(state, f"{seat} keep").code == "not_your_turn"


def test_r6_first_dealer_out_of_range() -> None:
    for bad in (-1, 2):
        with pytest.raises(ValueError):
            new_match(Options(2, 11, 1), bad, [deck()])


@pytest.mark.parametrize("seats", [2, 4])
def test_r6_dealer_rotates_each_round_and_across_games(seats: int) -> None:
    state = new_match(Options(seats, 11, 3), 1, [shuffled(i) for i in range(200)])
    seen: list[tuple[int, int, int]] = []
    while state.phase != "over":
        assert state.phase == "cut"
        assert state.turn == (state.dealer + 1) % seats
        seen.append((state.game, state.round, state.dealer))
        state, _ = finish_round(state)
    assert len({g for g, _, _ in seen}) >= 2, "the match should last at least two games"
    for i, (_, _, dealer) in enumerate(seen):
        assert dealer == (1 + i) % seats
    # the first round of each later game continues the rotation (R6, R32)
    firsts = [i for i, (g, r, _) in enumerate(seen) if r == 1 and g > 1]
    assert firsts and all(seen[i][2] == (seen[i - 1][2] + 1) % seats for i in firsts)


# --- R7: shuffle and fairness commitment ---------------------------------------------------------


def test_r7_without_a_deck_the_match_waits_for_a_shuffle() -> None:
    state = new_match(Options(2, 11, 1), 0)
    assert state.phase == "shuffle"
    assert summary(state)["deck_left"] == 0
    assert refuse(state, "1 cut 0").code == "wrong_phase"
    state = add_deck(state, deck())
    assert state.phase == "cut" and state.turn == 1
    assert summary(state)["deck_left"] == 40


def test_r7_add_deck_rejects_a_bad_deck() -> None:
    state = new_match(Options(2, 11, 1), 0)
    for bad in (FULL_DECK[:39], (0,) * 40, (*FULL_DECK[:39], 40)):
        with pytest.raises(ValueError):
            add_deck(state, bad)
    assert state.phase == "shuffle"


def test_r7_secure_deck_is_a_permutation() -> None:
    decks = [secure_deck() for _ in range(5)]
    assert all(sorted(d) == list(FULL_DECK) for d in decks)
    assert len(set(decks)) > 1


def test_r7_commitment_is_sha256_of_salt_and_codes() -> None:
    d = shuffled(7)
    f = commit(d)
    text = f.salt + ":" + ",".join(CODE[c] for c in d)
    assert f.commitment == hashlib.sha256(text.encode()).hexdigest()
    assert f.commitment == commitment(f.salt, d)
    assert len(f.salt) >= 16 and commit(d).salt != f.salt
    record = MatchRecord(Options(), 0, (d,), fairness=(f,))
    assert verify_record(record) == []
    swapped = (d[1], d[0], *d[2:])
    assert verify_record(MatchRecord(Options(), 0, (swapped,), fairness=(f,))) != []


# --- R8: the cut ---------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, 1, 5, 20, 38, 39])
def test_r8_cut_rotates_the_deck_and_draws_the_card_at_k(k: int) -> None:
    d = shuffled(k)
    state = new_match(Options(2, 11, 1), 0, [d])
    state, events = run(state, f"1 cut {k}")
    pack = d[k:] + d[:k]
    assert state.phase == "cut_choice"
    assert events[0]["drawn"] == CODE[d[k]] == CODE[pack[0]]
    assert summary(state)["drawn"] == CODE[d[k]]
    assert summary(state)["deck_left"] == 39
    for seat in range(2):
        assert seat_view(state, seat)["drawn"] == CODE[d[k]]  # shown to every player
    assert spectator_view(state)["drawn"] == CODE[d[k]]
    state, _ = run(state, "1 keep")
    assert hands(state)[1] == [CODE[c] for c in pack[0:3]]
    assert table(state) == [CODE[c] for c in pack[3:7]]
    assert hands(state)[0] == [CODE[c] for c in pack[7:10]]
    assert summary(state)["drawn"] is None


@pytest.mark.parametrize("at", [-1, 40, "3", 2.0, None, True])
def test_r8_cut_position_out_of_range_is_malformed(at: object) -> None:
    with pytest.raises(RuleError) as info:
        action_from_json({"seat": 1, "type": "cut", "at": at}, 2)
    assert info.value.code == "malformed"


# --- R9: keep or table, the exact deal order ------------------------------------------------------


def _split(text: str) -> list[str]:
    return text.split()


def test_r9_keep_two_seats_order() -> None:
    c = _split(SIXTEEN)
    state, _ = run(start([(SIXTEEN,)], first_dealer=0), "1 cut 0", "1 keep")
    assert hands(state) == [c[7:10], c[0:3]]
    assert table(state) == c[3:7]
    assert summary(state)["deck_left"] == 30


def test_r9_table_two_seats_order() -> None:
    c = _split(SIXTEEN)
    state, _ = run(start([(SIXTEEN,)], first_dealer=1), "0 cut 0", "0 table")
    assert table(state) == c[0:4]
    assert hands(state) == [c[4:7], c[7:10]]  # cutter 0 first, then dealer 1
    assert summary(state)["deck_left"] == 30


@pytest.mark.parametrize(("dealer", "expect"), [
    # keep: cutter drawn+2, then each seat after it up to the dealer, then 4 to the table, dealer 3
    (3, {0: (0, 3), 1: (3, 6), 2: (6, 9), "table": (9, 13), 3: (13, 16)}),
    (1, {2: (0, 3), 3: (3, 6), 0: (6, 9), "table": (9, 13), 1: (13, 16)}),
])
def test_r9_keep_four_seats_order(dealer: int, expect: dict[int | str, tuple[int, int]]) -> None:
    c = _split(SIXTEEN)
    cutter = (dealer + 1) % 4
    state, _ = run(start([(SIXTEEN,)], seats=4, first_dealer=dealer), f"{cutter} cut 0", f"{cutter} keep")
    for who, (a, b) in expect.items():
        got = hands(state)[who] if isinstance(who, int) else table(state)
        assert got == c[a:b], who
    assert summary(state)["deck_left"] == 24


@pytest.mark.parametrize(("dealer", "expect"), [
    # table: drawn+3 to the table, then 3 each from the cutter round to the dealer
    (3, {"table": (0, 4), 0: (4, 7), 1: (7, 10), 2: (10, 13), 3: (13, 16)}),
    (0, {"table": (0, 4), 1: (4, 7), 2: (7, 10), 3: (10, 13), 0: (13, 16)}),
])
def test_r9_table_four_seats_order(dealer: int, expect: dict[int | str, tuple[int, int]]) -> None:
    c = _split(SIXTEEN)
    cutter = (dealer + 1) % 4
    state, _ = run(start([(SIXTEEN,)], seats=4, first_dealer=dealer), f"{cutter} cut 0", f"{cutter} table")
    for who, (a, b) in expect.items():
        got = hands(state)[who] if isinstance(who, int) else table(state)
        assert got == c[a:b], who
    assert summary(state)["deck_left"] == 24


def test_r9_keep_or_table_only_in_cut_choice() -> None:
    state = start()
    assert refuse(state, "1 keep").code == "wrong_phase"
    state, _ = run(state, "1 cut 0", "1 table")
    assert refuse(state, "1 keep").code == "wrong_phase"
    assert refuse(state, "1 table").code == "wrong_phase"


def test_r9_seat_views_show_own_hand_only_and_table() -> None:
    c = _split(SIXTEEN)
    state, _ = run(start([(SIXTEEN,)], first_dealer=0), "1 cut 0", "1 keep")
    assert seat_view(state, 1)["hand"] == c[0:3]
    assert seat_view(state, 0)["hand"] == c[7:10]
    assert seat_view(state, 0)["table"] == c[3:7]
    assert seat_view(state, 0)["hand_sizes"] == [3, 3]


# --- R10: redeal ---------------------------------------------------------------------------------

# 2 seats, dealer 0, cutter 1 (keep): three 5s on the table
REDEAL_2 = keep_prefix(2, 0, ["AS 2S 3S", "AH 2H 3H"], "5D 5H 5S KC")
# 4 seats, dealer 0, cutter 1 (keep): three 5s on the table
REDEAL_4 = keep_prefix(4, 0, ["4S 6S 7S", "AH 2H 3H", "4H 6H 7H", "AS 2S 3S"], "5D 5H KC 5S")


def test_r10_any_seat_may_propose_when_three_share_a_value() -> None:
    for seat in (0, 1):  # the dealer (not on turn) and the cutter
        state, events = run(start([REDEAL_2, ()]), "1 cut 0", "1 keep", f"{seat} propose")
        assert state.phase == "redeal_vote"
        assert summary(state)["pending_redeal"] == {"proposer": seat}
        assert events[-1]["type"] == "redeal_proposed"


def test_r10_four_of_a_value_allows_a_redeal() -> None:
    prefix = keep_prefix(2, 0, ["AH 2H 3H", "AS 2S 3S"], "5D 5H 5S 5C")
    state, _ = run(start([prefix, ()]), "1 cut 0", "1 keep", "0 propose")
    assert state.phase == "redeal_vote"


def test_r10_two_of_a_value_is_not_enough() -> None:
    prefix = keep_prefix(2, 0, ["AH 2H 3H", "AS 2S 3S"], "5D 5H KS KC")
    state, _ = run(start([prefix, ()]), "1 cut 0", "1 keep")
    for seat in (0, 1):
        assert refuse(state, f"{seat} propose").code == "redeal_not_allowed"


def test_r10_not_after_the_first_card() -> None:
    state, _ = run(start([REDEAL_2, ()]), "1 cut 0", "1 keep", "1 play AH")
    for seat in (0, 1):
        assert refuse(state, f"{seat} propose").code == "redeal_not_allowed"


def test_r10_not_in_a_later_deal() -> None:
    # the three 5s are still on the table, but this is the second deal (R11) of the round
    state, _ = run(start([REDEAL_2, ()]), "1 cut 0", "1 keep", "1 play AH", "0 play AS", "1 play 2H",
                   "0 play 2S", "1 play 3H", "0 play 3S")
    assert summary(state)["deck_left"] == 24  # a second deal happened
    assert sum(1 for c in table(state) if c[0] == "5") == 3
    assert refuse(state, "1 propose").code == "redeal_not_allowed"


def test_r10_not_before_the_deal() -> None:
    state = start([REDEAL_2])
    assert refuse(state, "1 propose").code == "wrong_phase"
    state, _ = run(state, "1 cut 0")
    assert refuse(state, "1 propose").code == "wrong_phase"


def test_r10_pending_proposal_pauses_play() -> None:
    state, _ = run(start([REDEAL_2, ()]), "1 cut 0", "1 keep", "0 propose")
    assert refuse(state, "1 play AH").code == "wrong_phase"
    assert refuse(state, "1 play AH 5D").code == "wrong_phase"
    assert refuse(state, "1 claim AH 5D").code == "wrong_phase"
    assert refuse(state, "1 propose").code == "wrong_phase"  # only one pending at a time
    assert refuse(state, "0 propose").code == "wrong_phase"
    assert refuse(state, "0 accept").code == "not_your_turn"  # the proposer cannot answer


def test_r10_answer_needs_a_pending_proposal() -> None:
    state, _ = run(start([REDEAL_2, ()]), "1 cut 0", "1 keep")
    assert refuse(state, "0 accept").code == "wrong_phase"
    assert refuse(state, "0 refuse").code == "wrong_phase"


def test_r10_accepted_same_dealer_shuffles_same_cutter_cuts() -> None:
    state, events = run(start([REDEAL_2, (SIXTEEN,)]), "1 cut 0", "1 keep", "0 propose", "1 accept")
    assert events[-1] == {"type": "redeal_answered", "seat": 1, "accept": True, "auto": False}
    assert state.phase == "cut"
    assert (state.game, state.round, state.dealer, state.turn) == (1, 1, 0, 1)
    s = summary(state)
    assert s["table"] == [] and s["hands"] == [[], []] and s["deck_left"] == 40
    assert s["pending_redeal"] is None
    assert refuse(state, "0 cut 0").code == "not_your_turn"
    state, _ = run(state, "1 cut 0", "1 keep")  # the second deck is used
    c = SIXTEEN.split()
    assert hands(state) == [c[7:10], c[0:3]]


def test_r10_accepted_without_another_deck_waits_for_a_shuffle() -> None:
    state, _ = run(start([REDEAL_2]), "1 cut 0", "1 keep", "0 propose", "1 accept")
    assert state.phase == "shuffle" and state.dealer == 0 and state.turn == 1


def test_r10_refused_play_goes_on_and_that_side_may_not_propose_again() -> None:
    state, _ = run(start([REDEAL_2, ()]), "1 cut 0", "1 keep", "0 propose", "1 refuse")
    assert state.phase == "play" and state.turn == 1
    assert summary(state)["pending_redeal"] is None
    assert refuse(state, "0 propose").code == "redeal_not_allowed"
    state, _ = run(state, "1 propose")  # the other side still may
    assert state.phase == "redeal_vote"
    state, _ = run(state, "0 refuse")
    for seat in (0, 1):
        assert refuse(state, f"{seat} propose").code == "redeal_not_allowed"
    state, _ = run(state, "1 play AH")
    assert summary(state)["table"][-1] == "AH"


def test_r10_two_v_two_first_answer_decides_refusal() -> None:
    state, _ = run(start([REDEAL_4, ()], seats=4), "1 cut 0", "1 keep", "2 propose")
    assert refuse(state, "0 refuse").code == "not_your_turn"  # the proposer's partner
    assert refuse(state, "2 refuse").code == "not_your_turn"
    state, _ = run(state, "3 refuse")
    assert state.phase == "play" and state.turn == 1
    assert refuse(state, "1 accept").code == "wrong_phase"  # already decided
    assert refuse(state, "0 propose").code == "redeal_not_allowed"  # side 0 refused
    state, _ = run(state, "1 propose", "2 accept")  # side 1 may; seat 2 answers first
    assert state.phase == "cut" and state.dealer == 0 and state.turn == 1


@pytest.mark.parametrize("answerer", [1, 3])
def test_r10_two_v_two_first_answer_decides_acceptance(answerer: int) -> None:
    state, _ = run(start([REDEAL_4, ()], seats=4), "1 cut 0", "1 keep", "0 propose",
                   f"{answerer} accept")
    assert state.phase == "cut" and state.dealer == 0 and state.turn == 1 and state.round == 1
    other = 4 - answerer
    assert refuse(state, f"{other} accept").code == "wrong_phase"


def test_r10_record_of_an_accepted_redeal_uses_the_next_deck() -> None:
    doc = {"format": "dineri-match/1", "game": "chkobba", "options": {"seats": 2, "target": 11, "best_of": 1},
           "first_dealer": 0, "decks": [[CODE[c] for c in deck(*REDEAL_2)], [CODE[c] for c in deck(SIXTEEN)]],
           "actions": [action_json(a) for a in ("1 cut 0", "1 keep", "1 propose", "0 accept", "1 cut 0",
                                                "1 table")]}
    out = replay(load_record(doc)).to_json()
    assert out["ok"] is True
    assert out["table"] == SIXTEEN.split()[0:4]


# --- R11: later deals ------------------------------------------------------------------------------


def test_r11_three_more_each_from_cutter_to_dealer_none_to_table() -> None:
    prefix = keep_prefix(2, 0, ["AS 2S 3S", "AH 2H 3H"], "QD JD KD QH", [["4C 5C 7C", "QC JC KC"]])
    state, _ = run(start([prefix]), "1 cut 0", "1 keep", "1 play AH", "0 play AS", "1 play 2H",
                   "0 play 2S", "1 play 3H")
    assert summary(state)["deck_left"] == 30
    state, events = run(state, "0 play 3S")
    assert events[-1] == {"type": "deal_more", "hand_sizes": [3, 3], "deck_left": 24}
    assert hands(state) == [["4C", "5C", "7C"], ["QC", "JC", "KC"]]
    # the literal pack: cutter 1 kept AH 2H 3H, table, dealer 0; then the later deal, cutter first
    assert prefix == ["AH 2H 3H", "QD JD KD QH", "AS 2S 3S", "QC JC KC", "4C 5C 7C"]
    assert len(table(state)) == 10  # only the 6 cards laid were added
    assert state.turn == 1


def test_r11_four_seats_order() -> None:
    later = [["AS 2S 3S", "4S 5S 7S", "QS JS KS", "4C 5C 7C"]]
    prefix = keep_prefix(4, 0, ["QD JD KD", "AH 2H 3H", "4H 5H 7H", "AC 2C 3C"], "6D 6H 6S 6C", later)
    state, _ = run(start([prefix], seats=4), "1 cut 0", "1 keep")
    for _ in range(12):
        state, _ = run(state, f"{state.turn} play {hands(state)[state.turn or 0][0]}")
    assert hands(state) == [h.split() for h in later[0]]
    assert summary(state)["deck_left"] == 12
    assert len(table(state)) == 16


@pytest.mark.parametrize(("seats", "more"), [(2, 5), (4, 2)])
def test_r11_number_of_later_deals(seats: int, more: int) -> None:
    for seed in range(3):
        state = new_match(Options(seats, 31, 1), seed % seats, [shuffled(seed)])
        _, events = finish_round(state, choice="table" if seed % 2 else "keep")
        assert sum(1 for e in events if e["type"] == "deal_more") == more
        assert sum(1 for e in events if e["type"] == "play") == 36


# --- R12: the cutter plays first; a turn is exactly one card ---------------------------------------


@pytest.mark.parametrize(("seats", "dealer", "choice"), [(2, 0, "keep"), (2, 1, "table"), (4, 2, "keep"),
                                                         (4, 3, "table")])
def test_r12_cutter_plays_first(seats: int, dealer: int, choice: str) -> None:
    cutter = (dealer + 1) % seats
    state, _ = run(start(seats=seats, first_dealer=dealer), f"{cutter} cut 0", f"{cutter} {choice}")
    assert state.phase == "play" and state.turn == cutter
    for seat in range(seats):
        if seat != cutter:
            assert refuse(state, f"{seat} play {hands(state)[seat][0]}").code == "not_your_turn"
    state, _ = run(state, f"{cutter} play {hands(state)[cutter][0]}")
    assert state.turn == (cutter + 1) % seats


def test_r12_no_pass() -> None:
    for raw in ({"seat": 1, "type": "pass"}, {"seat": 1, "type": "play"},
                {"seat": 1, "type": "play", "card": None}):
        with pytest.raises(RuleError) as info:
            action_from_json(raw, 2)
        assert info.value.code == "malformed"
