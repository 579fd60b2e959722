"""``uno-client`` once its command line is read (``client.cli``): check the arguments,
start a server for ``--solo`` / ``--serve`` (with the house-rule flags as its defaults),
find one on the LAN or join the one named, and run the full-screen program.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import IO, Any

import outcome
import trio

from client.cli import OWN_FLAGS
from client.config import bell_wanted, default_name, log_path, remember_name
from client.discovery import FoundServer, keep_listed
from client.i18n import _
from client.solo import lan_server, solo_server
from client.ui.app import ClientApp
from client.ui.lobby_controller import address_problem, parse_address
from client.ui.model import Model, apply_discovered
from client.ui.network import Network, Plan
from client.ui.sentences import say
from protocol.limits import MAX_NAME_LEN, MAX_TABLE_NAME_LEN, clean_text
from protocol.options import ConfigError, TableConfig, TableOptions
from protocol.startup import PAGE, REACHABLE
from protocol.table_flags import given_table_options, table_flag_args

__all__ = [
    "discovery_text",
    "play",
    "serve_options",
    "server_args",
    "share_from",
    "start_plan",
]


Around = Callable[[Callable[[], Awaitable[None]]], Awaitable[None]]
"""Runs the network (the callable it is given) inside what it sets up around it."""


def play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the client for parsed arguments; the exit status ``uno-client`` returns."""
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


def server_args(args: argparse.Namespace) -> list[str]:
    """The arguments for the server ``--solo`` / ``--serve`` starts: the house-rule flags
    as its defaults for new tables (``--solo``: no turn clock unless asked for), then the
    ``--server-arg`` ones, which win."""
    options = given_table_options(args, leave_out=OWN_FLAGS)
    if args.solo:
        options.setdefault("turn_seconds", 0)
    return [*table_flag_args(options), *args.server_arg]


def serve_options(args: argparse.Namespace) -> dict[str, Any]:
    """``lan_server``'s arguments for ``--serve``: where it listens, whether and where it
    is advertised, the port and the extra server arguments."""
    return {
        "port": args.port,
        "extra": server_args(args),
        "interfaces": args.mdns_interface,
        "host": args.host,
        "advertise": not args.no_mdns,
    }


def discovery_text(args: argparse.Namespace) -> str:
    """What the find screen says discovery does (``--no-mdns``: nothing)."""
    if args.no_mdns:
        return _("not looking, as --no-mdns asks")
    if not args.mdns_interface:
        return _("looking on every interface…")
    return _("looking on {interfaces}…").format(interfaces=", ".join(args.mdns_interface))


def start_plan(args: argparse.Namespace, name: str) -> Plan:
    """What the network does once connected, from the command line."""
    table_name = say("table.default-name", player=name)[:MAX_TABLE_NAME_LEN]
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
    name = clean_text(args.name or "")[:MAX_NAME_LEN] if args.name else default_name()
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
            plan.options.over(TableConfig.from_data(given_table_options(args, leave_out=OWN_FLAGS)))
    except (ConfigError, ValueError) as error:
        parser.error(str(error))
    return name, address, plan


def _around_own_server(
    args: argparse.Namespace, model: Model, app: Callable[[], ClientApp]
) -> Around:
    """``--solo`` and ``--serve``: the network runs beside the server child this client
    starts. The ``--serve`` one is watched: should it die, the screen says why and R
    starts it again on the same journal."""

    async def around_solo(run_network: Callable[[], Awaitable[None]]) -> None:
        async with solo_server(server_args(args)) as started:
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

            def said() -> None:
                share_from(model, served.said)
                app().invalidate()

            served.on_said = said
            said()
            note = served.port_note
            if note is not None and served.address is not None:
                model.notify(f"{note[:1].upper()}{note[1:]}: {served.address[1]}.")
            await run_network()

    return around_solo if args.solo else around_served


def share_from(model: Model, said: list[str]) -> None:
    """What to give friends, from the lines the ``--serve`` server printed after it
    listened (``server.command.announce``, ``server.web_address.announce_page``): its
    first LAN address and port, and its browser page there."""
    for line in said:
        if line.startswith(REACHABLE) and model.friends_at is None:
            lan = [a for a in line[len(REACHABLE) :].split(", ") if not _loopback(a)]
            model.friends_at = lan[0] if lan else None
        elif line.startswith(PAGE) and model.page_at is None and "only from this" not in line:
            model.page_at = line[len(PAGE) :].split()[0]


def _loopback(address: str) -> bool:
    return address.startswith(("127.", "[::1]", "localhost"))


def _monotonic() -> float:
    return time.monotonic()


def name_note(typed: str, name: str) -> str:
    """What the screens tell a person whose ``--name`` could not be used as typed (cut to
    ``MAX_NAME_LEN``, or stripped of characters no terminal should show); "" when it was."""
    cleaned = clean_text(typed)
    if cleaned == typed.strip() and len(cleaned) <= MAX_NAME_LEN:
        return ""
    if len(cleaned) > MAX_NAME_LEN:
        return _("Your name is cut to {count} characters: you are {name}.").format(
            count=MAX_NAME_LEN, name=name
        )
    return _("Your name had characters that cannot be shown: you are {name}.").format(name=name)
