"""The figures the reliability suite measures: the server's memory, the long form's
switch, and where the numbers go.

``record`` prints one JSON line per figure set (``pytest -s`` shows them) and, when
``UNO_RELIABILITY_REPORT`` names a file, appends the same line there; docs/reliability.md
quotes those lines with the command that produced them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["SOAK", "record", "rss_kib"]

SOAK = os.environ.get("UNO_SOAK", "") not in ("", "0")
"""True for the long form (``UNO_SOAK=1``, what ``make soak`` sets)."""


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (``VmRSS`` of /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def record(test: str, **figures: Any) -> None:
    """Report ``figures`` measured by ``test`` (see the module docstring)."""
    line = json.dumps({"test": test, "soak": SOAK, **figures}, sort_keys=True, default=str)
    print(f"\nreliability figures: {line}", file=sys.stderr)
    target = os.environ.get("UNO_RELIABILITY_REPORT")
    if target:
        with Path(target).open("a", encoding="utf-8") as report:
            report.write(line + "\n")
