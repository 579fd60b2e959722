"""What a table's replay log holds in memory: the round being played, up to
``MAX_STRETCH_EVENTS`` events (``server/table/replay_log.py``).

Random four-seat matches are played on the engine (the engine tests' ``random_play``)
until the log's cap of events has been numbered, each as the table numbers it; the events'
memory is then measured with ``tracemalloc`` (the log holds the same objects the table's
broadcast history does: this is what holding a long round costs at most). It measures and
prints; it asserts nothing.

    .venv/bin/python tests/bench/replay_memory.py
"""

from __future__ import annotations

import random
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if entry != str(ROOT))]
sys.path.insert(1, str(ROOT / "tests" / "engine"))

from engine_rig import random_play  # noqa: E402

from protocol.options import TableConfig  # noqa: E402
from server.engine import Match  # noqa: E402
from server.table.history import NumberedEvent  # noqa: E402
from server.table.replay_log import MAX_STRETCH_EVENTS  # noqa: E402


def held_events(count: int, seed: int = 1) -> list[NumberedEvent]:
    """``count`` events of random four-seat matches, numbered as a table numbers them."""
    rng = random.Random(seed)
    held: list[NumberedEvent] = []
    while len(held) < count:
        match = Match(TableConfig(seats=4, turn_seconds=0), rng.randrange(2**32))
        for _, events in random_play(match, rng, steps=4000, catches=0.03, off_turn=0.08):
            for event in events:
                held.append(NumberedEvent(len(held) + 1, event, None, None))
    return held[:count]


def main() -> None:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    held = held_events(MAX_STRETCH_EVENTS)
    after = tracemalloc.take_snapshot()
    # The match objects are gone by now; what is left beside the list is the events.
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    print(f"{len(held)} events held: {size / 1e6:.2f} MB, {size / len(held):.0f} bytes an event")


if __name__ == "__main__":
    main()
