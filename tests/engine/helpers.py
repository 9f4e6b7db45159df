"""Helpers for the engine tests: stacked decks and compact action lists.

A *stacked deck* is a 40-card deck whose top cards are given (card codes, top
first) and whose other cards follow in the fixed order of ``FULL_DECK``
(♦ ace..king, ♥, ♠, ♣). With a cut at 0 the pack is the deck itself (R8), so a
test decides exactly which cards each seat and the table receive (R9, R11).

A *compact action* is one line of text:

    "1 cut 0"          Cut(seat 1, at 0)              R8
    "1 keep"           Keep(1)                        R9
    "1 table"          TableDrawn(1)                  R9
    "0 propose"        ProposeRedeal(0)               R10
    "1 accept"         AnswerRedeal(1, True)          R10
    "1 refuse"         AnswerRedeal(1, False)         R10
    "1 play 7H"        lay the 7H                     R13, R17
    "1 play KC 6H 4S"  play KC capturing 6H and 4S    R13-R16
    "0 claim 3D 3C"    claim the laid 3D with 3C      R19-R22
    "0 forfeit"        Forfeit(0)                     R33

It converts to the record's JSON form (``match-record.md``) and then through
``action_from_json``, so the tests exercise the same path as a replay.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from dineri.engine import (
    CODE,
    FULL_DECK,
    Action,
    Card,
    MatchState,
    Options,
    Play,
    RuleError,
    action_from_json,
    apply,
    legal_actions,
    new_match,
    parse_card,
    summary,
)

Event = dict[str, Any]


def cards(text: str) -> tuple[Card, ...]:
    """``cards("7D qh")`` -> the card ints, in order (R3)."""
    return tuple(parse_card(c) for c in text.split())


def deck(*prefix: str) -> tuple[Card, ...]:
    """A 40-card deck: ``prefix`` codes on top (each argument may hold several codes
    separated by spaces), then every other card in ``FULL_DECK`` order."""
    top = cards(" ".join(prefix))
    assert len(set(top)) == len(top), f"card repeated in stacked deck prefix {prefix}"
    return top + tuple(c for c in FULL_DECK if c not in top)


def keep_prefix(seats: int, dealer: int, hands: Sequence[str], table: str,
                later: Sequence[Sequence[str]] = ()) -> list[str]:
    """Deck prefix (codes) that, cut at 0 and *kept*, deals ``hands[seat]`` to each seat
    and ``table`` to the table (the R9 keep order: cutter, seats after it up to the
    dealer, table, dealer), then, for each later deal (R11), ``later[i][seat]``
    from the cutter round to the dealer."""
    cutter = (dealer + 1) % seats
    order = [(cutter + i) % seats for i in range(seats)]
    out = [hands[s] for s in order[:-1]] + [table, hands[dealer]]
    for more in later:
        out += [more[s] for s in order]
    return out


def action_json(text: str) -> dict[str, Any]:
    """The record form of a compact action (see the module docstring)."""
    words = text.split()
    seat, kind, rest = int(words[0]), words[1], words[2:]
    out: dict[str, Any] = {"seat": seat}
    if kind == "cut":
        out.update(type="cut", at=int(rest[0]))
    elif kind in ("keep", "table", "forfeit"):
        out["type"] = kind
    elif kind == "propose":
        out["type"] = "propose_redeal"
    elif kind in ("accept", "refuse"):
        out.update(type="answer_redeal", accept=kind == "accept")
    elif kind in ("play", "claim"):
        out.update(type=kind, card=rest[0])
        if rest[1:] or kind == "claim":
            out["capture"] = rest[1:]
    else:
        raise AssertionError(f"unknown compact action {text!r}")
    return out


def action(text: str, seats: int = 2) -> Action:
    """The engine action of a compact action."""
    return action_from_json(action_json(text), seats)


def start(prefixes: Iterable[Sequence[str]] = ((),), *, seats: int = 2, target: int = 11,
          best_of: int = 1, first_dealer: int = 0) -> MatchState:
    """A new match whose decks are the stacked decks of ``prefixes`` (one per shuffle)."""
    return new_match(Options(seats, target, best_of), first_dealer, [deck(*p) for p in prefixes])


def run(state: MatchState, *texts: str) -> tuple[MatchState, list[Event]]:
    """Apply compact actions in order; return the final state and all events."""
    events: list[Event] = []
    for text in texts:
        state, ev = apply(state, action(text, state.options.seats))
        events += ev
    return state, events


def refuse(state: MatchState, text_or_action: str | Action) -> RuleError:
    """Assert the action is refused (R18) and that the state is unchanged; return the error."""
    before = copy.deepcopy(state)
    view_before = summary(state)
    act = action(text_or_action, state.options.seats) if isinstance(text_or_action, str) else text_or_action
    with pytest.raises(RuleError) as info:
        apply(state, act)
    assert state == before
    assert summary(state) == view_before
    return info.value


def hands(state: MatchState) -> list[list[str]]:
    """Every hand as card codes (from :func:`summary`)."""
    return list(summary(state)["hands"])


def table(state: MatchState) -> list[str]:
    """The table as card codes (from :func:`summary`)."""
    return list(summary(state)["table"])


def lay_first(state: MatchState) -> tuple[MatchState, list[Event]]:
    """The seat to play lays its first card (always legal, R17): a deterministic move."""
    assert state.phase == "play" and state.turn is not None
    seat = state.turn
    first = summary(state)["hands"][seat][0]
    return run(state, f"{seat} play {first}")


def capture_first(state: MatchState) -> tuple[MatchState, list[Event]]:
    """The seat to play makes a legal capture (with its first card that can, taking the lowest
    cards), or lays its first card if it has none."""
    assert state.phase == "play" and state.turn is not None
    captures = [a for a in legal_actions(state, state.turn) if isinstance(a, Play) and a.capture]
    if not captures:
        return lay_first(state)
    # the first in a fixed order, so a game does not depend on the enumeration's order
    hand = summary(state)["hands"][state.turn]
    first = min(captures, key=lambda a: (hand.index(CODE[a.card]), sorted(a.capture)))
    new, events = apply(state, first)
    return new, events


def finish_round(state: MatchState, *, choice: str = "keep") -> tuple[MatchState, list[Event]]:
    """From a ``cut`` or ``play`` state, cut at 0, choose, and play until the round is over,
    each seat making its first legal capture (or laying); return the next state and all events."""
    events: list[Event] = []
    game, rnd = state.game, state.round
    if state.phase == "cut":
        state, events = run(state, f"{state.turn} cut 0", f"{state.turn} {choice}")
    while state.phase == "play" and (state.game, state.round) == (game, rnd):
        state, ev = capture_first(state)
        events += ev
    return state, events


def shuffled(seed: int) -> tuple[Card, ...]:
    """A deck in a fixed pseudo-random order (tests only; the server uses ``secure_deck``)."""
    import random

    order = list(FULL_DECK)
    random.Random(seed).shuffle(order)
    return tuple(order)


def position(table_cards: str, cutter: str, dealer: str, *, seats: int = 2,
             others: Sequence[str] = ()) -> MatchState:
    """The first turn of a match with stacked cards: dealer seat 0, cutter seat 1 cuts at 0 and
    keeps, so seat 1 holds ``cutter``, seat 0 ``dealer``, the table ``table_cards`` and, at
    4 seats, seats 2 and 3 hold ``others[0]`` and ``others[1]``."""
    dealt = [dealer, cutter, *others]
    state, _ = run(start([keep_prefix(seats, 0, dealt, table_cards)], seats=seats), "1 cut 0", "1 keep")
    assert hands(state) == [h.split() for h in dealt]
    assert table(state) == table_cards.split()
    return state


# A scripted 2-seat round (dealer 0, cutter 1, keep) made of sweeps (R23, R24):
#   play 1:  seat 1 KC takes AD AH 4D 4H (1+1+4+4): a chkobba for side 1;
#   play 2-4: seat 0 lays 5D, seat 1 lays 5H, seat 0 KD takes 5D 5H: a chkobba for side 0;
#   then 16 pairs: seat 1 lays a card on the empty table, seat 0 takes it with the same value.
# The last pair is the very last card of the round: a sweep with no chkobba (R24).
SWEEP_PAIRS = ["AS AC", "2D 2H", "2S 2C", "3D 3H", "3S 3C", "4S 4C", "5S 5C", "6D 6H", "6S 6C",
               "7D 7H", "7S 7C", "QD QH", "QS QC", "JD JH", "JS JC", "KH KS"]
_LAID = [p.split()[0] for p in SWEEP_PAIRS]
_TAKER = [p.split()[1] for p in SWEEP_PAIRS]
SWEEP_PREFIX = keep_prefix(
    2, 0, [f"5D KD {_TAKER[0]}", f"KC 5H {_LAID[0]}"], "AD AH 4D 4H",
    [[" ".join(_TAKER[i:i + 3]), " ".join(_LAID[i:i + 3])] for i in range(1, 16, 3)])


def sweep_actions() -> list[str]:
    """The 38 compact actions of the scripted sweep round (cut and keep included)."""
    out = ["1 cut 0", "1 keep", "1 play KC AD AH 4D 4H", "0 play 5D", "1 play 5H", "0 play KD 5D 5H"]
    for laid, taker in zip(_LAID, _TAKER, strict=True):
        out += [f"1 play {laid}", f"0 play {taker} {laid}"]
    return out


# 2 seats, dealer 0, cutter 1 (keep): three 5s on the table, so R10 allows a redeal.
REDEAL_PREFIX = keep_prefix(2, 0, ["AS 2S 3S", "AH 2H 3H"], "5D 5H 5S KC")
