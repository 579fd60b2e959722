"""Chaos: many tables whose people lose their connections at the worst moments and come
back with their tokens. Every seat resumes with its hand, no event number is skipped, the
cards add up in every view, no frame leaks a card, and every match finishes."""

from __future__ import annotations

import random
from pathlib import Path

import trio
from e2e_server import ServerProcess
from reliability_chaos import MOMENTS, WAYS, ChaosPlan, ChaosTable, cut_totals
from reliability_figures import SOAK, record, rss_kib

# Half the tables dance: a dance window needs a Dancing Wild, and only bts has them.
DECKS = ("bts", "classic", "bts", "minecraft", "bts", "modern-swap", "bts", "modern-shuffle")
TABLES = 128 if SOAK else 8
AT_ONCE = 8
PLAN = ChaosPlan(cuts_per_moment=6) if SOAK else ChaosPlan()


async def test_cut_connections_resume_with_their_hands_and_every_match_finishes(
    tmp_path: Path,
) -> None:
    # Every person connects from 127.0.0.1, and a cut connection may not be counted out
    # yet when its seat comes back: room for all of them at once, twice over.
    flags = ("--max-per-address", str(2 * 4 * AT_ONCE), "--log-level", "WARNING")
    server = ServerProcess.start(tmp_path, *flags)
    tables = [
        ChaosTable(
            server.port,
            f"t{number}",
            seats=3 + number % 2,
            options={"deck": DECKS[number % len(DECKS)]},
            rng=random.Random(number),
            plan=PLAN,
        )
        for number in range(TABLES)
    ]
    problems: list[str] = []
    finished: list[str] = []
    frames_checked = 0
    try:
        rss_before = rss_kib(server.process.pid)
        with trio.fail_after(3 * 3600 if SOAK else 120):
            limit = trio.CapacityLimiter(AT_ONCE)

            async def play(table: ChaosTable) -> None:
                nonlocal frames_checked
                async with limit:
                    await table.play()
                # Judge each table as it ends and let its frames go (the soak plays many).
                problems.extend(table.verdict())
                if table.over:
                    finished.append(table.name)
                frames_checked += table.frames_received()
                table.stories.clear()

            async with trio.open_nursery() as nursery:
                for table in tables:
                    nursery.start_soon(play, table)
        assert server.process.poll() is None, "the server died"
        rss_after = rss_kib(server.process.pid)
    finally:
        server.stop()
    moments, ways, via = cut_totals(tables)
    record(
        "chaos",
        tables=len(tables),
        matches_finished=len(finished),
        connections_cut=sum(moments.values()),
        cuts_by_moment=dict(moments),
        cuts_by_way=dict(ways),
        resumed_by=dict(via),
        commands=sum(table.commands for table in tables),
        frames_checked=frames_checked,
        leaks_and_other_problems=len(problems),
        rss_kib={"before": rss_before, "after": rss_after},
    )
    assert problems == [], "\n".join(problems[:30])
    assert len(finished) == len(tables)
    assert set(moments) == set(MOMENTS), moments
    assert set(ways) == set(WAYS), ways
