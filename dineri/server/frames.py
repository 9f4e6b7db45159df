"""What a committed change sends: the table's broadcast bundles (issue 8, item 4).

:class:`Frames` is the broadcasting half of a :class:`dineri.server.session.TableSession`:
the session commits a change, then calls :meth:`Frames.publish` with the change's numbered
events (and the sender's ack); the bundle goes out on the fan-out channel ``table:{id}``
and every table socket takes the part meant for its audience (``dineri.server.ws``).
The session (the write path) and this module (what goes on the wire) are kept apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dineri.server.session import TableSession

Json = dict[str, Any]


class Frames:
    """The broadcaster of one table session."""

    def __init__(self, sess: TableSession) -> None:
        self.sess = sess

    async def publish(self, events: list[tuple[int, Json]], *, ack: Json | None = None,
                      views: bool = True, table_changed: bool = True,
                      private: dict[int, list[Json]] | None = None) -> None:
        """Broadcast one committed change: ``events`` as ``(seq, event)`` pairs, ``ack``
        (``{"conn", "type", "id", "seq"}``: the sender's connection and its ack) or ``None``,
        ``views``: the match changed (seat and spectator views go out), ``table_changed``: the
        table info changed (a ``table`` message goes out when no views do), ``private``: seat ->
        its one-time events (``GameMatch.private_events``, e.g. golf4's peek, G6), which only
        that seat's sockets take (``bundle["private"][str(seat)]``; never stored or resent).

        A seat's view is the match's public view (built once) with that seat's private view."""
        sess = self.sess
        bundle: Json = {"seq": sess.last_seq, "events": events, "table": sess.info(), "ack": ack,
                        "table_changed": table_changed, "origin": sess.origin}
        if views and sess.match is not None:
            public = sess.match.public_view()
            bundle["views"] = {str(i): {**public, **sess.match.private_view(i)} for i in range(sess.seats)}
            bundle["spectator"] = public
        if private:
            bundle["private"] = {str(seat): list(evs) for seat, evs in private.items() if evs}
        await sess.fanout.publish(f"table:{sess.id}", bundle)
