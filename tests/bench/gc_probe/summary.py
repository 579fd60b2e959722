"""What ``sitecustomize.py`` logged, per process: its command, and for each generation the
number of collections, the longest (CPU and wall) and the CPU of them all.

    .venv/bin/python tests/bench/gc_probe/summary.py GC_PROBE_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def summary(folder: Path) -> list[str]:
    lines = []
    for log in sorted(folder.glob("*.jsonl")):
        rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        if not rows:
            continue
        command = " ".join(rows[0]["argv"][1:4])
        lines.append(f"{log.stem}: {command}")
        for generation in (0, 1, 2):
            mine = [row for row in rows[1:] if row["generation"] == generation]
            if not mine:
                continue
            longest = max(mine, key=lambda row: row["cpu_ms"])
            total = sum(row["cpu_ms"] for row in mine)
            lines.append(
                f"  generation {generation}: {len(mine)} collections, longest "
                f"{longest['cpu_ms']:.1f} ms CPU ({longest['wall_ms']:.1f} ms wall), "
                f"{total / 1000:.2f} s CPU in all"
            )
    return lines


if __name__ == "__main__":
    print("\n".join(summary(Path(sys.argv[1]))))
