"""The server in front of the tables: listeners, one task per connection, an orderly stop.

``Server.run`` binds the listeners, starts the lobby with ``nursery.start`` and serves
every connection in a task of its own (a ``Session``), after the connection gate has let
it in. ``Server.stop`` begins the shutdown, which ends within ``shutdown_seconds``:

1. stop accepting (the listeners close);
2. the lobby shuts its tables down;
3. every session flushes its outbox and says ``closing``;
4. whatever is still connected at the deadline is cut; the lobby's task ends.

The shape follows trio's echo server and hypercorn's ``trio/tcp_server.py``: readiness
through ``task_status``, deadlines as cancel scopes around exactly what they time.

Why this module is long: the game port and the web port share one connection gate, one
cap on polite refusals and one orderly stop; split, each half would reach into the
other's state.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Protocol

import trio

from protocol.connection import ServerConnection
from protocol.errors import ErrorCode
from protocol.limits import MAX_MESSAGE_LEN
from protocol.messages import Error
from server.defaults import DEFAULT_PORT, DEFAULT_WEB_PORT
from server.identity import ServerIdentity
from server.limits import ConnectionGate, LimitsError, SessionLimits
from server.peer import LobbyPort
from server.polite_close import close_politely
from server.session import Session
from server.web_files import WebDoor

__all__ = [
    "DEFAULT_PORT",
    "DEFAULT_WEB_PORT",
    "LobbyService",
    "Server",
    "ServerSettings",
    "bind_listeners",
    "format_address",
    "local_addresses",
]

log = logging.getLogger("uno.server")


_EVERY_INTERFACE = ("0.0.0.0", "::")
EVERY_INTERFACE = _EVERY_INTERFACE
"""The wildcard addresses: listening on every interface."""

POLITE_REFUSALS = 32
"""Refused connections, of the game port or the web port, closed politely at once
(server/polite_close.py): each holds its descriptor until its client has read why, at
most ``last_write_seconds``. Half of the descriptors the server keeps for itself
(server/descriptors.py); beyond it a game connection is told and closed at once, a web
one only closed."""


class LobbyService(LobbyPort, Protocol):
    """What the server needs of the lobby beyond a session's needs."""

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Own the tables until cancelled; report readiness through ``task_status``."""

    async def shutdown(self) -> None:
        """Stop every table."""


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """How the server listens and how many it serves."""

    hosts: tuple[str, ...] = ()
    """Addresses or names to listen on; empty means every interface, IPv4 and IPv6."""
    port: int = DEFAULT_PORT
    """The TCP port; 0 lets the system pick a free one (the same for every address)."""
    max_connections: int = 256
    """Connections served at once."""
    max_per_address: int = 32
    """Connections served at once from one remote address."""
    session: SessionLimits = field(default_factory=SessionLimits)
    """The numbers every connection lives by."""
    shutdown_seconds: float = 2.0
    """How long clients get, once told the server is stopping, before they are cut off."""
    web_port: int | None = None
    """The port of the browser page and its WebSocket (0: a free one); None: no page."""

    def __post_init__(self) -> None:
        for port in (self.port, self.web_port):
            if port is not None and not 0 <= port <= 65535:
                raise LimitsError(f"port must be from 0 to 65535, not {port}")
        if self.max_connections < 1 or self.max_per_address < 1:
            raise LimitsError("max_connections and max_per_address must be at least 1")
        if not self.shutdown_seconds > 0:
            raise LimitsError("shutdown_seconds must be above 0")


class Server:
    """Listeners, the connection gate and every session; see the module docstring."""

    def __init__(
        self, settings: ServerSettings, lobby: LobbyService, identity: ServerIdentity
    ) -> None:
        self.settings = settings
        self.identity = identity
        self._lobby = lobby
        self._gate = ConnectionGate(settings.max_connections, settings.max_per_address)
        self._refusing = 0  # refused connections being closed politely now
        self._sessions: set[Session] = set()
        self._peer_ids = itertools.count(1)
        self._stop_requested = trio.Event()
        self._stop_reason = "the server is stopping"
        self._accepting = trio.CancelScope()
        self.addresses: list[tuple[str, int]] = []
        """Where the server listens, once ``run`` has reported it is ready."""
        self.web_addresses: list[tuple[str, int]] = []
        """Where the page and its WebSocket are served (empty: nowhere), once ready."""
        self._web_door: WebDoor | None = None

    @property
    def sessions(self) -> frozenset[Session]:
        """Every connection being served now."""
        return frozenset(self._sessions)

    def stop(self, reason: str = "the server is stopping") -> None:
        """Begin the orderly shutdown; ``run`` returns once it is over."""
        if not self._stop_requested.is_set():
            self._stop_reason = reason
            self._stop_requested.set()

    async def run(
        self,
        *,
        listeners: list[trio.SocketListener] | None = None,
        web: tuple[list[trio.SocketListener], WebDoor] | None = None,
        task_status: trio.TaskStatus[list[tuple[str, int]]] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Serve until ``stop``; ``task_status`` receives the (host, port) pairs bound.

        ``listeners`` already bound (``bind_listeners``) are used as they are; otherwise
        the settings' hosts and port are bound here. ``web``: the web port's listeners
        and what it serves (``server.web_door.open_web_door``), or None for no page.
        """
        if listeners is None:
            listeners = await bind_listeners(self.settings.hosts, self.settings.port)
        web_listeners, self._web_door = web if web is not None else ([], None)
        self.addresses = [_bound_address(listener) for listener in listeners]
        self.web_addresses = [_bound_address(listener) for listener in web_listeners]
        if web_listeners:
            self.identity = replace(self.identity, web_port=self.web_addresses[0][1])
        async with trio.open_nursery() as outer:
            await outer.start(self._lobby.run)
            async with trio.open_nursery() as connections:
                connections.start_soon(self._accept, listeners, web_listeners, connections)
                task_status.started(list(self.addresses))
                await self._stop_requested.wait()
                await self._shut_down()
                connections.cancel_scope.cancel()
            outer.cancel_scope.cancel()
        log.info("the server has stopped")

    async def _accept(
        self,
        listeners: list[trio.SocketListener],
        web_listeners: list[trio.SocketListener],
        connections: trio.Nursery,
    ) -> None:
        with self._accepting:
            async with trio.open_nursery() as accepting:
                if web_listeners:
                    accepting.start_soon(
                        partial(trio.serve_listeners, handler_nursery=connections),
                        self._serve_web,
                        web_listeners,
                    )
                await trio.serve_listeners(self._serve, listeners, handler_nursery=connections)

    async def _serve_web(self, tcp: trio.SocketStream) -> None:
        """One connection to the web port: a file of the page, or a WebSocket served as
        a session. It counts in the connection gate from its first byte to its last."""
        from server import websocket  # noqa: PLC0415 (its library loads only with a web port)

        door = self._web_door
        assert door is not None, "the web port is served only with its door open"
        address = _peer_address(tcp)
        refusal = self._gate.admit(address)
        if refusal is not None:
            log.warning("refused a web connection from %s: %s", address, refusal.reason)
            with self._politely() as polite:
                if polite:
                    await websocket.refuse_web_request(tcp, refusal.reason)
            await trio.aclose_forcefully(tcp)
            return
        try:
            stream = await websocket.answer_web_request(tcp, door)
            if stream is not None:
                await self._run_session(stream, address)
        except Exception:
            # One guest's request must never end the server (a session guards its own).
            log.exception("a web request from %s failed", address)
        finally:
            self._gate.release(address)
            await trio.aclose_forcefully(tcp)

    @contextlib.contextmanager
    def _politely(self) -> Iterator[bool]:
        """Whether a refusal may be polite now (``POLITE_REFUSALS`` at once), counted for
        as long as the block runs."""
        polite = self._refusing < POLITE_REFUSALS
        self._refusing += polite
        try:
            yield polite
        finally:
            self._refusing -= polite

    async def _serve(self, stream: trio.SocketStream) -> None:
        address = _peer_address(stream)
        limits = self.settings.session
        refusal = self._gate.admit(address)
        if refusal is not None:
            log.warning("refused a connection from %s: %s", address, refusal.reason)
            with self._politely() as polite:
                await refuse_connection(
                    stream,
                    ErrorCode.SERVER_FULL,
                    refusal.reason,
                    limits.last_write_seconds,
                    polite=polite,
                )
            return
        try:
            await self._run_session(stream, address)
        finally:
            self._gate.release(address)

    async def _run_session(self, stream: trio.abc.Stream, address: str) -> None:
        session = Session(
            stream,
            peer_id=next(self._peer_ids),
            address=address,
            lobby=self._lobby,
            identity=self.identity,
            limits=self.settings.session,
        )
        self._sessions.add(session)
        try:
            await session.run()
        finally:
            self._sessions.discard(session)

    async def _shut_down(self) -> None:
        reason = self._stop_reason
        deadline = trio.current_time() + self.settings.shutdown_seconds
        log.info(
            "shutting down (%s): telling %d connection(s), %g s to finish",
            reason,
            len(self._sessions),
            self.settings.shutdown_seconds,
        )
        self._accepting.cancel()
        with trio.move_on_at(deadline) as lobby_scope:
            await self._lobby.shutdown()
        if lobby_scope.cancelled_caught:
            log.warning("the tables did not stop in time; closing connections anyway")
        for session in list(self._sessions):
            session.shut_down(reason, deadline)
        with trio.move_on_at(deadline):
            for session in list(self._sessions):
                await session.done.wait()
        if self._sessions:
            log.warning("cutting off %d connection(s) at the deadline", len(self._sessions))


async def bind_listeners(hosts: Iterable[str], port: int) -> list[trio.SocketListener]:
    """Listen on every address ``hosts`` name (every interface when empty) on ``port``.

    With port 0 the first address gets a free port from the system and every other
    address is bound to that same port, so one port number reaches the server. IPv6 on
    every interface is skipped with a log line where the system has no IPv6.
    """
    wanted = tuple(hosts)
    every_interface = not wanted
    listeners: list[trio.SocketListener] = []
    try:
        for host in wanted or _EVERY_INTERFACE:
            for address in await _addresses_of(host, port):
                try:
                    new = await trio.open_tcp_listeners(port, host=address)
                except OSError as error:
                    if every_interface and address == "::":
                        log.info("not listening on IPv6: %s", error)
                        continue
                    # Its own words without its "[Errno N]": str() of the new one adds that.
                    words = error.strerror or str(error)
                    where = format_address(address, port)
                    raise OSError(error.errno, f"cannot listen on {where}: {words}") from None
                listeners.extend(new)
                port = port or _bound_address(new[0])[1]
    except BaseException:
        for listener in listeners:
            with contextlib.suppress(OSError):
                await trio.aclose_forcefully(listener)
        raise
    return listeners


async def _addresses_of(host: str, port: int) -> list[str]:
    """Every numeric address a host name stands for (itself for an address)."""
    try:
        found = await trio.socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as error:
        raise OSError(f"cannot listen on {host!r}: {error}") from None
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = str(sockaddr[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def bound_address(listener: trio.SocketListener) -> tuple[str, int]:
    """The (host, port) a listener is bound to."""
    return _bound_address(listener)


def _bound_address(listener: trio.SocketListener) -> tuple[str, int]:
    sockname = listener.socket.getsockname()
    return str(sockname[0]), int(sockname[1])


def _peer_address(stream: trio.SocketStream) -> str:
    try:
        return str(stream.socket.getpeername()[0])
    except OSError:
        return "unknown"


def format_address(host: str, port: int) -> str:
    """``host:port``, with an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def local_addresses(bound_hosts: Iterable[str]) -> list[str]:
    """The addresses other machines may reach a server bound to ``bound_hosts`` on.

    A wildcard (every interface) becomes this machine's addresses of that family: those
    its host name resolves to, the one it would use to reach other networks, and loopback.
    Nothing is sent: resolving the host name is a local lookup, and "connecting" a UDP
    socket only asks the routing table which source address it would use.
    """
    found: list[str] = []

    def add(address: str) -> None:
        if address not in found:
            found.append(address)

    for host in bound_hosts:
        if host not in _EVERY_INTERFACE:
            add(host)
            continue
        family = socket.AF_INET6 if host == "::" else socket.AF_INET
        routed = _routed_address(family)
        if routed is not None:
            add(routed)
        with contextlib.suppress(OSError):
            for info in socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM):
                add(str(info[4][0]))
        add("::1" if family == socket.AF_INET6 else "127.0.0.1")
    return found


def _routed_address(family: socket.AddressFamily) -> str | None:
    # Documentation-only addresses (RFC 5737 / RFC 3849): never a real peer, and a UDP
    # connect sends no packet anyway.
    probe = ("2001:db8::1", 9) if family == socket.AF_INET6 else ("192.0.2.1", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect(probe)
            address = str(udp.getsockname()[0])
    except OSError:
        return None
    return None if address in ("0.0.0.0", "::") else address


async def refuse_connection(
    stream: trio.abc.Stream, code: ErrorCode, reason: str, timeout: float, *, polite: bool = True
) -> None:
    """Tell a connection it is not served (``code``, ``reason``), then close it, all within
    ``timeout``: ``polite``ly (the client reads why before the end, even if its hello
    was on the way: server/polite_close.py), or at once."""
    frame = ServerConnection().send(Error(code=code.value, message=reason[:MAX_MESSAGE_LEN]))
    deadline = trio.current_time() + timeout
    with trio.move_on_at(deadline):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stream.send_all(frame)
    if polite:
        await close_politely(stream, deadline)
    else:
        await trio.aclose_forcefully(stream)
