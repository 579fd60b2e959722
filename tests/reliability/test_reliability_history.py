"""The history against hostile guests (issue 23): a real ``uno-server`` whose journal holds
a long history, asked for it over and over from a guest's address while an honest table
(two people from two more addresses and a bot) plays.

1. Standings and match lists: 40 ``get-standings`` in one write, then 10 a second, each
   answered from the standings kept as matches finish (read in a worker thread), while
   the honest table plays on; the answers are the history's real standings.
2. A bounded journal: guest tables of bots only make and finish matches as fast as they
   can; with a short retention the file stops growing, and the people's standings stay
   right. ``UNO_SOAK=1`` runs the hour of that load and reports the file's size and the
   server's memory over time.

Figures go to ``reliability_figures.record`` (docs/reliability.md quotes them).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import trio
from e2e_client import FAST_OPTIONS, Hub, drive
from e2e_server import ServerProcess
from reliability_figures import SOAK, record
from reliability_guests import (
    HONEST,
    RssWatch,
    TimedPlayer,
    attacker,
    connect_from,
    honest_table,
    latency_ms,
    play,
)
from reliability_history import bot_table_loop, journal_bytes, kept_matches, seed_history

from protocol.messages import (
    AddBot,
    CreateTable,
    GetStandings,
    Join,
    ListMatches,
    MatchList,
    Ok,
    Standings,
    StandingsPeriod,
    Start,
)
from protocol.options import TableOptions
from server.retention import MATCHES_PER_STEP

QUIET_PINGS = ("--ping-seconds", "7200", "--idle-seconds", "14400")
"""No ping in a run: the test's clients send from two tasks (requests, and the pongs
their readers would send), which one stream does not allow at once."""
HISTORY = 30_000
"""Finished matches in the journal: a few hostile hours' worth (about 9 a second)."""
BURST = 40
PACED = 10
"""Requests a second after the burst, for ``PACED_SECONDS``."""
PACED_SECONDS = 3
HONEST_MOVES = 3_000
"""At most: the honest table plays until the questions are over (or its match ends)."""


async def _ask(guest: TimedPlayer, requests: list[GetStandings]) -> list[float]:
    """Send ``requests`` in one write; the seconds from the write to each one's ``ok``."""
    began = trio.current_time()
    await guest.stream.send_all(b"".join(guest.conn.send(request) for request in requests))
    times = []
    for request in requests:
        await guest.hub.until(lambda r=request: r.id in guest.replies or guest.closed)  # type: ignore[misc]
        times.append(trio.current_time() - began)
        reply = guest.replies.pop(request.id, None)
        assert isinstance(reply, Ok), (reply, guest.error)
    return times


def _standings(guest: TimedPlayer, period: StandingsPeriod) -> list[Standings]:
    return [f for f in guest.frames if isinstance(f, Standings) and f.period is period]


async def test_standings_asked_over_and_over_never_hold_up_a_table(tmp_path: Path) -> None:
    state = tmp_path / "server.sqlite3"
    expected = seed_history(state, HISTORY, time.time(), random.Random(23))
    began = time.monotonic()
    server = ServerProcess.start(tmp_path, *QUIET_PINGS, "--log-level", "INFO", state=state)
    start_seconds = time.monotonic() - began
    watch = RssWatch(server.process.pid)
    figures: dict[str, object] = {}
    try:
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(watch.run)
                people = await honest_table(server.port, nursery)
                guest = await connect_from(server.port, attacker(0), "curious")
                nursery.start_soon(guest.read_forever)
                done = trio.Event()
                asked = trio.Event()

                async def honest_play() -> None:
                    await drive(
                        people,
                        lambda: (
                            asked.is_set()
                            or sum(len(p.latencies) for p in people) >= HONEST_MOVES
                            or people[0].match_over
                        ),
                        random.Random(1),
                    )
                    done.set()

                nursery.start_soon(honest_play)
                periods = [StandingsPeriod.ALL, StandingsPeriod.WEEK]
                burst = [
                    GetStandings(id=guest.conn.next_request_id(), period=periods[n % 2], limit=20)
                    for n in range(BURST)
                ]
                moves_before = sum(len(p.latencies) for p in people)
                burst_times = await _ask(guest, burst)
                paced_times: list[float] = []
                for n in range(PACED * PACED_SECONDS):
                    request = GetStandings(
                        id=guest.conn.next_request_id(), period=periods[n % 2], limit=100
                    )
                    paced_times += await _ask(guest, [request])
                    await trio.sleep(1 / PACED)
                # A list of matches, page after page, while the table still plays.
                first = await guest.request(lambda id_: ListMatches(id=id_, limit=50))
                second = await guest.request(
                    lambda id_: ListMatches(id=id_, cursor=_last_cursor(guest), limit=50)
                )
                assert isinstance(first, Ok) and isinstance(second, Ok)
                # The pair played while the guest asked (its match may end meanwhile).
                moves_during = sum(len(p.latencies) for p in people) - moves_before
                asked.set()
                await done.wait()
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    everything = _standings(guest, StandingsPeriod.ALL)
    assert len(everything) == BURST // 2 + PACED * PACED_SECONDS // 2
    # Every answer is the real standings: the people by wins, then points, as counted.
    best = sorted(expected.items(), key=lambda item: (-item[1][1], -item[1][2], item[0]))
    # The honest pair's own match may finish meanwhile: only the seeded players are checked.
    seeded = [s for s in everything[-1].players if not s.bot and s.name not in ("ann", "bob")]
    shown = [(s.name, (s.matches, s.wins, s.points)) for s in seeded]
    assert shown == best[: len(shown)] and len(shown) == len(expected)
    assert all(page.players == everything[0].players[:20] for page in everything[: BURST // 2])
    week = _standings(guest, StandingsPeriod.WEEK)[-1]
    assert 0 < sum(s.matches for s in week.players) < sum(s.matches for s in everything[-1].players)
    lists = [f for f in guest.frames if isinstance(f, MatchList)]
    ids = [m.match_id or 0 for page in lists for m in page.matches]
    assert 0 not in ids  # every 1.3 record names its match
    assert len(ids) == 100 and ids == sorted(ids, reverse=True) and len(set(ids)) == 100
    assert not guest.closed and not any(person.closed for person in people)
    assert [person.unexpected_rejections for person in people] == [[]] * len(people)
    assert moves_during > 0
    figures.update(
        history=HISTORY,
        start_and_migrate_seconds=round(start_seconds, 2),
        burst=BURST,
        burst_answered_ms=round(burst_times[-1] * 1000, 1),
        burst_ms_per_answer=round(burst_times[-1] * 1000 / BURST, 2),
        paced=PACED * PACED_SECONDS,
        paced_answer_ms_max=round(max(paced_times) * 1000, 1),
        paced_answer_ms_median=round(sorted(paced_times)[len(paced_times) // 2] * 1000, 2),
        honest=latency_ms(people),
        rss_kib={"start": watch.first, "peak": watch.peak},
    )
    record("history-standings", **figures)


def _last_cursor(guest: TimedPlayer) -> str | None:
    pages = [f for f in guest.frames if isinstance(f, MatchList)]
    return pages[-1].next_cursor


# --- 2. a bounded journal ----------------------------------------------------------------

BOT_TABLES = 8
BOT_ADDRESSES = 2
LOAD_SECONDS = 3600.0 if SOAK else 90.0
"""How long the bot tables play at most; the short form stops at ``LOAD_MATCHES``."""
SAMPLE_SECONDS = 60.0 if SOAK else 2.0
KEEP_BOT_MATCHES = 500 if SOAK else 10
"""The retention of the run: the product's default in the long form, a short one here so
that it is reached within seconds."""
LOAD_MATCHES = 10**9 if SOAK else 8 * KEEP_BOT_MATCHES
"""Matches the bot tables start before they stop (the long form plays the hour)."""
CLEAN_SECONDS = 30.0 if SOAK else 1.0


async def _honest_match(port: int, nursery: trio.Nursery) -> list[TimedPlayer]:
    """Ann and Bob, from two honest addresses, play one short match with a bot to its end."""
    hub = Hub()
    people = [await connect_from(port, HONEST[n], name, hub) for n, name in enumerate(NAMES)]
    for person in people:
        nursery.start_soon(person.read_forever)
    ann, bob = people
    options = {**FAST_OPTIONS, "seats": 3}
    created = await ann.ok(
        lambda id_: CreateTable(id=id_, name="short", options=TableOptions.parse(options))
    )
    await bob.ok(lambda id_: Join(id=id_, table_id=created["table_id"]))
    await ann.ok(lambda id_: AddBot(id=id_, strategy="basic"))
    await ann.ok(lambda id_: Start(id=id_))
    await hub.until(lambda: all(p.view is not None for p in people))
    await play(people, 10_000)
    await hub.until(lambda: all(p.match_over for p in people))
    return people


NAMES = ("ann", "bob")


async def test_bot_tables_playing_flat_out_leave_a_journal_that_stops_growing(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(
        tmp_path,
        *QUIET_PINGS,
        "--log-level",
        "INFO",
        "--keep-bot-matches",
        str(KEEP_BOT_MATCHES),
        "--clean-seconds",
        str(CLEAN_SECONDS),
    )
    assert server.state is not None
    state = server.state
    watch = RssWatch(server.process.pid)
    samples: list[tuple[float, int, int, int]] = []  # seconds, file, file + log, RSS KiB
    started = [0]
    try:
        with trio.fail_after(LOAD_SECONDS + 180):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(watch.run)
                began = trio.current_time()
                until = began + LOAD_SECONDS

                def keep_going() -> bool:
                    return trio.current_time() < until and started[0] < LOAD_MATCHES

                async def table(number: int) -> None:
                    source = attacker(1 + number % BOT_ADDRESSES)
                    await bot_table_loop(server.port, source, f"b{number}", keep_going, started)

                async def sample() -> None:
                    while True:
                        size = state.stat().st_size
                        samples.append(
                            (
                                trio.current_time() - began,
                                size,
                                journal_bytes(state),
                                watch.sample(),
                            )
                        )
                        await trio.sleep(SAMPLE_SECONDS)

                nursery.start_soon(sample)
                async with trio.open_nursery() as load:
                    for number in range(BOT_TABLES):
                        load.start_soon(table, number)
                    people = await _honest_match(server.port, nursery)
                await trio.sleep(CLEAN_SECONDS * 2)  # the last round of cleaning
                standings = await people[0].request(lambda id_: GetStandings(id=id_, limit=100))
                assert isinstance(standings, Ok)
                # The people's match was among the first: page back until it is listed
                # (in the hour's form, hundreds of bot matches came after it).
                cursor: str | None = None
                for _ in range(20):
                    page = await people[0].request(
                        lambda id_, c=cursor: ListMatches(id=id_, cursor=c, limit=50)  # type: ignore[misc]
                    )
                    assert isinstance(page, Ok)
                    listing = [f for f in people[0].frames if isinstance(f, MatchList)][-1]
                    cursor = listing.next_cursor
                    if cursor is None or any(
                        {p.name for p in m.players} >= set(NAMES) for m in listing.matches
                    ):
                        break
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    kept = kept_matches(state)
    # The figures are written before the checks, so a failed check still leaves them.
    half = len(samples) // 2
    first_half = max(size for _, size, _, _ in samples[:half])
    second_half = max(size for _, size, _, _ in samples[half:])
    record(
        "history-bounded-journal",
        bot_tables=BOT_TABLES,
        max_seconds=LOAD_SECONDS,
        keep_bot_matches=KEEP_BOT_MATCHES,
        matches_started=started[0],
        honest=latency_ms(people),
        load_seconds=round(samples[-1][0]),
        kept=kept,
        file_kib_first_half_max=first_half // 1024,
        file_kib_second_half_max=second_half // 1024,
        samples=[
            {
                "s": round(at),
                "file_kib": size // 1024,
                "with_wal_kib": total // 1024,
                "rss_kib": rss,
            }
            for at, size, total, rss in samples
        ],
    )
    ann = people[0]
    # The people's standings: one match each, the winner's win counted, the match listed.
    (listed,) = [
        m
        for page in ann.frames
        if isinstance(page, MatchList)
        for m in page.matches
        if {p.name for p in m.players} >= set(NAMES)
    ]
    board = [f for f in ann.frames if isinstance(f, Standings)][-1]
    people_rows = {s.name: (s.matches, s.wins) for s in board.players if s.name in NAMES}
    winners = set(listed.winners)
    assert people_rows == {name: (1, int(name in winners)) for name in NAMES}
    bots_counted = sum(s.matches for s in board.players if s.bot)
    # Matches of bots only went past their retention, and the journal held to it.
    assert started[0] >= min(LOAD_MATCHES, 4 * KEEP_BOT_MATCHES), started
    assert bots_counted >= 3 * (started[0] - BOT_TABLES)  # three bots a match, all counted
    assert kept["people"] == 1
    assert kept["bots_only"] <= KEEP_BOT_MATCHES + 10 * MATCHES_PER_STEP, kept
    # Once the retention is reached the file stops growing: the second half of the run
    # never needs more than the first half's largest file, give or take a few pages.
    assert second_half <= first_half * 1.1 + 256 * 1024, samples
    if SOAK:
        assert second_half < 20 * 1024 * 1024, samples  # the target for the hour
