"""Issue 26's rough edges of the terminal client, one test (or a few) per item: nothing of
a table left carries over (1), lobby chat in the lobby (2), seat numbers and sensible
pickers (6), the form's password masked (12), no protocol words (13), the rule card (18).
The width contract (15) is tests/client/test_client_width.py."""

from __future__ import annotations

import dataclasses
from typing import Any

from client_builders import engine_view, event, hand_view, model_with, table_state
from test_client_render import screen

from client.command import name_note
from client.ui.controller import Controller
from client.ui.intents import Intent, TableRequest
from client.ui.model import Mode, Model, apply_chat, apply_reply
from client.ui.records import Records, apply_records, records_refused
from client.ui.reducer import apply
from client.ui.rule_card import rule_card
from client.ui.standings_screen import standings_screen
from protocol.messages import (
    ChatMessage,
    GameEvent,
    GetStandings,
    Joined,
    Left,
    LeftReason,
    MatchList,
    MatchPlayer,
    MatchRecord,
    SeatInfo,
    TableState,
    TableStatus,
    TableSummary,
)
from protocol.options import TableOptions


def _second_table() -> TableState:
    seats = (SeatInfo(seat=0, name="Zed"), SeatInfo(seat=1, name="Yul"))
    return TableState(
        table_id="t2",
        name="Other",
        state=TableStatus.PLAYING,
        seats=seats,
        options=TableOptions.parse({"seats": 2}),
        host_seat=0,
    )


# -- 1. nothing of a previous table carries over ---------------------------------------


def test_a_table_left_leaves_nothing_in_the_next_tables_log() -> None:
    model = model_with(engine_view())
    apply(model, dataclasses.replace(table_state(3), seats=_with_bot()), 0.0)
    apply(model, ChatMessage(sender="Bob", text="first table talk"), 0.0)
    assert any("Bot 1 (a bot)" in line for line in model.log)  # the bot's arrival was logged
    apply(model, Left(table_id="t1", reason=LeftReason.LEFT), 0.0)
    apply(model, Joined(table_id="t2", seat=None, resume_token=None), 0.0)
    apply(model, _second_table(), 0.0)
    text = "\n".join(screen(model))
    assert "Bot 1" not in text and "first table talk" not in text
    assert list(model.log) == [] and list(model.chat) == []


def test_watching_a_second_table_starts_a_fresh_log() -> None:
    model = model_with(engine_view())
    played = {"kind": "played", "seat": 2, "card": "B7", "color": "B", "count": 3, "seq": 5}
    apply(model, GameEvent(seq=5, body=event(played)), 0.0)
    assert any("Cy played" in line for line in model.log)
    # straight from one table to watching another, without a left in between
    apply(model, Joined(table_id="t2", seat=None, resume_token=None), 0.0)
    apply(model, _second_table(), 0.0)
    assert not any("Cy played" in line for line in model.log)


def test_a_late_event_of_a_table_left_is_not_logged() -> None:
    model = model_with(engine_view())
    apply(model, Left(table_id="t1", reason=LeftReason.KICKED), 0.0)
    played = {"kind": "played", "seat": 2, "card": "B7", "color": "B", "count": 3, "seq": 6}
    apply(model, GameEvent(seq=6, body=event(played)), 0.0)
    assert list(model.log) == []


def _with_bot() -> tuple[SeatInfo, ...]:
    return (
        SeatInfo(seat=0, name="Ann"),
        SeatInfo(seat=1, name="Bob"),
        SeatInfo(seat=2, name="Bot 1", bot=True),
    )


# -- 2. lobby chat shows in the lobby ----------------------------------------------------


def test_lobby_chat_shows_in_the_lobbys_chat_pane() -> None:
    model = Model(name="Ann", connected=True, server_name="Kitchen")
    apply(model, ChatMessage(sender="Bob", text="anyone for a game?"), 0.0)
    lines = screen(model, 80, 24)
    assert any("lobby chat" in line for line in lines)
    assert any("Bob: anyone for a game?" in line for line in lines)
    assert list(model.log) == []  # no table's log holds it


def test_table_chat_stays_with_its_table() -> None:
    model = model_with(engine_view())
    apply_chat(model, "Bob", "nice one")
    assert "» Bob: nice one" in model.log[-1] and not model.lobby_chat
    apply(model, Left(table_id="t1", reason=LeftReason.LEFT), 0.0)
    lines = screen(model, 80, 24)
    assert not any("nice one" in line for line in lines)


# -- 6. seat numbers, sensible pickers ---------------------------------------------------


def _seven_swap() -> tuple[Model, Controller, list[Intent]]:
    plays = [{"type": "play", "card": "R7", "target": t} for t in (1, 2, 3)]
    view = hand_view(["R7", "B2"], plays, counts=[2, 6, 3, 3], scores=[0] * 4, skip_marks=[0] * 4)
    model = model_with(view)
    model.table = table_state(4)
    sent: list[Intent] = []
    controller = Controller(model, sent.append)
    model.selected = model.hand.index("R7")
    controller.play_selected()
    return model, controller, sent


def test_the_seven_swap_starts_on_the_smallest_other_hand() -> None:
    model, _, _ = _seven_swap()
    assert model.mode is Mode.PICK and model.picker is not None
    assert model.picker.value == 2  # Cy and Di hold 3; Cy comes first after me


def test_the_seat_picker_shows_the_number_each_digit_chooses() -> None:
    model, controller, sent = _seven_swap()
    text = "\n".join(screen(model, 80, 24))
    assert "2 Bob (6 cards)" in text and "4 Di (3 cards)" in text
    controller.pick_seat_number(4)
    assert model.picker is not None and model.picker.value == 3
    controller.pick_confirm()
    assert [getattr(intent, "command", None).target for intent in sent] == [3]  # type: ignore[union-attr]


def test_a_colour_picker_starts_on_the_colour_held_most() -> None:
    plays = [{"type": "play", "card": "W", "color": c} for c in "RYGB"]
    model = model_with(hand_view(["W", "G1", "G5", "B2"], plays))
    controller = Controller(model, lambda intent: None)
    model.selected = model.hand.index("W")
    controller.play_selected()
    assert model.picker is not None and model.picker.value == "G"


# -- 12. the new-table form masks the password -------------------------------------------


def test_the_new_table_form_masks_the_password() -> None:
    model = Model(name="Ann", connected=True)
    controller = Controller(model, lambda intent: None)
    controller.lobby.open_form()
    controller.lobby.form_move(1)
    controller.lobby.form_type("hunter2")
    text = "\n".join(screen(model, 80, 24))
    assert "•••••••" in text and "hunter2" not in text
    assert model.form["password"] == "hunter2"


# -- 13. no protocol words ---------------------------------------------------------------


def test_refusals_read_as_sentences_not_wire_names() -> None:
    model = Model(name="Ann", connected=True)
    apply_reply(model, "list-matches", False, "no-history", "this server keeps no history")
    assert model.message == "cannot show the latest matches: this server keeps no history"
    for what in ("get-standings", "close-table", "take-bot-seat", "remove-bot", "next-round"):
        apply_reply(model, what, False, "x", "why")
        assert what not in model.message and model.message.endswith(": why"), model.message
    apply_reply(model, "a-newer-request", False, "x", "why")
    assert model.message == "the server said no: why"


def test_a_request_refused_while_the_server_is_away_is_named_in_words() -> None:
    model = model_with(engine_view())
    model.connected = False
    Controller(model, lambda intent: None).emit(TableRequest("list-tables", {"limit": 100}))
    assert "list-tables" not in model.message and "cannot list the tables" in model.message


def test_no_state_standings_say_why_in_a_sentence() -> None:
    model = Model(name="Ann", connected=True, server_name="Kitchen", records=Records())
    model.mode = Mode.STANDINGS
    records_refused(model.records, GetStandings(id=1), "no-history")
    text = "\n".join("".join(f[1] for f in line) for line in standings_screen(model, 80, 24))
    assert "This server keeps no history: it was started" in text
    assert "with --no-state" in text


# -- 18. the rule card ---------------------------------------------------------------------


def test_the_help_page_explains_the_tables_house_rules() -> None:
    options: dict[str, Any] = {"seven_o": True, "jump_in": True, "stack": "progressive"}
    model = model_with(engine_view(seats=3, seed=4, **options))
    model.table = table_state(3, options={"deck": "classic", "seats": 3, **options})
    model.mode = Mode.HELP
    text = "\n".join(screen(model, 80, 24))
    assert "This table's rules" in text
    assert "7-0: a 7 swaps your hand" in text and "a 0 passes every hand" in text
    assert "Jump-in" in text and "Progressive stacking" in text


def test_the_help_page_scrolls_to_its_end() -> None:
    model = model_with(engine_view())
    model.mode = Mode.HELP
    controller = Controller(model, lambda intent: None)
    first = screen(model, 80, 24)
    assert any("more lines below" in line for line in first)
    for _ in range(20):
        controller.scroll_help(8)
    last = screen(model, 80, 24)
    assert any("W♪ Dancing Wild" in line for line in last)
    assert not any("more lines below" in line for line in last)


def test_a_table_of_official_rules_says_so() -> None:
    card = rule_card(TableOptions.parse({"seats": 4}))
    assert card[0] == "No house rules: the official rules of UNO."
    assert any("first to 500 wins" in line for line in card)


# -- 7. the message to the banned fits the screen --------------------------------------


def test_the_message_to_a_banned_player_fits_an_80_column_message_line() -> None:
    model = model_with(engine_view(), seat=1)
    why = "Bartholomew Fitzgerald gave your seat to a bot and banned you from this table"
    apply(model, Left(table_id="t1", reason=LeftReason.KICKED, message=why), 0.0)
    assert model.message == why[:1].upper() + why[1:] and model.message_is_error
    line = next(line for line in screen(model, 80, 24) if "banned you" in line)
    assert line.rstrip().endswith("from this table")


# -- 10. a name that was cut or cleaned is told ------------------------------------------


def test_a_name_cut_or_cleaned_is_told_on_the_find_screen_and_in_the_lobby() -> None:
    typed = "Maximilian Alexander von Habsburg"
    name = typed[:24]
    model = Model(name=name, name_note=name_note(typed, name))
    assert any("cut to 24 characters" in line for line in screen(model, 80, 24))
    model.connected = True
    assert any(f"you are {name}." in line for line in screen(model, 80, 24))
    assert name_note("Ann\x1b[31m", "Ann") == (
        "Your name had characters that cannot be shown: you are Ann."
    )
    assert name_note("Ann", "Ann") == ""


# -- 7. everyone hears a kick or a ban ---------------------------------------------------


def test_everyone_at_the_table_reads_who_the_host_removed() -> None:
    model = model_with(engine_view(), seat=2)  # Cy watches Ann (host) remove Bob
    before = model.table
    assert before is not None
    seats = list(before.seats)
    seats[1] = SeatInfo(seat=1, name="Bot 2", bot=True)
    kicked = dataclasses.replace(before, seats=tuple(seats), removed_seat=1)
    apply(model, kicked, 0.0)
    assert model.log[-1] == "Ann removed Bob from the table; a bot plays the seat"
    assert not any("took Bob's seat" in line for line in model.log)
    seats[1] = SeatInfo(seat=1)
    banned = dataclasses.replace(before, seats=tuple(seats), removed_seat=1, removed_banned=True)
    apply(model, before, 0.0)
    apply(model, banned, 0.0)
    assert model.log[-1] == "Ann banned Bob from the table"


def test_a_banned_players_lobby_offers_no_seat_at_that_table() -> None:
    model = Model(name="Eve", connected=True, server_name="Kitchen")
    sent: list[Intent] = []
    controller = Controller(model, sent.append)
    model.tables = [
        TableSummary(
            table_id="t1",
            name="Friday",
            state=TableStatus.PLAYING,
            seats=3,
            taken=3,
            host="Ann",
            bot_seats=1,
            banned=True,
        )
    ]
    text = "\n".join(screen(model, 80, 24))
    assert "the host banned you" in text and "bot seat" not in text
    controller.lobby.join_selected()
    controller.lobby.join_selected(spectate=True)
    assert sent == [] and "banned you" in model.message and model.message_is_error


def test_no_state_standings_beside_the_matches_it_keeps_say_so() -> None:
    model = Model(name="Ann", connected=True, server_name="Kitchen", records=Records())
    model.mode = Mode.STANDINGS
    records_refused(model.records, GetStandings(id=1), "no-history")
    kept = MatchRecord(
        finished_at=1,
        table_id="t1",
        table="Friday",
        deck="classic",
        options=TableOptions(),
        players=(MatchPlayer(name="Ann", score=500),),
        winners=("Ann",),
        match_id=1,
    )
    apply_records(model.records, None, MatchList(matches=(kept,)))
    text = "\n".join("".join(f[1] for f in line) for line in standings_screen(model, 80, 24))
    assert "This server keeps no standings" in text and "--no-state" in text
    assert "remembers no finished match" not in text
    assert "Friday" in text and "won by Ann" in text
