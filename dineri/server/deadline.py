"""Every HTTP request is answered in bounded time (issue 7 item 3, adversarial re-check: with the
database stalled, REST calls hung 20 s and more, or answered ``500``).

:class:`Deadline` gives each HTTP request ``seconds`` (``Settings.request_deadline()``:
``DINERI_DB_TIMEOUT`` + 1, 6 s by default). A request whose answer has
not started by then is answered ``503 unavailable`` (the documented error body, ``Retry-After``).
Its handler is not cancelled (a cancel could land between a commit and the in-memory change it
stands for): it runs on, its own database calls each bounded, and whatever it sends later is
dropped. A transaction of it that would commit after the answer rolls back instead
(:data:`dineri.store.writer.DEADLINE`), and the writer drops writes past their own deadline, so
nothing is applied after the client was told it was not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from dineri.server.errors import UNAVAILABLE_RETRY_AFTER, unavailable_body
from dineri.store.writer import DEADLINE, AnswerBy, Unavailable

log = logging.getLogger("dineri.deadline")
T = TypeVar("T")


class Deadline:
    """ASGI middleware: HTTP requests answered within ``seconds`` (``<= 0``: no deadline);
    WebSockets and lifespan pass through (the table socket bounds its own handshake)."""

    def __init__(self, app: Any, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.seconds <= 0:
            await self.app(scope, receive, send)
            return
        started = False
        late = False

        async def guarded(message: dict[str, Any]) -> None:
            nonlocal started
            if late:  # answered unavailable already: the handler's own answer goes nowhere
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        clock = AnswerBy(time.monotonic() + self.seconds)
        token = DEADLINE.set(clock)
        try:  # the task copies the context: its worker threads see the deadline
            task = asyncio.ensure_future(self.app(scope, receive, guarded))
        finally:
            DEADLINE.reset(token)
        # Once the handler is done, the tasks it started (which copied the context) are free of it.
        task.add_done_callback(lambda _t: setattr(clock, "at", None))
        done, _ = await asyncio.wait({task}, timeout=self.seconds)
        if task in done or started:
            await task  # finished, or its answer is on the way: as it is
            return
        late = True
        task.add_done_callback(_finished_late)
        log.warning("request answered unavailable: no answer within the deadline",
                    extra={"path": scope.get("path"), "method": scope.get("method"), "seconds": self.seconds})
        body = unavailable_body()
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"),
                                (b"retry-after", UNAVAILABLE_RETRY_AFTER.encode()),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _finished_late(task: asyncio.Task[Any]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        error = task.exception()
        if error is not None:  # already answered: only worth a line in the log
            log.warning("request failed after it was answered unavailable", extra={"error": repr(error)})


async def within(work: Awaitable[T], seconds: float) -> T:
    """``await work``, at most ``seconds``: past that raises :class:`Unavailable`, and ``work``
    runs on uncancelled (as :class:`Deadline`'s handlers do; its failure is only logged). For the
    table socket's handshake, which reads the database before it is accepted."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if task not in done:
        task.add_done_callback(_finished_late)
        raise Unavailable(f"the database did not answer within {seconds:g} s")
    return task.result()
