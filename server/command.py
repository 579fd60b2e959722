"""``uno-server`` once its command line is read (``server.cli``): the settings the
arguments make, the start-up lines, and the server's run from start to stop.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sqlite3
import sys
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import trio

from protocol.limits import MAX_TABLE_NAME_LEN, clean_text
from protocol.options import ConfigError, TableConfig, TableOptions
from protocol.startup import LISTENING, REACHABLE
from protocol.table_flags import given_table_options
from server.advertise import Advertiser, ip_addresses
from server.app import (
    DEFAULT_WEB_PORT,
    Server,
    ServerSettings,
    bind_listeners,
    format_address,
    local_addresses,
)
from server.defaults import default_state_path
from server.descriptors import fit_connections
from server.identity import ServerIdentity
from server.journal import Journal, JournalLocked, JournalUnwritable
from server.limits import LimitsError, SessionLimits
from server.lobby import Lobby
from server.log_limit import LogRateLimit
from server.memory import collect_on_a_clock, take_over_collection
from server.retention import RetentionError, retention_from_args
from server.settings import LobbySettings, SettingsError
from server.web_address import announce_page
from server.web_door import open_web_door

__all__ = [
    "Config",
    "announce",
    "config_from_args",
    "run",
]

log = logging.getLogger("uno.server")


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the command line decided."""

    server: ServerSettings
    lobby: LobbySettings
    identity: ServerIdentity
    mdns: bool
    mdns_interfaces: tuple[str, ...]
    advertise_ips: tuple[str, ...] = ()
    state: Path | None = None
    """The journal file; None keeps everything in memory."""


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the server for parsed arguments; the exit status ``uno-server`` returns."""
    try:
        config = config_from_args(args)
    except (ConfigError, LimitsError, RetentionError, SettingsError) as error:
        parser.error(str(error))
    logging.basicConfig(
        level=args.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(LogRateLimit())
    asked = config.server.max_connections
    fit = fit_connections(asked)
    lowered = fit.lowered_from(asked)
    if lowered is not None:
        print(lowered, file=sys.stderr)
        server = replace(config.server, max_connections=fit.max_connections)
        config = replace(config, server=server)
    take_over_collection()
    journal = None
    if config.state is not None:
        journal = open_journal(config.state)
        if journal is None:
            return 1
    try:
        trio.run(serve, config, journal)
    except OSError as error:
        print(f"uno-server: {error}", file=sys.stderr)
        return 1
    finally:
        if journal is not None:
            journal.close()
    return 0


def default_name() -> str:
    """``uno-lan on <host name>``, within the length a server name may have."""
    host = clean_text(socket.gethostname()).split(".")[0] or "this computer"
    return f"uno-lan on {host}"[:MAX_TABLE_NAME_LEN]


def config_from_args(args: argparse.Namespace) -> Config:
    """Turn parsed arguments into settings; raises ValueError with a sentence if they
    make no sense."""
    name = clean_text(args.name if args.name is not None else default_name())
    if not name:
        raise SettingsError("--name must have at least one visible character")
    name = name[:MAX_TABLE_NAME_LEN]
    rate, burst = args.allowance
    session = SessionLimits(
        handshake_seconds=args.handshake_seconds,
        ping_interval_seconds=args.ping_seconds,
        idle_timeout_seconds=args.idle_seconds,
        allowance_rate=rate,
        allowance_burst=burst,
    )
    server = ServerSettings(
        hosts=tuple(args.host or ()),
        port=args.port,
        max_connections=args.max_connections,
        max_per_address=min(args.max_per_address, args.max_connections),
        session=session,
        shutdown_seconds=args.shutdown_seconds,
        web_port=_web_port(args),
    )
    lobby = LobbySettings(
        server_name=name,
        seed=args.seed,
        table_defaults=TableConfig.from_data(given_table_options(args)),
        max_tables=args.max_tables,
        max_tables_per_address=args.max_tables_per_address,
        restart_grace_seconds=args.restart_grace,
        empty_table_seconds=args.empty_table_seconds,
        idle_table_seconds=args.idle_table_seconds,
        bot_think_ms=args.bot_think_ms,
        guest_bot_think_ms=args.guest_bot_think_ms,
        bot_jump_in_ms=tuple(args.bot_jump_in_ms),
        retention=retention_from_args(args),
    )
    identity = ServerIdentity.fresh(name)
    return Config(
        server=server,
        lobby=lobby,
        identity=identity,
        mdns=not args.no_mdns,
        mdns_interfaces=ip_addresses(args.mdns_interface, "--mdns-interface"),
        advertise_ips=ip_addresses(args.advertise_ip, "--advertise-ip"),
        state=None if args.no_state else (args.state or default_state_path()),
    )


def _web_port(args: argparse.Namespace) -> int | None:
    """The web port the flags ask for: none with ``--no-web``; a free one with ``--port 0``."""
    if args.no_web:
        return None
    if args.web_port is not None:
        return int(args.web_port)
    return 0 if args.port == 0 else DEFAULT_WEB_PORT


def announce(addresses: list[tuple[str, int]], hosts: tuple[str, ...]) -> None:
    """The start-up lines on stdout: where it listens, who can reach it."""
    host, port = addresses[0]
    print(f"{LISTENING}{format_address(host, port)}", flush=True)
    bound = [address for address, _ in addresses]
    reachable = local_addresses(bound)
    if reachable:
        print(REACHABLE + ", ".join(format_address(a, port) for a in reachable))
    if not hosts or any(h not in ("127.0.0.1", "::1", "localhost") for h in hosts):
        print(
            "note: tables without a password are open to anyone who can reach this "
            "machine on the network"
        )
    sys.stdout.flush()


async def serve(config: Config, journal: Journal | None = None) -> None:
    """Run the server until SIGINT or SIGTERM, then stop it in order."""
    listeners = await bind_listeners(config.server.hosts, config.server.port)
    identity = config.identity
    if journal is not None:
        # The journal keeps the id: the welcome and the mDNS advert carry the same one,
        # whatever the port (a --no-state server keeps the fresh one it was given).
        identity = replace(identity, server_id=journal.server_id())
    identity = replace(identity, table_defaults=TableOptions.of(config.lobby.table_defaults))
    lobby = Lobby(config.lobby, journal=journal)
    server = Server(config.server, lobby, identity)
    advertiser: Advertiser | None = None
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as housekeeping:
            housekeeping.start_soon(collect_on_a_clock)
            async with trio.open_nursery() as nursery:
                web = await open_web_door(config.server.hosts, config.server.web_port)
                addresses = await nursery.start(partial(server.run, listeners=listeners, web=web))
                announce(addresses, config.server.hosts)
                announce_page(server.web_addresses)
                identity = server.identity
                log.info("server %r (id %s) ready", identity.name, identity.server_id)
                if config.mdns:
                    advertiser = Advertiser.for_server(
                        identity,
                        lobby.summary,
                        addresses,
                        config.mdns_interfaces,
                        config.advertise_ips,
                    )
                    nursery.start_soon(advertiser.run)
                async for signum in signals:
                    log.info("received %s: stopping", signal.Signals(signum).name)
                    if advertiser is not None:
                        advertiser.stop()
                    server.stop("the server is shutting down")
                    break
            housekeeping.cancel_scope.cancel()  # the server has stopped serving


def open_journal(path: Path) -> Journal | None:
    """The server's journal; None, having printed the one line that says why, if it
    cannot be used (held by another server, not writable, not openable)."""
    try:
        journal = Journal.open(path)
    except JournalLocked as error:
        why = f"{error}; stop it first, or give this one --state"
    except JournalUnwritable as error:
        why = (
            f"cannot write the journal {path} ({error});"
            " free some space or make it writable, or give --state another file"
        )
    except (OSError, sqlite3.Error) as error:
        why = f"cannot use the journal {path}: {error}"
    else:
        if journal.damaged is not None:
            log.warning("the journal could not be read; it was kept as %s", journal.damaged)
        if journal.migrated is not None:
            log.warning("the journal was brought up to date; its old copy is %s", journal.migrated)
        return journal
    print(f"uno-server: {why}", file=sys.stderr)
    return None
