"""What a committed change sends: the table's broadcast bundles and the frames cut from them
(issue 8, item 4; ``docs/protocol.md`` section 4).

:class:`Frames` is the broadcasting half of a :class:`dineri.server.session.TableSession`:
the session commits a change, then calls :meth:`Frames.publish` with the change's numbered
events (and the sender's ack); the bundle goes out on the fan-out channel ``table:{id}`` and
every table socket takes the part meant for its audience (:func:`frames_for`, called by
``dineri.server.ws``). The session (the write path) and this module (what goes on the wire)
are kept apart.

A bundle carries the match's public view and every seat's private view *after* the change,
and a shallow patch of the public view against the views this publisher sent before
(``base``: the match's action count those views were at, ``at``: the count now). A receiver
whose view is at ``base`` gets an ``update`` frame (the events, the patch, its own private part
when it changed, its ack); any other receiver gets the events and then a full ``view`` (resync).
Frames are encoded once per distinct content: every receiver of one audience shares one
string, cached on the bundle (the in-process fan-out and the Redis reader both hand the same
bundle object to every local socket).
"""

from __future__ import annotations

import weakref
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import orjson

if TYPE_CHECKING:
    from dineri.server.session import TableSession

Json = dict[str, Any]
_MISSING = object()
RING = 256  # events kept in memory per table for hellos (the page asks for its last 40)


def dumps(obj: Any) -> str:
    """The wire encoding of a frame: compact JSON, UTF-8 text as is (what ``json.dumps(obj,
    separators=(",", ":"), ensure_ascii=False)`` writes; orjson does it about 15 times faster,
    and a frame is encoded on every action: issue 8)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


class Frames:
    """The broadcaster of one table session: remembers the views it last published, so the
    next bundle carries only what changed."""

    def __init__(self, sess: TableSession) -> None:
        # A proxy, not a reference: the session holds its Frames, so a strong link back would make
        # every dropped session cyclic garbage, which only a full collection frees (issue 8 item 5).
        self.sess = cast("TableSession", weakref.proxy(sess))
        self.public: Json | None = None  # the public view last published
        self.private: dict[str, Json] = {}  # each seat's private view then, by str(seat)
        self.at: int | None = None  # the match's action count those views are at
        self.table: Json | None = None  # the table info last published
        # The last events published, contiguous and ending at the session's last event: hellos
        # are served from here without the table's lock or the database (issue 7 item 5).
        self.ring: deque[tuple[int, Json]] = deque(maxlen=RING)

    def position(self) -> int | None:
        """The view position of the session's current match (its action count; ``None`` before
        the start). Receivers remember it with the view they were sent (``TableClient.view_at``)."""
        match = self.sess.match
        return None if match is None else match.actions_count()

    async def publish(self, events: list[tuple[int, Json]], *, ack: Json | None = None,
                      views: bool = True, table_changed: bool = True,
                      private: dict[int, list[Json]] | None = None, resync: bool = False,
                      here_only: bool = False) -> None:
        """Broadcast one committed change: ``events`` as ``(seq, event)`` pairs, ``ack``
        (``{"conn", "type", "id", "seq"}``: the sender's connection and its ack) or ``None``,
        ``views``: the match changed (the views and their patch go out), ``table_changed``: the
        table info changed (a ``table`` message goes out when no views do), ``private``: seat ->
        its one-time events (``GameMatch.private_events``, golf4's peek, G6), which only that
        seat's sockets take (never stored or resent).
        ``resync``: no change, the table's state as it is now for receivers that missed bundles
        (Redis was away, :meth:`resync`): whole views (``base`` ``None``) and ``resync: true``.
        ``here_only``: to this process's sockets only (not through Redis).

        The bundle: ``seq``, ``events``, ``table``, ``ack``, ``table_changed``, ``table_new``
        (the info differs from the last bundle's), ``origin``; with views: ``public`` (the public
        view, built once), ``seats`` (str(seat) -> private view), ``at`` (the match's action
        count), ``base`` (the count of the views published before, or ``None``), ``patch``
        (public keys that changed since ``base``) and ``private_changed`` (seats whose private
        view changed); ``private`` (str(seat) -> one-time events) when there are any."""
        sess = self.sess
        for seq, event in events:
            if self.ring and self.ring[-1][0] != seq - 1:
                self.ring.clear()  # a gap (another process wrote): start again from here
            self.ring.append((seq, event))
        info = sess.info()
        bundle: Json = {"seq": sess.last_seq, "events": events, "table": info, "ack": ack,
                        "table_changed": table_changed, "origin": sess.origin}
        if views and sess.match is not None:
            match = sess.match
            public = match.public_view()
            seats = {str(i): match.private_view(i) for i in range(sess.seats)}
            at = match.actions_count()
            prev = self.public
            if not resync and prev is not None and self.at is not None and set(prev) == set(public):
                bundle["base"] = self.at
                bundle["patch"] = {k: v for k, v in public.items() if prev.get(k, _MISSING) != v}
                bundle["private_changed"] = [s for s, v in seats.items() if self.private.get(s) != v]
            else:
                bundle["base"] = None  # nothing to patch against: every receiver gets a full view
            bundle["at"] = at
            bundle["public"] = public
            bundle["seats"] = seats
            self.public, self.private, self.at = public, seats, at
        if private:
            bundle["private"] = {str(s): list(evs) for s, evs in private.items() if evs}
        if resync:
            bundle["resync"] = True
        bundle["table_new"] = info != self.table or resync
        self.table = info
        if here_only:
            sess.fanout.deliver_here(f"table:{sess.id}", bundle)
        else:
            await sess.fanout.publish(f"table:{sess.id}", bundle)

    async def resync(self, *, here_only: bool = False) -> None:
        """Publish the table's state as it is (no change): the sockets that missed this table's
        bundles while Redis was away (``here_only``: this process's only) read the missed events
        from storage (their last event number is behind the bundle's ``seq``) and get the whole
        view; a socket that has it all gets nothing from it (``frames_for``: its view is not
        behind)."""
        await self.publish([], views=True, table_changed=True, resync=True, here_only=here_only)

    def history(self, after: int) -> list[tuple[int, Json]] | None:
        """The events numbered above ``after`` from memory, or ``None`` when the ring does not
        hold all of them (then read them from storage)."""
        last = self.sess.last_seq
        if after >= last:
            return []
        ring = self.ring
        if not ring or ring[-1][0] != last or ring[0][0] > after + 1:
            return None
        return [e for e in ring if e[0] > after]


def view_of(bundle: Json, seat: int | None) -> Json | None:
    """The whole view of ``seat`` (``None``: a spectator) after the bundle's change, or ``None``
    when the bundle carries no views (for in-process readers: the computer players)."""
    public = bundle.get("public")
    if public is None:
        return None
    if seat is None:
        return dict(public)
    return {**public, **bundle["seats"][str(seat)]}


@dataclass
class Receiver:
    """What a table socket has been sent: its seat then, the view position it is at (``None``:
    no view yet or before the start) and the last event number it has."""

    seat: int | None = None
    view_at: int | None = None
    sent_seq: int = 0


def frames_for(bundle: Json, rx: Receiver, seat: int | None, conn_id: str) -> list[str]:
    """The encoded frames one socket gets from ``bundle`` (in order), given what it has been
    sent (``rx``, updated here) and its seat now; the encodings are shared through the bundle.

    Order (docs/protocol.md): events, then the view (patch or whole), then the ack. ``update``
    carries all three when the receiver's view is at the bundle's ``base``; otherwise the events
    go in an ``update`` without a view, then a ``view`` frame, then an ``ack`` frame.
    """
    cache: dict[Any, str] = bundle.setdefault("_frames", {})
    out: list[str] = []
    events = bundle.get("events") or []
    fresh = [e for e in events if e[0] > rx.sent_seq]
    ack = bundle.get("ack")
    ack_id = ack["id"] if ack and ack.get("conn") == conn_id else None
    # One-time secrets go only with a change this socket gets live: not when a hello's catch-up
    # or a duplicate delivery already covered its events (golf4's peek is shown once, G6).
    live = bool(events) and events[-1][0] > rx.sent_seq
    own_secrets = (bundle.get("private") or {}).get(str(seat)) if seat is not None and live else None
    has_views = "public" in bundle
    late = has_views and rx.view_at is not None and bundle["at"] <= rx.view_at and rx.seat == seat
    patchable = (has_views and not late and bundle.get("base") is not None
                 and rx.view_at == bundle["base"] and rx.seat == seat)
    whole = has_views and not late and not patchable
    skipped = len(fresh) != len(events)  # part of it was already sent (a catch-up overlapped)
    table = bundle["table"] if bundle.get("table_new", True) or whole else None
    if patchable:
        mine = seat is not None and str(seat) in bundle.get("private_changed", ())
        key: tuple[Any, ...] = ("u", seat if mine or own_secrets else None, ack_id, skipped and rx.sent_seq)
        text = cache.get(key)
        if text is None:
            patch = bundle["patch"]
            if mine:
                patch = {**patch, **bundle["seats"][str(seat)]}
            text = cache[key] = dumps(_update(bundle, fresh, patch, table, own_secrets, ack_id))
        out.append(text)
        ack_id = None
    else:
        if fresh or own_secrets or (ack_id and not whole):
            key = ("e", seat if own_secrets else None, None if whole else ack_id, skipped and rx.sent_seq)
            text = cache.get(key)
            if text is None:
                text = cache[key] = dumps(_update(bundle, fresh, None, None if whole else table,
                                                  own_secrets, None if whole else ack_id))
            out.append(text)
            if not whole:
                ack_id = None
        if whole:
            key = ("v", seat)
            text = cache.get(key)
            if text is None:
                text = cache[key] = dumps({"type": "view", "seq": bundle["seq"], "seat": seat,
                                           "view": view_of(bundle, seat), "table": bundle["table"]})
            out.append(text)
        elif not has_views and bundle.get("table_changed", True) and not fresh:
            text = cache.get("t")
            if text is None:
                text = cache["t"] = dumps({"type": "table", "table": bundle["table"]})
            out.append(text)
        if ack_id is not None and ack is not None:
            out.append(dumps({"type": "ack", "id": ack_id, "seq": ack["seq"]}))
    if fresh:
        rx.sent_seq = fresh[-1][0]
    if has_views and not late:
        rx.view_at, rx.seat = bundle["at"], seat
    return out


def _update(bundle: Json, events: list[tuple[int, Json]], view: Json | None, table: Json | None,
            secrets: list[Json] | None, ack_id: str | None) -> Json:
    frame: Json = {"type": "update", "seq": bundle["seq"],
                   "events": [{"seq": seq, "event": ev} for seq, ev in events]}
    if view is not None:
        frame["view"] = view
    if secrets:
        frame["private"] = secrets
    if table is not None:
        frame["table"] = table
    if ack_id is not None:
        frame["ack"] = ack_id
    return frame
