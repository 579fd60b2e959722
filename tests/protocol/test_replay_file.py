"""The replay file (protocol.replay_file): the committed version-1 file still reads, a file
written back is the same file, and a file that is no replay gets a typed error naming its
line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from protocol.events import EventKind
from protocol.replay_file import REPLAY_FORMAT, ReplayFileError, read_replay, replay_lines

FIXTURE = Path(__file__).parent.parent / "fixtures" / "replay-v1.jsonl"
"""A party match of three people and a bot, written by ``uno-server replay`` (format 1)."""


def fixture_lines() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").splitlines()


def test_the_version_1_fixture_reads_to_its_final_scores() -> None:
    replay = read_replay(fixture_lines())
    assert [p.name for p in replay.players] == ["ann", "bob", "cy", "Bot 1"]
    assert replay.events[0].kind is EventKind.DEALER_CHOSEN
    assert [event.seq for event in replay.events] == list(range(1, len(replay.events) + 1))
    final = replay.events[-1].to_data()
    assert final["kind"] == "match-over"
    assert final["scores"] == [p.score for p in replay.players]
    rounds = replay.rounds()
    assert len(rounds) > 1 and rounds[-1].scores == tuple(final["scores"])
    assert all(len(done.hands) == 4 for done in rounds)
    assert replay.winners == tuple(replay.players[s].name for s in final["winners"])
    assert all(event.secret is None for event in replay.events)


def test_a_replay_written_back_is_the_same_file() -> None:
    lines = fixture_lines()
    assert list(replay_lines(read_replay(lines))) == lines


def test_an_unknown_header_field_is_kept() -> None:
    lines = fixture_lines()
    header = {**json.loads(lines[0]), "later": {"x": 1}}
    replay = read_replay([json.dumps(header), *lines[1:]])
    assert replay.extra == {"later": {"x": 1}}
    assert json.loads(next(replay_lines(replay)))["later"] == {"x": 1}


def test_the_deck_size_is_optional_in_version_1_and_kept_when_given() -> None:
    lines = fixture_lines()
    assert read_replay(lines).deck_size is None  # the first release's files have none
    given = broken(lines, 0, {"deck_size": 108})
    replay = read_replay(given)
    assert replay.deck_size == 108 and replay.extra == {}
    written = list(replay_lines(replay))
    assert json.loads(written[0]) == json.loads(given[0]) and written[1:] == lines[1:]


def test_a_players_stand_in_turns_are_optional_and_kept_when_given() -> None:
    lines = fixture_lines()
    assert [p.stand_in_turns for p in read_replay(lines).players] == [0, 0, 0, 0]
    players = json.loads(lines[0])["players"]
    players[1] = {**players[1], "stand_in_turns": 7}
    given = broken(lines, 0, {"players": players})
    replay = read_replay(given)
    assert [p.stand_in_turns for p in replay.players] == [0, 7, 0, 0]
    assert json.loads(next(replay_lines(replay))) == json.loads(given[0])
    players[1] = {**players[1], "stand_in_turns": -1}
    with pytest.raises(ReplayFileError, match="line 1: a bad header"):
        read_replay(broken(lines, 0, {"players": players}))


def broken(lines: list[str], index: int, change: dict[str, object]) -> list[str]:
    data = {**json.loads(lines[index]), **change}
    return [*lines[:index], json.dumps(data), *lines[index + 1 :]]


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda lines: [], "empty file"),
        (lambda lines: ["{not json", *lines[1:]], "line 1: not JSON"),
        (lambda lines: broken(lines, 0, {"format": "other"}), repr(REPLAY_FORMAT)),
        (lambda lines: broken(lines, 0, {"version": 2}), "replay version 2"),
        (lambda lines: broken(lines, 0, {"options": {"seats": 99}}), "line 1: a bad header"),
        (lambda lines: broken(lines, 3, {"kind": "played", "card": "XX"}), "line 4: not an event"),
        (lambda lines: broken(lines, 5, {"seq": 1}), "line 6: seq 1 out of order"),
        (lambda lines: [*lines[:2], "[1, 2]"], "line 3: not an event"),
        (lambda lines: broken(lines, 0, {"deck_size": 0}), "line 1: a bad header: deck_size"),
        (lambda lines: broken(lines, 0, {"deck_size": "108"}), "line 1: a bad header"),
        (lambda lines: broken(lines, 0, {"deck_size": True}), "line 1: a bad header"),
    ],
)
def test_a_file_that_is_no_replay_is_refused_by_line(make, says: str) -> None:
    with pytest.raises(ReplayFileError, match=says):
        read_replay(make(fixture_lines()))


def test_a_seats_secret_in_a_file_is_refused() -> None:
    lines = fixture_lines()
    drew = next(index for index, line in enumerate(lines) if json.loads(line).get("kind") == "drew")
    with pytest.raises(ReplayFileError, match="secret"):
        read_replay(broken(lines, drew, {"cards": ["R1"]}))
