"""``uno-server`` (also ``python -m server``): host UNO tables on this machine.

It prints exactly one line ``uno-server listening on HOST:PORT`` (the real port when
``--port 0``), then the addresses others can reach it at and a word on passwords. Logs go
to stderr. SIGINT (Ctrl-C) or SIGTERM stop it cleanly: clients are told, then cut off
after ``--shutdown-seconds``, and it exits 0. A journal it cannot use stops it before
that, with one line on stderr and status 1. ``uno-server history`` shows the finished
matches and the standings (``server.standings``).

This module is the command line only, each flag with its help, light enough that
``--help`` loads no Trio, SQLite or zeroconf; ``server.command`` turns the arguments into
settings and runs the server. The table flags (``protocol.table_flags``) and the journal's
retention flags (``server.retention``) live with what they set.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from protocol.table_flags import add_table_flags
from server.defaults import DEFAULT_PORT, DEFAULT_WEB_PORT, default_state_path
from server.limits import SessionLimits
from server.retention import add_retention_flags
from server.settings import LobbySettings

__all__ = ["build_parser", "main"]

_LIMITS = SessionLimits()
_LOBBY = LobbySettings()

HISTORY_HELP = (
    "uno-server history [--state PATH] [--week] [--json] [--reset] [--backup COPY] shows "
    "the finished matches and the standings of the journal (uno-server history --help); "
    "uno-server replay MATCH_ID --out FILE writes a finished match's replay file"
)


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
        epilog=HISTORY_HELP,
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
    add_table_flags(
        parser.add_argument_group(
            "table options (defaults for new tables; the host of a table may choose others)"
        )
    )
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``uno-server``; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["history"]:
        from server.standings import history_main  # noqa: PLC0415 (needs SQLite)

        return history_main(words[1:], default_state_path())
    if words[:1] == ["replay"]:
        from server.replay_command import replay_main  # noqa: PLC0415 (needs SQLite)

        return replay_main(words[1:], default_state_path())
    parser = build_parser()
    args = parser.parse_args(argv)
    from server.command import run  # noqa: PLC0415 (--help never loads the server)

    return run(parser, args)
