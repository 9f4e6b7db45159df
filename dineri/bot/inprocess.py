"""Computer opponents a host seats (issues 3 and 12): bots that live inside the server process.

``create_app`` sets ``services.bot_launcher = BotLauncher()``; ``POST /api/tables/{id}/bots``
then awaits ``launcher(session, seat, level)``: a guest player named after its seat and its level
("Bot 2 (hard)") is stored, takes the seat (``is_bot``), and a task plays it (after a restart the
level is read back from that name). The task listens to the table's fan-out channel exactly like
a table socket of that seat: it reads the public events and *its own seat's view* only (never
another view), and acts through ``TableSession.act`` like a client (an action id per decision,
so a repeat is applied once).

A search (``medium``, ``hard``) never runs on the event loop: :class:`ThinkPool` sends it to a
pool of worker processes through a bounded queue (at most ``capacity`` decisions waiting or
running; a bot whose decision cannot get a place within ``patience`` seconds plays greedy's move
instead, so nothing waits without bound). ``random``, ``greedy`` and ``easy`` take microseconds
and run inline.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import random
import re
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from dineri.bot.strategy import STRATEGIES, SeatMemory, choose, seat_actions
from dineri.players.levels import LEVELS, make_player
from dineri.server.frames import view_of

log = logging.getLogger("dineri.bot")
NAME = "Bot {n} ({level})"  # n: the seat, from 1
_NAME_LEVEL = re.compile(r"\(([a-z]+)\)$")
SEARCHES = tuple(x for x in LEVELS if x not in ("easy",))


def level_of(name: str | None, default: str) -> str:
    """The level a stored computer player's name carries ("Bot 2 (hard)" -> "hard"), else ``default``."""
    m = _NAME_LEVEL.search(name or "")
    return m.group(1) if m and m.group(1) in STRATEGIES else default


def think(level: str, seed: int, view: dict[str, Any], events: list[dict[str, Any]],
          legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One decision of a ``level`` player (runs in a worker process; the compiled playouts of
    ``scripts/build_fast.py`` when built from the current source)."""
    from dineri.players.chkobba.fast import use_compiled

    use_compiled()
    return make_player(level, seed).choose(view, events, legal)


class ThinkPool:
    """Worker processes for searches, behind a bounded queue.

    ``workers`` processes (spawned on first use); at most ``capacity`` decisions in flight
    (queued or running); a decision that waits more than ``patience`` seconds for a place falls
    back to greedy (counted in ``fallbacks``). ``in_flight``/``peak`` show the queue's use.
    """

    def __init__(self, workers: int = 1, capacity: int = 8, patience: float = 5.0) -> None:
        if workers < 1 or capacity < 1:
            raise ValueError("a pool needs at least one worker and one place")
        self.workers, self.capacity, self.patience = workers, capacity, patience
        self._slots = asyncio.Semaphore(capacity)
        self._executor: ProcessPoolExecutor | None = None
        self.in_flight = 0
        self.peak = 0
        self.fallbacks = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            spawn = multiprocessing.get_context("spawn")  # no fork of a server's threads and loop
            self._executor = ProcessPoolExecutor(self.workers, mp_context=spawn)
        return self._executor

    async def decide(self, level: str, seed: int, view: dict[str, Any], events: list[dict[str, Any]],
                     legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """``think(...)`` in a worker; greedy's choice inline when no place frees in time."""
        try:
            await asyncio.wait_for(self._slots.acquire(), self.patience)
        except TimeoutError:
            self.fallbacks += 1
            return make_player("greedy", seed).choose(view, events, legal)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool(), think, level, seed, view, events, legal)
        finally:
            self.in_flight -= 1
            self._slots.release()

    def close(self) -> None:
        """Stop the workers (server shutdown)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class BotLauncher:
    """Seats and runs in-process bots; one instance per app.

    ``delay`` (seconds) paces each move so people can follow it (a search's thinking time counts
    towards it); ``strategy`` is the default level (``greedy``, ``random``, ``easy``, ``medium``,
    ``hard``); ``pool`` runs the searches (a :class:`ThinkPool` of one worker unless given).
    Raises ``ValueError`` for an unknown strategy or a negative delay.
    """

    def __init__(self, strategy: str = "greedy", delay: float = 0.6, seed: int | None = None,
                 pool: ThinkPool | None = None) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        if delay < 0:
            raise ValueError("delay must be 0 or more seconds")
        self.strategy = strategy
        self.delay = delay
        self._rng = random.Random(seed)
        self.pool = pool
        self.tasks: dict[tuple[str, int], asyncio.Task[None]] = {}

    async def __call__(self, sess: Any, seat: int, level: str | None = None, *,
                       like: str | None = None) -> None:
        """Store a bot player of ``level`` (default: the level of the computer named ``like``, a
        rematch's, else the launcher's), seat it at ``seat`` of table session ``sess`` (one
        transaction, nothing stored when refused), start its task.

        Raises ``ValueError`` for an unknown level, and the session's ``Refused`` (``not_open``,
        ``seat_taken``, ``malformed`` …) unchanged.
        """
        level = level or level_of(like, self.strategy)
        if level not in STRATEGIES:
            raise ValueError(f"unknown level {level!r}")
        # Named by seat, like "Seat 2" on the pages, so two computers are told apart. The player
        # is stored only once the seat is known free (a refused request stores nothing).
        await sess.seat_computer(seat, NAME.format(n=seat + 1, level=level))
        self.start(sess, seat)

    def start(self, sess: Any, seat: int) -> None:
        """Run the bot of ``seat`` (also after a restart, for a seat stored with ``is_bot``)."""
        key = (sess.id, seat)
        old = self.tasks.get(key)
        if old is not None and not old.done():
            return
        rng = random.Random(self._rng.getrandbits(64))
        loop = asyncio.get_running_loop()
        # Who the bot is, read now: by the time the task first runs, its seat may be emptied
        # already (a quick match cancelled part-way), and the task would wait for it forever.
        row = sess.seat_rows.get(seat)
        task = loop.create_task(self._run(sess, seat, rng, row), name=f"bot-{sess.id}-{seat}")
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
        """Cancel every bot task and stop the search workers (server shutdown)."""
        tasks = list(self.tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        if self.pool is not None:
            self.pool.close()

    async def _run(self, sess: Any, seat: int, rng: random.Random, row: Any) -> None:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        unsubscribe = sess.fanout.subscribe(f"table:{sess.id}", queue.put_nowait)
        memory: Any = SeatMemory(seat=seat) if sess.game_name == "chkobba" else GameMemory()
        me = row.player_id if row is not None else None
        if not _still_seated(sess.info(), seat, me):
            unsubscribe()
            return  # emptied (or taken by somebody else) before this task ran
        level = level_of(row.name if row is not None else None, self.strategy)
        present = False
        try:
            view = sess.view_for(seat)
            seq = sess.last_seq
            if view is not None and view.get("phase") != "over":
                # Started mid-match (a restart): the public events of the deal so far.
                for _seq, event in await sess.events_after(0):
                    if _seq <= seq:
                        memory.on_event(event)
            while True:
                if view is not None:
                    if not present and sess.status == "playing":
                        present = True
                        await sess.connected(seat)  # a bot is never away
                    memory.on_view(view)
                    if view.get("phase") == "over":
                        return
                    await self._move(sess, seat, view, memory, rng, seq, level)
                bundle = await queue.get()
                if not _still_seated(bundle.get("table") or {}, seat, me):
                    return  # the host removed the computer before the start
                for _seq, event in bundle.get("events", []):
                    memory.on_event(event)
                for event in (bundle.get("private") or {}).get(str(seat), []):
                    memory.on_event(event)  # this seat's one-time secrets (golf4's peek, G6)
                view = view_of(bundle, seat)
                seq = bundle.get("seq", seq)
                if sess.status == "over" and view is None:
                    return
        finally:
            unsubscribe()

    async def _decide(self, view: dict[str, Any], memory: Any, level: str,
                      rng: random.Random, sess: Any = None, seat: int = 0) -> dict[str, Any] | None:
        if isinstance(memory, GameMemory):
            return await memory.decide(sess, seat, view, level, rng)
        if level not in SEARCHES:
            return choose(view, memory, level, rng)
        legal = seat_actions(view, memory)
        if not legal:
            return None
        if all(d["type"] == "propose_redeal" for d in legal):
            # Only an optional redeal proposal (another seat's turn, R10): weigh it once per deal.
            cut = next((e for e in reversed(memory.events) if e.get("type") == "cut"), None)
            if cut is not None and memory.redeal_weighed is cut:
                return None
            memory.redeal_weighed = cut
        if self.pool is None:
            self.pool = ThinkPool()
        return await self.pool.decide(level, rng.getrandbits(64), view, list(memory.events), legal)

    async def _move(self, sess: Any, seat: int, view: dict[str, Any], memory: Any,
                    rng: random.Random, seq: int, level: str) -> None:
        loop = asyncio.get_running_loop()
        for attempt in range(3):
            started = loop.time()
            action = await self._decide(view, memory, level, rng, sess, seat)
            if action is None:
                return
            rest = self.delay - (loop.time() - started)
            if rest > 0:
                await asyncio.sleep(rest)
            reply, _fresh = await sess.act(seat, f"bot-{seq}-{attempt}", action)
            if reply.get("type") != "error":
                return
            # A refused claim is forgotten; anything else: the view moved on, wait for it.
            if action["type"] == "claim":
                memory.forget_window()
                continue
            log.info("bot at %s seat %s refused: %s", sess.id, seat, reply)
            return


class GameMemory:
    """What a computer seat of a game other than Chkobba keeps (Seven Diamonds, golf4): the
    public events it received, in order. It decides with that game's player
    (:func:`dineri.players.levels.make_player` with ``game``) from its own seat view, those
    events and the actions its seat may send now (the forfeit never chosen)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.players: dict[str, Any] = {}

    def on_event(self, event: dict[str, Any]) -> None:
        """Keep a public event (chat lines are no play)."""
        if event.get("type") != "chat":
            self.events.append(event)

    def on_view(self, view: dict[str, Any]) -> None:
        """Nothing to adopt: the view is passed to the player whole."""

    def forget_window(self) -> None:
        """No missed-capture window outside Chkobba."""

    async def decide(self, sess: Any, seat: int, view: dict[str, Any], level: str,
                     rng: random.Random) -> dict[str, Any] | None:
        """The seat's action now, or ``None`` when it has none to make (not its move). A search
        level (``medium``, ``hard``: up to a few tenths of a second a move) thinks on a worker
        thread, never on the event loop; the seat keeps one player object for the match (golf4's
        players remember the cards they drew between calls)."""
        match = sess.match
        if match is None or match.over:
            return None
        legal = [a for a in match.legal_actions(seat) if a.get("type") != "forfeit"]
        if not legal:
            return None
        player = self.players.get(level)
        if player is None:
            try:
                player = make_player(level, rng.getrandbits(64), game=sess.game_name)
            except ValueError:  # a level that game's players do not have: its default player
                player = make_player("greedy", rng.getrandbits(64), game=sess.game_name)
            self.players[level] = player
        events = list(self.events)
        if level in SEARCHES:
            return dict(await asyncio.to_thread(player.choose, view, events, legal))
        return dict(player.choose(view, events, legal))


def _still_seated(table: dict[str, Any], seat: int, player_id: str | None) -> bool:
    """True while the table info still shows ``player_id`` in ``seat``."""
    for row in table.get("seats", []):
        if row.get("seat") == seat:
            return bool(row.get("player_id") == player_id)
    return True  # a bundle without seat info says nothing about it
