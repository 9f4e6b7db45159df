"""A sliding-window counter per key (a client address), for REST limits of this process."""

from __future__ import annotations

import time
from collections import deque


class Window:
    """At most ``limit`` hits per key in any ``seconds`` (``limit`` 0: no limit).

    In memory, per server process: a limit shared by several processes is ``limit`` each.
    """

    def __init__(self, limit: int, seconds: float = 60.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self._hits: dict[str, deque[float]] = {}

    def hit(self, key: str) -> bool:
        """Count a hit of ``key`` now; ``False`` (and not counted) when the limit is reached."""
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
