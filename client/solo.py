"""Start a server for this client: ``--solo`` (private) and ``--serve`` (for the LAN).

Both start ``uno-server`` as a child process through ``client.launch`` and stop it when
the block ends (design.md section 2 allows the client this one use of the server).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from client.launch import ServerStartError, running_server

__all__ = ["ServerStartError", "lan_server", "solo_server"]


@asynccontextmanager
async def solo_server(extra: Sequence[str] = ()) -> AsyncIterator[tuple[str, int]]:
    """A private server on 127.0.0.1 (port 0, not advertised) for the block's duration."""
    async with running_server(extra=extra) as address:
        yield address


@asynccontextmanager
async def lan_server(
    port: int = 0,
    extra: Sequence[str] = (),
    interfaces: Sequence[str] = (),
    *,
    host: str | None = None,
    advertise: bool = True,
) -> AsyncIterator[tuple[str, int]]:
    """A server for friends on the network; yields the address to connect to.

    It listens on ``host`` (every interface when None; the client then connects over
    loopback) and, unless ``advertise`` is False, announces itself with mDNS
    (``_uno._tcp``) on ``interfaces`` (every IPv4 one when empty), so the friends'
    clients list it on their find screen.
    """
    async with running_server(
        host=host, port=port, advertise=advertise, interfaces=interfaces, extra=extra
    ) as address:
        yield address
