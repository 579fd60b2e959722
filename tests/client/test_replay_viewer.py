"""``uno-client --replay``'s parts without a terminal: the spectator view folded from a
replay's events, stepping (forward to the end, back then forward), the cursor's stops,
the viewer's keys, and a file that does not read (one line, exit status 2).

The committed version-1 fixture is the replay: a party match of seven rounds with 7-0
swaps, stacks and challenges (tests/fixtures/replay-v1.jsonl).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from client.replay_command import load_replay, watch
from client.ui.model import Model
from client.ui.reducer import apply
from client.ui.replay_app import ReplayViewer, help_lines
from client.ui.replay_cursor import SPEEDS, ReplayCursor
from client.ui.replay_state import ReplayTable, model_at, replay_table_state
from protocol.events import EventKind, MatchOver, RoundOver
from protocol.messages import GameEvent, TableStatus
from protocol.replay_file import Replay, ReplayFileError
from protocol.views import View

FIXTURE = Path(__file__).parents[1] / "fixtures" / "replay-v1.jsonl"


@pytest.fixture(scope="module")
def replay() -> Replay:
    return load_replay(FIXTURE)


def _shown(model: Model) -> tuple[list[str], View | None]:
    """What the screen reads from the model: the log and the view."""
    return list(model.log), model.view


def test_the_end_holds_the_final_scores_and_winners(replay: Replay) -> None:
    model = model_at(replay, len(replay.events))
    assert model.view is not None
    shared = model.view.shared
    assert list(shared.scores) == [player.score for player in replay.players]
    assert shared.match_result is not None
    winners = [replay.players[seat].name for seat in shared.match_result.winners]
    assert winners == list(replay.winners)
    assert model.table is not None and model.table.state is TableStatus.OVER
    assert model.spectating and model.replaying


def test_the_log_is_what_a_spectators_reducer_wrote(replay: Replay) -> None:
    """The live client's reducer fed the same events as ``event`` messages."""
    spectator = Model(name="watcher", connected=True)
    apply(spectator, replay_table_state(replay, TableStatus.PLAYING), 0.0)
    for event in replay.events:
        apply(spectator, GameEvent(seq=event.seq, body=event), 0.0)
    assert list(model_at(replay, len(replay.events)).log) == list(spectator.log)
    assert len(spectator.log) > 100


def test_hand_counts_match_every_rounds_revealed_hands(replay: Replay) -> None:
    """The fold counts cards from the events alone; each round's end shows the hands the
    server revealed, so the counts just before it must be their sizes."""
    checked = 0
    for index, event in enumerate(replay.events):
        if isinstance(event.body, RoundOver):
            view = model_at(replay, index).view
            assert view is not None
            assert list(view.shared.counts) == [len(hand) for hand in event.body.hands]
            after = model_at(replay, index + 1).view
            assert after is not None and after.shared.round_result == event.body
            checked += 1
    assert checked == len(replay.rounds()) == 7


def test_stepping_forward_one_event_at_a_time_equals_rebuilding(replay: Replay) -> None:
    table = ReplayTable(replay)
    for count in range(0, len(replay.events) + 1, 37):
        assert _shown(table.show(count)) == _shown(model_at(replay, count))
    assert _shown(table.show(len(replay.events))) == _shown(model_at(replay, len(replay.events)))


def test_back_then_forward_equals_forward(replay: Replay) -> None:
    rng = random.Random(28)
    table = ReplayTable(replay)
    for _ in range(25):
        here = rng.randrange(len(replay.events) + 1)
        back = rng.randrange(here + 1)
        table.show(here)
        table.show(back)
        assert _shown(table.show(here)) == _shown(model_at(replay, here))


def test_before_the_first_event_no_view_shows(replay: Replay) -> None:
    model = model_at(replay, 0)
    assert model.view is None and not model.log


def test_turn_and_round_stops(replay: Replay) -> None:
    cursor = ReplayCursor(replay)
    kinds = [event.kind for event in replay.events]
    cursor.next_turn()
    assert kinds[cursor.position - 1] is EventKind.TURN
    assert EventKind.TURN not in kinds[: cursor.position - 1]
    cursor.next_turn()
    second = cursor.position
    cursor.previous_turn()
    assert cursor.position < second and kinds[cursor.position - 1] is EventKind.TURN
    assert cursor.rounds == 7
    assert cursor.go_to_round(5) and cursor.round == 5
    assert kinds[cursor.position - 1] is EventKind.ROUND_STARTED
    cursor.step(3)
    cursor.previous_round()
    assert cursor.round == 5 and kinds[cursor.position - 1] is EventKind.ROUND_STARTED
    cursor.previous_round()
    assert cursor.round == 4
    cursor.next_round()
    assert cursor.round == 5
    assert not cursor.go_to_round(8) and not cursor.go_to_round(0)
    assert cursor.round == 5
    cursor.go_to_end()
    assert cursor.position == len(replay.events)
    cursor.step(1)
    assert cursor.position == len(replay.events)
    cursor.go_to_start()
    cursor.step(-1)
    assert cursor.position == 0


def test_play_steps_at_a_speed_and_pauses_at_the_end(replay: Replay) -> None:
    cursor = ReplayCursor(replay)
    cursor.tick()
    assert cursor.position == 0  # paused: a beat moves nothing
    cursor.toggle_play()
    cursor.tick()
    cursor.tick()
    assert cursor.position == 2 and cursor.playing
    for _ in range(10):
        cursor.faster()
    assert cursor.per_second == SPEEDS[-1]
    for _ in range(10):
        cursor.slower()
    assert cursor.per_second == SPEEDS[0]
    cursor.position = cursor.end - 1
    cursor.tick()
    assert cursor.position == cursor.end and not cursor.playing
    cursor.toggle_play()  # from the end: again from the start
    assert cursor.position == 0 and cursor.playing


def test_the_viewers_keys(replay: Replay) -> None:
    viewer = ReplayViewer(replay)
    assert viewer.model.shown_message.startswith("round 0 of 7 · event 0 of ")
    viewer.press("right")
    viewer.press("right")
    assert viewer.cursor.position == 2
    viewer.press("left")
    assert viewer.cursor.position == 1
    for key in ("3", "enter"):
        viewer.press(key)
    assert viewer.cursor.round == 3
    assert viewer.model.view is not None and viewer.model.view.shared.round == 3
    for key in ("1", "2", "enter"):
        viewer.press(key)
    assert viewer.model.shown_message == "no round 12: this match dealt 7"
    assert viewer.cursor.round == 3
    for key in ("4", "backspace", "5", "escape"):
        viewer.press(key)
    assert viewer.model.replay_keys.startswith("←→ event") and viewer.cursor.round == 3
    viewer.press("4")
    assert viewer.model.replay_keys.startswith("go to round: 4▏")
    viewer.press("backspace")  # nothing typed any more: the keys line is back
    assert viewer.model.replay_keys.startswith("←→ event")
    at = viewer.cursor.position
    viewer.tick()
    assert viewer.cursor.position == at  # paused: the beat moves nothing
    viewer.press(" ")
    viewer.tick()
    assert viewer.cursor.position == at + 1
    assert viewer.model.view is not None and viewer.model.view.shared.last_seq == (
        replay.events[at].seq
    )
    assert "playing at 2 events/s" in viewer.model.shown_message
    viewer.press("+")
    assert "playing at 4 events/s" in viewer.model.shown_message
    viewer.press("?")
    assert viewer.help
    viewer.press("escape")
    assert not viewer.help
    viewer.press("end")
    assert viewer.model.shown_message.startswith("round 7 of 7 · event ")
    assert viewer.model.phase is not None and viewer.model.view is not None
    assert isinstance(viewer.model.view.shared.match_result, MatchOver)
    assert viewer.press("q") is False


def test_the_help_page_fits(replay: Replay) -> None:
    for width, height in ((80, 24), (60, 20)):
        lines = help_lines(width, height)
        assert len(lines) <= height
        assert any("Space or p  play / pause" in "".join(f[1] for f in line) for line in lines)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "an empty file, not a replay"),
        (b'{"format": "something else"}\n', "line 1: not a replay"),
        (b"\xff\xfe\x00", "not UTF-8 text"),
        (FIXTURE.read_bytes()[:-20], "not JSON"),
    ],
)
def test_a_file_that_does_not_read_says_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, words: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(ReplayFileError, match=words):
        load_replay(path)
    assert watch(path) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"uno-client: cannot replay {path}: ")
    assert words in err


def test_a_missing_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert watch(tmp_path / "none.jsonl") == 2
    assert "No such file or directory" in capsys.readouterr().err
