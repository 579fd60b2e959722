"""Discovery time: from starting ``uno-server`` to its appearing in a browser, via mDNS.

Everything runs inside a network namespace this script creates (loopback with multicast
on; needs root and ``ip``), never on this machine's own network. A browser process runs
throughout; each run starts a server with a new name, waits for the browser to report it,
then stops it and waits for the browser to drop it. It prints the median (and range) of:
start -> found (process start included), listening -> found (the server's own part:
zeroconf's probing and announcing) and stop -> gone. It measures and prints; it asserts
nothing (design.md section 7).

    .venv/bin/python tests/bench/discovery.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import trio

from protocol.startup import LISTENING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "discovery"))

from discovery_netns import (
    child_env,
    loopback_namespace,
    probe_command,
    run_in,
    server_command,
    skip_reason,
    stopped,
)

LO = "127.0.0.1"


def _is_event(kind: str, name: str, message: Any) -> bool:
    """Whether the probe's JSON line ``message`` says server ``name`` was ``kind``."""
    return bool(message.get("kind") == kind and message["name"] == name)


async def measure(runs: int, work: Path) -> dict[str, list[float]]:
    env, log = child_env(work), work / "processes.log"
    figures: dict[str, list[float]] = {
        "start -> found": [],
        "listening -> found": [],
        "stop -> gone": [],
    }
    with loopback_namespace() as ns:
        async with run_in(ns, probe_command("changes", LO), env, log) as browser:
            await browser.json_until(lambda m: m.get("ready"))
            for run in range(runs):
                name = f"Bench {run}"
                flags = ("--host", LO, "--mdns-interface", LO, "--name", name)
                started = time.perf_counter()
                async with run_in(ns, server_command(*flags), env, stderr=log) as server:
                    while not (await server.line()).startswith(LISTENING):
                        pass
                    listening = time.perf_counter()
                    await browser.json_until(partial(_is_event, "added", name))
                    found = time.perf_counter()
                    stopping = time.perf_counter()
                    await stopped(server)
                    await browser.json_until(partial(_is_event, "removed", name))
                    gone = time.perf_counter()
                figures["start -> found"].append(found - started)
                figures["listening -> found"].append(found - listening)
                figures["stop -> gone"].append(gone - stopping)
                print(f"run {run + 1}: found after {found - started:.2f} s", flush=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="servers started one after another")
    args = parser.parse_args()
    reason = skip_reason()
    if reason is not None:
        print(f"cannot measure discovery here: {reason}")
        return
    with tempfile.TemporaryDirectory() as work:
        figures = trio.run(measure, args.runs, Path(work))
    print(f"\ndiscovery over mDNS in a namespace, {args.runs} runs (seconds):")
    for label, values in figures.items():
        print(
            f"  {label:<20} median {statistics.median(values):.2f}"
            f"  min {min(values):.2f}  max {max(values):.2f}"
        )


if __name__ == "__main__":
    main()
