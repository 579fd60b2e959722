"""The retention against a real journal file: what it keeps, what it drops, in steps of
a bounded size, and the space given back. Time is data: every clean is told ``now``."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from protocol.commands import Draw
from protocol.options import TableConfig
from server.journal import Journal
from server.ledger import DAY_SECONDS, standings_page
from server.retention import MATCHES_PER_STEP, Retention, RetentionError

NOW = time.time()
"""The cleaning's time; the standings count each match's day by the clock, so it is now."""
CONFIG = TableConfig(seats=2)
MOVES = 30


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    opened = Journal.open(tmp_path / "server.sqlite3")
    yield opened
    opened.close()


def play(
    journal: Journal, table_id: str, *, people: bool, days_ago: float = 0.0, moves: int = MOVES
) -> int:
    """A table that plays one match of ``moves`` commands, finished ``days_ago`` and
    closed; returns the match's id."""
    table = journal.for_table(table_id)
    table.opened(f"t{table_id}", CONFIG, None, "10.0.0.2")
    table.match_started(1, 1, 0, 1, CONFIG)
    for position in range(moves):
        table.command(position % 2, Draw(), position)
    name = "Ann" if people else "Bot 1"
    result = {"deck": "classic", "players": [{"name": name, "bot": not people, "score": 5}]}
    table.match_finished({**result, "winners": [name]}, people=people)
    table.closed()
    db = journal.connection
    db.execute(
        "UPDATE matches SET finished_at = ? WHERE table_id = ?",
        (NOW - days_ago * DAY_SECONDS, table_id),
    )
    return int(db.execute("SELECT max(match_id) FROM matches").fetchone()[0])


def clean(journal: Journal, retention: Retention, now: float = NOW) -> int:
    """Clean until nothing is left to do; the steps it took."""
    steps = 0
    while journal.clean(retention, now):
        steps += 1
        assert steps < 10_000
    return steps


def kept(journal: Journal) -> dict[int, int]:
    """Each finished match kept, by id, with the commands it still has."""
    rows = journal.connection.execute(
        "SELECT m.match_id, COUNT(c.position) FROM matches m LEFT JOIN commands c"
        " USING (table_id, number) WHERE m.result IS NOT NULL GROUP BY m.match_id"
    ).fetchall()
    return dict(rows)


def test_people_keep_their_results_a_year_and_the_latest_logs(journal: Journal) -> None:
    too_old = play(journal, "1", people=True, days_ago=401)
    year_old = play(journal, "2", people=True, days_ago=365)
    recent = [play(journal, str(n), people=True) for n in range(3, 3 + 1_002)]
    clean(journal, Retention())
    matches = kept(journal)
    assert too_old not in matches
    # 1,003 people's matches are left: the latest 1,000 keep their logs, the oldest 3
    # (the year-old one among them) only their results.
    assert matches[year_old] == 0
    assert [matches[n] for n in recent[:2]] == [0, 0]
    assert {matches[n] for n in recent[2:]} == {MOVES}
    assert len(matches) == 1_003


def test_bot_matches_are_kept_shortest_and_open_matches_whole(journal: Journal) -> None:
    open_table = journal.for_table("100")
    open_table.opened("open", CONFIG, None, "10.0.0.2")
    open_table.match_started(1, 1, 0, 1, CONFIG)
    open_table.command(0, Draw(), 5)
    old = play(journal, "1", people=False, days_ago=1.5)
    bots = [play(journal, str(n), people=False) for n in range(2, 12)]
    person = play(journal, "12", people=True, days_ago=300)
    clean(journal, Retention(bot_matches=4), now=NOW)
    assert kept(journal) == {**dict.fromkeys(bots[-4:], MOVES), person: MOVES}
    assert old not in kept(journal)
    (saved,) = journal.open_tables()[0]
    assert saved.table_id == "100" and saved.match is not None
    assert len(saved.match.commands) == 1
    # The tables of dropped matches are gone with their seats; the highest id stays.
    db = journal.connection
    tables = {row[0] for row in db.execute("SELECT table_id FROM tables")}
    assert tables == {"100", "12", *(str(n) for n in range(8, 12))}
    # The standings keep every match ever counted.
    board, _ = standings_page(db, week_of=None, offset=0, limit=-1)
    assert [(s.name, s.matches) for s in board] == [("Ann", 1), ("Bot 1", 11)]


def test_each_step_is_small_and_the_space_comes_back(journal: Journal) -> None:
    for n in range(1, 61):
        play(journal, str(n), people=False)
    db = journal.connection
    # Longer logs, written at once: each match's moves 30 times over.
    db.execute(
        "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 30)"
        " INSERT INTO commands SELECT c.table_id, c.number, c.position + 100 * k.n, c.actor,"
        " c.command, c.now_ms FROM commands c, k"
    )
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    before = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    assert journal.clean(Retention(bot_matches=0), NOW)
    after = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    assert before - after == MATCHES_PER_STEP
    steps = clean(journal, Retention(bot_matches=0))
    assert steps >= 60 // MATCHES_PER_STEP
    assert kept(journal) == {}
    assert db.execute("PRAGMA page_count").fetchone()[0] < pages
    assert db.execute("PRAGMA freelist_count").fetchone()[0] <= 256


def test_the_days_of_the_standings_are_kept_for_the_week(journal: Journal) -> None:
    play(journal, "1", people=True)
    db = journal.connection
    db.execute("UPDATE player_days SET day = day - 9")  # as if counted nine days ago
    play(journal, "2", people=True)
    now = time.time()  # the day match 2 was counted in (NOW may be yesterday's by now)
    clean(journal, Retention(), now)
    assert db.execute("SELECT COUNT(*) FROM player_days").fetchone() == (1,)
    week, _ = standings_page(db, week_of=now, offset=0, limit=-1)
    every, _ = standings_page(db, week_of=None, offset=0, limit=-1)
    assert [s.matches for s in week] == [1] and [s.matches for s in every] == [2]


def test_a_retention_below_the_minimums_is_refused() -> None:
    with pytest.raises(ValueError, match="a year"):
        Retention(people_days=300)
    with pytest.raises(ValueError, match="1,000"):
        Retention(people_logs=10)
    with pytest.raises(RetentionError, match="0 or more"):
        Retention(bot_matches=-1)


def test_a_match_a_closed_table_left_unfinished_goes_with_the_table(journal: Journal) -> None:
    for table_id in ("1", "2"):
        table = journal.for_table(table_id)
        table.opened("cut short", CONFIG, None, "10.0.0.2")
        table.match_started(1, 1, 0, 1, CONFIG)
        table.command(0, Draw(), 5)
    journal.for_table("1").closed()  # everyone left mid-match
    journal.for_table("3").opened("newest", CONFIG, None, "10.0.0.2")
    clean(journal, Retention())
    db = journal.connection
    assert db.execute("SELECT table_id FROM matches").fetchall() == [("2",)]
    assert db.execute("SELECT table_id FROM commands").fetchall() == [("2",)]
    assert {row[0] for row in db.execute("SELECT table_id FROM tables")} == {"2", "3"}


def test_a_step_the_file_refuses_is_left_for_the_next_round(
    journal: Journal, tmp_path: Path
) -> None:
    bots = [play(journal, str(n), people=False) for n in range(1, 8)]
    other = sqlite3.connect(str(tmp_path / "server.sqlite3"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the file: the step is busy
    try:
        assert journal.clean(Retention(bot_matches=2), NOW) is False
        assert set(kept(journal)) == set(bots)
    finally:
        other.execute("ROLLBACK")
        other.close()
    clean(journal, Retention(bot_matches=2))
    assert set(kept(journal)) == set(bots[-2:])
