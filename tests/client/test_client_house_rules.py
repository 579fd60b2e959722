"""The client and the house rules: the preset picker, the jump-in key, the rules shown."""

from __future__ import annotations

from client_builders import hand_view, model_with, table_state
from test_client_render import screen

from client.ui.hints import keys_hint
from client.ui.intents import GameIntent, TableRequest
from client.ui.model import Model, apply_table_state
from client.ui.table_form import PRESET_ROW, form_rows
from protocol.cards import Card
from protocol.commands import Play
from protocol.messages import TableStatus, TableSummary
from protocol.options import TableConfig, preset_options


def test_the_preset_row_fills_the_new_table_form(drive) -> None:
    model = Model(name="Ann", connected=True)
    controller, sent = drive(model)
    controller.lobby.open_form()
    assert "official" in "\n".join(screen(model))
    controller.lobby.form_move(form_rows().index(PRESET_ROW))
    assert form_rows()[model.form_index] == PRESET_ROW
    controller.lobby.form_change(1)
    assert model.form["jump_in"] and model.form["seven_o"] and model.form["stack"] == "progressive"
    assert model.form["name"] == "Ann's table"  # what the preset does not set stays
    assert "party" in "\n".join(screen(model))
    controller.lobby.form_change(1)
    assert model.form["stack"] == "draw-two" and model.form["draw_until_playable"]
    assert not model.form["jump_in"]
    controller.lobby.submit_form()
    assert isinstance(sent[0], TableRequest)
    options = sent[0].fields["options"]
    assert TableConfig.from_data(options) == TableConfig.from_data(preset_options("family"))


def out_of_turn(hand: list[str], legal: list[dict[str, object]]) -> Model:
    """Seat 0 of three with seat 1 to act, the red 5 on top."""
    return model_with(
        hand_view(hand, legal, to_act=1, pending={"kind": "turn", "seat": 1, "remaining_ms": 9})
    )


def test_j_jumps_in_with_the_card_identical_to_the_top_from_anywhere(drive) -> None:
    model = out_of_turn(["B2", "G7", "R5"], [{"type": "play", "card": "R5"}])
    controller, sent = drive(model)
    assert "j jump in with the" in keys_hint(model)
    controller.jump_in()
    assert sent == [GameIntent(Play(Card.parse("R5")))]
    assert model.selected_card == "R5"


def test_no_jump_in_key_without_a_jump_in(drive) -> None:
    model = out_of_turn(["B2", "G7"], [])
    controller, sent = drive(model)
    assert "jump in" not in keys_hint(model)
    controller.jump_in()
    assert sent == [] and "no jump-in now" in model.message


def test_the_table_screen_and_the_table_list_show_the_house_rules() -> None:
    options = {**preset_options("party"), "seats": 3}
    model = model_with(hand_view(["R1"], []))
    apply_table_state(model, table_state(3, options=options), 0)
    text = "\n".join(screen(model))
    assert "house rules: stacking progressive, 7-0, jump-in" in text
    lobby = Model(name="Ann", connected=True, server_name="Kitchen")
    lobby.tables = [
        TableSummary(
            table_id="t1",
            name="Friday",
            state=TableStatus.LOBBY,
            seats=4,
            taken=2,
            house_rules=("stack:draw-two", "draw_until_playable"),
        ),
        TableSummary(table_id="t2", name="Plain", state=TableStatus.LOBBY, seats=4, taken=1),
    ]
    listed = "\n".join(screen(lobby))
    assert "stacking draw-two, draw until playable" in listed
    assert listed.count("stacking") == 1
