"""Start a server for this client: ``--solo`` (private) and ``--serve`` (for the LAN).

Both start ``uno-server`` as a child process through ``client.launch`` and stop it when
the block ends (design.md section 2 allows the client this one use of the server). A solo
game keeps nothing on disk; a server for the LAN keeps its journal in a file of its own
(``serve_state_path``), so that a host's evening survives a restart of the client and
never shares a file with a ``uno-server`` running beside it; that server is watched, and
started again on a key should it die.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import platformdirs
import trio

from client.launch import ServerStartError, WatchedServer, running_server, server_command
from protocol.startup import DEFAULT_PORT

__all__ = [
    "ServerStartError",
    "lan_server",
    "serve_port",
    "serve_state_path",
    "solo_server",
]


def serve_port(host: str | None) -> tuple[int, str | None]:
    """The port for ``--serve`` when none is asked for: ``DEFAULT_PORT`` if it is free on
    ``host`` (every interface when None), else 0 (a free one), with a sentence that says so."""
    with socket.socket(socket.AF_INET6 if host and ":" in host else socket.AF_INET) as probe:
        # As the server binds it: a port left in TIME_WAIT by a server just stopped is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host or "", DEFAULT_PORT))
        except OSError:
            return 0, f"port {DEFAULT_PORT} is taken, so the server took a free one"
    return DEFAULT_PORT, None


def serve_state_path() -> Path:
    """The journal of the server ``uno-client --serve`` starts."""
    return Path(platformdirs.user_state_dir("uno-lan")) / "serve.sqlite3"


@asynccontextmanager
async def solo_server(extra: Sequence[str] = ()) -> AsyncIterator[tuple[str, int]]:
    """A private server on 127.0.0.1 (port 0, not advertised, no browser page) for the
    block's duration."""
    async with running_server(extra=["--no-state", "--no-web", *extra]) as address:
        yield address


@asynccontextmanager
async def lan_server(
    port: int | None = None,
    extra: Sequence[str] = (),
    interfaces: Sequence[str] = (),
    *,
    host: str | None = None,
    advertise: bool = True,
    on_change: Callable[[str | None], None] | None = None,
) -> AsyncIterator[WatchedServer]:
    """A server for friends on the network, watched for the block's duration; its
    ``address`` is where to connect.

    It listens on ``port`` (None: ``DEFAULT_PORT``, or a free one when that is taken, which
    ``port_note`` then says) and on ``host`` (every interface when None; the client then
    connects over loopback) and, unless ``advertise`` is False, announces itself with mDNS
    (``_uno._tcp``) on ``interfaces`` (every IPv4 one when empty), so the friends'
    clients list it on their find screen. Should it die, ``on_change`` hears why in
    words, and ``restart()`` starts it again on the same port and journal
    (``client.launch.WatchedServer``).
    """
    journal = ["--state", str(serve_state_path())]
    note = None
    if port is None:
        port, note = serve_port(host)

    def command(bound: int) -> list[str]:
        return server_command(
            host=host,
            port=bound,
            advertise=advertise,
            interfaces=interfaces,
            extra=[*journal, *extra],
        )

    server = WatchedServer(command, host, on_change or (lambda _words: None))
    server.port_note = note
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run, port)
        yield server
        nursery.cancel_scope.cancel()
