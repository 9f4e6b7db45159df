"""A sliding-window counter per key (a client address, a player), for REST and chat limits.

In process by default; with a :class:`dineri.server.shared.SharedCounters` (``DINERI_REDIS_URL``)
the count is the whole site's, so no limit is multiplied by the number of processes (issue 9
item 3).
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dineri.server.shared import SharedCounters

log = logging.getLogger("dineri.limits")


class Window:
    """At most ``limit`` hits per key in any ``seconds`` (``limit`` 0: no limit).

    ``shared`` (with a ``name`` that tells this limit's keys apart): :meth:`allow` counts in
    Redis, site-wide; without it, or while Redis fails, in this process's memory.
    """

    def __init__(self, limit: int, seconds: float = 60.0, *, shared: SharedCounters | None = None,
                 name: str = "") -> None:
        self.limit = limit
        self.seconds = seconds
        self.shared = shared
        self.name = name
        self._hits: dict[str, deque[float]] = {}

    def hit(self, key: str) -> bool:
        """Count a hit of ``key`` now in this process; ``False`` (and not counted) when the
        limit is reached."""
        if self.limit <= 0:
            return True
        now = time.monotonic()
        if len(self._hits) > 10_000:  # forget keys that went quiet, so memory stays bounded
            self._hits = {k: q for k, q in self._hits.items() if q and now - q[-1] <= self.seconds}
        recent = self._hits.setdefault(key, deque())
        while recent and now - recent[0] > self.seconds:
            recent.popleft()
        if len(recent) >= self.limit:
            return False
        recent.append(now)
        return True

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` may hit again as this process counts it (its oldest hit
        leaves the window), at least 1; the window's length when it does not know (counted in
        Redis): what a ``429``'s ``Retry-After`` says."""
        recent = self._hits.get(key)
        if self.shared is not None or not recent:
            return max(1, math.ceil(self.seconds))
        return max(1, math.ceil(recent[0] + self.seconds - time.monotonic()))

    async def allow(self, key: str) -> bool:
        """Count a hit of ``key`` now, site-wide when shared (else as :meth:`hit`); ``False``
        (not counted) when the limit is reached. Redis failing: counted in process (logged)."""
        if self.limit <= 0:
            return True
        if self.shared is not None:
            try:
                return await self.shared.hit(f"{self.name}:{key}", self.limit, self.seconds)
            except Exception as e:  # Redis away: the limit still holds, per process
                log.warning("shared limit unavailable; counting in process",
                            extra={"limit": self.name, "error": repr(e)})
        return self.hit(key)
