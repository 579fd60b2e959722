"""``uno-client`` (also ``python -m client``): play UNO in the terminal.

    uno-client --solo --bots 3 --deck bts     # alone against bots on a private server
    uno-client --serve                        # host the evening: a server for the LAN
    uno-client --server 192.168.1.20:7531     # join a friend's server
    uno-client                                # find a server on the LAN (or type its address)
    uno-client --mdns-interface 192.168.1.20  # ... looking on that interface only

The log goes to a file (``--log-file``; by default under ``$XDG_STATE_HOME``), never over
the screen: while the client runs, standard error (and a spawned server's) goes there too.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import IO, Any

import outcome
import trio

from client.config import bell_wanted, default_name, log_path, remember_name
from client.discovery import FoundServer, keep_listed
from client.solo import lan_server, solo_server
from client.ui.app import ClientApp
from client.ui.lobby_controller import address_problem, parse_address
from client.ui.model import Model, apply_discovered
from client.ui.network import Network, Plan
from client.ui.table_form import DEFAULT_LEVEL, LEVEL_CHOICES
from protocol.limits import clean_text
from protocol.options import ConfigError, DeckName, TableConfig, TableOptions

__all__ = ["build_parser", "main"]

MAX_NAME = 24

Around = Callable[[Callable[[], Awaitable[None]]], Awaitable[None]]
"""Runs the network (the callable it is given) inside what it sets up around it."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``uno-client``."""
    parser = argparse.ArgumentParser(
        prog="uno-client",
        description="Play UNO in the terminal, alone against bots or with friends on the LAN.",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--solo", action="store_true", help="play alone: a private server with bots")
    where.add_argument(
        "--serve", action="store_true", help="host: start a server for the network and sit down"
    )
    where.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="join the server at this address (default: list the servers found on the network)",
    )
    parser.add_argument("--name", help="your name at the table (remembered for next time)")
    parser.add_argument("--table", metavar="NAME", help="with --server: join this table")
    parser.add_argument(
        "--spectate", action="store_true", help="with --server: watch a table instead of playing"
    )
    parser.add_argument(
        "--password",
        default=None,
        help="with --table: the table's password; with --serve: lock the new table with it",
    )
    parser.add_argument(
        "--bots", type=int, default=None, help="bots at the table (--solo: 3, --serve: 0)"
    )
    parser.add_argument(
        "--level",
        choices=LEVEL_CHOICES,
        default=DEFAULT_LEVEL,
        help=f"--solo, --serve: the bots' level (default {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--deck",
        choices=[deck.value for deck in DeckName],
        default=DeckName.CLASSIC.value,
        help="the deck",
    )
    parser.add_argument(
        "--seats", type=int, default=4, help="--serve: seats at the new table (default 4)"
    )
    parser.add_argument("--port", type=int, default=0, help="--serve: the port (0 picks one)")
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for the server --solo/--serve starts, e.g. --server-arg=--seed=1",
    )
    parser.add_argument(
        "--mdns-interface",
        action="append",
        default=[],
        metavar="IP",
        help="without --server: look for servers on the interface with this address; "
        "with --serve: advertise on it (repeatable; default every interface)",
    )
    parser.add_argument(
        "--host",
        metavar="IP",
        default=None,
        help="with --serve: listen only on this address, e.g. 127.0.0.1 (default: every one)",
    )
    parser.add_argument(
        "--no-mdns",
        action="store_true",
        help="with --serve: do not advertise the server on the network; otherwise: do not "
        "look for servers (type the address instead)",
    )
    parser.add_argument("--log-file", type=Path, default=None, help="where the log goes")
    parser.add_argument("--no-mouse", action="store_true", help="leave the mouse to the terminal")
    return parser


def serve_options(args: argparse.Namespace) -> dict[str, Any]:
    """``lan_server``'s arguments for ``--serve``: where it listens, whether and where it
    is advertised, the port and the extra server arguments."""
    return {
        "port": args.port,
        "extra": args.server_arg,
        "interfaces": args.mdns_interface,
        "host": args.host,
        "advertise": not args.no_mdns,
    }


def discovery_text(args: argparse.Namespace) -> str:
    """What the find screen says discovery does (``--no-mdns``: nothing)."""
    if args.no_mdns:
        return "not looking, as --no-mdns asks"
    where = ", ".join(args.mdns_interface) if args.mdns_interface else "every interface"
    return f"looking on {where}…"


def start_plan(args: argparse.Namespace, name: str) -> Plan:
    """What the network does once connected, from the command line."""
    table_name = f"{name}'s table"[:32]
    if args.solo:
        bots = 3 if args.bots is None else args.bots
        options = TableOptions.parse({"deck": args.deck, "seats": bots + 1})
        return Plan(
            create=True,
            table_name=table_name,
            options=options,
            bots=bots,
            level=args.level,
            start=True,
        )
    if args.serve:
        options = TableOptions.parse({"deck": args.deck, "seats": args.seats})
        return Plan(
            create=True,
            table_name=table_name,
            options=options,
            bots=args.bots or 0,
            level=args.level,
            password=args.password,
        )
    return Plan(join=args.table, spectate=args.spectate, password=args.password)


@contextmanager
def _log_to_file(path: Path) -> Any:
    """Send logging and standard error (ours and a child server's) to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    stream: IO[str] = path.open("a", encoding="utf-8")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    saved = os.dup(2)
    sys.stderr.flush()
    os.dup2(stream.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        root.removeHandler(handler)
        stream.close()


def _checked(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[str, tuple[str, int] | None, Plan]:
    """The player's name, the server's address (if given) and the plan, or the parser's
    error for arguments that make no sense together."""
    name = clean_text(args.name or "")[:MAX_NAME] if args.name else default_name()
    if not name:
        parser.error("--name must contain something printable")
    if args.bots is not None and not 0 <= args.bots <= 9:
        parser.error("--bots must be 0 to 9")
    if args.host is not None and not args.serve:
        parser.error("--host goes with --serve (--solo always listens on 127.0.0.1 only)")
    address: tuple[str, int] | None = None
    if args.server:
        problem = address_problem(args.server)
        address = parse_address(args.server)
        if problem is not None or address is None:
            parser.error(f"--server: {problem}")
    try:
        plan = start_plan(args, name)
        if plan.create:
            plan.options.over(TableConfig())
    except (ConfigError, ValueError) as error:
        parser.error(str(error))
    return name, address, plan


def name_note(typed: str, name: str) -> str:
    """What the screens tell a person whose ``--name`` could not be used as typed (cut to
    ``MAX_NAME``, or stripped of characters no terminal should show); "" when it was."""
    cleaned = clean_text(typed)
    if cleaned == typed.strip() and len(cleaned) <= MAX_NAME:
        return ""
    if len(cleaned) > MAX_NAME:
        return f"Your name is cut to {MAX_NAME} characters: you are {name}."
    return f"Your name had characters that cannot be shown: you are {name}."


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``uno-client``; 0 after a normal quit."""
    parser = build_parser()
    args = parser.parse_args(argv)
    name, address, plan = _checked(parser, args)
    if args.name:
        remember_name(name)

    model = Model(name=name, solo=args.solo, bell=bell_wanted())
    if args.name:
        model.name_note = name_note(args.name, name)

    def network_factory(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, _monotonic, address=address, plan=plan)

    around: Around | None = None
    if args.solo or args.serve:
        around = _around_own_server(args, model, lambda: app)
    elif address is None:
        model.discovery = discovery_text(args)
    if address is None and not args.no_mdns and not (args.solo or args.serve):
        interfaces = args.mdns_interface or None

        async def around_discovery(run_network: Callable[[], Awaitable[None]]) -> None:
            def show(servers: list[FoundServer]) -> None:
                apply_discovered(model, servers)
                app.invalidate()

            def unavailable(reason: str) -> None:
                model.discovery = reason
                app.invalidate()

            async with trio.open_nursery() as nursery:
                nursery.start_soon(partial(keep_listed, interfaces, show, unavailable=unavailable))
                await run_network()
                nursery.cancel_scope.cancel()

        around = around_discovery

    log_file = args.log_file or log_path()
    with _log_to_file(log_file):
        app = ClientApp(model, network_factory, around_network=around, mouse=not args.no_mouse)
        try:
            asyncio.run(app.run())
        except KeyboardInterrupt:
            return 130
    result = app.trio_outcome
    if isinstance(result, outcome.Error):
        print(f"uno-client: {result.error} (details in {log_file})", file=sys.stderr)
        return 1
    return 0


def _around_own_server(
    args: argparse.Namespace, model: Model, app: Callable[[], ClientApp]
) -> Around:
    """``--solo`` and ``--serve``: the network runs beside the server child this client
    starts. The ``--serve`` one is watched: should it die, the screen says why and R
    starts it again on the same journal."""

    async def around_solo(run_network: Callable[[], Awaitable[None]]) -> None:
        async with solo_server(args.server_arg) as started:
            app().network.address = started
            await run_network()

    def server_changed(words: str | None) -> None:
        model.server_down = words
        if words is not None:
            model.notify(f"{words[:1].upper()}{words[1:]}. Press R to start it again.", error=True)
        app().invalidate()

    async def around_served(run_network: Callable[[], Awaitable[None]]) -> None:
        async with lan_server(**serve_options(args), on_change=server_changed) as served:
            app().network.address = served.address
            app().network.served = served
            await run_network()

    return around_solo if args.solo else around_served


def _monotonic() -> float:
    return time.monotonic()
