"""The standings the journal keeps as matches finish: people by name as the tables compare
names, bots apart, the week added up from days; and the match list's ids."""

from __future__ import annotations

from typing import Any

from protocol.options import TableConfig
from server.journal import Journal
from server.ledger import DAY_SECONDS, count_match, match_page, standings_page
from server.retention import Retention

TODAY = 20_000 * DAY_SECONDS + 3600.0
"""A Unix time an hour into a UTC day."""


def result(winner: str, *players: tuple[str, bool, int]) -> dict[str, Any]:
    return {
        "winners": [winner],
        "players": [{"name": name, "bot": bot, "score": score} for name, bot, score in players],
    }


def board(journal: Journal, week_of: float | None = None) -> list[tuple[Any, ...]]:
    page, more = standings_page(journal.connection, week_of=week_of, offset=0, limit=-1)
    assert not more
    return [(s.name, s.bot, s.matches, s.wins, s.points) for s in page]


def counted(*matches: tuple[float, dict[str, Any]]) -> Journal:
    journal = Journal.in_memory()
    db = journal.connection
    for at, match in matches:
        with db:
            db.execute("BEGIN")
            count_match(db, match, at)
    return journal


def test_names_that_read_alike_are_one_person_and_bots_are_apart() -> None:
    journal = counted(
        (TODAY - 9 * DAY_SECONDS, result("Ann", ("Ann", False, 500), ("Bot 1", True, 40))),
        # A Greek capital Beta reads as B, though its small form is no b: name-taken
        # refuses "\u0392ob" beside "Bob", so they are one person here too.
        (TODAY - 8 * DAY_SECONDS, result("Bob", ("Bob", False, 7), ("Bot 1", True, 0))),
        (TODAY - 2 * DAY_SECONDS, result("\u0392ob", ("\u0392ob", False, 510), ("Bot 1", True, 0))),
        (TODAY, result("Bot 1", ("ann", True, 10), ("Bot 1", True, 520))),
    )
    assert board(journal) == [
        ("\u0392ob", False, 2, 2, 517),
        ("Ann", False, 1, 1, 500),
        ("Bot 1", True, 4, 1, 560),
        ("ann", True, 1, 0, 10),
    ]
    # The week: today and the six days before, added up from the days kept.
    assert [(name, matches) for name, _, matches, _, _ in board(journal, TODAY)] == [
        ("\u0392ob", 1),
        ("Bot 1", 2),
        ("ann", 1),
    ]


def test_accents_keep_two_people_apart_and_case_does_not() -> None:
    journal = counted(
        (TODAY, result("Jos\u00e9", ("Jos\u00e9", False, 50), ("Jose", False, 0))),
        (TODAY, result("Ann", ("Ann", False, 20), ("Jose", False, 0))),
        (TODAY, result("ANN", ("ANN", False, 30), ("Jose", False, 0))),
    )
    assert board(journal) == [
        ("ANN", False, 2, 2, 50),
        ("Jos\u00e9", False, 1, 1, 50),
        ("Jose", False, 3, 0, 0),
    ]


def test_pages_follow_one_another_and_say_when_more_follow() -> None:
    journal = counted(
        *[(TODAY, result(f"p{n}", (f"p{n}", False, n), ("x", False, 0))) for n in range(5)]
    )
    db = journal.connection
    first, more = standings_page(db, week_of=None, offset=0, limit=4)
    rest, after = standings_page(db, week_of=TODAY, offset=4, limit=4)
    assert more and not after
    assert [s.name for s in first + rest] == ["p4", "p3", "p2", "p1", "p0", "x"]


def test_the_standings_outlive_the_match_records_the_retention_drops() -> None:
    journal = Journal.in_memory()
    table = journal.for_table("1")
    table.opened("Den", TableConfig(seats=2), None, "10.0.0.2")
    for number in (1, 2, 3):
        table.match_started(number, number, 0, 1, TableConfig(seats=2))
        table.match_finished(result("bot", ("bot", True, 9)), people=False)
    ids = [match["match_id"] for match in journal.history()]
    keep_one = Retention(bot_matches=1)
    while journal.clean(keep_one, now=TODAY):
        pass
    assert [match["match_id"] for match in journal.history()] == ids[:1]
    assert board(journal) == [("bot", True, 3, 3, 27)]
    # A cursor naming a match no longer kept still means "the matches before it".
    assert match_page(journal.connection, before=ids[0] + 1, limit=5)[0]["match_id"] == ids[0]
