"""Which names the page may be asked for by, and which pages may open its WebSocket.

A browser on the LAN sends every request with a ``Host`` header and, for a WebSocket, an
``Origin``. Two checks keep other web pages out:

- ``Host`` must be one of the server's own names: the IP literals it listens on with the
  web port, ``localhost``, its host name and ``hostname.local``. A page elsewhere that
  points a name of its own at this machine (DNS rebinding) sends its own name, and is
  refused.
- ``Origin`` must be exactly ``http://`` plus that ``Host``: only the page this server
  served may open ``/ws``. A page from another origin (cross-site WebSocket hijacking)
  is refused, and so is a handshake with no ``Origin`` at all.

Pure: the names are given, nothing is looked up here.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["WebNames", "host_literal"]


def host_literal(address: str) -> str:
    """``address`` as a URL or ``Host`` header writes it: an IPv6 address in brackets,
    without a zone id; names and IPv4 addresses as they are, in lower case."""
    bare = address.split("%", 1)[0]
    try:
        parsed = ipaddress.ip_address(bare)
    except ValueError:
        return address.lower()
    return f"[{parsed}]" if parsed.version == 6 else str(parsed)


@dataclass(frozen=True, slots=True)
class WebNames:
    """The ``Host`` values a server on ``port`` answers to; see the module docstring."""

    port: int
    hosts: frozenset[str]
    """Each accepted name or literal, lower case, without the port."""

    @classmethod
    def of(cls, port: int, addresses: Iterable[str], hostname: str) -> WebNames:
        """The names of a server listening on ``addresses`` (IP literals) with the web
        ``port``, on a machine called ``hostname``."""
        names = {host_literal(address) for address in addresses}
        names.add("localhost")
        short = hostname.lower().rstrip(".")
        if short:
            names.add(short)
            if not short.endswith(".local"):
                names.add(f"{short.split('.')[0]}.local")
                names.add(f"{short}.local")
        return cls(port=port, hosts=frozenset(names))

    def accepts_host(self, host: str | None) -> bool:
        """Whether a request's ``Host`` header names this server (its port included,
        which a browser leaves out only for port 80)."""
        if not host:
            return False
        name, port = _split_host(host.strip().lower())
        if port is None:
            port = 80
        return port == self.port and name in self.hosts

    def accepts_origin(self, origin: str | None, host: str | None) -> bool:
        """Whether a WebSocket handshake's ``Origin`` is the page this server served to
        ``host``: exactly ``http://`` plus the ``Host``, and that ``Host`` is ours."""
        if origin is None or host is None or not self.accepts_host(host):
            return False
        return origin.strip().lower() == f"http://{host.strip().lower()}"


def _split_host(host: str) -> tuple[str, int | None]:
    """``name`` and port of a ``Host`` value; port None when there is none, -1 when it is
    not a number (which no server port equals)."""
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return host, -1
        name, rest = host[: end + 1], host[end + 1 :]
        if not rest:
            return name, None
        if not rest.startswith(":"):
            return name, -1
        digits = rest[1:]
    else:
        name, colon, digits = host.rpartition(":")
        if not colon:
            return host, None
    if not digits.isdigit() or len(digits) > 5:
        return name, -1
    return name, int(digits)
