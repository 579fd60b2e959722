"""Advertising the server on the home network with mDNS / DNS-SD (``_uno._tcp.local.``).

The ``Advertiser`` is a Trio task. python-zeroconf runs its own thread and event loop: the
``Zeroconf`` object is built off the Trio thread and every blocking call (registering,
updating, withdrawing) goes through ``trio.to_thread``, so the server's loop never waits on
the network for mDNS. What it publishes:

- an SRV/A record pair: this machine's name ``uno-<id>.local.`` and the addresses clients
  should connect to, with the server's TCP port;
- a TXT record of a few short ``key=value`` pairs (``TXT_KEYS``), kept well under 200
  bytes: the TXT format version, the protocol versions spoken, the package version, the
  display name, a stable server id and the lobby's load (tables, open tables, free seats,
  whether a password is needed). The service type, the keys and their encoding are the
  shared vocabulary in ``protocol/discovery.py`` (re-exported here), which the browsers
  in ``client/discovery.py`` decode with.

The lobby's summary is read every ``poll_seconds``; a changed TXT is published at most once
per ``min_update_seconds``. A name another server already uses on the link is resolved by
zeroconf's probing with a changed instance name (``Name-2``), never an error. Where mDNS
is unavailable (no multicast, no such interface) one warning is logged and the server
serves on, reachable by address. On stop the service is withdrawn (goodbye packets), so
browsers drop it at once rather than when its records expire.

Why this module is long: the advertiser's life (start, update, rename, withdraw) and the
address logic it needs (which interfaces, which addresses to publish) are one idea, and
each half is only used by the other.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

import trio
import zeroconf

from protocol.discovery import (
    SERVICE_TYPE,
    TXT_KEYS,
    TXT_VERSION,
    Advert,
    cut_utf8,
    encode_txt,
    txt_size,
)
from protocol.version import SUPPORTED_VERSIONS
from server.app import local_addresses
from server.identity import ServerIdentity
from server.settings import LobbySummary, SettingsError

__all__ = [
    "SERVICE_TYPE",
    "TXT_KEYS",
    "TXT_VERSION",
    "AdvertiseSettings",
    "Advertiser",
    "Publisher",
    "ZeroconfPublisher",
    "advertised_addresses",
    "instance_label",
    "ip_addresses",
    "txt_properties",
    "txt_size",
]

log = logging.getLogger("uno.server.mdns")

_INSTANCE_BYTES = 48  # a DNS label holds 63; zeroconf may append "-NN" on a collision
_RECORD_TTL = 120  # seconds: a server that vanished without a goodbye is gone in 2 minutes


@dataclass(frozen=True, slots=True)
class AdvertiseSettings:
    """Where and how often the server advertises itself."""

    interfaces: tuple[str, ...] = ()
    """Addresses of the interfaces to send mDNS on; empty means every IPv4 interface."""
    advertise_ips: tuple[str, ...] = ()
    """Addresses to publish for clients to connect to; empty means worked out."""
    poll_seconds: float = 0.5
    """How often the lobby's summary is compared with what was published."""
    min_update_seconds: float = 2.0
    """The least time between two published updates of the TXT record."""


class Publisher(Protocol):
    """The blocking mDNS calls the advertiser makes, each from a worker thread."""

    def register(self, instance: str, properties: dict[str, str]) -> str:
        """Publish the service; returns the instance name won (changed on a collision)."""

    def update(self, properties: dict[str, str]) -> None:
        """Publish a new TXT record for the registered service."""

    def close(self) -> None:
        """Withdraw the service if registered, then release the sockets."""


class ZeroconfPublisher:
    """A ``Publisher`` on python-zeroconf; building it opens the multicast sockets.

    Raises ``OSError`` (or a zeroconf error) where mDNS cannot run on the interfaces.
    """

    def __init__(
        self, interfaces: Sequence[str], addresses: Sequence[str], port: int, host_label: str
    ) -> None:
        self._port = port
        self._addresses = list(addresses)
        self._server = f"{host_label}.local."
        self._info: zeroconf.ServiceInfo | None = None
        choice: list[str] | zeroconf.InterfaceChoice = (
            list(interfaces) if interfaces else zeroconf.InterfaceChoice.All
        )
        # use_asyncio=False: zeroconf runs its own loop thread even when the caller's
        # thread hosts an asyncio loop.
        self._zc = zeroconf.Zeroconf(interfaces=choice, use_asyncio=False)

    def _info_for(self, name: str, properties: dict[str, str]) -> zeroconf.ServiceInfo:
        return zeroconf.ServiceInfo(
            SERVICE_TYPE,
            name,
            port=self._port,
            properties=dict(properties),
            server=self._server,
            host_ttl=_RECORD_TTL,
            other_ttl=_RECORD_TTL,
            parsed_addresses=self._addresses,
        )

    def register(self, instance: str, properties: dict[str, str]) -> str:
        info = self._info_for(f"{instance}.{SERVICE_TYPE}", properties)
        self._zc.register_service(info, allow_name_change=True)
        self._info = info
        return info.name[: -len(SERVICE_TYPE) - 1]

    def update(self, properties: dict[str, str]) -> None:
        if self._info is None:
            return
        info = self._info_for(self._info.name, properties)
        self._zc.update_service(info)
        self._info = info

    def close(self) -> None:
        try:
            if self._info is not None:
                self._zc.unregister_service(self._info)
                self._info = None
        finally:
            self._zc.close()


PublisherFactory = Callable[[], Publisher]


class Advertiser:
    """Keeps the server registered on mDNS while ``run`` runs; see the module docstring.

    ``summary`` is called on the Trio thread (``Lobby.summary``). ``publisher`` builds the
    ``Publisher`` in a worker thread; by default a ``ZeroconfPublisher`` on the settings'
    interfaces.
    """

    def __init__(
        self,
        identity: ServerIdentity,
        summary: Callable[[], LobbySummary],
        port: int,
        addresses: Sequence[str],
        *,
        settings: AdvertiseSettings | None = None,
        publisher: PublisherFactory | None = None,
    ) -> None:
        self.identity = identity
        self.settings = settings or AdvertiseSettings()
        self._summary = summary
        self._port = port
        self._addresses = tuple(addresses)
        self._factory = publisher or partial(
            ZeroconfPublisher,
            self.settings.interfaces,
            self._addresses,
            port,
            f"uno-{_dns_safe(identity.server_id)}",
        )
        self._scope = trio.CancelScope()
        self.instance: str | None = None
        """The instance name won on the network, once registered."""
        self.registered = trio.Event()
        """Set once the service is published."""
        self.updates = 0
        """TXT updates published so far."""

    @classmethod
    def for_server(
        cls,
        identity: ServerIdentity,
        summary: Callable[[], LobbySummary],
        bound: Sequence[tuple[str, int]],
        interfaces: Sequence[str] = (),
        advertise_ips: Sequence[str] = (),
    ) -> Advertiser:
        """The advertiser for a server listening on ``bound`` (``Server.run``'s addresses),
        sending mDNS on ``interfaces`` (every IPv4 one when empty) and publishing
        ``advertise_ips`` (worked out from the rest when empty)."""
        hosts = [host for host, _ in bound]
        addresses = advertised_addresses(hosts, interfaces, advertise_ips)
        settings = AdvertiseSettings(interfaces=tuple(interfaces), advertise_ips=tuple(addresses))
        return cls(identity, summary, bound[0][1], addresses, settings=settings)

    def stop(self) -> None:
        """Withdraw the service and end ``run`` (it returns once the goodbye is sent)."""
        self._scope.cancel()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Advertise until ``stop`` or cancellation; never raises for an mDNS failure.

        Ready at once: the server does not wait for the registration's probing (about
        two seconds) before it serves.
        """
        task_status.started()
        with self._scope:
            if not self._addresses:
                log.warning(
                    "not advertising on the network: no address to publish "
                    "(use --advertise-ip); players can still connect by address"
                )
                return
            try:
                publisher = await trio.to_thread.run_sync(self._factory)
            except (OSError, ValueError, RuntimeError, zeroconf.Error) as error:
                where = ", ".join(self.settings.interfaces) or "every interface"
                log.warning(
                    "mDNS is unavailable on %s (%s): not advertising; players can still "
                    "connect by address",
                    where,
                    error or type(error).__name__,
                )
                return
            try:
                await self._publish(publisher)
            except (OSError, ValueError, RuntimeError, zeroconf.Error) as error:
                log.warning("stopped advertising on the network: %s", error or type(error).__name__)
            finally:
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(_close_quietly, publisher)
                if self.instance is not None:
                    log.info("withdrew the mDNS advertisement %r", self.instance)

    async def _publish(self, publisher: Publisher) -> None:
        published = self._properties()
        instance = instance_label(self.identity.name)
        self.instance = await trio.to_thread.run_sync(publisher.register, instance, published)
        log.info(
            "advertising %r on the network as %s at %s port %d",
            self.instance,
            SERVICE_TYPE,
            ", ".join(self._addresses),
            self._port,
        )
        if self.instance != instance:
            log.info(
                "another server on the network is called %r; renamed to %r", instance, self.instance
            )
        self.registered.set()
        last_update = trio.current_time()
        while True:
            await trio.sleep(self.settings.poll_seconds)
            current = self._properties()
            if current == published:
                continue
            wait = last_update + self.settings.min_update_seconds - trio.current_time()
            if wait > 0:
                await trio.sleep(wait)
                current = self._properties()
            await trio.to_thread.run_sync(publisher.update, current)
            published = current
            last_update = trio.current_time()
            self.updates += 1
            log.debug("mDNS TXT updated: %s", current)

    def _properties(self) -> dict[str, str]:
        return txt_properties(self.identity, self._summary())


def _close_quietly(publisher: Publisher) -> None:
    try:
        publisher.close()
    except (OSError, ValueError, RuntimeError, zeroconf.Error) as error:
        log.debug("closing mDNS: %s", error)


def txt_properties(
    identity: ServerIdentity,
    summary: LobbySummary,
    versions: Iterable[str] = SUPPORTED_VERSIONS,
) -> dict[str, str]:
    """The TXT record for ``identity`` and the lobby's ``summary``, in ``TXT_KEYS`` order
    (``protocol.discovery.encode_txt``: every value cut and every count capped, so the
    record stays well under 200 bytes whatever the name or version strings hold)."""
    return encode_txt(
        Advert(
            name=identity.name,
            server_id=identity.server_id,
            version=identity.version,
            protocols=tuple(versions),
            tables=summary.tables,
            open_tables=summary.open_tables,
            seats_free=summary.seats_free,
            password=summary.password_needed,
            web_port=identity.web_port or 0,
        )
    )


def instance_label(name: str) -> str:
    """The DNS-SD instance name for a display name: no dots, at most 48 UTF-8 bytes."""
    label = " ".join(name.replace(".", " ").split())
    return cut_utf8(label, _INSTANCE_BYTES) or "uno-lan"


def _dns_safe(text: str) -> str:
    kept = "".join(c for c in text.lower() if c.isascii() and (c.isalnum() or c == "-"))
    return kept[:40] or secrets.token_hex(6)


def advertised_addresses(
    bound_hosts: Iterable[str],
    interfaces: Sequence[str] = (),
    advertise_ips: Sequence[str] = (),
) -> list[str]:
    """The addresses to publish for clients to connect to.

    ``--advertise-ip`` wins. Otherwise, with mDNS interfaces named, each of them the server
    listens on (bound to it or to the wildcard of its family). Otherwise the addresses
    other machines can reach the server at, loopback left out unless nothing else is
    there.
    """
    if advertise_ips:
        return list(dict.fromkeys(advertise_ips))
    bound = list(bound_hosts)
    if interfaces:
        return [ip for ip in dict.fromkeys(interfaces) if _serves(ip, bound)]
    reachable = local_addresses(bound)
    remote = [ip for ip in reachable if not _is_loopback(ip)]
    return remote or reachable


def _serves(ip: str, bound: Sequence[str]) -> bool:
    wildcard = "::" if ":" in ip else "0.0.0.0"
    return ip in bound or wildcard in bound


def _is_loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def ip_addresses(values: Iterable[str], flag: str) -> tuple[str, ...]:
    """``values`` checked to be IP addresses (for ``flag`` on the command line)."""
    checked: list[str] = []
    for value in values:
        try:
            checked.append(str(ipaddress.ip_address(value)))
        except ValueError:
            raise SettingsError(f"{flag} wants an IP address, not {value!r}") from None
    return tuple(dict.fromkeys(checked))
