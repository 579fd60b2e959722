"""While the server is away (the connection is lost, the client reconnects) the table stays
in view and says so: no turn clock runs, and commands are not sent but explained."""

from __future__ import annotations

from collections.abc import Callable

from client_builders import engine_view, model_with

from client.ui.controller import Controller
from client.ui.intents import Intent, LeaveTable
from client.ui.keys import build_key_bindings
from client.ui.model import Model, apply_connection
from client.ui.render import render


def _text(model: Model, now: float) -> str:
    return "".join(fragment[1] for fragment in render(model, 100, 30, now))


def test_the_table_says_the_server_is_away_and_runs_no_clock() -> None:
    model = model_with(engine_view(seats=3, seed=4))
    assert "⏱" in _text(model, 12.2)
    apply_connection(model, False, "connection lost; reconnecting in 2s")
    text = _text(model, 12.2)
    assert "THE SERVER IS AWAY: connection lost; reconnecting in 2s" in text
    assert "⏱" not in text and "YOUR TURN" not in text
    assert model.remaining_ms(500.0) is None
    assert "server away:" in text and "Ctrl-C quit" in text


def test_commands_wait_for_the_server_and_say_why(
    drive: Callable[[Model], tuple[Controller, list[Intent]]],
) -> None:
    model = model_with(engine_view(seats=3, seed=4))
    controller, sent = drive(model)
    apply_connection(model, False, "connection lost; reconnecting in 2s")
    controller.play_selected()
    controller.pick_confirm()  # a colour picker may be open: its choice is not sent either
    controller.confirm_leave(True)
    assert sent == []
    assert "not sent, the server is away" in model.shown_message and model.message_is_error
    apply_connection(model, True, "connected")
    controller.confirm_leave(True)
    assert sent == [LeaveTable()]


def test_each_key_that_needs_the_server_says_so_while_it_is_away() -> None:
    model = model_with(engine_view(seats=3, seed=4))
    sent: list[Intent] = []
    bindings = build_key_bindings(model, Controller(model, sent.append))

    def press(key: str) -> None:
        active = [b for b in bindings.get_bindings_for_keys((key,)) if b.filter()]
        active[-1].handler(None)  # type: ignore[arg-type]  # the handlers ignore the event

    apply_connection(model, False, "connection lost; reconnecting in 2s")
    for key in ("d", "p", "u", "c", "y", "n", "t", "b", "s", "k", "K", "P", "q"):
        model.notify("")
        press(key)
        assert model.shown_message.startswith(f"{key}: not sent, the server is away"), key
    press("right")  # looking at the cards needs no server
    assert model.selected == 1 and sent == []
    apply_connection(model, True, "connected")
    press("d")
    press("b")  # the level picker; Enter adds a bot of the level chosen
    press("c-m")  # Enter
    assert [type(intent).__name__ for intent in sent] == ["GameIntent", "TableRequest"]
