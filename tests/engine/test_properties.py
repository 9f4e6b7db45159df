"""Property tests over random legal playouts, 2 and 4 seats (issue 2, item 4).

Hypothesis draws the seat count and a seed; the seed drives every shuffle and
every choice of a random legal player, so a failing example replays exactly.
Each playout checks, at every step:

- all 40 cards are accounted for: hands + table + each side's pile + the pack
  (the piles are rebuilt from the public events, so events and state agree);
- ``apply`` never changes the state it was given (a pickled snapshot before and
  after), on accepted and on refused actions;
- a seat's view holds no card of another hand or of the pack; the spectator view
  holds no hand at all;
- each round's points equal its categories plus its chkobbas (R26), and each
  game's total equals the sum of its rounds (R28);
- the match record built from the playout replays, twice, to the same result,
  equal to the live state.

A second property checks that ``legal_actions`` is exact: among many candidate
actions (every card, random subsets of the table, claims, cuts, redeals, answers,
from every seat) ``apply`` refuses exactly those it does not list.
"""

from __future__ import annotations

import json
import pickle
import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dineri.engine import (
    CODE,
    FULL_DECK,
    VALUE,
    Action,
    AnswerRedeal,
    Claim,
    Cut,
    Forfeit,
    Keep,
    MatchRecord,
    MatchState,
    Options,
    Play,
    ProposeRedeal,
    RuleError,
    TableDrawn,
    action_to_json,
    add_deck,
    apply,
    legal_actions,
    new_match,
    replay,
    seat_view,
    spectator_view,
    summary,
)

ALL_CODES = frozenset(CODE)
assert len(ALL_CODES) == 40
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SEAT_COUNTS = st.sampled_from([2, 4])
Event = dict[str, Any]


_CODE_STRING = re.compile(r'"([A2-7QJK][DHSC])"')


def codes_in(obj: object) -> set[str]:
    """Every card code anywhere in a JSON value (any string, key or value, equal to a code)."""
    return set(_CODE_STRING.findall(json.dumps(obj)))


def _order(action: Action) -> tuple[str, int, int, tuple[int, ...], int, bool]:
    """A sort key for actions that ignores the order of named cards."""
    return (type(action).__name__, action.seat, getattr(action, "card", -1),
            tuple(sorted(getattr(action, "capture", ()))), getattr(action, "at", -1),
            bool(getattr(action, "accept", False)))


class Playout:
    """A random legal match, checked at every step.

    ``piles`` are the current round's captured cards per side, rebuilt from the
    public events (``play``/``claim`` captures, ``round_over`` leftovers).
    """

    def __init__(self, seats: int, seed: int, *, target: int = 11, best_of: int = 1) -> None:
        self.rng = random.Random(seed)
        self.seats = seats
        self.state = new_match(Options(seats, target, best_of), self.rng.randrange(seats))
        self.decks: list[tuple[int, ...]] = []
        self.actions: list[Action] = []
        self.piles: tuple[list[str], list[str]] = ([], [])
        self.chkobbas = [0, 0]
        self.rounds = 0
        self.seen: set[str] = set()  # event kinds met, to show the playouts reach every path
        # about one match in ten ends by a forfeit at a random step (R33)
        self.forfeit_at = self.rng.randrange(400) if self.rng.random() < 0.1 else -1

    # --- choosing a move ---------------------------------------------------------------------

    def choose(self) -> Action:
        state, rng = self.state, self.rng
        if len(self.actions) == self.forfeit_at:
            return Forfeit(rng.randrange(self.seats))
        if state.phase == "redeal_vote":
            assert state.pending_redeal is not None
            side = state.pending_redeal % 2
            seat = rng.choice([s for s in range(self.seats) if s % 2 != side])
            return AnswerRedeal(seat, rng.random() < 0.5)
        if state.phase == "play":
            proposals = [a for s in range(self.seats) for a in legal_actions(state, s)
                         if isinstance(a, ProposeRedeal)]
            if proposals and rng.random() < 0.7:
                return rng.choice(proposals)
        assert state.turn is not None
        # sorted, so the playout of a seed does not depend on the enumeration's order
        moves = sorted((a for a in legal_actions(state, state.turn)
                        if not isinstance(a, Forfeit | ProposeRedeal)), key=_order)
        claims = [a for a in moves if isinstance(a, Claim)]
        if claims and rng.random() < 0.5:  # make claims common enough to matter
            return rng.choice(claims)
        return rng.choice(moves)

    # --- one step ------------------------------------------------------------------------------

    def step(self, on_state: Callable[[MatchState], None] | None = None) -> None:
        if self.state.phase == "shuffle":
            deck = list(FULL_DECK)
            self.rng.shuffle(deck)
            self.decks.append(tuple(deck))
            self.state = add_deck(self.state, deck)
        if on_state is not None:
            on_state(self.state)
        action = self.choose()
        before = self.state
        snapshot = pickle.dumps(before)
        new, events = apply(before, action)
        assert pickle.dumps(before) == snapshot, "apply changed the state it was given"
        self.actions.append(action)
        self.state = new
        for event in events:
            self.on_event(event)
        self.check_state()

    def run(self, max_rounds: int | None = None,
            on_state: Callable[[MatchState], None] | None = None) -> None:
        while self.state.phase != "over" and (max_rounds is None or self.rounds < max_rounds):
            self.step(on_state)

    # --- checks ----------------------------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        kind = event["type"]
        self.seen.add(kind if kind not in ("play", "claim", "redeal_answered") else
                      f"{kind}:{event.get('chkobba', event.get('accept'))}")
        if kind in ("play", "claim") and event["capture"]:
            side = event["seat"] % 2
            self.piles[side].extend([*event["capture"], event["card"]])
            self.chkobbas[side] += bool(event["chkobba"])
        elif kind == "round_over":
            self.rounds += 1
            if event["leftovers_to"] is not None:
                self.piles[event["leftovers_to"]].extend(event["leftovers"])
            self.check_round(event["result"])
            self.piles = ([], [])
            self.chkobbas = [0, 0]
        elif kind == "game_over":
            mine = [r for r in summary(self.state)["rounds"] if r["game"] == event["game"]]
            assert event["scores"] == [sum(r["points"][0] for r in mine), sum(r["points"][1] for r in mine)]

    def check_round(self, result: dict[str, Any]) -> None:
        """R26–R29 against the piles rebuilt from the events."""
        def count(side: int, pred: Callable[[str], bool]) -> int:
            return sum(1 for c in self.piles[side] if pred(c))

        assert result["cards"] == [len(self.piles[0]), len(self.piles[1])]
        assert result["dinari_cards"] == [count(s, lambda c: c[1] == "D") for s in (0, 1)]
        assert result["sevens"] == [count(s, lambda c: c[0] == "7") for s in (0, 1)]
        assert result["sixes"] == [count(s, lambda c: c[0] == "6") for s in (0, 1)]
        assert result["chkobbas"] == self.chkobbas
        assert result["sabaa"] == (0 if "7D" in self.piles[0] else 1 if "7D" in self.piles[1] else None)
        points = list(result["chkobbas"])
        for cat in ("karta", "dinari", "barmila", "sabaa"):
            if result[cat] is not None:
                points[result[cat]] += 1
        assert result["points"] == points
        assert sum(result["cards"]) <= 40

    def check_state(self) -> None:
        state = self.state
        s = summary(state)
        # game totals are the sum of the current game's finished rounds (R28)
        mine = [r for r in s["rounds"] if r["game"] == s["game"]]
        assert s["scores"] == [sum(r["points"][0] for r in mine), sum(r["points"][1] for r in mine)]
        assert s["captured"] == [len(self.piles[0]), len(self.piles[1])] or state.phase == "over"
        if state.phase in ("shuffle", "cut", "over"):
            if state.phase == "cut":
                assert s["deck_left"] == 40 and not any(s["hands"]) and not s["table"]
            self.check_views(state, s, pack=set(ALL_CODES) if state.phase == "cut" else set())
            return
        hands = [c for h in s["hands"] for c in h]
        seen = hands + s["table"] + self.piles[0] + self.piles[1]
        if s["drawn"] is not None:
            seen.append(s["drawn"])
        assert len(seen) == len(set(seen)), "a card is in two places"
        assert len(seen) + s["deck_left"] == 40, "cards are missing or extra"
        self.check_views(state, s, pack=set(ALL_CODES) - set(seen))

    def check_views(self, state: MatchState, s: dict[str, Any], pack: set[str]) -> None:
        hands = [set(h) for h in s["hands"]]
        for seat in range(self.seats):
            view = seat_view(state, seat)
            assert set(view["hand"]) == hands[seat]
            others = set().union(*(h for i, h in enumerate(hands) if i != seat))
            assert not codes_in(view) & (others | pack), "a seat sees a hidden card"
        spec = spectator_view(state)
        assert "hand" not in spec and "hands" not in spec
        assert not codes_in(spec) & (set().union(*hands) | pack), "a spectator sees a hidden card"

    def check_replay(self) -> None:
        record = MatchRecord(self.state.options, self.state.first_dealer, tuple(self.decks),
                             tuple(action_to_json(a) for a in self.actions))
        first, second = replay(record), replay(record)
        assert first.error is None and first.applied == len(self.actions)
        assert first.to_json() == second.to_json()
        assert first.state == second.state == self.state
        assert first.to_json() == {"ok": True, "error": None, **summary(self.state)}


# Sized for about 2,000 rounds in ~10 s on one core.
@settings(max_examples=400, deadline=None)
@given(seats=SEAT_COUNTS, seed=SEEDS)
def test_random_matches_keep_every_invariant(seats: int, seed: int) -> None:
    playout = Playout(seats, seed)
    playout.run()
    assert playout.state.phase == "over" and playout.state.winner in (0, 1)
    playout.check_replay()


# Whole best-of-3/5 matches: dealer rotation and score resets across games (R6, R32).
@settings(max_examples=25, deadline=None)
@given(seats=SEAT_COUNTS, seed=SEEDS, best_of=st.sampled_from([3, 5]), target=st.sampled_from([11, 21]))
def test_random_long_matches_keep_every_invariant(seats: int, seed: int, best_of: int, target: int) -> None:
    playout = Playout(seats, seed, target=target, best_of=best_of)
    playout.forfeit_at = -1
    playout.run()
    assert max(playout.state.games_won) == best_of // 2 + 1
    playout.check_replay()


def test_random_playouts_reach_every_path() -> None:
    """The random player is not vacuous: over fixed seeds it makes claims, chkobbas (also by
    claim), redeal proposals accepted and refused, later deals, forfeits and game ends."""
    wanted = {"claim:True", "claim:False", "play:True", "play:False", "deal_more", "redeal_proposed",
              "redeal_answered:True", "redeal_answered:False", "forfeit", "round_over", "game_over",
              "match_over"}
    seen: set[str] = set()
    for seed in range(400):
        playout = Playout(2 + 2 * (seed % 2), seed)
        playout.run()
        seen |= playout.seen
        if wanted <= seen:
            break
    assert wanted - seen == set()


# --- legal_actions is exact ----------------------------------------------------------------------------


def _key(action: Action) -> tuple[Any, ...]:
    """Compare actions ignoring the order of named cards (a capture is a set, R13)."""
    if isinstance(action, Play | Claim):
        return (type(action).__name__, action.seat, action.card, frozenset(action.capture), action.auto)
    return (type(action).__name__, *(getattr(action, f) for f in action.__slots__))


def candidates(state: MatchState, seat: int, rng: random.Random) -> list[Action]:
    """Many actions for ``seat``: all of ``legal_actions`` plus every card with random
    subsets of the table (and of other cards), claims, cuts, answers and the rest."""
    out: list[Action] = list(legal_actions(state, seat))
    s = summary(state)
    table = [FULL_DECK[CODE.index(c)] for c in s["table"]]
    others = [c for c in FULL_DECK if c not in table]
    for card in FULL_DECK:
        out.append(Play(seat, card))
        for _ in range(2):
            subset = tuple(c for c in table if rng.random() < 0.4)
            if subset:
                out.append(Play(seat, card, subset))
        if table and rng.random() < 0.3:
            out.append(Play(seat, card, (rng.choice(table), rng.choice(others))))
    # claims: the card last laid and every other card, with random subsets of the table
    for card in [*(FULL_DECK[CODE.index(c)] for c in s["table"][-1:]), rng.choice(FULL_DECK)]:
        for _ in range(4):
            subset = tuple(c for c in table if rng.random() < 0.4 and c != card)
            if subset:
                out.append(Claim(seat, card, subset))
    # sums over the table for every card: claims of exactly the sums a card could make
    for card in rng.sample(FULL_DECK, 5):
        out.append(Claim(seat, card, tuple(c for c in table if VALUE[c] == VALUE[card])[:1] or (card,)))
    out += [Cut(seat, rng.randrange(40)), Cut(seat, 0), Cut(seat, 39), Keep(seat), TableDrawn(seat),
            ProposeRedeal(seat), AnswerRedeal(seat, True), AnswerRedeal(seat, False), Forfeit(seat)]
    return out


def check_legal_actions_exact(state: MatchState, rng: random.Random, stats: dict[str, int]) -> None:
    snapshot = pickle.dumps(state)
    for seat in range(state.options.seats):
        legal = {_key(a) for a in legal_actions(state, seat)}
        for action in candidates(state, seat, rng):
            try:
                apply(state, action)
            except RuleError as e:
                assert _key(action) not in legal, f"legal {action} refused: {e}"
                stats["refused"] += 1
            else:
                assert _key(action) in legal, f"{action} accepted but not listed by legal_actions"
                stats["accepted"] += 1
    assert pickle.dumps(state) == snapshot, "apply changed the state it was given"


@settings(max_examples=80, deadline=None)
@given(seats=SEAT_COUNTS, seed=SEEDS)
def test_legal_actions_are_exactly_what_apply_accepts(seats: int, seed: int) -> None:
    playout = Playout(seats, seed)
    playout.forfeit_at = -1
    check_rng = random.Random(seed ^ 0x5EED)
    stats = {"accepted": 0, "refused": 0}
    playout.run(max_rounds=1, on_state=lambda st_: check_legal_actions_exact(st_, check_rng, stats))
    assert stats["accepted"] > 0 and stats["refused"] > stats["accepted"]
