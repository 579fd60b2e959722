"""The server's garbage collection: on a clock while it serves, and in full after tables close.

A server holds a steady population that it keeps replacing: each connection's waiting
coroutines, the recent events of every table. CPython starts a collection when more
objects have been allocated than freed since the last one, and a server that frees an
old object for each new one rarely crosses that line; meanwhile every object created
since the last collection waits in the youngest generation, and the one collection that
finally comes walks all of them, with the loop stopped. So the server turns the automatic
collector off and collects on a clock instead (``collect_on_a_clock``): the two younger
generations every ``YOUNG_SECONDS``, which keeps each pause as short as the objects made
in that time, whatever the load, and everything every ``FULL_SECONDS``
(docs/performance.md, "Collecting on a clock", has the figures).

A closed table's objects refer to each other (the table, its parts and their callbacks),
so they are freed only by the garbage collector's full pass, which CPython runs rarely:
over an evening of tables made and closed, the dead tables piled up between passes and
the heap grew to hold them (docs/reliability.md, "Guests on an evening"). So a full
collection runs after tables close, and the next table reuses the memory. The lobby
asks once tables have stopped closing for a moment, so a burst of closes costs one pass,
and a server shutting down none.

CPython returns freed objects to its allocator, and glibc's ``malloc`` keeps freed pages
in the process's heap for later. After a long evening's tables close, that is memory a
laptop host never sees again. ``malloc_trim(0)`` asks glibc to return what it can. Other
C libraries (macOS, Windows, musl) either return memory by themselves or have no such
call, so there this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
from collections.abc import Callable
from functools import cache

import trio

__all__ = [
    "FULL_SECONDS",
    "QUIET_SECONDS",
    "YOUNG_SECONDS",
    "collect_after_closes",
    "collect_on_a_clock",
    "give_back_memory",
    "take_over_collection",
]

YOUNG_SECONDS = 0.1
"""How often the clock collects the two younger generations: what survives goes to the
oldest, so each object is walked once on its way there."""

FULL_SECONDS = 300.0
"""How often the clock collects everything, for cycles that lived long before dying."""

QUIET_SECONDS = 0.5
"""How long no table must have closed before the memory the closed ones held is
collected (``collect_after_closes``); at most ten times this in a steady stream."""


def take_over_collection() -> None:
    """Turn CPython's automatic collector off for this process, after one full collection
    and a freeze: what exists after start-up (modules, classes, configuration) is moved out
    of the collector's sight for good. ``collect_on_a_clock`` does the collecting from then on."""
    gc.collect()
    gc.freeze()
    gc.disable()


async def collect_on_a_clock() -> None:
    """Collect on the clock ``take_over_collection`` leaves to the server: the two younger
    generations every ``YOUNG_SECONDS``, everything every ``FULL_SECONDS``. Runs until
    cancelled."""
    full_at = trio.current_time() + FULL_SECONDS
    while True:
        await trio.sleep(YOUNG_SECONDS)
        if trio.current_time() >= full_at:
            gc.collect()
            full_at = trio.current_time() + FULL_SECONDS
        else:
            gc.collect(1)


async def collect_after_closes(
    closed: trio.MemoryReceiveChannel[str], report: Callable[[str], None]
) -> None:
    """For each burst of table ids on ``closed`` (tables that have closed), once none has
    come for ``QUIET_SECONDS``: ``give_back_memory``, then ``report`` the last id."""
    async for table_id in closed:
        last = table_id
        latest = trio.current_time() + QUIET_SECONDS * 10
        while True:
            with trio.move_on_at(min(trio.current_time() + QUIET_SECONDS, latest)) as quiet:
                last = await closed.receive()
            if quiet.cancelled_caught:
                break
        give_back_memory()
        report(last)


def give_back_memory() -> bool:
    """Free what no longer has a reference from outside (a closed table), then return
    the heap's free pages to the system where the C library allows; True if it was asked."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    return trim
