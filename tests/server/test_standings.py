"""The standings count people by name as the tables compare names; bots apart."""

from __future__ import annotations

from server.standings import standings


def match(at: float, winner: str, *players: tuple[str, bool, int]) -> dict[str, object]:
    return {
        "finished_at": at,
        "winners": [winner],
        "players": [{"name": name, "bot": bot, "score": score} for name, bot, score in players],
    }


def test_names_that_read_alike_are_one_person_and_bots_are_apart() -> None:
    matches = [
        match(1.0, "Ann", ("Ann", False, 500), ("Bot 1", True, 40)),
        # A Greek capital Beta reads as B, though its small form is no b: name-taken
        # refuses "\u0392ob" beside "Bob", so they are one person here too.
        match(1.5, "Bob", ("Bob", False, 7), ("Bot 1", True, 0)),
        match(2.0, "\u0392ob", ("\u0392ob", False, 510), ("Bot 1", True, 0)),
        match(3.0, "Bot 1", ("ann", True, 10), ("Bot 1", True, 520)),
    ]
    board = standings(matches)
    assert [(s.name, s.bot, s.matches, s.wins, s.points) for s in board] == [
        ("\u0392ob", False, 2, 2, 517),
        ("Ann", False, 1, 1, 500),
        ("Bot 1", True, 4, 1, 560),
        ("ann", True, 1, 0, 10),
    ]
    assert [(s.name, s.matches) for s in standings(matches, since=1.8)] == [
        ("\u0392ob", 1),
        ("Bot 1", 2),
        ("ann", 1),
    ]
