"""Client addresses as limits see them (issue 7, item 6), and the privacy-preserving key of the
address that created a table.

The address is the request's client (``request.client.host``): the peer, or, when the peer is a
trusted proxy (``DINERI_FORWARDED_ALLOW_IPS``), what it forwarded in ``X-Forwarded-For``
(``ProxyHeadersMiddleware``, installed by :func:`dineri.server.app.create_app`). A client that is
not a trusted proxy cannot choose its address by sending that header.

:func:`network_of` groups the addresses one subscriber holds: an IPv6 subscriber is given a whole
``/64`` (often more), so an address of it is counted as its ``/64``; an IPv4 address (also written
IPv4-mapped, ``::ffff:a.b.c.d``) counts as itself. Everything that is not an IP address (a test
client, a Unix socket, garbage a trusted proxy passed on in ``X-Forwarded-For``) counts as one
network, :data:`NOT_AN_ADDRESS`: the re-check of issue 7 got a fresh guest limit for each
made-up ``X-Forwarded-For`` text (``yy0``, ``yy1``, ...).

:func:`wide_network_of` is the wider group the lobby caps too: an IPv6 address counts as its
``/48``, the block a site or a free tunnel broker hands out (65,536 ``/64`` networks: one holder
could otherwise list 3 tables from each). An IPv4 address still counts as itself: IPv4 addresses are
scarce and paid for, and grouping them by ``/24`` would put a carrier's NAT pool or a campus (many
players, few addresses) under one cap (docs/server.md, ``DINERI_LOBBY_PER_NETWORK``).

:class:`AddressKeys` turns that into what a table stores (``tables.creator_key``, and
``tables.creator_net_key`` for the wider network): an HMAC-SHA256 of the network under a key
derived from the server's secret, 32 hex digits. Equal networks give equal keys on every process
of a site (they share ``DINERI_SECRET_KEY``); the stored key does not give the address back, nor
can it be matched against guessed addresses without the secret (all IPv4 addresses are few
enough to try them all against a plain hash).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

#: An IPv6 address counts as its network of this prefix length (one subscriber's block).
IPV6_PREFIX = 64
#: ... and, for the lobby's wider cap, as its network of this prefix length (a site's block).
IPV6_WIDE_PREFIX = 48
KEY_LENGTH = 32  # hex digits stored (128 bits)
#: The one network of every client whose address is not an IP address.
NOT_AN_ADDRESS = "not-an-address"


def network_of(host: str | None) -> str:
    """The network an address counts as: ``"203.0.113.7"`` -> ``"203.0.113.7"``,
    ``"2001:db8::1"`` -> ``"2001:db8::/64"``, ``"::ffff:203.0.113.7"`` -> ``"203.0.113.7"``;
    not an IP address: :data:`NOT_AN_ADDRESS` (``"?"`` for ``None`` or empty)."""
    return _grouped(host, IPV6_PREFIX)


def wide_network_of(host: str | None) -> str:
    """The wider network an address counts as for ``DINERI_LOBBY_PER_NETWORK``:
    ``"2001:db8:5:7::1"`` -> ``"2001:db8:5::/48"``; an IPv4 address (also IPv4-mapped) and
    anything else as :func:`network_of` (``"203.0.113.7"`` -> ``"203.0.113.7"``)."""
    return _grouped(host, IPV6_WIDE_PREFIX)


def _grouped(host: str | None, v6_prefix: int) -> str:
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host.strip().removeprefix("[").removesuffix("]").split("%", 1)[0])
    except ValueError:
        return NOT_AN_ADDRESS
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, v6_prefix), strict=False))
    return str(ip)


class AddressKeys:
    """Keyed hashes of client networks (:func:`network_of`) under ``secret`` (the server's)."""

    def __init__(self, secret: str) -> None:
        # A key of its own, derived from the secret: these hashes never help forge a token.
        self._key = hmac.new(secret.encode(), b"dineri/address-key/1", hashlib.sha256).digest()

    def key(self, host: str | None) -> str:
        """The stored key of the client ``host`` (:data:`KEY_LENGTH` hex digits)."""
        return self._hash(network_of(host))

    def network_key(self, host: str | None) -> str:
        """The stored key of the client's wider network (:func:`wide_network_of`; the same as
        :meth:`key` for an IPv4 address, whose network is itself)."""
        return self._hash(wide_network_of(host))

    def _hash(self, network: str) -> str:
        return hmac.new(self._key, network.encode(), hashlib.sha256).hexdigest()[:KEY_LENGTH]
