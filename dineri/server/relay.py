"""The owner relay (issue 9 item 1): a process that is not a table's owner hands the table's
writes to the owner through the fan-out (Redis pub/sub) and answers with the owner's answer,
as lila-ws relays a Lichess socket's moves. docs/server.md "One owner per table".

Every process listens on its own channel ``relay:{node}`` (``node``: ``DINERI_NODE``, the name a
lease row stores as its owner). A request is one message there::

    {"t": "ask", "id": <uuid>, "from": <asker's node>, "table": <id>, "op": <name>,
     "args": {...}, "until": <Unix seconds>}

and its answer one message on the asker's channel::

    {"t": "answer", "id": <uuid>, "value": <JSON>}            # the owner's result
    {"t": "answer", "id": <uuid>, "refused": {"code", "message", "status"}}
    {"t": "answer", "id": <uuid>, "not_owner": true}          # ask the lease's owner again

``until`` is the asker's deadline (wall clock, the site's machines keep time with NTP): the
owner drops a request that arrives after it (a paused owner that resumes never applies what
its asker already answered ``unavailable``). The asker waits at most ``timeout`` seconds
(``DINERI_RELAY_TIMEOUT``) and then raises :class:`RelayTimeout`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from dineri.fanout import Fanout

log = logging.getLogger("dineri.relay")

SEEN_KEPT = 10_000  # request ids remembered against a duplicate delivery
Handler = Callable[[str, str, dict[str, Any], float], Awaitable[Any]]


class RelayTimeout(Exception):
    """The owner did not answer in time (paused, partitioned, or gone without its lease
    running out yet): the request may not have been applied."""


class NotOwner(Exception):
    """The process asked is not the table's owner (any more): ask the lease's owner again."""


class RelayRefused(Exception):
    """The owner refused the request: ``code``, ``message``, ``status`` as
    :class:`dineri.server.session.Refused`."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status = code, message, status


class Relay:
    """This process's end of the relay: asks other nodes (:meth:`ask`) and serves their
    requests with ``handler(table_id, op, args, until) -> JSON value`` (it raises
    :class:`NotOwner` or :class:`RelayRefused`)."""

    def __init__(self, fanout: Fanout, node: str, timeout: float) -> None:
        self.fanout = fanout
        self.node = node
        self.timeout = timeout
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._handler: Handler | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.served = 0  # requests answered as the owner (tests, logs)
        self._pairs: set[tuple[str, str]] = set()  # (table, asker) already logged
        # Request ids served lately: a publish retried after a broken connection may reach Redis
        # twice (dineri/fanout/redis.py), and a request is served once.
        self._seen: set[str] = set()
        self._seen_order: deque[str] = deque()

    async def start(self, handler: Handler) -> None:
        """Listen on ``relay:{node}``; returns once the subscription reached Redis."""
        self._handler = handler
        self._unsubscribe = self.fanout.subscribe(f"relay:{self.node}", self._on_message)
        waiter = getattr(self.fanout, "wait_subscribed", None)
        if waiter is not None:
            await waiter()

    def stop(self) -> None:
        """Stop listening; pending asks fail with :class:`RelayTimeout`."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(RelayTimeout("this process is stopping"))
        self._waiting.clear()

    async def ask(self, owner: str, table_id: str, op: str, args: dict[str, Any]) -> Any:
        """Have ``owner`` run ``op`` on ``table_id`` and return its value. Raises
        :class:`RelayTimeout` (no answer within ``timeout``, or Redis refused the request),
        :class:`NotOwner`, :class:`RelayRefused`."""
        rid = uuid.uuid4().hex
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        try:
            try:
                await self.fanout.publish(f"relay:{owner}", {
                    "t": "ask", "id": rid, "from": self.node, "table": table_id, "op": op, "args": args,
                    "until": time.time() + self.timeout}, confirm=True)
            except Exception as e:  # Redis away: nothing was sent, so nothing applied
                raise RelayTimeout(f"the relay to {owner} failed: {e!r}") from None
            try:
                answer = await asyncio.wait_for(fut, self.timeout)
            except TimeoutError:
                raise RelayTimeout(f"{owner} did not answer within {self.timeout:g} s") from None
        finally:
            self._waiting.pop(rid, None)
        if answer.get("not_owner"):
            raise NotOwner(owner)
        refused = answer.get("refused")
        if refused is not None:
            raise RelayRefused(str(refused["code"]), str(refused["message"]), int(refused["status"]))
        return answer.get("value")

    def _on_message(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "answer":
            fut = self._waiting.get(str(msg.get("id")))
            if fut is not None and not fut.done():
                fut.set_result(msg)
            return
        if msg.get("t") != "ask" or self._handler is None:
            return
        rid = str(msg.get("id"))
        if rid in self._seen:
            return
        self._seen.add(rid)
        self._seen_order.append(rid)
        if len(self._seen_order) > SEEN_KEPT:
            self._seen.discard(self._seen_order.popleft())
        if time.time() > float(msg.get("until", 0)):
            # The asker has answered its client already (unavailable): applying it now would
            # contradict that answer (e.g. this process was paused, SIGSTOP).
            log.warning("relayed request dropped: past its deadline",
                        extra={"table": msg.get("table"), "op": msg.get("op"), "asker": msg.get("from")})
            return
        task = asyncio.get_running_loop().create_task(self._serve(msg))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, msg: dict[str, Any]) -> None:
        assert self._handler is not None
        pair = (str(msg["table"]), str(msg["from"]))
        if pair not in self._pairs:  # once per table and asker: the log shows who relays, not each write
            if len(self._pairs) > 10000:
                self._pairs.clear()
            self._pairs.add(pair)
            log.info("serving relayed writes",
                     extra={"table": pair[0], "asker": pair[1], "op": msg.get("op")})
        answer: dict[str, Any] = {"t": "answer", "id": msg["id"]}
        try:
            answer["value"] = await self._handler(str(msg["table"]), str(msg["op"]), dict(msg["args"]),
                                                  float(msg["until"]))
            self.served += 1
        except NotOwner:
            answer["not_owner"] = True
        except RelayRefused as e:
            answer["refused"] = {"code": e.code, "message": e.message, "status": e.status}
        except Exception:  # a server bug: the asker's client hears "internal", nothing else breaks
            log.exception("relayed request failed", extra={"table": msg.get("table"), "op": msg.get("op")})
            answer["refused"] = {"code": "internal", "message": "the table's server failed on this message",
                                 "status": 500}
        try:
            await self.fanout.publish(f"relay:{msg['from']}", answer)
        except Exception:  # Redis away: the asker times out (unavailable)
            log.warning("relay answer not sent", extra={"table": msg.get("table"), "asker": msg.get("from")})
