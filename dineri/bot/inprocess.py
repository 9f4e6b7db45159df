"""Computer opponents a host seats (issue 3, item 8): bots that live inside the server process.

``create_app`` sets ``services.bot_launcher = BotLauncher()``; ``POST /api/tables/{id}/bots``
then awaits ``launcher(session, seat)``: a guest player named after its seat and the strategy
("Bot 2 (greedy)") is stored, takes the seat (``is_bot``), and a task plays it. The task listens
to the table's fan-out channel exactly like a table socket of that seat: it reads the public
events and *its own seat's view* only (never another view), decides with
:func:`dineri.bot.strategy.choose`, and acts through ``TableSession.act`` like a client (an
action id per decision, so a repeat is applied once).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
from typing import Any

from dineri.bot.strategy import STRATEGIES, SeatMemory, choose

log = logging.getLogger("dineri.bot")
NAMES = {"greedy": "Bot {n} (greedy)", "random": "Bot {n} (random)"}  # n: the seat, from 1


class BotLauncher:
    """Seats and runs in-process bots; one instance per app.

    ``delay`` (seconds) paces each move so people can follow it; ``strategy`` is ``greedy``
    or ``random``. Raises ``ValueError`` for an unknown strategy or a negative delay.
    """

    def __init__(self, strategy: str = "greedy", delay: float = 0.6, seed: int | None = None) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        if delay < 0:
            raise ValueError("delay must be 0 or more seconds")
        self.strategy = strategy
        self.delay = delay
        self._rng = random.Random(seed)
        self.tasks: dict[tuple[str, int], asyncio.Task[None]] = {}

    async def __call__(self, sess: Any, seat: int) -> None:
        """Store a bot player, seat it at ``seat`` of table session ``sess`` (one transaction,
        nothing stored when refused) and start its task.

        Raises the session's ``Refused`` (``not_open``, ``seat_taken``, ``malformed`` …) unchanged.
        """
        # Named by seat, like "Seat 2" on the pages, so two computers are told apart. The player
        # is stored only once the seat is known free (a refused request stores nothing).
        await sess.seat_computer(seat, NAMES[self.strategy].format(n=seat + 1))
        self.start(sess, seat)

    def start(self, sess: Any, seat: int) -> None:
        """Run the bot of ``seat`` (also after a restart, for a seat stored with ``is_bot``)."""
        key = (sess.id, seat)
        old = self.tasks.get(key)
        if old is not None and not old.done():
            return
        rng = random.Random(self._rng.getrandbits(64))
        loop = asyncio.get_running_loop()
        task = loop.create_task(self._run(sess, seat, rng), name=f"bot-{sess.id}-{seat}")
        self.tasks[key] = task
        task.add_done_callback(functools.partial(self._done, key))

    def _done(self, key: tuple[str, int], task: asyncio.Task[None]) -> None:
        if self.tasks.get(key) is task:
            del self.tasks[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("bot %s stopped: %r", key, task.exception())

    async def resume(self, sess: Any) -> int:
        """Run the bots of a loaded open or playing table (those already running are left alone);
        returns how many seats have a bot."""
        if sess.status not in ("open", "playing"):
            return 0
        rows = [r for r in sess.seat_rows.values() if r.is_bot]
        for row in rows:
            self.start(sess, row.seat)
        return len(rows)

    async def stop(self) -> None:
        """Cancel every bot task (server shutdown)."""
        tasks = list(self.tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def _run(self, sess: Any, seat: int, rng: random.Random) -> None:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        unsubscribe = sess.fanout.subscribe(f"table:{sess.id}", queue.put_nowait)
        memory = SeatMemory(seat=seat)
        row = sess.seat_rows.get(seat)
        me = row.player_id if row is not None else None
        present = False
        try:
            view = sess.view_for(seat)
            seq = sess.last_seq
            while True:
                if view is not None:
                    if not present and sess.status == "playing":
                        present = True
                        await sess.connected(seat)  # a bot is never away
                    memory.on_view(view)
                    if view.get("phase") == "over":
                        return
                    await self._move(sess, seat, view, memory, rng, seq)
                bundle = await queue.get()
                if not _still_seated(bundle.get("table") or {}, seat, me):
                    return  # the host removed the computer before the start
                for _seq, event in bundle.get("events", []):
                    memory.on_event(event)
                views = bundle.get("views")
                view = views.get(str(seat)) if views else None
                seq = bundle.get("seq", seq)
                if sess.status == "over" and view is None:
                    return
        finally:
            unsubscribe()

    async def _move(self, sess: Any, seat: int, view: dict[str, Any], memory: SeatMemory,
                    rng: random.Random, seq: int) -> None:
        for attempt in range(3):
            action = choose(view, memory, self.strategy, rng)
            if action is None:
                return
            if self.delay:
                await asyncio.sleep(self.delay)
            reply, _fresh = await sess.act(seat, f"bot-{seq}-{attempt}", action)
            if reply.get("type") != "error":
                return
            # A refused claim is forgotten; anything else: the view moved on, wait for it.
            if action["type"] == "claim":
                memory.forget_window()
                continue
            log.info("bot at %s seat %s refused: %s", sess.id, seat, reply)
            return


def _still_seated(table: dict[str, Any], seat: int, player_id: str | None) -> bool:
    """True while the table info still shows ``player_id`` in ``seat``."""
    for row in table.get("seats", []):
        if row.get("seat") == seat:
            return bool(row.get("player_id") == player_id)
    return True  # a bundle without seat info says nothing about it
