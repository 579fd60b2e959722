"""Logs every garbage collection of each Python process started with this folder on
``PYTHONPATH`` and ``GC_PROBE_DIR`` set: one JSON line per collection in
``GC_PROBE_DIR/<pid>.jsonl`` (the generation, when it started (``time.perf_counter``), its
wall and thread-CPU milliseconds, what it freed), the process's command line first.
``summary.py`` beside it reads them. A measuring aid for ``docs/performance.md``
("Collecting on a clock"); nothing of the project imports it.

    GC_PROBE_DIR=/tmp/gc PYTHONPATH=$PWD/tests/bench/gc_probe \\
        .venv/bin/python tests/bench/server.py --json --websocket
    .venv/bin/python tests/bench/gc_probe/summary.py /tmp/gc
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

_FOLDER = os.environ.get("GC_PROBE_DIR")


def _install(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    log: TextIO = (folder / f"{os.getpid()}.jsonl").open("w", encoding="utf-8")
    log.write(json.dumps({"argv": sys.orig_argv}) + "\n")
    atexit.register(log.close)
    started: list[float] = [0.0, 0.0]

    def on_collection(phase: str, info: dict[str, Any]) -> None:
        if log.closed:  # the interpreter's last collections, after atexit
            return
        if phase == "start":
            started[:] = [time.perf_counter(), time.thread_time()]
            return
        wall, cpu = time.perf_counter() - started[0], time.thread_time() - started[1]
        line = {
            "generation": info["generation"],
            "at": round(started[0], 4),
            "wall_ms": round(wall * 1000, 3),
            "cpu_ms": round(cpu * 1000, 3),
            "collected": info["collected"],
        }
        log.write(json.dumps(line) + "\n")

    gc.callbacks.append(on_collection)


if _FOLDER:
    _install(Path(_FOLDER))
