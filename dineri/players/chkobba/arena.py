"""Matches between computer players on the public engine (benchmarks and tests).

:func:`play_match` referees one Chkobba match with :mod:`dineri.engine`: each seat's player gets
only its own ``seat_view``, the public events so far and its action objects (computed from
that seat's knowledge, :func:`~dineri.players.chkobba.info.legal_actions`), and the engine
applies what it returns (a refusal is an error: the player was wrong). Before the first card
of a deal every other seat may propose a redeal (R10). The shuffles come from ``deck(i)`` so
that two matches can be dealt the same cards (mirrored decks).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dineri.engine import (
    Options,
    RuleError,
    action_from_json,
    add_deck,
    apply,
    new_match,
    seat_view,
)
from dineri.players.base import Json, Player
from dineri.players.chkobba.info import legal_actions, seat_info


@dataclass
class MatchOutcome:
    """The winning side, games won, rounds played, and per seat the seconds of each decision
    (wall clock, and this process's CPU time)."""

    winner: int
    games_won: list[int]
    rounds: int
    move_times: list[list[float]] = field(default_factory=list)
    actions: int = 0
    move_cpu: list[list[float]] = field(default_factory=list)


def play_match(players: Sequence[Player], options: Options, first_dealer: int,
               deck: Callable[[int], Sequence[int]], max_actions: int = 20000) -> MatchOutcome:
    """Play a whole match; ``players[seat]`` plays ``seat``; ``deck(i)`` is the i-th shuffle
    (engine cards). Raises ``RuntimeError`` if a player's action is refused or it stalls."""
    n = options.seats
    state = new_match(options, first_dealer)
    events: list[Json] = []
    times: list[list[float]] = [[] for _ in range(n)]
    cpu: list[list[float]] = [[] for _ in range(n)]
    decks = 0
    actions = 0
    while state.phase != "over":
        if actions > max_actions:
            raise RuntimeError("the match did not end")
        if state.phase == "shuffle":
            state = add_deck(state, list(deck(decks)))
            decks += 1
            continue
        view0 = seat_view(state, 0)
        turn = view0["turn"]
        order = [turn] if turn is not None else []
        if state.phase == "play" and state.deal is not None and not state.deal.started:
            order += [s for s in range(n) if s != turn]
        moved = False
        for seat in order:
            view = seat_view(state, seat)
            legal = legal_actions(seat_info(view, events))
            if not legal:
                continue
            if seat != turn and not any(d["type"] == "propose_redeal" for d in legal):
                continue
            t0, c0 = time.perf_counter(), time.process_time()
            choice = players[seat].choose(view, events, legal)
            times[seat].append(time.perf_counter() - t0)
            cpu[seat].append(time.process_time() - c0)
            if choice is None:
                continue
            try:
                act = action_from_json({**choice, "seat": seat}, n)
                state, evs = apply(state, act)
            except RuleError as e:
                who = f"seat {seat} ({players[seat].name})"
                raise RuntimeError(f"{who} sent {choice}: {e.code} {e.message}") from None
            events.extend(evs)
            actions += 1
            moved = True
            break
        if not moved:
            raise RuntimeError(f"nobody moves in phase {state.phase}")
    assert state.winner is not None
    return MatchOutcome(state.winner, list(state.games_won), len(state.rounds), times, actions, cpu)
