"""Which peer addresses are the server's own machine.

A connection from the server's own machine is the host's: it is never banned, and it may
set any bot pace. Exactly these count: ``127.0.0.1``, ``::1`` and the addresses of this
machine's interfaces. Other loopback addresses (``127.0.0.2`` ...) count as guests, which
is how the tests play many guests on one machine.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

import ifaddr

__all__ = ["OwnAddresses", "interface_addresses"]

_LOOPBACK = ("127.0.0.1", "::1")


class OwnAddresses:
    """The server machine's own addresses, read once at start (a host's interfaces rarely
    change during an evening)."""

    def __init__(self, addresses: Iterable[str] | None = None) -> None:
        """``addresses``: the interface addresses to use instead of this machine's (tests)."""
        self._given = None if addresses is None else frozenset(_normal(a) for a in addresses)
        self._known = self._read()

    def __contains__(self, address: object) -> bool:
        return isinstance(address, str) and _normal(address) in self._known

    def _read(self) -> frozenset[str]:
        interfaces = self._given if self._given is not None else _interface_addresses()
        return frozenset(_LOOPBACK) | interfaces


def interface_addresses() -> frozenset[str]:
    """The addresses of this machine's interfaces, loopback included."""
    return _interface_addresses()


def _interface_addresses() -> frozenset[str]:
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            # ifaddr gives IPv4 as a string and IPv6 as (address, flowinfo, scope_id)
            found.add(_normal(ip.ip if isinstance(ip.ip, str) else ip.ip[0]))
    return frozenset(found)


def _normal(address: str) -> str:
    """One spelling per address: ``::ffff:127.0.0.1`` is ``127.0.0.1``, a zone id dropped."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)
