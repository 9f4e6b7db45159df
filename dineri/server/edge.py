"""The socket edge (issue 7, item 4): connections that never finish a request are timed out,
and one address cannot hold more than its share of the server's connections.

``dineri serve`` runs uvicorn with :func:`protocols`' two protocol classes: the HTTP one (every
connection starts there) and the WebSocket one (a connection moves to it on upgrade). Both share
an :class:`Edge`, which counts the open connections of each client address:

- a connection must complete its request head (request line and headers, which for a
  WebSocket is the whole handshake request) within ``DINERI_REQUEST_TIMEOUT`` seconds of
  opening or of starting its next request, else it is closed;
- an address may hold at most ``DINERI_CONNECTIONS_PER_ADDRESS`` connections (HTTP and
  WebSocket alike); beyond that a new connection is closed at once. Addresses in
  ``DINERI_FORWARDED_ALLOW_IPS`` (a proxy in front, which carries everybody's connections) are
  not capped here: the proxy caps its clients (and the per-address socket caps of
  :mod:`dineri.server.ws` use the forwarded address).

Every cap "per address" here counts an IPv6 address as its /64
(:func:`dineri.server.addresses.network_of`): one client holds the whole block, and would
otherwise open a full share from each of its addresses.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from dineri.server.addresses import network_of

log = logging.getLogger("dineri.edge")
#: Largest WebSocket frame the WebSocket layer passes to the app (bigger ones: closed 1009 at once).
WS_MAX_SIZE = 1 << 20


class Edge:
    """Open connections per client address (one per server process).

    ``per_address``: most connections of one address (0: no cap); ``exempt``: addresses or
    networks never capped (the trusted proxies; ``"*"``: all); ``request_timeout``: seconds a
    connection may take to send a request head (0: no limit)."""

    def __init__(self, per_address: int, exempt: list[str], request_timeout: float) -> None:
        self.per_address = per_address
        self.request_timeout = request_timeout
        self.exempt_all = "*" in exempt
        self.exempt = [ipaddress.ip_network(x, strict=False) for x in exempt if x and x != "*"]
        self.by_address: dict[str, int] = {}
        self._open: dict[int, str] = {}  # id(transport) -> its address
        self.refused = 0
        self.timed_out = 0

    def _capped(self, address: str) -> bool:
        if self.per_address <= 0 or self.exempt_all:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True
        return not any(ip in net for net in self.exempt)

    def opened(self, transport: Any, address: str | None) -> bool:
        """Count a new connection; ``False`` (nothing counted) when its address (an IPv6 /64)
        is at its cap. A proxy's own address (exempt) is matched as it is."""
        addr = network_of(address)
        if self._capped(address or "?") and self.by_address.get(addr, 0) >= self.per_address:
            self.refused += 1
            if self.refused in (1, 10, 100) or self.refused % 1000 == 0:  # a flood logs a few lines
                log.warning("connection refused: too many from one address",
                            extra={"address": addr, "cap": self.per_address, "refused": self.refused})
            return False
        self._open[id(transport)] = addr
        self.by_address[addr] = self.by_address.get(addr, 0) + 1
        return True

    def closed(self, transport: Any) -> None:
        """Forget a connection (idempotent: both protocols of an upgraded one call it)."""
        addr = self._open.pop(id(transport), None)
        if addr is None:
            return
        left = self.by_address.get(addr, 1) - 1
        if left > 0:
            self.by_address[addr] = left
        else:
            self.by_address.pop(addr, None)


def protocols(edge: Edge) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP (httptools) and WebSocket (websockets, sans-I/O) protocols, bound to ``edge``."""

    class EdgeHttp(HttpToolsProtocol):
        """uvicorn's HTTP protocol with the request-head timeout and the per-address cap."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            client = self.client[0] if self.client else None
            if not edge.opened(transport, client):
                transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            if edge.request_timeout > 0 and self._deadline is None:
                self._deadline = self.loop.call_later(edge.request_timeout, self._incomplete)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _incomplete(self) -> None:
            self._deadline = None
            edge.timed_out += 1
            log.debug("incomplete request timed out", extra={"client": self.client})
            self.transport.abort()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()  # a kept-alive connection's next request has its own deadline

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            edge.closed(self.transport)
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            # The socket's protocol takes over the transport and this one is never told
            # connection_lost, which is where uvicorn drops its parser: the parser holds six bound
            # methods of this protocol, so every table socket left this protocol (its scope,
            # headers, flow control) as cyclic garbage, which the collector's freezes could keep
            # for good (issue 8 item 5). Called after the parser is done with this request.
            self._disarm()
            super().handle_websocket_upgrade()
            self.parser = None  # type: ignore[assignment]

    class EdgeWebSocket(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol; a closed socket leaves the per-address count, and a text
        frame that is not UTF-8 closes the socket (1007) with one INFO line, no traceback."""

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not self.close_sent:
                data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
                self.frames = [data]
                try:
                    data.decode()
                except UnicodeDecodeError:  # uvicorn would log an ERROR traceback per frame
                    log.info("invalid UTF-8 from a client: closed 1007", extra={"client": self.client})
                    self.frames = []
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

        def connection_lost(self, exc: Exception | None) -> None:
            edge.closed(self.transport)
            super().connection_lost(exc)

    return EdgeHttp, EdgeWebSocket


class SocketCaps:
    """Caps on the sockets nobody vouches for (issue 7, items 4 and 5), per server process:
    anonymous sockets (no player token: lobby sockets and anonymous spectators) per client
    address and in total, and spectators (no seat at the table) per table. A socket over a cap
    is refused with close code 1013 (try again later)."""

    def __init__(self, anonymous_per_address: int, anonymous_total: int, spectators_per_table: int) -> None:
        self.anonymous_per_address = anonymous_per_address
        self.anonymous_total = anonymous_total
        self.spectators_per_table = spectators_per_table
        self.anonymous_by_address: dict[str, int] = {}
        self.anonymous = 0
        self.spectators_by_table: dict[str, int] = {}

    def admit(self, address: str, table: str | None, *, anonymous: bool,
              spectator: bool) -> tuple[str | None, str | None] | None:
        """Count a socket (``table`` None: the lobby) of the client ``address`` (counted as its
        :func:`~dineri.server.addresses.network_of`: an IPv6 /64); returns its ticket for
        :meth:`release`, or ``None`` (nothing counted) when a cap is reached. ``0`` for a cap
        means none."""
        address = network_of(address)
        if anonymous:
            if 0 < self.anonymous_per_address <= self.anonymous_by_address.get(address, 0):
                return None
            if 0 < self.anonymous_total <= self.anonymous:
                return None
        watching = table if spectator and table is not None else None
        cap = self.spectators_per_table
        if watching is not None and 0 < cap <= self.spectators_by_table.get(watching, 0):
            return None
        if anonymous:
            self.anonymous += 1
            self.anonymous_by_address[address] = self.anonymous_by_address.get(address, 0) + 1
        if watching is not None:
            self.spectators_by_table[watching] = self.spectators_by_table.get(watching, 0) + 1
        return (address if anonymous else None, watching)

    def release(self, ticket: tuple[str | None, str | None]) -> None:
        """Forget a socket admitted with ``ticket``."""
        address, watching = ticket
        if address is not None:
            self.anonymous -= 1
            _decrement(self.anonymous_by_address, address)
        if watching is not None:
            _decrement(self.spectators_by_table, watching)


def _decrement(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 1) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
