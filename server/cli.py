"""``uno-server`` (also ``python -m server``): host UNO tables on this machine.

It prints exactly one line ``uno-server listening on HOST:PORT`` (the real port when
``--port 0``), then the addresses others can reach it at and a word on passwords. Logs go
to stderr. SIGINT (Ctrl-C) or SIGTERM stop it cleanly: clients are told, then cut off
after ``--shutdown-seconds``, and it exits 0. A journal it cannot use stops it before
that, with one line on stderr and status 1.

Why this module is long: it is the whole command line, each flag with its help beside the
setting it fills, and the server's start and stop around them; the table flags
(``server.table_flags``) and the journal's retention flags (``server.retention``) live
with what they set.
"""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import socket
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import trio

from protocol.limits import MAX_TABLE_NAME_LEN, clean_text
from protocol.options import ConfigError
from server.advertise import Advertiser, ip_addresses
from server.app import (
    DEFAULT_PORT,
    DEFAULT_WEB_PORT,
    Server,
    ServerSettings,
    bind_listeners,
    format_address,
    local_addresses,
)
from server.descriptors import fit_connections
from server.identity import ServerIdentity
from server.journal import Journal, JournalLocked, JournalUnwritable, default_state_path
from server.limits import LimitsError, SessionLimits
from server.lobby import Lobby
from server.log_limit import LogRateLimit
from server.replay_command import replay_main
from server.retention import RetentionError, add_retention_flags, retention_from_args
from server.settings import LobbySettings, SettingsError
from server.standings import history_main
from server.table_flags import add_table_flags, table_defaults
from server.web_address import announce_page
from server.web_door import open_web_door

__all__ = [
    "Config",
    "build_parser",
    "config_from_args",
    "main",
]

log = logging.getLogger("uno.server")

_LIMITS = SessionLimits()
_LOBBY = LobbySettings()


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


class _HelpWithDefaults(argparse.ArgumentDefaultsHelpFormatter):
    """Shows defaults, except where there is none to show (the help text says why)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False or action.default == []:
            return action.help
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``uno-server``."""
    parser = argparse.ArgumentParser(
        prog="uno-server",
        description="Host UNO tables on this machine for players on the same network.",
        formatter_class=_HelpWithDefaults,
    )
    net = parser.add_argument_group("network")
    net.add_argument(
        "--host",
        action="append",
        metavar="ADDRESS",
        help="address or name to listen on (repeatable); default: every interface, IPv4 and IPv6",
    )
    net.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port; 0 picks a free one")
    net.add_argument(
        "--web-port",
        type=int,
        default=None,
        help=f"port of the browser page and its WebSocket (default: {DEFAULT_WEB_PORT}, "
        "or a free one with --port 0)",
    )
    net.add_argument(
        "--no-web", action="store_true", help="serve no browser page (terminal clients only)"
    )
    net.add_argument(
        "--name",
        default=None,
        help="the server's name shown to players (default: uno-lan on <this computer>)",
    )
    net.add_argument(
        "--max-connections",
        type=int,
        default=256,
        help="connections served at once",
    )
    net.add_argument(
        "--max-per-address",
        type=int,
        default=32,
        help="connections served at once from one address",
    )
    net.add_argument(
        "--allowance",
        type=float,
        nargs=2,
        metavar=("PER_SECOND", "BURST"),
        default=(_LIMITS.allowance_rate, _LIMITS.allowance_burst),
        help="messages a client may send per second on average, and at once",
    )
    net.add_argument(
        "--handshake-seconds",
        type=float,
        default=_LIMITS.handshake_seconds,
        help="time a new connection has to say hello",
    )
    net.add_argument(
        "--ping-seconds",
        type=float,
        default=_LIMITS.ping_interval_seconds,
        help="keepalive ping interval",
    )
    net.add_argument(
        "--idle-seconds",
        type=float,
        default=_LIMITS.idle_timeout_seconds,
        help="silence after which a connection is closed",
    )
    net.add_argument(
        "--shutdown-seconds",
        type=float,
        default=2.0,
        help="time clients get to be told before a stopping server cuts them off",
    )
    tables = parser.add_argument_group("tables")
    tables.add_argument(
        "--max-tables", type=int, default=_LOBBY.max_tables, help="tables open at once"
    )
    tables.add_argument(
        "--max-tables-per-address",
        type=int,
        default=_LOBBY.max_tables_per_address,
        help="tables made from one address that may be open at once",
    )
    tables.add_argument(
        "--empty-table-seconds",
        type=float,
        default=_LOBBY.empty_table_seconds,
        help="how long in all a table may have nobody connected before it is removed",
    )
    tables.add_argument(
        "--idle-table-seconds",
        type=float,
        default=_LOBBY.idle_table_seconds,
        help="when every table is taken, a table with no move for this long gives way to "
        "a newcomer's",
    )
    tables.add_argument(
        "--bot-think-ms",
        type=int,
        default=_LOBBY.bot_think_ms,
        help="how long a server bot waits before it plays, unless its table says otherwise",
    )
    tables.add_argument(
        "--guest-bot-think-ms",
        type=int,
        default=_LOBBY.guest_bot_think_ms,
        help="the fastest pace of server bots at a table made from another machine",
    )
    tables.add_argument(
        "--bot-jump-in-ms",
        type=int,
        nargs=2,
        default=_LOBBY.bot_jump_in_ms,
        metavar=("LOW", "HIGH"),
        help="the range of a server bot's reaction before it jumps in (jump_in tables)",
    )
    tables.add_argument(
        "--seed",
        type=int,
        default=None,
        help="fix every shuffle (for tests); default: the OS's secure random source",
    )
    tables.add_argument(
        "--restart-grace",
        type=float,
        default=_LOBBY.restart_grace_seconds,
        help="after a restart, how long a rebuilt table waits, paused, for its people",
    )
    state = parser.add_argument_group("state")
    state.add_argument(
        "--state",
        type=Path,
        default=None,
        help="the journal file that keeps tables across restarts and the match history "
        f"(default: {default_state_path()})",
    )
    state.add_argument(
        "--no-state",
        action="store_true",
        help="keep everything in memory: a restart ends every table",
    )
    add_retention_flags(state)
    add_table_flags(parser)
    mdns = parser.add_argument_group("discovery")
    mdns.add_argument(
        "--no-mdns", action="store_true", help="do not advertise the server on the network"
    )
    mdns.add_argument(
        "--mdns-interface",
        action="append",
        default=[],
        metavar="IP",
        help="advertise only on the interface with this address (repeatable)",
    )
    mdns.add_argument(
        "--advertise-ip",
        action="append",
        default=[],
        metavar="IP",
        help="the address clients should connect to, when the one found is wrong (repeatable)",
    )
    parser.add_argument(
        "--log-level",
        default="INFO",
        type=str.upper,
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        help="how much to log to stderr",
    )
    return parser


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
        table_defaults=table_defaults(args),
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
    print(f"uno-server listening on {format_address(host, port)}", flush=True)
    bound = [address for address, _ in addresses]
    reachable = local_addresses(bound)
    if reachable:
        print("reachable at:", ", ".join(format_address(a, port) for a in reachable))
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
    lobby = Lobby(config.lobby, journal=journal)
    server = Server(config.server, lobby, identity)
    advertiser: Advertiser | None = None
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
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


GC_THRESHOLDS = (20_000, 20, 20)
"""The collector's thresholds for the server process (Python's default is 700, 10, 10)."""


def tune_garbage_collector() -> None:
    """Make the cyclic garbage collector rare and cheap for a long-running server.

    Nearly everything the server allocates is freed by reference counting; with the
    default thresholds, under load the collector still ran a full collection every few
    seconds, each walking every live object (all modules, every table and session) for
    60-425 ms and freeing nothing, which showed as the worst latencies. Freezing moves what
    exists after start-up (modules, classes, configuration) out of the collector's sight
    for good, and the higher thresholds let far more allocations pass between collections.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``uno-server``; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["history"]:
        return history_main(words[1:], default_state_path())
    if words[:1] == ["replay"]:
        return replay_main(words[1:], default_state_path())
    parser = build_parser()
    args = parser.parse_args(argv)
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
    tune_garbage_collector()
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
