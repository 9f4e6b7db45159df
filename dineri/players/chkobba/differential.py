"""The simulator checked against the public engine, action by action (R4–R32).

:func:`compare_match` plays one random match in both :mod:`dineri.engine` and
:class:`~dineri.players.chkobba.sim.Sim` from the same shuffles: at every step it compares every
seat's legal action set, then applies the same randomly chosen action to both and compares the
whole resulting state (phase, turn, hands, table, pack left, piles' counters, chkobbas, window,
redeal flags, scores, games) and each finished round's result. Used by
``tests/players/test_differential.py``; raises :class:`Mismatch` at the first difference.
"""

from __future__ import annotations

import random
from typing import Any

from dineri.engine import (
    FULL_DECK,
    AnswerRedeal,
    Claim,
    Cut,
    Keep,
    MatchState,
    Options,
    Play,
    ProposeRedeal,
    TableDrawn,
    add_deck,
    apply,
    legal_actions,
    new_match,
)
from dineri.engine.cards import DIAMONDS, SEVEN_OF_DIAMONDS, SUIT, VALUE
from dineri.players.chkobba.cards import FROM_ENGINE, counters
from dineri.players.chkobba.sim import (
    ACCEPT,
    CLAIM,
    CUT,
    KEEP,
    PHASE_NAMES,
    PROPOSE,
    REFUSE,
    TABLE,
    Sim,
)


class Mismatch(AssertionError):
    """The simulator and the engine disagree; the message says where."""


_CODES: dict[int, tuple[Any, int]] = {}


def _code(action: Any) -> int:
    # The engine shares its recurring action instances: convert each once (pinned by the cache,
    # so its id is never reused); claims are built afresh each time and converted each time.
    hit = _CODES.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    code = to_sim(action)
    if type(action) is not Claim and len(_CODES) < 1 << 20:
        _CODES[id(action)] = (action, code)
    return code


def to_sim(action: Any) -> int:
    """The simulator action int of an engine action (not ``Forfeit``)."""
    t = type(action)
    if t is Play or t is Claim:
        m = 0
        for x in action.capture:
            m |= 1 << FROM_ENGINE[x]
        code = FROM_ENGINE[action.card] | m << 6
        return code | CLAIM if t is Claim else code
    if t is Cut:
        return CUT - action.at
    if t is Keep:
        return KEEP
    if t is TableDrawn:
        return TABLE
    if t is ProposeRedeal:
        return PROPOSE
    if t is AnswerRedeal:
        return ACCEPT if action.accept else REFUSE
    raise ValueError(f"no simulator action for {action!r}")


def _all_but(keep: Any) -> bytes:
    # For bytes.translate: delete every card but those kept, then count what is left (in C).
    return bytes(c for c in range(256) if c >= 40 or not keep(c))


_NOT_DINARI = _all_but(lambda c: SUIT[c] == DIAMONDS)
_NOT_SEVEN = _all_but(lambda c: VALUE[c] == 7)
_NOT_SIX = _all_but(lambda c: VALUE[c] == 6)
#: bytes(engine cards).translate(_TO_SIM): the same cards in simulator numbering.
_TO_SIM = bytes(FROM_ENGINE) + bytes(256 - 40)


_LAST_PILES: list[Any] = [None, None]


def _piles(piles: Any) -> list[tuple[int, int, int, int, bool]]:
    # The engine passes the piles tuple on unchanged when nothing is captured: reuse its counters.
    if _LAST_PILES[0] is not piles:
        _LAST_PILES[:] = [piles, [_pile(piles[0]), _pile(piles[1])]]
    return list(_LAST_PILES[1])


def _pile(cards: tuple[int, ...]) -> tuple[int, int, int, int, bool]:
    raw = bytes(cards)
    return (len(raw), len(raw.translate(None, _NOT_DINARI)), len(raw.translate(None, _NOT_SEVEN)),
            len(raw.translate(None, _NOT_SIX)), SEVEN_OF_DIAMONDS in cards)


def _sorted_sim(cards: tuple[int, ...]) -> list[int]:
    return sorted(bytes(cards).translate(_TO_SIM))


def engine_facts(st: MatchState) -> tuple[Any, ...]:
    """The engine state in the simulator's terms (cards as simulator ints, sets sorted)."""
    head = (st.phase, -1 if st.turn is None else st.turn, st.game, st.round, st.dealer,
            list(st.scores), list(st.games_won), -1 if st.winner is None else st.winner,
            -1 if st.pending_redeal is None else st.pending_redeal)
    d = st.deal
    if d is None or st.phase in ("shuffle", "cut"):
        return (*head, None)
    win = d.window
    return (*head, (
        [_sorted_sim(h) for h in d.hands],
        _sorted_sim(d.table),
        len(d.pack) - d.pos,
        _piles(d.piles),
        [len(d.chkobba_cards[0]), len(d.chkobba_cards[1])],
        -1 if d.last_capturer is None else d.last_capturer,
        -1 if win is None else FROM_ENGINE[win.card],
        d.started, d.first_deal, list(d.refused),
        -1 if st.drawn is None or st.phase != "cut_choice" else FROM_ENGINE[st.drawn],
    ))


def sim_facts(s: Sim) -> tuple[Any, ...]:
    """The same facts read from the simulator."""
    head = (PHASE_NAMES[s.phase], s.turn, s.game, s.round, s.dealer, list(s.scores), list(s.games_won),
            s.winner, s.pending)
    if s.phase in (0, 1):  # shuffle, cut
        return (*head, None)
    return (*head, (
        [sorted(h) for h in s.hands],
        list(s.table),
        len(s.pack) - s.pos,
        [counters(s.stats[0]), counters(s.stats[1])],
        list(s.chkobbas),
        s.last,
        s.window,
        s.started, s.first_deal, list(s.refused),
        s.drawn if s.phase == 2 else -1,
    ))


def _result(r: Any) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
    cats = tuple(-1 if w is None else w for w in (r.karta, r.dinari, r.barmila, r.sabaa))
    return (cats[0], cats[1], cats[2], cats[3]), r.points


def _deck(rng: random.Random) -> list[int]:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


def compare_match(rng: random.Random, seats: int, target: int, best_of: int, max_rounds: int = 1000) -> int:
    """Play one random match (or ``max_rounds`` rounds of it) in both; return the rounds played.

    Actions: uniform over the legal actions of the seat the game waits for; now and then a
    redeal proposal by another seat (R10 lets any seat propose). Raises :class:`Mismatch`.
    """
    dealer = rng.randrange(seats)
    st = new_match(Options(seats, target, best_of), dealer)
    sim = Sim(seats, target, best_of, dealer)
    steps = 0
    while st.phase != "over" and len(st.rounds) < max_rounds:
        if st.phase == "shuffle":
            deck = _deck(rng)
            st = add_deck(st, deck)
            sim.add_deck([FROM_ENGINE[c] for c in deck])
            _check(st, sim, steps, None)
            continue
        by_seat: list[list[Any]] = []
        proposers = []
        actor = sim.to_act()
        # Once a card is played no other seat can act in phase play (R10, R12): check the seat
        # to play there; check every seat otherwise (cuts, votes, proposals before the first card).
        quiet = st.phase == "play" and st.deal is not None and st.deal.started
        for seat in range(seats):
            if quiet and seat != actor:
                if sim.legal(seat):
                    raise Mismatch(f"step {steps}: seat {seat} may act out of turn in the simulator")
                by_seat.append([])
                continue
            actions = legal_actions(st, seat)
            actions.pop()  # Forfeit, always last
            want = set(map(_code, actions))
            got = sim.legal(seat)
            if want != set(got) or len(got) != len(actions):
                raise Mismatch(f"step {steps}: legal actions of seat {seat}: engine {sorted(want)}, "
                               f"simulator {sorted(got)}")
            by_seat.append(actions)
            if PROPOSE in want:
                proposers.append(seat)
        if proposers and rng.random() < 0.3:
            actor = rng.choice(proposers)
        engine_actions = by_seat[actor]
        if not engine_actions:
            raise Mismatch(f"step {steps}: seat {actor} to act has no action")
        action = engine_actions[int(rng.random() * len(engine_actions))]
        before = len(st.rounds)
        st, _ = apply(st, action)
        sim.apply(actor, to_sim(action))
        steps += 1
        _check(st, sim, steps, action)
        if len(st.rounds) != before and _result(st.rounds[-1]) != sim.results[-1]:
            raise Mismatch(f"round result: engine {_result(st.rounds[-1])}, simulator {sim.results[-1]}")
    return len(st.rounds)


def _check(st: MatchState, sim: Sim, steps: int, action: Any) -> None:
    e, s = engine_facts(st), sim_facts(sim)
    if e != s:
        where = "after add_deck" if action is None else f"after {action!r}"
        raise Mismatch(f"step {steps} {where}:\n engine    {e}\n simulator {s}")
    if len(sim.results) != len(st.rounds):
        raise Mismatch(f"step {steps}: {len(st.rounds)} rounds in the engine, {len(sim.results)} simulated")
