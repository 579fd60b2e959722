"""Key actions -> model changes and intents, on hand-made and real views."""

from __future__ import annotations

from typing import Any

from client_builders import engine_view, hand_view, model_with, table_state

from client.ui.intents import GameIntent, LeaveTable, Quit, TableRequest
from client.ui.model import Mode, Model, apply_table_state, apply_view
from client.ui.table_form import FORM_STEPS, form_fields, form_rows
from protocol.commands import SeatCommand, command_from_data
from protocol.messages import TableStatus
from protocol.options import TableConfig


def intent(data: dict[str, Any]) -> GameIntent:
    """The intent to send the command ``data`` describes."""
    command = command_from_data(data)
    assert isinstance(command, SeatCommand)
    return GameIntent(command)


def _wild_plays(card: str, uno: bool = False) -> list[dict[str, object]]:
    plays: list[dict[str, object]] = [{"type": "play", "card": card, "color": c} for c in "RYGB"]
    if uno:
        plays += [{"type": "play", "card": card, "color": c, "uno": True} for c in "RYGB"]
    return plays


def test_enter_plays_a_plain_card_at_once(drive) -> None:
    model = model_with(hand_view(["R1", "B2"], [{"type": "play", "card": "R1"}]))
    controller, sent = drive(model)
    controller.play_selected()
    assert sent == [intent({"type": "play", "card": "R1"})]


def test_an_unplayable_card_is_refused_locally(drive) -> None:
    model = model_with(hand_view(["R1", "B2"], [{"type": "play", "card": "R1"}]))
    controller, sent = drive(model)
    controller.move(1)
    controller.play_selected()
    assert sent == [] and "B2 cannot be played now" in model.message


def test_a_wild_asks_for_the_colour(drive) -> None:
    model = model_with(hand_view(["B2", "W"], _wild_plays("W")))
    controller, sent = drive(model)
    assert model.selected_card == "W"  # the turn starts on the playable card
    controller.play_selected()
    assert model.mode is Mode.PICK and model.picker is not None
    assert [label for _, label in model.picker.options] == ["red", "yellow", "green", "blue"]
    controller.pick_value("G")
    assert sent == [intent({"type": "play", "card": "W", "color": "G"})]
    assert model.mode is Mode.NORMAL


def test_swap_hands_asks_colour_then_player(drive) -> None:
    plays = [
        {"type": "play", "card": "WSWAP", "color": c, "target": t} for c in "RYGB" for t in (1, 2)
    ]
    model = model_with(hand_view(["WSWAP", "R3"], plays))
    controller, sent = drive(model)
    assert model.selected_card == "WSWAP"  # the turn starts on the playable card
    controller.play_selected()
    controller.pick_value("Y")
    assert model.picker is not None and model.picker.purpose == "target"
    assert model.picker.options[1][1] == "Cy (6 cards)"
    controller.pick_move(1)
    controller.pick_confirm()
    assert sent == [intent({"type": "play", "card": "WSWAP", "color": "Y", "target": 2})]


def test_dancing_wild_asks_for_the_dance(drive) -> None:
    view = engine_view(seats=3, seed=4, deck="bts")
    model = model_with(view)
    plays = [{"type": "play", "card": "WDANCE", "color": "R", "dance": d} for d in ("idol", "fire")]
    model.view = hand_view(["WDANCE"], plays)
    controller, sent = drive(model)
    controller.play_selected()
    assert model.picker is not None and model.picker.purpose == "dance"
    controller.pick_move(1)
    controller.pick_confirm()
    assert sent == [intent({"type": "play", "card": "WDANCE", "color": "R", "dance": "fire"})]


def test_uno_arms_the_declaring_variant(drive) -> None:
    model = model_with(hand_view(["W", "R3"], _wild_plays("W", uno=True)))
    controller, sent = drive(model)
    controller.uno()
    assert model.uno_armed
    assert model.selected_card == "W"  # the turn starts on the playable wild
    controller.play_selected()
    controller.pick_value("B")
    assert sent == [intent({"type": "play", "card": "W", "color": "B", "uno": True})]
    assert not model.uno_armed


def test_uno_after_the_play_is_a_call(drive) -> None:
    model = model_with(hand_view(["R3"], [{"type": "call-uno"}], to_act=1))
    controller, sent = drive(model)
    controller.uno()
    assert sent == [intent({"type": "call-uno"})]


def test_catch_one_or_choose_among_several(drive) -> None:
    model = model_with(hand_view(["R3"], [{"type": "catch", "target": 2}], to_act=1))
    controller, sent = drive(model)
    controller.catch()
    assert sent == [intent({"type": "catch", "target": 2})]
    legal = [{"type": "catch", "target": 1}, {"type": "catch", "target": 2}]
    model.view = hand_view(["R3"], legal, to_act=1)
    controller.catch()
    assert model.mode is Mode.PICK
    controller.pick_value(1)
    assert sent[-1] == intent({"type": "catch", "target": 1})


def test_nobody_to_catch_is_a_message(drive) -> None:
    model = model_with(hand_view(["R3"], []))
    controller, sent = drive(model)
    controller.catch()
    assert sent == [] and model.message == "nobody to catch"


def test_draw_pass_and_challenge_send_the_legal_command(drive) -> None:
    model = model_with(hand_view(["R3"], [{"type": "draw"}]))
    controller, sent = drive(model)
    controller.draw()
    controller.pass_turn()
    assert sent == [intent({"type": "draw"})]
    assert "only after drawing" in model.message
    model.view = hand_view(["R3"], [{"type": "accept"}, {"type": "challenge"}], phase="challenge")
    controller.challenge(True)
    controller.challenge(False)
    assert sent[1:] == [intent({"type": "challenge"}), intent({"type": "accept"})]


def test_the_dance_is_entered_step_by_step(drive) -> None:
    dance = {"seat": 0, "dance": "butter", "steps": ["up", "left", "left"]}
    legal = [{"type": "dance", "steps": dance["steps"]}, {"type": "refuse-dance"}]
    model = model_with(hand_view(["R1"], legal, phase="dance", dance=dance))
    controller, sent = drive(model)
    assert model.mode is Mode.DANCE
    for step in ("up", "left", "down"):
        controller.dance_step(step)
    controller.dance_undo()
    controller.dance_step("left")
    controller.dance_submit()
    assert sent == [intent({"type": "dance", "steps": ["up", "left", "left"]})]


def test_first_card_wild_colour_choice(drive) -> None:
    legal = [{"type": "choose-color", "color": c} for c in "RYGB"]
    model = model_with(hand_view(["R1"], legal, phase="choose-color"))
    controller, sent = drive(model)
    controller.play_selected()
    controller.pick_value("R")
    assert sent == [intent({"type": "choose-color", "color": "R"})]


def test_host_controls_and_their_refusal_for_guests(drive) -> None:
    model = Model(name="Ann", connected=True)
    apply_table_state(model, table_state(3, TableStatus.LOBBY, bots=(1, 2)), 0)
    controller, sent = drive(model)
    controller.host.add_bot()
    assert model.mode is Mode.PICK and model.picker is not None
    assert model.picker.value == "normal"  # the level first offered
    controller.pick_move(1)
    controller.pick_confirm()
    controller.host.start()
    controller.host.remove_bot()
    controller.pick_value(2)
    assert sent == [
        TableRequest("add-bot", {"strategy": "hard"}),
        TableRequest("start"),
        TableRequest("remove-bot", {"seat": 2}),
    ]
    apply_table_state(model, table_state(3, TableStatus.LOBBY, host=1), 0)
    controller.host.start()
    assert len(sent) == 3 and model.message == "only the host can start the match"


def test_leaving_mid_match_asks_first(drive) -> None:
    model = model_with(engine_view())
    controller, sent = drive(model)
    controller.leave()
    assert model.mode is Mode.CONFIRM_LEAVE and sent == []
    controller.confirm_leave(False)
    assert sent == []
    controller.leave()
    controller.confirm_leave(True)
    assert sent == [LeaveTable()]


def test_leaving_solo_quits(drive) -> None:
    model = model_with(engine_view(), solo=True)
    controller, sent = drive(model)
    controller.leave()
    controller.confirm_leave(True)
    assert sent == [Quit()] and model.finished


def test_chat_is_typed_then_sent(drive) -> None:
    model = model_with(engine_view())
    controller, sent = drive(model)
    controller.start_chat()
    controller.type_text("gg\x1b")
    controller.type_text(" all")
    controller.submit_text()
    assert sent == [TableRequest("chat", {"text": "gg all"})]
    assert TableRequest("chat", {"text": "gg all"}).to_message(5).to_data()["text"] == "gg all"


def test_new_table_form_cycles_options_and_creates(drive) -> None:
    model = Model(name="Ann", connected=True)
    controller, sent = drive(model)
    controller.lobby.open_form()
    assert model.mode is Mode.CREATE
    controller.lobby.form_move(form_rows().index("deck"))  # past the name, password, bots
    controller.lobby.form_change(1)
    assert model.form["deck"] == "modern-swap"
    controller.lobby.submit_form()
    assert isinstance(sent[0], TableRequest) and sent[0].type == "create-table"
    assert sent[0].fields["options"]["deck"] == "modern-swap"
    assert sent[0].to_message(1).to_data()["name"] == "Ann's table"
    assert "password" not in sent[0].fields  # none typed: an open table


def test_form_steps_name_table_options_and_move_them_by_their_step(drive) -> None:
    names = [option.name for option in form_fields()]
    assert set(FORM_STEPS) <= set(names)
    model = Model(name="Ann", connected=True)
    controller, _sent = drive(model)
    controller.lobby.open_form()
    for name, step in FORM_STEPS.items():
        controller.model.form_index = form_rows().index(name)
        before = model.form.get(name, TableConfig().to_data()[name])
        controller.lobby.form_change(1)
        assert model.form[name] == before + step


def test_typed_address_connects(drive) -> None:
    model = Model(name="Ann")
    controller, sent = drive(model)
    controller.start_address()
    controller.type_text("nowhere")
    controller.submit_text()
    assert sent == [] and model.message_is_error
    controller.start_address()
    controller.type_text("127.0.0.1:7531")
    controller.submit_text()
    assert [type(i).__name__ for i in sent] == ["Connect"]


def test_after_a_draw_the_drawn_card_is_selected_and_enter_plays_it(drive) -> None:
    model = model_with(hand_view(["B2", "R3"], [{"type": "draw"}]))
    model.selected = 1
    drawn = [{"type": "play", "card": "Y5"}, {"type": "pass"}]
    apply_view(model, hand_view(["B2", "R3", "Y5"], drawn, drawn="Y5"), 1.0)
    assert model.selected_card == "Y5"
    controller, sent = drive(model)
    controller.play_selected()
    assert sent == [intent({"type": "play", "card": "Y5"})]


def test_another_card_after_a_draw_is_refused_with_the_rule(drive) -> None:
    drawn = [{"type": "play", "card": "Y5"}, {"type": "pass"}]
    model = model_with(hand_view(["B2", "R3", "Y5"], drawn, drawn="Y5"))
    controller, sent = drive(model)
    controller.move(-1)
    assert model.selected_card == "R3"
    controller.play_selected()
    assert sent == []
    assert "only the drawn Y5 may be played now" in model.message


def test_a_turn_starts_on_a_playable_card() -> None:
    waiting = hand_view(["B2", "G7", "R3"], [], to_act=1)
    model = model_with(waiting)
    assert model.selected_card == "R3"  # the hand is sorted: R3, G7, B2
    model.selected = 2
    apply_view(model, hand_view(["B2", "G7", "R3"], [{"type": "play", "card": "G7"}]), 1.0)
    assert model.selected_card == "G7"
    model.selected = 0  # a choice made on the turn is kept by later views of it
    apply_view(model, hand_view(["B2", "G7", "R3"], [{"type": "play", "card": "G7"}]), 2.0)
    assert model.selected_card == "R3"


def test_refusals_name_the_rule_that_applies(drive) -> None:
    model = model_with(hand_view(["B2", "R3"], [], to_act=1))
    controller, _ = drive(model)
    controller.play_selected()
    assert "it is Bob's turn" in model.message
    stack = [{"type": "play", "card": "G+2"}, {"type": "draw"}]
    model = model_with(hand_view(["G+2", "R3"], stack, phase="stack"))
    controller, _ = drive(model)
    model.selected = model.hand.index("R3")
    controller.play_selected()
    assert "only a Draw Two answers the Draw Two" in model.message
    model = model_with(hand_view(["B2", "R3"], [{"type": "play", "card": "R3"}], top="R5"))
    controller, _ = drive(model)
    model.selected = model.hand.index("B2")
    controller.play_selected()
    assert "matches neither the colour in force (red) nor the R5" in model.message


def test_a_play_that_gives_another_turn_starts_it_on_a_playable_card() -> None:
    # Two players: the Reverse acts as a Skip, and the turn comes straight back.
    before = hand_view(["Y8", "YR", "B1"], [{"type": "play", "card": "YR"}])
    model = model_with(before)
    model.selected = model.hand.index("YR")
    again = hand_view(["Y8", "B1"], [{"type": "play", "card": "Y8"}], top="YR", color="Y")
    apply_view(model, again, 1.0)
    assert model.selected_card == "Y8"
