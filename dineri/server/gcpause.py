"""Keep the garbage collector from stopping the loop for long (issue 8, item 5).

A server holds many long-lived objects (modules, the app, sessions, matches) and makes many
short-lived ones per action (frames, events, views). CPython's collector walks every tracked
object of a generation, so a full collection grows with the heap and stops the event loop for
tens of milliseconds. :func:`tune` moves everything alive after start-up into the permanent
generation (``gc.freeze()``: never walked again) and raises the thresholds, so the young
generation is collected less often and objects that survive two young collections are rare
enough that full collections become rare too. ``dineri serve`` calls :func:`hold` first: no
collection runs while the server imports and builds itself (about 0.13 s of collections over
a heap that is all kept anyway), and :func:`tune` then freezes without the full collection
(about 0.1 s for some 190,000 objects, which found under 700 garbage ones; those stay frozen).
:class:`Pauses` measures every collection (``gc.callbacks``) and the server logs a summary
(``gc pauses``) when it stops; the load benchmark prints it.
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Any

log = logging.getLogger("dineri.gc")

#: (young, middle, old) thresholds after start-up: the young generation is collected after
#: 50,000 net allocations instead of 700; an old (full) collection after 100 middle ones.
THRESHOLDS = (50_000, 20, 100)
SLOW_MS = 10.0  # a pause at least this long is counted apart


class Pauses:
    """Times every collection through ``gc.callbacks``: ``collections``, ``max_ms``,
    ``total_ms``, ``slow`` (pauses ≥ :data:`SLOW_MS`), ``by_generation`` (count per generation)."""

    def __init__(self) -> None:
        self.collections = 0
        self.max_ms = 0.0
        self.total_ms = 0.0
        self.slow = 0
        self.by_generation = [0, 0, 0]
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        ms = (time.perf_counter() - self._start) * 1000.0
        self.collections += 1
        self.total_ms += ms
        self.max_ms = max(self.max_ms, ms)
        self.slow += ms >= SLOW_MS
        self.by_generation[int(info.get("generation", 0))] += 1

    def install(self) -> None:
        """Start measuring (idempotent)."""
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        """Stop measuring."""
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def summary(self) -> dict[str, Any]:
        """The figures as a JSON object (milliseconds rounded to 0.01)."""
        return {"collections": self.collections, "max_ms": round(self.max_ms, 2),
                "total_ms": round(self.total_ms, 2), "over_10ms": self.slow,
                "by_generation": list(self.by_generation)}


_held = False  # hold() turned the collector off for the start-up


def hold() -> None:
    """Turn the collector off until :func:`tune` or :func:`release` (the start of ``dineri serve``:
    start-up builds objects that all live on, so collecting them is wasted time; issue 8 item 6)."""
    global _held
    _held = True
    gc.disable()


def release() -> None:
    """Turn the collector back on after :func:`hold` (untuned: ``DINERI_GC_TUNING=false``)."""
    global _held
    if _held:
        _held = False
        gc.enable()


def tune(thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    """After start-up: freeze what is alive (``gc.freeze``), set ``thresholds``, collector on.

    A full collection comes first unless :func:`hold` kept the collector off since the process
    began (then there is next to no garbage to find, and walking the whole heap would delay the
    first answers by about 0.1 s)."""
    global _held
    if not _held:
        gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    log.info("gc tuned", extra={"frozen": gc.get_freeze_count(), "thresholds": list(thresholds),
                                "collected_first": not _held})
    _held = False
    gc.enable()
