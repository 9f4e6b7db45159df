"""The fan-out interface and its in-process implementation."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

log = logging.getLogger("dineri.fanout")

Callback = Callable[[dict[str, Any]], None]


class Fanout:
    """Publish JSON messages on named channels; deliver each to the channel's local subscribers
    in publish order. This base class is the in-process fan-out."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Callback]] = defaultdict(list)
        #: Called with a channel whose messages the other processes missed (Redis was away), once
        #: Redis takes messages again, so that its publisher can send them what they missed
        #: (``TableService`` re-sends a table's state). Never called in process.
        self.on_lost: Callable[[str], None] | None = None

    async def start(self) -> None:
        """Connect (nothing to do in process)."""

    async def stop(self) -> None:
        """Disconnect and drop every subscriber."""
        self._subs.clear()

    async def publish(self, channel: str, message: dict[str, Any], *, confirm: bool = False) -> None:
        """Deliver ``message`` to every subscriber of ``channel`` (this process's at once; other
        processes' through Redis). ``confirm``: also wait until the other processes can have it
        (raises ``ConnectionError`` when they cannot; in process: nothing to wait for)."""
        self._deliver(channel, message)

    def deliver_here(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to this process's subscribers of ``channel`` only."""
        self._deliver(channel, message)

    def subscribe(self, channel: str, callback: Callback) -> Callable[[], None]:
        """Call ``callback(message)`` for each message on ``channel``; returns the unsubscriber."""
        self._subs[channel].append(callback)

        def unsubscribe() -> None:
            subs = self._subs.get(channel)
            if subs and callback in subs:
                subs.remove(callback)
                if not subs:
                    del self._subs[channel]
                    self._channel_idle(channel)

        self._channel_used(channel)
        return unsubscribe

    def listeners(self, channel: str) -> int:
        """How many local subscribers ``channel`` has now."""
        return len(self._subs.get(channel, ()))

    def _channel_used(self, channel: str) -> None:
        """Hook: a local subscriber appeared on ``channel``."""

    def _channel_idle(self, channel: str) -> None:
        """Hook: the last local subscriber of ``channel`` left."""

    def _tell_lost(self, channel: str) -> None:
        if self.on_lost is not None:
            try:
                self.on_lost(channel)
            except Exception:
                log.exception("fan-out loss handler failed on %s", channel)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for cb in list(self._subs.get(channel, ())):
            try:
                cb(message)
            except Exception:  # one broken subscriber must not starve the others
                log.exception("fan-out subscriber failed on %s", channel)


LocalFanout = Fanout
