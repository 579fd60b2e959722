"""The server's garbage collection: the process's collector handed to a clock."""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import trio
import trio.testing

from server.memory import (
    FULL_SECONDS,
    YOUNG_SECONDS,
    collect_on_a_clock,
    take_over_collection,
)


@pytest.fixture
def collector_restored() -> Iterator[None]:
    was_enabled = gc.isenabled()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_taking_over_freezes_the_start_up_heap_and_stops_the_automatic_collector(
    collector_restored: None,
) -> None:
    assert gc.isenabled()
    take_over_collection()
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0


def test_the_clock_collects_the_younger_generations_often_and_all_rarely(
    collector_restored: None,
) -> None:
    gc.disable()  # as in the server: only the clock collects
    seen: list[tuple[float, int]] = []

    def record(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append((trio.current_time(), info["generation"]))

    span = FULL_SECONDS + YOUNG_SECONDS * 1.5

    async def main() -> None:
        gc.callbacks.append(record)
        try:
            with trio.move_on_after(span):
                await collect_on_a_clock()
        finally:
            gc.callbacks.remove(record)

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))

    generations = [generation for _, generation in seen]
    assert set(generations) == {1, 2}
    assert len(seen) == int(span / YOUNG_SECONDS)
    fulls = [at for at, generation in seen if generation == 2]
    assert len(fulls) == 1
    assert FULL_SECONDS <= fulls[0] < FULL_SECONDS + YOUNG_SECONDS
    gaps = {round(later - earlier, 6) for (earlier, _), (later, _) in itertools.pairwise(seen)}
    assert gaps == {YOUNG_SECONDS}
