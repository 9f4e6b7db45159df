"""Information Set Monte Carlo Tree Search, for any game that supplies worlds (issue 12).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 2012; applied to Scopone by Di Palma and Lanzi, IEEE ToG 2018,
arXiv 1807.06813): each iteration draws a new *determinization* (a full world consistent with
what the deciding seat knows), descends one tree of action nodes with UCB1 restricted to the
actions legal in that world (each child counts how often it was available), expands one
untried action, plays the world out with the game's rollout, and backs up each seat's reward
into the nodes that seat chose.

A game plugs in through two small protocols: a :class:`Model` draws worlds, a :class:`World`
is one mutable world (see ``docs/players.md``). Deterministic given ``seed`` when no time
budget is set; with ``seconds`` it also stops at that budget (checked every few iterations).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class World(Protocol):
    """One determinized world, mutable; the search steps it forward and throws it away."""

    def actor(self) -> int:
        """The seat to decide now, or -1 at the search horizon (e.g. the end of the round)."""
        ...

    def legal(self) -> Sequence[Hashable]:
        """The actor's legal actions in this world (hashable, equal across worlds when equal)."""
        ...

    def step(self, action: Any) -> None:
        """Apply one of :meth:`legal`."""
        ...

    def rollout(self, rnd: random.Random) -> None:
        """Play on to the horizon with the game's default policy."""
        ...

    def rewards(self) -> Sequence[float]:
        """At the horizon: each seat's reward in [0, 1] (partners share theirs)."""
        ...

    def side(self, seat: int) -> int:
        """The seat's side (partners share one; a seat alone is its own side)."""
        ...

    def policy_step(self, rnd: random.Random) -> None:
        """Apply the opponent model's action for the actor (the game's default policy)."""
        ...


class Model(Protocol):
    """Draws worlds consistent with what the deciding seat knows."""

    def determinize(self, rnd: random.Random) -> World:
        """A fresh world whose actor is the deciding seat."""
        ...


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Hashable, _Node] = {}


@dataclass
class SearchResult:
    """The chosen action, and how the search got there: iterations run, seconds taken, and the
    visits and mean reward of each root action."""

    action: Hashable
    iterations: int
    seconds: float
    stats: dict[Hashable, tuple[int, float]]


def search(model: Model, *, iterations: int = 1000, seconds: float | None = None, seed: int = 0,
           exploration: float = 0.7, model_opponents: bool = True) -> SearchResult:
    """Run ISMCTS from the deciding seat's information set; return the most visited root action.

    ``iterations`` caps the iterations; ``seconds`` (optional) caps the wall time. ``exploration``
    is the UCB1 constant. With ``model_opponents`` the tree holds only the decisions of the
    deciding seat's side; the other sides' moves inside the tree are the game's opponent model
    (:meth:`World.policy_step`): with few iterations per node an opponent's reply expanded at
    random would make every blunder look safe. Raises ``ValueError`` if the deciding seat has
    no legal action.
    """
    rng = random.Random(seed)
    rnd = rng.random
    root = _Node()
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    sqrt, log = math.sqrt, math.log
    done = 0
    first = model.determinize(rng)
    root_seat = first.actor()
    root_side = first.side(root_seat)
    root_actions = list(first.legal())
    if not root_actions:
        raise ValueError("the deciding seat has no legal action")
    if len(root_actions) == 1:
        return SearchResult(root_actions[0], 0, 0.0, {root_actions[0]: (0, 0.0)})
    world: World | None = first
    while done < iterations:
        if deadline is not None and done & 7 == 0 and done and time.perf_counter() > deadline:
            break
        w = world if world is not None else model.determinize(rng)
        world = None
        node = root
        path: list[tuple[_Node, int]] = []
        while True:
            seat = w.actor()
            if seat < 0:
                break
            if model_opponents and w.side(seat) != root_side:
                w.policy_step(rng)
                continue
            legal = w.legal()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rnd() * len(untried))]
                child = _Node()
                children[action] = child
                for a in legal:
                    if a is not action and a in children:
                        children[a].avail += 1
                w.step(action)
                path.append((child, seat))
                break
            best = None
            best_value = -1.0
            for a in legal:
                ch = children[a]
                ch.avail += 1
                value = ch.total / ch.visits + exploration * sqrt(log(ch.avail) / ch.visits)
                if value > best_value:
                    best_value, best, node_action = value, ch, a
            assert best is not None
            w.step(node_action)
            path.append((best, seat))
            node = best
        w.rollout(rng)
        rewards = w.rewards()
        for n, seat in path:
            n.visits += 1
            n.total += rewards[seat]
        done += 1
    stats = {a: (ch.visits, ch.total / ch.visits if ch.visits else 0.0) for a, ch in root.children.items()}
    legal_root = [a for a in root_actions if a in root.children] or root_actions
    best_action = max(legal_root, key=lambda a: (stats.get(a, (0, 0.0))[0], stats.get(a, (0, 0.0))[1]))
    del root_seat
    return SearchResult(best_action, done, time.perf_counter() - start, stats)
