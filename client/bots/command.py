"""``uno-bot`` once its command line is read (``client.bots.cli``): start or find the
server, run the bots, print the summary (also after a Ctrl-C, with ``--json`` as JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import trio

from client.bots.runner import RunSettings, Stats, run_bots
from client.bots.strategies import STRATEGIES, Knobs
from client.discovery import describe, find_server
from client.launch import ServerStartError, parse_address, running_server
from client.session import SessionError
from protocol.options import TableConfig
from protocol.table_flags import given_table_options

__all__ = ["parse_address", "play", "run", "settings_from_args", "spawn_server"]


def play(args: argparse.Namespace) -> int:
    """Run the bots for parsed arguments; the exit status ``uno-bot`` returns."""
    stats = Stats()
    try:
        if options := given_table_options(args):
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
            if args.json:  # a script that stops the bots still gets what they played
                print(json.dumps({**stats.summary(), "interrupted": True}), flush=True)
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
        options=given_table_options(args),
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
