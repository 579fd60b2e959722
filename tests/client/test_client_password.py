"""Locked tables: the lobby asks for the password; the new-table form can set one."""

from __future__ import annotations

from test_client_render import screen

from client.ui.intents import TableRequest
from client.ui.model import Mode, Model
from protocol.messages import Join, Spectate, TableStatus, TableSummary

OPEN = TableSummary(table_id="t1", name="Friday", state=TableStatus.LOBBY, seats=4, taken=1)
LOCKED = TableSummary(
    table_id="t2", name="Family", state=TableStatus.LOBBY, seats=4, taken=1, locked=True
)


def lobby(*tables: TableSummary) -> Model:
    model = Model(name="Ann", connected=True, server_name="Kitchen")
    model.tables = list(tables)
    return model


def test_an_open_table_is_joined_at_once(drive) -> None:
    model = lobby(OPEN, LOCKED)
    controller, sent = drive(model)
    controller.lobby.join_selected()
    assert sent == [TableRequest("join", {"table_id": "t1"})]


def test_a_locked_table_asks_for_the_password_then_joins_with_it(drive) -> None:
    model = lobby(OPEN, LOCKED)
    controller, sent = drive(model)
    controller.lobby.lobby_move(1)
    controller.lobby.join_selected()
    assert sent == [] and model.mode is Mode.PASSWORD
    controller.type_text(" s3cret")
    text = "\n".join(screen(model))
    assert "Family is locked" in text and "s3cret" not in text and "•••••••" in text
    controller.submit_text()
    assert sent == [TableRequest("join", {"table_id": "t2", "password": " s3cret"})]
    message = sent[0].to_message(7)
    assert isinstance(message, Join) and message.password == " s3cret"
    assert model.mode is Mode.NORMAL and model.entering is None


def test_spectating_a_locked_table_asks_too_and_escape_cancels(drive) -> None:
    model = lobby(LOCKED)
    controller, sent = drive(model)
    controller.lobby.join_selected(spectate=True)
    controller.type_text("x")
    controller.cancel()
    assert sent == [] and model.mode is Mode.NORMAL and model.entering is None
    controller.lobby.join_selected(spectate=True)
    controller.type_text("pw")
    controller.submit_text()
    message = sent[0].to_message(1) if isinstance(sent[0], TableRequest) else None
    assert isinstance(message, Spectate) and message.password == "pw"


def test_an_empty_password_sends_nothing(drive) -> None:
    model = lobby(LOCKED)
    controller, sent = drive(model)
    controller.lobby.join_selected()
    controller.submit_text()
    assert sent == [] and model.message_is_error


def test_the_new_table_form_types_a_name_and_a_password(drive) -> None:
    model = lobby()
    controller, sent = drive(model)
    controller.lobby.open_form()
    for _ in range(len("Ann's table")):
        controller.lobby.form_backspace()
    controller.lobby.form_type("Family\x1b night")  # control characters are not typed
    controller.lobby.form_move(1)
    controller.lobby.form_type("p" * 80)  # cut at the protocol's 64
    controller.lobby.form_move(1)
    controller.lobby.form_type("ignored: an option row is not typed into")
    assert model.form["bots"] == 0
    text = "\n".join(screen(model, 100, 40))
    assert "Family night" in text and "•" * 64 in text and "p" * 64 not in text
    controller.lobby.submit_form()
    assert isinstance(sent[0], TableRequest) and sent[0].type == "create-table"
    message = sent[0].to_message(1).to_data()
    assert message["name"] == "Family night" and message["password"] == "p" * 64
    assert message["options"] == {}  # nothing changed: every option the server's default


def test_a_nameless_table_is_refused_locally(drive) -> None:
    model = lobby()
    controller, sent = drive(model)
    controller.lobby.open_form()
    model.form["name"] = "  "
    controller.lobby.submit_form()
    assert sent == [] and model.mode is Mode.CREATE and "needs a name" in model.message
