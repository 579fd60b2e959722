"""Server benchmark: a real ``uno-server`` process, 1,000 connections, paced and saturated.

Run from the repository root (Linux: it reads /proc)::

    .venv/bin/python tests/bench/server.py            # human summary
    .venv/bin/python tests/bench/server.py --json     # one JSON object, nothing else
    .venv/bin/python tests/bench/server.py --profile /tmp/server.prof   # + top hot spots

What happens, in one run (every process on 127.0.0.1, each step bounded in time):

1. The floor: ``tests/bench/echo.py`` (a bare Trio echo over the same framing and codec)
   starts, loaded by the same drivers with the same shape; then ``python -m server``
   starts. Its resident memory is read from /proc/PID/status before any client, after
   every connection has said hello, and after every table has started: the differences
   divided by the connections and the tables are the cost of each.
2. Paced: every table acts every 500 ms on average (uniform 250-750 ms between a table's
   view and its next command), 200 tables make about 400 commands/s. The echo and the
   server take turns (``--rounds`` windows each, the other one idle meanwhile), so that
   both meet the machine in the same moods; the p50 ratio is of the pooled samples, and
   the ratio of each round is reported beside it.
3. Saturation, the echo's then the server's: every table sends its next command as soon
   as its view (the echo: its answer) arrives.
4. During each measured window the server's own CPU time (/proc/PID/stat utime + stime)
   is read, and the drivers' too, so the saturation figure says whose limit was hit: 100%
   is one core, the server is one thread.
5. Pinned (``--pin``, the default on two CPUs or more): the echo and the server run on
   the last CPU, the drivers on the others. The drivers stand in for a thousand players
   at machines of their own; unpinned (``--no-pin``), the kernel may run a driver on the
   server's core in the middle of a move, which a LAN host never sees.

The load comes from ``tests/bench/load_driver.py``, one process per driver (default: one
per core), each owning whole tables. Latency is command to event: see that module.

With ``--profile PATH`` the server runs under cProfile (``python -m cProfile -o PATH -m
server ...``) and the top functions by own time are printed; the profiler slows the
server, so take the figures of such a run as the profile's, not the benchmark's.

This is a measurement, not a test: it prints numbers and never asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio
from load_driver import Client

from protocol.startup import LISTENING, PAGE

ROOT = Path(__file__).resolve().parents[2]
BENCH = Path(__file__).resolve().parent
ECHO_LISTENING = "echo listening on "
START_SECONDS = 30.0
STEP_SECONDS = 180.0
"""No driver step may take longer than this; the benchmark then fails instead of hanging."""


# --------------------------------------------------------------------------------------
# Child processes
# --------------------------------------------------------------------------------------


class Child:
    """A child process whose stdout is read line by line and whose stdin takes steps."""

    def __init__(self, process: trio.Process, label: str) -> None:
        self.process = process
        self.label = label
        self._buffer = b""

    @classmethod
    async def start(
        cls,
        command: list[str],
        label: str,
        stderr_path: Path,
        *,
        priority: int = 0,
        cpus: set[int] | None = None,
        cwd: Path = ROOT,
    ) -> Child:
        with stderr_path.open("wb") as stderr:
            process = await trio.lowlevel.open_process(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=cwd,
            )
        try:
            if priority:
                # Below 0 needs CAP_SYS_NICE; the caller learns of a refusal (PermissionError).
                os.setpriority(os.PRIO_PROCESS, process.pid, priority)
            if cpus:
                os.sched_setaffinity(process.pid, cpus)
        except BaseException:
            process.kill()  # not handed to the caller yet: nobody else would stop it
            await process.wait()
            raise
        return cls(process, label)

    @property
    def pid(self) -> int:
        return self.process.pid

    async def line(self, timeout: float = STEP_SECONDS) -> str:
        """The next line it prints; fails after ``timeout`` or if it exits first."""
        assert self.process.stdout is not None
        with trio.fail_after(timeout):
            while b"\n" not in self._buffer:
                chunk = await self.process.stdout.receive_some(1 << 20)
                if not chunk:
                    raise RuntimeError(f"{self.label} exited with {await self.process.wait()}")
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    async def step(self, text: str) -> dict[str, Any]:
        """Send one step and return its JSON answer."""
        assert self.process.stdin is not None
        await self.process.stdin.send_all(text.encode() + b"\n")
        answer: dict[str, Any] = json.loads(await self.line())
        return answer

    async def listening_port(self, prefix: str, *, search: bool = False) -> int:
        """The port of the next line (``search``: of the first line) that starts with
        ``prefix`` and ends in ``:PORT`` (or ``:PORT/`` and a remark, a URL's)."""
        line = await self.line(START_SECONDS)
        while search and not line.startswith(prefix):
            line = await self.line(START_SECONDS)
        if not line.startswith(prefix):
            raise RuntimeError(f"{self.label} said {line!r}")
        address = line[len(prefix) :].split(" ", 1)[0].rstrip("/")
        return int(address.rsplit(":", 1)[1])

    async def stop(self, timeout: float = 20.0) -> int:
        """SIGINT (the server's orderly stop, and what lets cProfile write), then wait."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
        with trio.move_on_after(timeout):
            return await self.process.wait()
        self.process.kill()
        return await self.process.wait()


# --------------------------------------------------------------------------------------
# /proc
# --------------------------------------------------------------------------------------


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` in KiB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used so far, user plus system."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    # After the command name the fields start at the third one (state): utime and stime
    # are the 14th and 15th of the whole line.
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def run_queue_seconds(pid: int) -> float:
    """Time ``pid``'s main thread has spent ready to run but waiting for a CPU."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def machine_busy_seconds() -> float:
    """CPU time the whole machine has spent busy (every core, not idle or waiting)."""
    first = Path("/proc/stat").read_text().split("\n", 1)[0]
    fields = [int(value) for value in first.split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")  # up to steal, no guests


@dataclass
class CpuWindow:
    """CPU shares over one measured window, in percent of one core."""

    server: float
    drivers: float
    machine: float
    """Every process on the machine: what is neither server nor drivers is other load."""
    server_waiting: float
    """Time the server was ready to run but had no CPU: high means other load held it back."""


async def measured_window(
    drivers: list[Child], target_pid: int, pace: str, warmup: float, seconds: float
) -> tuple[list[dict[str, Any]], CpuWindow]:
    """Run every driver for one window and read the CPU used inside it."""
    answers: list[dict[str, Any]] = [{} for _ in drivers]

    async def run_one(index: int, driver: Child) -> None:
        answers[index] = await driver.step(f"run {pace} {warmup} {seconds}")

    async with trio.open_nursery() as nursery:
        for index, driver in enumerate(drivers):
            nursery.start_soon(run_one, index, driver)
        await trio.sleep(warmup)
        start = trio.current_time()
        server_before = cpu_seconds(target_pid)
        drivers_before = sum(cpu_seconds(driver.pid) for driver in drivers)
        machine_before = machine_busy_seconds()
        waiting_before = run_queue_seconds(target_pid)
        await trio.sleep(seconds)
        wall = trio.current_time() - start
        server_used = cpu_seconds(target_pid) - server_before
        drivers_used = sum(cpu_seconds(driver.pid) for driver in drivers) - drivers_before
        machine_used = machine_busy_seconds() - machine_before
        waited = run_queue_seconds(target_pid) - waiting_before
    shares = CpuWindow(
        100 * server_used / wall,
        100 * drivers_used / wall,
        100 * machine_used / wall,
        100 * waited / wall,
    )
    return answers, shares


async def all_steps(drivers: list[Child], step: str) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = [{} for _ in drivers]

    async def one(index: int, driver: Child) -> None:
        answers[index] = await driver.step(step)

    async with trio.open_nursery() as nursery:
        for index, driver in enumerate(drivers):
            nursery.start_soon(one, index, driver)
    return answers


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclass
class Window:
    """One measured window summed over the drivers."""

    actions_per_s: float
    p50_ms: float
    p99_ms: float
    reply_p50_ms: float
    samples: int
    errors: int
    notes: list[str]
    cpu: CpuWindow

    def cpu_ms_per_action(self) -> float | None:
        """Server CPU per action: the figure that holds when other load shares the cores."""
        if not self.actions_per_s:
            return None
        return round(10 * self.cpu.server / self.actions_per_s, 3)

    @classmethod
    def merge(cls, answers: list[dict[str, Any]], cpu: CpuWindow) -> Window:
        latencies = [value for answer in answers for value in answer["latencies_ms"]]
        replies = [value for answer in answers for value in answer["reply_ms"]]
        seconds = max(answer["seconds"] for answer in answers)
        errors = sum(
            answer["rejections"] + answer["stalls"] + answer["closed"] for answer in answers
        )
        notes = [note for answer in answers for note in answer["notes"] + answer["server_errors"]]
        return cls(
            actions_per_s=sum(answer["actions"] for answer in answers) / seconds,
            p50_ms=percentile(latencies, 0.50),
            p99_ms=percentile(latencies, 0.99),
            reply_p50_ms=percentile(replies, 0.50),
            samples=len(latencies),
            errors=errors,
            notes=notes[:20],
            cpu=cpu,
        )


def hot_spots(profile_path: Path, count: int) -> list[dict[str, Any]]:
    """The ``count`` functions with the most own time in a cProfile dump."""
    stats = pstats.Stats(str(profile_path))
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = []
    for (filename, line, function), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append((own, cumulative, calls, f"{_short(filename)}:{line}({function})"))
    rows.sort(reverse=True)
    return [
        {
            "function": where,
            "own_s": round(own, 3),
            "own_percent": round(100 * own / total, 1),
            "cumulative_s": round(cumulative, 3),
            "calls": calls,
        }
        for own, cumulative, calls, where in rows[:count]
    ]


def _short(filename: str) -> str:
    """A path relative to the repository or to site-packages, for the report."""
    for anchor in (str(ROOT) + os.sep, "site-packages" + os.sep, "lib" + os.sep + "python3"):
        if anchor in filename:
            return filename.split(anchor, 1)[1]
    return filename


# --------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------


def driver_command(
    args: argparse.Namespace, port: int, mode: str, index: int, *, websocket: bool = False
) -> list[str]:
    share = args.tables // args.drivers + (1 if index < args.tables % args.drivers else 0)
    return [
        sys.executable,
        str(BENCH / "load_driver.py"),
        "--port",
        str(port),
        "--mode",
        mode,
        "--tables",
        str(share),
        "--seats",
        str(args.seats),
        "--index",
        str(index),
        "--seed",
        str(args.seed + index),
        *(["--websocket"] if websocket else []),
    ]


def server_command(args: argparse.Namespace) -> list[str]:
    # With --websocket a second set of the same tables plays over the web port.
    connections = args.tables * args.seats * (2 if args.websocket else 1)
    # Every driver connects from 127.0.0.1, and the server keeps the last eighth of its
    # slots for addresses not yet connected: the cap leaves room for all of them anyway.
    cap = (connections + 64) * 8 // 7 + 8
    prefix = [sys.executable]
    if args.profile:
        prefix += ["-m", "cProfile", "-o", str(args.profile)]
    return [
        *prefix,
        "-m",
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--no-mdns",
        "--seed",
        str(args.seed),
        "--max-connections",
        str(cap),
        "--max-per-address",
        str(connections + 64),
        "--max-tables",
        str(table_cap(args)),
        *per_address_tables(args),
        *journal_flags(args),
        "--log-level",
        args.log_level,
    ]


def journal_flags(args: argparse.Namespace) -> list[str]:
    """The journal on (a fresh file of the run's own) or off (``--no-journal``). A server
    tree from before the journal has neither flag and keeps everything in memory."""
    if not (args.server_tree / "server" / "journal.py").exists():
        return []
    if not args.journal:
        return ["--no-state"]
    return ["--state", str(Path(tempfile.mkdtemp(prefix="uno-bench-")) / "bench.sqlite3")]


def per_address_tables(args: argparse.Namespace) -> list[str]:
    """Every driver connects from 127.0.0.1, so that one address makes all the tables. A
    server tree from before the per-address quota has no such flag (``--server-tree``)."""
    settings = args.server_tree / "server" / "settings.py"
    if "max_tables_per_address" not in settings.read_text(encoding="utf-8"):
        return []
    return ["--max-tables-per-address", str(table_cap(args))]


def table_cap(args: argparse.Namespace) -> int:
    """Tables the run opens, the WebSocket twins (``--websocket``) included, and room."""
    return int(args.tables) * (2 if args.websocket else 1) + 16


def cpu_plan(args: argparse.Namespace) -> tuple[set[int] | None, set[int] | None]:
    """The CPUs of (the process under load, the drivers): with ``--pin``, the last CPU for
    the echo or the server and the others for the load; None leaves the kernel to place
    them. The drivers stand in for players on machines of their own; pinned, they cannot
    take the server's core in the middle of a move."""
    cpus = sorted(os.sched_getaffinity(0))
    if not args.pin or len(cpus) < 2:
        return None, None
    return {cpus[-1]}, set(cpus[:-1])


async def start_drivers(
    args: argparse.Namespace,
    port: int,
    mode: str,
    logs: Path,
    started: list[Child],
    *,
    websocket: bool = False,
) -> list[Child]:
    """Start the drivers of one target; each is added to ``started`` at once, to be stopped
    whatever happens next. ``websocket`` drivers connect to the web port ``port``."""
    drivers = []
    label = "websocket" if websocket else mode
    for index in range(args.drivers):
        driver = await Child.start(
            driver_command(args, port, mode, index, websocket=websocket),
            f"{label} driver {index}",
            logs / f"{label}-driver-{index}.log",
            priority=args.priority,
            cpus=cpu_plan(args)[1],
        )
        started.append(driver)
        drivers.append(driver)
    return drivers


def pooled(rounds: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each driver's answers to several windows, summed as if to one long window."""
    drivers = []
    for answers in zip(*rounds, strict=True):
        drivers.append(
            {
                "seconds": sum(answer["seconds"] for answer in answers),
                "actions": sum(answer["actions"] for answer in answers),
                "latencies_ms": [v for answer in answers for v in answer["latencies_ms"]],
                "reply_ms": [v for answer in answers for v in answer["reply_ms"]],
                "rejections": sum(answer["rejections"] for answer in answers),
                "stalls": sum(answer["stalls"] for answer in answers),
                "closed": answers[-1]["closed"],  # connections closed by the end
                "server_errors": [e for answer in answers for e in answer["server_errors"]],
                "notes": [note for answer in answers for note in answer["notes"]],
            }
        )
    return drivers


def mean_cpu(windows: list[CpuWindow]) -> CpuWindow:
    """The CPU shares of windows of equal length, over all of them."""
    count = len(windows)
    return CpuWindow(
        sum(w.server for w in windows) / count,
        sum(w.drivers for w in windows) / count,
        sum(w.machine for w in windows) / count,
        sum(w.server_waiting for w in windows) / count,
    )


@dataclass
class Target:
    """A process under load (the echo or the server) and the drivers loading it."""

    child: Child
    drivers: list[Child]
    port: int

    async def window(self, pace: str, warmup: float, seconds: float) -> Window:
        return Window.merge(
            *await measured_window(self.drivers, self.child.pid, pace, warmup, seconds)
        )


async def paced_in_turn(
    echo: Target, server: Target, args: argparse.Namespace, websocket: Target | None = None
) -> tuple[Window, Window, list[float | None], Window | None]:
    """Paced load on the echo and on the server in turn, ``args.rounds`` times.

    A shared machine changes speed over a minute (other guests, clock, caches), which
    would tilt the ratio of two figures taken one after the other. Taken in alternating
    rounds, both see the same spells. Returns the pooled (echo, server) windows and the
    ratio of the p50s round by round, to show how steady it is; and, with ``websocket``
    (the same tables' twins, played over the web port), its pooled window, taken in turn
    with the other two.
    """
    names = ["echo", "server"] + (["websocket"] if websocket else [])
    rounds: dict[str, list[list[dict[str, Any]]]] = {name: [] for name in names}
    shares: dict[str, list[CpuWindow]] = {name: [] for name in names}
    ratios: list[float | None] = []
    turns: list[tuple[str, Target, float]] = [
        ("echo", echo, args.echo_seconds),
        ("server", server, args.seconds),
    ]
    if websocket is not None:
        turns.append(("websocket", websocket, args.seconds))
    for _ in range(args.rounds):
        p50s = {}
        for name, target, seconds in turns:
            answers, cpu = await measured_window(
                target.drivers, target.child.pid, "paced", args.warmup, seconds / args.rounds
            )
            rounds[name].append(answers)
            shares[name].append(cpu)
            p50s[name] = Window.merge(answers, cpu).p50_ms
        ratios.append(round(p50s["server"] / p50s["echo"], 2) if p50s["echo"] else None)
    echo_window, server_window, *more = (
        Window.merge(pooled(rounds[name]), mean_cpu(shares[name])) for name in names
    )
    return echo_window, server_window, ratios, (more[0] if more else None)


async def start_target(
    command: list[str],
    *,
    label: str,
    listening: str,
    mode: str,
    args: argparse.Namespace,
    logs: Path,
    started: list[Child],
    cwd: Path = ROOT,
) -> Target:
    """Start ``command`` (the echo or the server) and its drivers (not yet connected); each
    process is added to ``started`` as soon as it runs."""
    child = await Child.start(
        command,
        label,
        logs / f"{mode}.log",
        priority=args.priority,
        cpus=cpu_plan(args)[0],
        cwd=cwd,
    )
    started.append(child)
    port = await child.listening_port(listening)
    return Target(child, await start_drivers(args, port, mode, logs, started), port)


async def seat_hard_tables(port: int, count: int) -> None:
    """``count`` more tables, each of three ``hard`` server bots and one ``normal``, playing
    inside the server at its own bot pace while the drivers measure (``--hard-tables``).

    Each is made by a short-lived connection that creates it, seats the bots, starts the
    match and leaves: the seat it gives up goes to a server bot of the default level.
    """
    for index in range(count):
        name = f"hard-host-{index}"
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        host = Client(stream, name)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.read_forever)
            await host.send({"type": "hello", "versions": ["1.2"], "name": name})
            await host.welcomed.wait()
            options = {"seats": 4, "target_score": 100_000}
            create = {"type": "create-table", "name": f"hard bots {index}", "options": options}
            seat_bot = {"type": "add-bot", "strategy": "hard"}
            for message in (create, seat_bot, seat_bot, seat_bot, {"type": "start"}):
                reply = await host.request(message)
                if reply.get("type") != "ok":
                    raise RuntimeError(f"{message['type']} refused: {reply}")
            await host.request({"type": "leave"})
            await stream.aclose()


async def benchmark(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="uno-bench-") as tmp:
        logs = Path(tmp)
        started: list[Child] = []
        status: int | None = None
        try:
            echo = await start_target(
                [sys.executable, str(BENCH / "echo.py"), "--port", "0"],
                label="echo",
                listening=ECHO_LISTENING,
                mode="echo",
                args=args,
                logs=logs,
                started=started,
            )
            await all_steps(echo.drivers, "connect")
            await all_steps(echo.drivers, "seat")

            # ``python -m server`` imports from its working directory first: --server-tree
            # runs another copy of the code (an A/B comparison) under the same load.
            server = await start_target(
                server_command(args),
                label="uno-server",
                listening=LISTENING,
                mode="game",
                args=args,
                logs=logs,
                started=started,
                cwd=args.server_tree,
            )
            # cProfile runs the server in the same process: the pid is the server's.
            rss_idle = rss_kib(server.child.pid)
            setup_start = trio.current_time()
            answers = await all_steps(server.drivers, "connect")
            connected = sum(answer["connected"] for answer in answers)
            rss_connected = rss_kib(server.child.pid)
            await all_steps(server.drivers, "seat")
            setup_seconds = trio.current_time() - setup_start
            rss_seated = rss_kib(server.child.pid)
            await seat_hard_tables(server.port, args.hard_tables)
            websocket: Target | None = None
            if args.websocket:
                web_port = await server.child.listening_port(PAGE, search=True)
                drivers = await start_drivers(args, web_port, "game", logs, started, websocket=True)
                websocket = Target(server.child, drivers, web_port)
                await all_steps(websocket.drivers, "connect")
                await all_steps(websocket.drivers, "seat")

            echo_paced, paced, round_ratios, ws_paced = await paced_in_turn(
                echo, server, args, websocket
            )
            echo_saturated = await echo.window("saturate", args.warmup, args.echo_seconds)
            saturated = await server.window("saturate", args.warmup, args.saturation_seconds)
            rss_after = rss_kib(server.child.pid)
            for target in (echo, server, *([websocket] if websocket else [])):
                await all_steps(target.drivers, "quit")
        finally:
            # Drivers were started after their target: stopped before it.
            for child in reversed(started):
                stopped = await child.stop()
                if child.label == "uno-server":
                    status = stopped
        server_log = (logs / "game.log").read_text(errors="replace")
    tracebacks = server_log.count("Traceback")
    result: dict[str, Any] = {
        "connections": connected,
        "tables": args.tables,
        "seats": args.seats,
        "hard_bot_tables": args.hard_tables,
        "drivers": args.drivers,
        "cores": os.cpu_count(),
        "setup_seconds": round(setup_seconds, 2),
        "paced_actions_per_s": round(paced.actions_per_s, 1),
        "paced_p50_ms": round(paced.p50_ms, 3),
        "paced_p99_ms": round(paced.p99_ms, 3),
        "paced_reply_p50_ms": round(paced.reply_p50_ms, 3),
        "paced_server_cpu_percent": round(paced.cpu.server, 1),
        "paced_server_cpu_ms_per_action": paced.cpu_ms_per_action(),
        "saturation_actions_per_s": round(saturated.actions_per_s, 1),
        "saturation_p50_ms": round(saturated.p50_ms, 3),
        "saturation_p99_ms": round(saturated.p99_ms, 3),
        "saturation_server_cpu_percent": round(saturated.cpu.server, 1),
        "saturation_server_cpu_ms_per_action": saturated.cpu_ms_per_action(),
        "saturation_drivers_cpu_percent": round(saturated.cpu.drivers, 1),
        "paced_machine_cpu_percent": round(paced.cpu.machine, 1),
        "paced_server_waiting_for_cpu_percent": round(paced.cpu.server_waiting, 1),
        "saturation_server_waiting_for_cpu_percent": round(saturated.cpu.server_waiting, 1),
        "saturation_machine_cpu_percent": round(saturated.cpu.machine, 1),
        "echo_p50_ms": round(echo_paced.p50_ms, 3),
        "echo_p99_ms": round(echo_paced.p99_ms, 3),
        "echo_saturation_actions_per_s": round(echo_saturated.actions_per_s, 1),
        "echo_saturation_p50_ms": round(echo_saturated.p50_ms, 3),
        "p50_ratio_to_echo": round(paced.p50_ms / echo_paced.p50_ms, 2)
        if echo_paced.p50_ms
        else None,
        "p50_ratio_by_round": round_ratios,
        "rss_kib_idle": rss_idle,
        "rss_kib_per_connection": round((rss_connected - rss_idle) / max(1, connected), 1),
        "rss_kib_per_table": round((rss_seated - rss_connected) / args.tables, 1),
        "rss_kib_after_run": rss_after,
        "samples": {"paced": paced.samples, "saturation": saturated.samples},
        "errors": paced.errors
        + saturated.errors
        + echo_paced.errors
        + echo_saturated.errors
        + tracebacks
        + (0 if status == 0 else 1),
        "error_notes": paced.notes + saturated.notes + echo_paced.notes + echo_saturated.notes,
        "server_exit_status": status,
        "server_tracebacks": tracebacks,
        "profiled": bool(args.profile),
        "priority": args.priority,
        "cpus": {
            "under_load": sorted(cpu_plan(args)[0] or []),
            "drivers": sorted(cpu_plan(args)[1] or []),
        },
    }
    if ws_paced is not None:
        result.update(websocket_figures(ws_paced, paced))
        result["errors"] += ws_paced.errors
        result["error_notes"] += ws_paced.notes
    if args.profile:
        result["profile_top"] = hot_spots(Path(args.profile), args.top)
    return result


def websocket_figures(ws: Window, tcp: Window) -> dict[str, Any]:
    """The paced figures over the web port's WebSocket, and their ratios to TCP's."""
    return {
        "websocket_paced_actions_per_s": round(ws.actions_per_s, 1),
        "websocket_paced_p50_ms": round(ws.p50_ms, 3),
        "websocket_paced_p99_ms": round(ws.p99_ms, 3),
        "websocket_paced_server_cpu_ms_per_action": ws.cpu_ms_per_action(),
        "websocket_p50_ratio_to_tcp": round(ws.p50_ms / tcp.p50_ms, 2) if tcp.p50_ms else None,
        "websocket_p99_ratio_to_tcp": round(ws.p99_ms / tcp.p99_ms, 2) if tcp.p99_ms else None,
    }


def print_summary(result: dict[str, Any]) -> None:
    print(
        f"{result['connections']} connections ({result['tables']} tables x {result['seats']}), "
        f"{result['drivers']} driver processes, {result['cores']} cores; "
        f"set up in {result['setup_seconds']} s"
    )
    print(
        f"paced:      {result['paced_actions_per_s']:8.1f} actions/s  "
        f"p50 {result['paced_p50_ms']:.2f} ms  p99 {result['paced_p99_ms']:.2f} ms  "
        f"(reply, after every view: p50 {result['paced_reply_p50_ms']:.2f} ms)  "
        f"server CPU {result['paced_server_cpu_percent']}% "
        f"({result['paced_server_cpu_ms_per_action']} ms/action)  "
        f"machine CPU {result['paced_machine_cpu_percent']}%  "
        f"server waited for a CPU {result['paced_server_waiting_for_cpu_percent']}%"
    )
    print(
        f"saturation: {result['saturation_actions_per_s']:8.1f} actions/s  "
        f"p50 {result['saturation_p50_ms']:.2f} ms  p99 {result['saturation_p99_ms']:.2f} ms  "
        f"server CPU {result['saturation_server_cpu_percent']}% "
        f"({result['saturation_server_cpu_ms_per_action']} ms/action)  "
        f"drivers CPU {result['saturation_drivers_cpu_percent']}%  "
        f"machine CPU {result['saturation_machine_cpu_percent']}% of {100 * result['cores']}%  "
        f"server waited for a CPU {result['saturation_server_waiting_for_cpu_percent']}%"
    )
    print(
        f"echo floor: p50 {result['echo_p50_ms']:.2f} ms  p99 {result['echo_p99_ms']:.2f} ms  "
        f"(saturated {result['echo_saturation_actions_per_s']} round trips/s); "
        f"our p50 / echo p50 = {result['p50_ratio_to_echo']} "
        f"(round by round: {result['p50_ratio_by_round']})"
    )
    print(
        f"memory: idle {result['rss_kib_idle']} KiB, "
        f"{result['rss_kib_per_connection']} KiB per connection, "
        f"{result['rss_kib_per_table']} KiB per table, {result['rss_kib_after_run']} KiB after"
    )
    if "websocket_paced_p50_ms" in result:
        print(
            f"websocket:  {result['websocket_paced_actions_per_s']:8.1f} actions/s  "
            f"p50 {result['websocket_paced_p50_ms']:.2f} ms  "
            f"p99 {result['websocket_paced_p99_ms']:.2f} ms  "
            f"({result['websocket_paced_server_cpu_ms_per_action']} ms/action); "
            f"over TCP's: p50 x{result['websocket_p50_ratio_to_tcp']}, "
            f"p99 x{result['websocket_p99_ratio_to_tcp']}"
        )
    print(f"errors: {result['errors']}")
    for note in result["error_notes"]:
        print(f"  {note}")
    for row in result.get("profile_top", []):
        print(
            f"  {row['own_percent']:5.1f}% {row['own_s']:8.3f} s own "
            f"{row['cumulative_s']:8.3f} s cum {row['calls']:>9}  {row['function']}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="uno-server under 1,000 connections")
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--drivers", type=int, default=os.cpu_count() or 2)
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="paced seconds on the server, all rounds"
    )
    parser.add_argument("--saturation-seconds", type=float, default=15.0)
    parser.add_argument(
        "--echo-seconds",
        type=float,
        default=12.0,
        help="paced seconds on the echo, all rounds; and its saturated window",
    )
    parser.add_argument(
        "--rounds", type=int, default=4, help="paced windows taken in turn on echo and server"
    )
    parser.add_argument("--warmup", type=float, default=1.5, help="unmeasured lead-in")
    parser.add_argument(
        "--hard-tables",
        type=int,
        default=0,
        help="also this many tables of hard server bots, searching while the drivers measure "
        "(at most 16)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="INFO", help="the server's --log-level")
    parser.add_argument(
        "--server-tree",
        type=Path,
        default=ROOT,
        help="directory holding the server/ and protocol/ to run (default: this checkout)",
    )
    parser.add_argument(
        "--priority",
        type=int,
        default=0,
        help="nice value for the server, echo and drivers (e.g. -10 on a machine others "
        "share; below 0 needs root or CAP_SYS_NICE)",
    )
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the echo and the server on a CPU of their own, the drivers on the others "
        "(default; needs two CPUs)",
    )
    parser.add_argument(
        "--journal",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the server writes its journal (default, as uno-server does) or not (--no-state)",
    )
    parser.add_argument(
        "--websocket",
        action="store_true",
        help="also play the same number of tables over the web port's WebSocket, paced, in "
        "turn with the TCP windows, and compare",
    )
    parser.add_argument("--profile", type=Path, help="run the server under cProfile to PATH")
    parser.add_argument("--top", type=int, default=25, help="hot spots to report")
    args = parser.parse_args(argv)
    if not 0 <= args.hard_tables <= 16:
        parser.error("--hard-tables takes 0 to 16")
    result = trio.run(benchmark, args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_summary(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
