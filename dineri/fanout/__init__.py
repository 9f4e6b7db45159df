"""Fan-out of table messages to the connections that watch a channel.

:class:`LocalFanout` delivers in process (the default); :class:`RedisFanout`
(``DINERI_REDIS_URL``) goes through Redis pub/sub so several server processes
see the same messages. Messages are JSON objects; subscribers are plain
callables run on the event loop, which must not block (they only enqueue).
"""

from __future__ import annotations

from dineri.fanout.base import Callback, Fanout, LocalFanout


def make_fanout(redis_url: str | None, prefix: str = "dineri:") -> Fanout:
    """A Redis fan-out for ``redis_url`` (channels named ``prefix`` + channel), or the
    in-process one when it is ``None``."""
    if redis_url:
        from dineri.fanout.redis import RedisFanout

        return RedisFanout(redis_url, prefix)
    return LocalFanout()


__all__ = ["Callback", "Fanout", "LocalFanout", "make_fanout"]
