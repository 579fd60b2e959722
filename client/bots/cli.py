"""``uno-bot``: run scripted bots against a server, for solo play, tests and load.

    uno-bot --spawn-server --bots 4 --games 3 --deck bts --seed 1 --json
    uno-bot --server 192.168.1.20:7531 --table Friday --bots 2 --strategy random
    uno-bot --table Friday --create --bots 3     # find a server on the LAN (mDNS)

With ``--spawn-server`` a private ``uno-server`` is started on 127.0.0.1 (port 0, never
advertised) for the run and stopped after it. With neither ``--server`` nor
``--spawn-server`` the bots look for servers on the network (client/discovery.py) and join
the first compatible one; ``--mdns-interface`` says where to look. ``--json`` prints one
JSON object at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from enum import StrEnum
from typing import Any

import trio

from client.bots.runner import RunSettings, Stats, run_bots
from client.bots.strategies import CHALLENGE_MODES, DANCE_MODES, STRATEGIES, Knobs
from client.discovery import describe, find_server
from client.launch import ServerStartError, parse_address, running_server
from client.session import SessionError
from protocol.options import PRESETS, TableConfig, preset_options

__all__ = ["build_parser", "main", "parse_address", "spawn_server"]


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Adds ``(default: X)`` to a flag's help only when the help does not already say its
    default and there is a default worth saying (not None, off or empty)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default in (None, False, "", [], argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``uno-bot``."""
    parser = argparse.ArgumentParser(
        prog="uno-bot",
        description="Scripted UNO bots that play over the real protocol.",
        formatter_class=_HelpFormatter,
    )
    where = parser.add_argument_group("where to play")
    target = where.add_mutually_exclusive_group()
    target.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="the server to connect to (default: the first one found on the network)",
    )
    target.add_argument(
        "--spawn-server",
        action="store_true",
        help="start a private uno-server on 127.0.0.1 for this run (not advertised)",
    )
    where.add_argument(
        "--mdns-interface",
        action="append",
        default=[],
        metavar="IP",
        help="without --server: look for servers on the interface with this address "
        "(repeatable; default every interface)",
    )
    where.add_argument(
        "--discover-seconds",
        type=float,
        default=10.0,
        help="without --server: how long to look for a server",
    )
    where.add_argument("--table", default="bots", help="the table's name")
    where.add_argument(
        "--create",
        action="store_true",
        help="create the table (implied by --spawn-server); otherwise join it by name",
    )
    where.add_argument("--password", default=None, help="the table's password")
    where.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for a spawned server (repeatable), e.g. --server-arg=--turn-seconds=5",
    )

    play = parser.add_argument_group("the bots")
    play.add_argument("--bots", type=int, default=4, help="bots in this process")
    play.add_argument(
        "--strategy",
        "--level",
        default="basic",
        choices=sorted(STRATEGIES),
        help="how the bots choose: easy, normal (alias basic), hard (searches); random "
        "picks any legal command",
    )
    play.add_argument(
        "--strategies",
        default="",
        metavar="S1,S2,...",
        help="a strategy per bot, in seat order (the rest use --strategy)",
    )
    play.add_argument("--games", type=int, default=1, help="matches to play")
    play.add_argument("--seed", type=int, default=None, help="seed for bots (and a spawned server)")
    play.add_argument("--name", default="bot", help="name prefix; bots are NAME1, NAME2...")
    play.add_argument(
        "--rate",
        type=float,
        default=None,
        help="messages per second per bot at most (default: 15, unlimited with --spawn-server)",
    )
    play.add_argument("--timeout", type=float, default=900.0, help="give up after this many s")
    play.add_argument(
        "--reconnect-seconds",
        type=float,
        default=30.0,
        help="when the server goes away, how long the bots try to take their seats back "
        "before they give up (exit status 2)",
    )
    play.add_argument("--json", action="store_true", help="print one JSON summary at the end")

    knobs = parser.add_argument_group("knobs (how human or adversarial the bots are)")
    knobs.add_argument(
        "--think-ms",
        type=int,
        nargs=2,
        default=(0, 0),
        metavar=("LOW", "HIGH"),
        help="time to think before each command of its own turn",
    )
    knobs.add_argument(
        "--jump-in-ms",
        type=int,
        nargs=2,
        default=(600, 1200),
        metavar=("LOW", "HIGH"),
        help="the reaction time before a jump-in (a play out of turn under jump_in)",
    )
    knobs.add_argument(
        "--forget-uno", type=float, default=0.0, help="probability of not declaring UNO"
    )
    knobs.add_argument(
        "--catch",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="catch opponents who forgot UNO",
    )
    knobs.add_argument("--catch-delay-ms", type=int, default=0, help="reaction time for a catch")
    knobs.add_argument(
        "--challenge",
        choices=CHALLENGE_MODES,
        default="auto",
        help="answering a Wild Draw Four: auto (the strategy weighs it), always, never",
    )
    knobs.add_argument(
        "--dance",
        choices=DANCE_MODES,
        default="auto",
        help="answering a Dancing Wild: auto, correct, wrong (a wrong sequence) or refuse",
    )

    _add_table_options(parser.add_argument_group("table options (with --create)"))
    return parser


def _add_table_options(group: argparse._ArgumentGroup) -> None:
    """``--preset`` and one flag per TableConfig field; unset flags keep the server's
    defaults (a preset sets its house rules; a flag given wins over it)."""
    group.add_argument(
        "--preset",
        choices=list(PRESETS),
        default=None,
        help="the house rules of a preset: official, party or family",
    )
    for option in dataclasses.fields(TableConfig):
        default = option.default
        flag = "--" + option.name.replace("_", "-")
        doc = f"{option.metadata['doc']} (default: the server's; TableConfig's is {default})"
        unset = argparse.SUPPRESS  # an unset flag leaves no attribute: the server decides
        if isinstance(default, bool):
            group.add_argument(flag, action=argparse.BooleanOptionalAction, default=unset, help=doc)
        elif isinstance(default, StrEnum):
            choices = [member.value for member in type(default)]
            group.add_argument(flag, choices=choices, default=unset, help=doc)
        else:
            group.add_argument(flag, type=int, default=unset, help=doc)


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    """The table options given on the command line, as TableConfig data."""
    chosen: dict[str, Any] = {}
    for option in dataclasses.fields(TableConfig):
        if hasattr(args, option.name):
            chosen[option.name] = getattr(args, option.name)
    preset = getattr(args, "preset", None)
    return chosen if preset is None else {**preset_options(preset), **chosen}


@asynccontextmanager
async def spawn_server(
    extra: Sequence[str] = (), seed: int | None = None
) -> AsyncIterator[tuple[str, int]]:
    """Run a private uno-server on 127.0.0.1 port 0 for the duration; yield its address.

    The server gets a generous message allowance and no per-address table quota (these
    bots, all on this machine, are its only clients), keeps nothing on disk, and is stopped
    with SIGTERM (then killed) when the block ends (``client.launch``).
    """
    arguments = ["--allowance", "100000", "100000", "--no-state"]
    arguments += ["--max-tables-per-address", "64"]
    if seed is not None:
        arguments += ["--seed", str(seed)]
    async with running_server(extra=[*arguments, *extra]) as address:
        yield address


def settings_from_args(args: argparse.Namespace, host: str, port: int) -> RunSettings:
    """RunSettings for parsed arguments and a server address."""
    strategies = tuple(name for name in args.strategies.split(",") if name)
    unknown = [name for name in strategies if name not in STRATEGIES]
    if unknown:
        raise ValueError(f"unknown strategies: {', '.join(unknown)}")
    knobs = Knobs(
        think_ms=tuple(args.think_ms),
        jump_in_ms=tuple(args.jump_in_ms),
        forget_uno=args.forget_uno,
        catch=args.catch,
        catch_delay_ms=args.catch_delay_ms,
        challenge=args.challenge,
        dance=args.dance,
    )
    rate = args.rate if args.rate is not None else (None if args.spawn_server else 15.0)
    return RunSettings(
        host=host,
        port=port,
        table=args.table,
        create=args.create or args.spawn_server,
        options=table_options(args),
        password=args.password,
        bots=args.bots,
        strategy=args.strategy,
        strategies=strategies,
        knobs=knobs,
        games=args.games,
        seed=args.seed,
        name_prefix=args.name,
        rate=rate,
        burst=max(2.0, (rate or 20.0)),
        reconnect_seconds=args.reconnect_seconds,
    )


async def run(args: argparse.Namespace, stats: Stats | None = None) -> Stats:
    """Run the bots as the arguments say, spawning a server if asked; ``stats`` fills as
    they play."""
    stats = stats if stats is not None else Stats()
    with trio.fail_after(args.timeout):
        if args.spawn_server:
            async with spawn_server(args.server_arg, args.seed) as (host, port):
                return await _run_at(args, host, port, stats)
        if args.server:
            host, port = parse_address(args.server)
        else:
            found = await find_server(args.mdns_interface or None, timeout=args.discover_seconds)
            print(f"uno-bot: joining {describe(found)}", file=sys.stderr, flush=True)
            host, port = found.address
        return await _run_at(args, host, port, stats)


async def _run_at(args: argparse.Namespace, host: str, port: int, stats: Stats) -> Stats:
    def started() -> None:
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        # One write, so that a Ctrl-C right after it cannot cut the line from its newline.
        sys.stderr.write(
            f"uno-bot: {args.bots} bots playing at {where}, table {args.table!r} "
            "(Ctrl-C stops them)\n"
        )
        sys.stderr.flush()

    return await run_bots(settings_from_args(args, host, port), stats, started)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``uno-bot``; exit status 0 when every match finished cleanly, 130
    after Ctrl-C (with a one-line summary), 2 when it could not play."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.bots < 1 or args.games < 1:
        parser.error("--bots and --games must be at least 1")
    stats = Stats()
    try:
        if options := table_options(args):
            TableConfig.from_data({"seats": max(args.bots, 2), **options})
        trio.run(run, args, stats)
    except BaseException as error:
        # Errors leave trio's nurseries wrapped in exception groups; report the cause.
        if _interrupted(error):
            print(
                f"uno-bot: interrupted after {stats.matches} of {args.games} matches "
                f"({stats.rounds} rounds, {stats.commands} commands)",
                file=sys.stderr,
            )
            return 130
        cause = _first_leaf(error)
        if not isinstance(
            cause, ValueError | OSError | ServerStartError | trio.TooSlowError | SessionError
        ):
            raise
        print(f"uno-bot: {cause or 'timed out'}", file=sys.stderr)
        return 2
    summary = stats.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        _print_human(summary)
    clean = summary["matches"] == args.games and not summary["protocol_errors"]
    return 0 if clean else 1


def _interrupted(error: BaseException) -> bool:
    """A Ctrl-C, bare or inside trio's exception groups."""
    if isinstance(error, BaseExceptionGroup):
        return error.subgroup(KeyboardInterrupt) is not None
    return isinstance(error, KeyboardInterrupt)


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _print_human(summary: dict[str, Any]) -> None:
    print(f"matches {summary['matches']}, rounds {summary['rounds']}")
    for number, result in enumerate(summary["results"], 1):
        scores = ", ".join(f"{name} {score}" for name, score in result["scores"].items())
        print(f"  match {number}: {result['winner']} wins ({scores})")
    latency = summary["latency_ms"]
    print(
        f"commands {summary['commands']}, rejections {summary['rejections']}, "
        f"races {summary['races']}, protocol errors {summary['protocol_errors']}, "
        f"latency p50 {latency['p50']} ms, p99 {latency['p99']} ms"
    )
    for error in summary["errors"]:
        print(f"  error: {error}")
