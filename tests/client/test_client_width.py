"""The width contract (issue 26, item 15): every screen holds at 80x24, with no line wider
than the terminal and no key hint cut, and stays usable at the 60x20 minimum: it fits
the height and every key hint shows whole (a long table row may end in "…" there).
Rules are drawn long on purpose and cut by the layout."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from client_builders import engine_view, found_server, hand_view, model_with, table_state
from prompt_toolkit.utils import get_cwidth

from client.i18n import LANGUAGES, choose
from client.replay_command import load_replay
from client.ui.layout import Line
from client.ui.model import Mode, Model, Picker, apply_chat, apply_table_state
from client.ui.render import render, screen_lines
from client.ui.replay_app import ReplayViewer
from client.ui.table_form import new_form
from protocol.messages import TableStatus, TableSummary

SIZES = ((80, 24), (60, 20))


@pytest.fixture(params=LANGUAGES)
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every screen in every shipped language (issue 29); English again after."""
    choose(request.param)
    yield request.param
    choose("en")


def _lobby() -> Model:
    model = Model(
        name="Annabelle", connected=True, server_name="Kitchen", address="192.168.1.20:7531"
    )
    model.tables = [
        TableSummary(
            table_id="t1",
            name="Friday night",
            state=TableStatus.LOBBY,
            seats=4,
            taken=2,
            host="Annabelle",
            locked=True,
            bot_seats=1,
        ),
        TableSummary(table_id="t2", name="Late", state=TableStatus.PLAYING, seats=3, taken=3),
    ]
    model.kept_seat = "t1"
    return model


def _lobby_chatting() -> Model:
    model = _lobby()
    for number in range(12):
        apply_chat(model, "Bob", f"line {number} of what the lobby said")
    model.mode = Mode.CHAT
    return model


def _form() -> Model:
    model = _lobby()
    model.mode = Mode.CREATE
    model.form = new_form(model.name)
    return model


def _password() -> Model:
    model = _lobby()
    model.mode = Mode.PASSWORD
    model.entering = ("t1", "Friday night", False)
    return model


def _find() -> Model:
    model = Model(name="Annabelle", discovery="looking on every interface")
    model.discovered = [found_server(), found_server("Garage", password=True, compatible=False)]
    return model


def _standings() -> Model:
    model = _lobby()
    model.mode = Mode.STANDINGS
    model.records.refused = True
    model.records.refused_code = "no-history"
    return model


def _my_turn() -> Model:
    return model_with(engine_view(seats=3, seed=4, deck="modern-swap"))


def _host_waiting() -> Model:
    model = Model(name="Ann", connected=True, address="127.0.0.1:7531")
    apply_table_state(model, table_state(3, TableStatus.LOBBY), 0)
    return model


def _watching() -> Model:
    model = Model(name="Ann", connected=True, address="127.0.0.1:7531")
    apply_table_state(model, table_state(3, bots=(1,)), None)
    return model


def _picking_a_seat() -> Model:
    model = model_with(engine_view(seats=3, seed=4, seven_o=True))
    model.picker = Picker("Choose a player", "target", [(1, "Bob (5 cards)"), (2, "Cy (6 cards)")])
    model.mode = Mode.PICK
    return model


def _help() -> Model:
    model = model_with(
        engine_view(seats=3, seed=4, seven_o=True, jump_in=True, stack="progressive")
    )
    model.mode = Mode.HELP
    return model


def _lobby_help() -> Model:
    model = _lobby()
    model.mode = Mode.HELP
    return model


def _round_over() -> Model:
    result = {
        "round": 3,
        "winner": 1,
        "reason": "out",
        "hands": [["R1", "W", "G+2", "B9", "Y7", "W+4", "R0", "G3"], [], ["B+2"]],
        "points": [51, 0, 20],
        "gained": [0, 71, 0],
        "scores": [10, 520, 40],
        "eliminated": [],
    }
    view = hand_view([], [], phase="round-over", to_act=None, round_result=result)
    return model_with(view)


def _replay(count: int) -> Callable[[], Model]:
    """``uno-client --replay`` of the committed fixture after ``count`` events (-1: all)."""

    def build() -> Model:
        replay = load_replay(Path(__file__).parents[1] / "fixtures" / "replay-v1.jsonl")
        viewer = ReplayViewer(replay)
        viewer.cursor.position = len(replay.events) if count < 0 else count
        return viewer.refresh()

    return build


SCREENS: dict[str, Callable[[], Model]] = {
    "find": _find,
    "lobby": _lobby,
    "lobby chat": _lobby_chatting,
    "new-table form": _form,
    "password": _password,
    "standings": _standings,
    "lobby help": _lobby_help,
    "my turn": _my_turn,
    "host waiting": _host_waiting,
    "watching": _watching,
    "seat picker": _picking_a_seat,
    "help and house rules": _help,
    "round over": _round_over,
    "replay mid-round": _replay(400),
    "replay at the end": _replay(-1),
}


def _text(line: Line) -> str:
    return "".join(fragment[1] for fragment in line if "class:rule" not in fragment[0])


@pytest.mark.parametrize("name", list(SCREENS))
def test_no_line_is_wider_than_80_columns(name: str, lang: str) -> None:
    width, height = 80, 24
    model = SCREENS[name]()
    lines = screen_lines(model, width, height, 0.0)
    for line in lines:
        shown = _text(line).rstrip()
        assert get_cwidth(shown) <= width, f"{lang} {name} at {width}x{height}: {shown!r} is cut"


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(SCREENS))
def test_every_key_hint_shows_whole_and_the_screen_fits(
    name: str, size: tuple[int, int], lang: str
) -> None:
    width, height = size
    model = SCREENS[name]()
    lines = screen_lines(model, width, height, 0.0)
    assert len(lines) <= height, f"{lang} {name}: {len(lines)} lines on a screen of {height}"
    keys = [_text(line) for line in lines if any("class:keys" in f[0] for f in line)]
    assert keys, f"{name} shows no keys line"
    shown = "".join(fragment[1] for fragment in render(model, width, height, 0.0))
    for line in keys:
        assert line.strip() in shown, f"{lang} {name}: the keys line {line!r} does not show whole"
