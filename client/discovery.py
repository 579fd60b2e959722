"""Finding uno-lan servers on the home network: a live mDNS browser for Trio.

``browse(interfaces)`` opens python-zeroconf in its own thread (built off the Trio thread,
as design.md section 3 says) and browses ``_uno._tcp.local.``. Zeroconf's callbacks run on
its browser thread: there each service is resolved (a blocking lookup, allowed there) and
turned into a ``FoundServer``; the result crosses into Trio with ``TrioToken.run_sync_soon``,
where ``ServerBrowser.apply`` updates the snapshot and puts a ``ServerChange`` (added,
updated, removed) on a bounded memory channel::

    async with browse(["192.168.1.20"]) as browser:
        async for change in browser:
            print(change.kind, describe(change.server))

``ServerBrowser.snapshot()`` is always current, even when nobody reads the changes (a full
channel drops changes, never snapshot entries). A server whose protocol versions do not fit
this client's is listed with ``compatible=False``: shown, never hidden, never joined. Every
text a server advertises is cleaned before anyone shows it (a hostile host on the LAN
controls it).
"""

from __future__ import annotations

import enum
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from functools import partial

import trio
import zeroconf

from protocol.discovery import SERVICE_TYPE, decode_txt
from protocol.limits import MAX_TABLE_NAME_LEN, clean_text
from protocol.version import SUPPORTED_VERSIONS, choose_version

__all__ = [
    "SERVICE_TYPE",
    "ChangeKind",
    "DiscoveryUnavailableError",
    "FoundServer",
    "NoServerFoundError",
    "ServerBrowser",
    "ServerChange",
    "browse",
    "describe",
    "find_server",
    "keep_listed",
    "server_from_record",
]

log = logging.getLogger("uno.client.discovery")

RESOLVE_MS = 3000
"""How long one look-up of a service's details waits for an answer."""

RESOLVE_TRIES = 3
"""Look-ups of a newly seen service before it is skipped until it changes: a server
that was slow to answer once (a busy machine, a lost packet) is still listed."""


class DiscoveryUnavailableError(OSError):
    """mDNS cannot run here (no multicast, no such interface): this machine's network."""


class NoServerFoundError(ConnectionError):
    """No compatible server answered in time (nothing to connect to); the message says
    what was seen instead."""


class ChangeKind(enum.Enum):
    """What happened to a server in the list."""

    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class FoundServer:
    """One server as its advertisement describes it."""

    key: str
    """The mDNS instance name: unique on the network, stable while the server runs."""
    name: str
    """The display name (cleaned)."""
    host: str
    """The address to connect to: the first IPv4 one, else the first IPv6 one."""
    port: int
    addresses: tuple[str, ...]
    """Every address it advertised."""
    server_id: str
    version: str
    """The server's package version."""
    protocols: tuple[str, ...]
    """The protocol versions it speaks."""
    compatible: bool
    """Whether this client shares a protocol version with it."""
    tables: int
    open_tables: int
    """Tables not yet started with a free seat."""
    seats_free: int
    password: bool
    """Whether every open table needs a password."""

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) to connect to."""
        return self.host, self.port


@dataclass(frozen=True, slots=True)
class ServerChange:
    """One change of the list; for ``REMOVED``, ``server`` is how it was last seen."""

    kind: ChangeKind
    server: FoundServer


def describe(server: FoundServer, *, address: bool = True) -> str:
    """One line for a list of servers: name, address (unless told not to), load, password,
    fit."""
    host = f"[{server.host}]" if ":" in server.host else server.host
    where = f"  {host}:{server.port}" if address else ""
    tables = "1 table" if server.tables == 1 else f"{server.tables} tables"
    seats = "1 seat free" if server.seats_free == 1 else f"{server.seats_free} seats free"
    parts = [f"{server.name}{where}", f"{tables}, {seats}"]
    if server.password:
        parts.append("password")
    if not server.compatible:
        speaks = ", ".join(server.protocols) or "unknown"
        parts.append(f"incompatible (speaks protocol {speaks})")
    return " · ".join(parts)


def server_from_record(
    key: str,
    properties: Mapping[str, str | None],
    addresses: Sequence[str],
    port: int,
    versions: Iterable[str] = SUPPORTED_VERSIONS,
) -> FoundServer | None:
    """A ``FoundServer`` from a resolved service's TXT, addresses and port.

    The TXT is read by ``protocol.discovery.decode_txt`` (cleaned, unknown keys ignored,
    malformed numbers 0, unparsable versions dropped); None when there is no address or
    no port to connect to.
    """
    host = _pick_host(addresses)
    if host is None or not 0 < port < 65536:
        return None
    advert = decode_txt(properties)
    instance = key.removesuffix("." + SERVICE_TYPE)
    name = advert.name or clean_text(instance) or host
    return FoundServer(
        key=key,
        name=name[:MAX_TABLE_NAME_LEN],
        host=host,
        port=port,
        addresses=tuple(addresses),
        server_id=advert.server_id,
        version=advert.version,
        protocols=advert.protocols,
        compatible=choose_version(advert.protocols, versions) is not None,
        tables=advert.tables,
        open_tables=advert.open_tables,
        seats_free=advert.seats_free,
        password=advert.password,
    )


def _pick_host(addresses: Sequence[str]) -> str | None:
    """The first IPv4 address, else the first global IPv6 one, else any."""
    parsed: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for text in addresses:
        try:
            parsed.append(ipaddress.ip_address(text.split("%", 1)[0]))
        except ValueError:
            continue
    ipv4 = [a for a in parsed if a.version == 4]
    ipv6_routable = [a for a in parsed if a.version == 6 and not a.is_link_local]
    for candidates in (ipv4, ipv6_routable, parsed):
        if candidates:
            return str(candidates[0])
    return None


class ServerBrowser:
    """The Trio side of browsing: the current list and the stream of its changes.

    ``apply`` is called on the Trio thread only. Iterating the browser yields every
    ``ServerChange`` in order.
    """

    def __init__(self, buffer: int = 256) -> None:
        self._servers: dict[str, FoundServer] = {}
        self._send, self._receive = trio.open_memory_channel[ServerChange](buffer)
        self.dropped = 0
        """Changes nobody read in time (the snapshot still has them)."""

    def snapshot(self) -> list[FoundServer]:
        """Every server seen and not gone, compatible ones first, then by name."""
        return sorted(self._servers.values(), key=lambda s: (not s.compatible, s.name, s.key))

    def apply(self, key: str, found: FoundServer | None) -> ServerChange | None:
        """Record what the network said about ``key`` (None: it left); the change, if any."""
        old = self._servers.get(key)
        change: ServerChange | None = None
        if found is None:
            if old is not None:
                del self._servers[key]
                change = ServerChange(ChangeKind.REMOVED, old)
        elif old != found:
            self._servers[key] = found
            kind = ChangeKind.ADDED if old is None else ChangeKind.UPDATED
            change = ServerChange(kind, found)
        if change is not None:
            try:
                self._send.send_nowait(change)
            except trio.WouldBlock:
                self.dropped += 1
            except trio.ClosedResourceError:
                pass
        return change

    def close(self) -> None:
        """End the stream of changes (iteration stops)."""
        self._send.close()

    async def next_change(self) -> ServerChange:
        """Wait for the next change; ``trio.EndOfChannel`` once closed."""
        return await self._receive.receive()

    def __aiter__(self) -> AsyncIterator[ServerChange]:
        return self._receive.__aiter__()


class _Listener(zeroconf.ServiceListener):
    """zeroconf's callbacks, on its browser thread: resolve, then hand over to Trio."""

    def __init__(
        self, deliver: Callable[[str, FoundServer | None], None], versions: tuple[str, ...]
    ) -> None:
        self._deliver = deliver
        self._versions = versions

    def add_service(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
        self._resolve(zc, type_, name)

    def update_service(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
        self._resolve(zc, type_, name)

    def remove_service(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
        self._deliver(name, None)

    def _resolve(self, zc: zeroconf.Zeroconf, type_: str, name: str) -> None:
        info = _look_up(zc, type_, name)
        if info is None or info.port is None:
            return
        found = server_from_record(
            name, info.decoded_properties, info.parsed_addresses(), info.port, self._versions
        )
        if found is not None:
            self._deliver(name, found)


def _look_up(zc: zeroconf.Zeroconf, type_: str, name: str) -> zeroconf.ServiceInfo | None:
    """A service's details, asked for up to ``RESOLVE_TRIES`` times; None if it never
    answered with them."""
    for _ in range(RESOLVE_TRIES):
        try:
            info = zc.get_service_info(type_, name, timeout=RESOLVE_MS)
        except (zeroconf.Error, OSError, ValueError) as error:
            log.debug("cannot resolve %s: %s", name, error)
            return None
        if info is not None and info.port is not None:
            return info
        log.debug("%s did not answer with its details", name)
    return None


@asynccontextmanager
async def browse(
    interfaces: Sequence[str] | None = None,
    *,
    versions: Iterable[str] = SUPPORTED_VERSIONS,
    buffer: int = 256,
) -> AsyncIterator[ServerBrowser]:
    """Browse for servers while the block runs; see the module docstring.

    ``interfaces``: addresses of the interfaces to listen on; None means every IPv4
    interface (tests and demos always name them). Raises ``DiscoveryUnavailableError``
    when mDNS cannot start.
    """
    browser = ServerBrowser(buffer)
    token = trio.lowlevel.current_trio_token()

    def deliver(key: str, found: FoundServer | None) -> None:
        # On zeroconf's thread: never block it, never touch the browser from here.
        with suppress(trio.RunFinishedError):
            token.run_sync_soon(browser.apply, key, found)

    listener = _Listener(deliver, tuple(versions))
    try:
        zc = await trio.to_thread.run_sync(partial(_open_zeroconf, interfaces))
    except (OSError, ValueError, RuntimeError, zeroconf.Error) as error:
        where = ", ".join(interfaces) if interfaces else "every interface"
        raise DiscoveryUnavailableError(
            f"cannot look for servers on {where} (mDNS unavailable: {error})"
        ) from error
    service_browser: zeroconf.ServiceBrowser | None = None
    try:
        service_browser = await trio.to_thread.run_sync(
            partial(zeroconf.ServiceBrowser, zc, SERVICE_TYPE, listener=listener)
        )
        yield browser
    finally:
        browser.close()
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(_shut_down, zc, service_browser)


def _open_zeroconf(interfaces: Sequence[str] | None) -> zeroconf.Zeroconf:
    choice: list[str] | zeroconf.InterfaceChoice = (
        list(interfaces) if interfaces else zeroconf.InterfaceChoice.All
    )
    return zeroconf.Zeroconf(interfaces=choice, use_asyncio=False)


def _shut_down(zc: zeroconf.Zeroconf, service_browser: zeroconf.ServiceBrowser | None) -> None:
    try:
        if service_browser is not None:
            service_browser.cancel()
    finally:
        zc.close()


async def keep_listed(
    interfaces: Sequence[str] | None,
    show: Callable[[list[FoundServer]], None],
    *,
    versions: Iterable[str] = SUPPORTED_VERSIONS,
    unavailable: Callable[[str], None] | None = None,
) -> None:
    """Browse until cancelled, calling ``show`` with the snapshot after every change.

    For a screen that lists servers. Where mDNS is unavailable it logs why, tells
    ``unavailable`` (in words) and returns, and the screen goes on without a list.
    """
    try:
        async with browse(interfaces, versions=versions) as browser:
            async for _change in browser:
                show(browser.snapshot())
    except DiscoveryUnavailableError as error:
        log.warning("%s; servers must be given by address", error)
        if unavailable is not None:
            unavailable(str(error))


async def find_server(
    interfaces: Sequence[str] | None = None,
    *,
    timeout: float = 10.0,
    versions: Iterable[str] = SUPPORTED_VERSIONS,
) -> FoundServer:
    """The first compatible server found within ``timeout`` seconds.

    Raises ``NoServerFoundError`` (naming any incompatible servers seen) when none
    answers, and ``DiscoveryUnavailableError`` when mDNS cannot run.
    """
    async with browse(interfaces, versions=versions) as browser:
        with trio.move_on_after(timeout):
            async for change in browser:
                if change.kind is not ChangeKind.REMOVED and change.server.compatible:
                    return change.server
        seen = [describe(server) for server in browser.snapshot()]
    where = ", ".join(interfaces) if interfaces else "this network"
    detail = "; seen: " + "; ".join(seen) if seen else ""
    raise NoServerFoundError(f"no compatible uno-lan server found on {where}{detail}")
