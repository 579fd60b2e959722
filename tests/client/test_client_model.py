"""The model's reducers, card faces and event descriptions: pure functions, no I/O."""

from __future__ import annotations

import dataclasses
import typing
from enum import StrEnum

from client_builders import engine_view, event, hand_view, model_with, table_state

from client.ui.describe import describe_event
from client.ui.faces import card_label, card_name, sort_hand
from client.ui.model import (
    Mode,
    Model,
    Screen,
    apply_chat,
    apply_event,
    apply_reply,
    apply_table_state,
    apply_view,
    clear_table,
)
from protocol.cards import Card, Color, all_cards
from protocol.events import (
    EVENT_TYPES,
    DrewReason,
    EventBody,
    EventKind,
    RoundOver,
    RoundOverReason,
    SeenEvent,
)
from protocol.phase import Phase


def test_labels_read_without_colour() -> None:
    assert card_label("R7") == "R7"
    assert card_label("G+2") == "G+2"
    assert card_label("BR") == "B⟲"
    assert card_label("YS") == "Y⊘"
    assert card_label("W") == "W"
    assert card_label("W+4") == "W+4"
    assert card_label("WSWAP") == "W⇄"
    assert card_label("WDANCE") == "W♪"
    assert card_label("WCREEP") == "W✸"


def test_every_card_has_a_distinct_label_and_name() -> None:
    codes = [card.code for card in all_cards()]
    assert len({card_label(code) for code in codes}) == len(codes)
    assert len({card_name(code) for code in codes}) == len(codes)
    assert card_name("BR") == "blue Reverse"


def test_hand_is_grouped_by_colour_then_rank_wilds_last() -> None:
    hand = ["W+4", "B2", "R9", "G+2", "RS", "W", "Y0", "R1"]
    assert sort_hand(hand) == ["R1", "R9", "RS", "Y0", "G+2", "B2", "W", "W+4"]


def test_screen_follows_connection_and_table() -> None:
    model = Model(name="Ann")
    assert model.screen is Screen.FIND
    model.connected = True
    assert model.screen is Screen.LOBBY
    apply_table_state(model, table_state(), 0)
    assert model.screen is Screen.TABLE
    assert model.is_host
    clear_table(model)
    assert model.screen is Screen.LOBBY and model.view is None


def test_a_new_view_keeps_the_selected_card_selected() -> None:
    model = model_with(hand_view(["R1", "R9", "B2"], []))
    model.selected = 1  # R9
    apply_view(model, hand_view(["B7", "R1", "R9", "B2"], []), 1.0)
    assert model.selected_card == "R9"
    apply_view(model, hand_view(["R1"], []), 2.0)
    assert model.selected_card == "R1"


def test_a_view_behind_the_events_offers_no_move_until_its_successor_arrives() -> None:
    play = {"type": "play", "card": "R1"}
    model = model_with(hand_view(["R1", "B2"], [play]))
    assert model.my_turn and [command.to_data() for command in model.legal] == [play]
    model.view_behind = True  # my own play's event is in; the view after it is not yet
    assert not model.my_turn and model.legal == [] and model.plays_of("R1") == []
    model.view_behind = False
    assert model.my_turn and [command.to_data() for command in model.legal] == [play]


def test_clock_counts_down_from_the_view_time() -> None:
    model = model_with(hand_view(["R1"], []))
    apply_view(model, hand_view(["R1"], []), 100.0)
    assert model.remaining_ms(100.0) == 30_000
    assert model.remaining_ms(112.5) == 17_500
    assert model.remaining_ms(200.0) == 0


def test_a_dance_for_me_switches_to_dance_mode() -> None:
    dance = {"seat": 0, "dance": "butter", "steps": ["up", "left"]}
    legal = [{"type": "dance", "steps": ["up", "left"]}, {"type": "refuse-dance"}]
    model = model_with(hand_view(["R1"], []))
    apply_view(model, hand_view(["R1"], legal, phase="dance", dance=dance), 1.0)
    assert model.mode is Mode.DANCE
    apply_view(model, hand_view(["R1"], [], to_act=1), 2.0)
    assert model.mode is Mode.NORMAL


def test_events_become_plain_words_with_names() -> None:
    model = model_with(engine_view())
    played = {"seq": 9, "kind": "played", "seat": 1, "card": "W", "color": "G", "count": 6}
    apply_event(model, event(played))
    drew = {"kind": "drew", "seat": 0, "count": 2, "reason": "draw", "cards": ["R1", "BS"]}
    apply_event(model, event({"seq": 10, **drew}))
    apply_event(
        model, event({"seq": 11, "kind": "turn", "seat": 2, "direction": 1, "phase": "turn"})
    )
    assert list(model.log)[-2:] == ["Bob played Wild, calling green", "you drew 2 cards: R1 B⊘"]


def _sample(cls: type[EventBody]) -> EventBody:
    """An event of ``cls`` with a plain value in every field."""
    hints = typing.get_type_hints(cls)
    plain: dict[object, object] = {int: 1, bool: False, str: "draw", Card: Card.parse("R1")}
    plain |= {Color: Color.RED, Phase: Phase.TURN}
    values: dict[str, object] = {}
    for spec in dataclasses.fields(cls):
        hint = hints[spec.name]
        if isinstance(hint, type) and issubclass(hint, StrEnum) and hint not in plain:
            values[spec.name] = next(iter(hint))  # a reason: its first value
        else:
            values[spec.name] = () if typing.get_origin(hint) is tuple else plain.get(hint)
    return cls(**values)


def test_every_event_kind_has_words() -> None:
    for kind in EventKind:
        line = describe_event(SeenEvent(1, _sample(EVENT_TYPES[kind])), str)
        assert line or kind is EventKind.TURN, kind
        # Its own words, not the fallback for a kind this client does not know.
        assert line != kind.value.replace("-", " "), kind
    assert describe_event(event({"kind": "from-the-future"}), str) == "from the future"


def test_round_over_names_the_winner_and_points() -> None:
    body = RoundOver(
        round=1,
        winner=2,
        reason=RoundOverReason.OUT,
        hands=((), (), ()),
        points=(0, 0, 0),
        gained=(0, 0, 37),
        scores=(0, 0, 37),
        eliminated=(),
    )
    line = describe_event(SeenEvent(1, body), lambda s: f"seat{s}")
    assert line == "round over: seat2 won and scored 37"


def test_rejections_are_short_message_lines() -> None:
    model = Model(name="Ann")
    apply_reply(model, "play", True, None, "")
    assert model.message == ""
    apply_reply(model, "play", False, "not-your-turn", "it is seat 1's turn")
    # A code this client knows is said from the sentence table, not in the server's words.
    assert model.message == "cannot play that: it is not your move" and model.message_is_error
    apply_reply(model, "play", False, "a-newer-code", "it is seat 1's turn")
    assert model.message == "cannot play that: it is seat 1's turn"
    apply_reply(model, "catch", False, "lost-race", "UNO was called first")
    assert model.message.startswith("too late")


def test_chat_goes_to_chat_and_log() -> None:
    model = model_with(engine_view())
    apply_chat(model, "Bob", "hi")
    assert list(model.chat) == ["Bob: hi"] and "Bob: hi" in model.log[-1]


def test_the_player_who_forgot_uno_is_told_to_press_u() -> None:
    model = model_with(engine_view())
    apply_event(model, event({"kind": "exposed", "seat": 0, "seq": 1}))
    apply_event(model, event({"kind": "exposed", "seat": 1, "seq": 2}))
    assert list(model.log)[-2:] == [
        "you forgot to say UNO! press u before someone catches you",
        "Bob forgot to say UNO! (c to catch)",
    ]


def test_a_uno_said_with_a_play_is_logged_once() -> None:
    model = model_with(engine_view())
    played = {"kind": "played", "seat": 1, "card": "G6", "color": "G", "count": 1, "uno": True}
    apply_event(model, event(played))
    apply_event(model, event({"kind": "uno-called", "seat": 1, "early": False, "seq": 2}))
    apply_event(model, event({"kind": "uno-called", "seat": 2, "early": True, "seq": 3}))
    assert list(model.log)[-2:] == ["Bob played green 6 and said UNO!", "Cy said UNO!"]


def test_draw_reasons_are_words_not_codes() -> None:
    model = model_with(engine_view())
    for seq, reason in enumerate(("draw-two", "wild-draw-four", "caught", "challenge", "skip")):
        drew = {"kind": "drew", "seat": 1, "count": 2, "reason": reason, "seq": seq + 1}
        apply_event(model, event(drew))
    lines = list(model.log)[-5:]
    assert lines == [
        "Bob drew 2 cards (Draw Two)",
        "Bob drew 2 cards (Wild Draw Four)",
        "Bob drew 2 cards (caught without UNO)",
        "Bob drew 2 cards (the challenge)",
        "Bob drew 2 cards (skip)",
    ]
    assert not any("-" in line for line in lines)
    for seq, reason in enumerate(DrewReason, start=10):  # every reason has its words
        drew = {"kind": "drew", "seat": 1, "count": 1, "reason": reason.value, "seq": seq}
        apply_event(model, event(drew))
        line = list(model.log)[-1]
        assert line == "Bob drew 1 card" if reason is DrewReason.DRAW else "(" in line, line
        assert "-" not in line, line


def test_joins_and_leaves_at_the_table_are_logged() -> None:
    model = model_with(engine_view())
    state = table_state(3)
    seats = list(state.seats)
    seats[1] = dataclasses.replace(seats[1], name=None)
    apply_table_state(model, dataclasses.replace(state, seats=tuple(seats)), 0)
    seats[1] = dataclasses.replace(seats[1], name="Bot 2", bot=True)
    apply_table_state(model, dataclasses.replace(state, seats=tuple(seats)), 0)
    seats[2] = dataclasses.replace(seats[2], name="Zed")
    apply_table_state(model, dataclasses.replace(state, seats=tuple(seats)), 0)
    assert list(model.log)[-3:] == [
        "Bob left the table",
        "Bot 2 (a bot) joined the table",
        "Zed took Cy's seat",
    ]


def test_a_message_does_not_outlive_its_round_or_screen() -> None:
    model = Model(name="Ann")
    model.notify("joining Loopback den…")
    assert model.shown_message == "joining Loopback den…"
    model.connected = True  # the lobby
    assert model.shown_message == ""
    over = hand_view(["R1"], [], phase="round-over", to_act=None, round=1)
    model = model_with(over)
    model.notify("ready for the next round")
    assert model.shown_message == "ready for the next round"
    apply_view(model, hand_view(["R1", "B2"], [], round=2, to_act=1), 1.0)
    assert model.shown_message == ""


def test_a_refusal_stays_for_its_turn_and_the_next() -> None:
    model = model_with(hand_view(["R1"], [{"type": "play", "card": "R1"}]))
    model.notify("play refused: it does not match", error=True)
    apply_view(model, hand_view(["R1"], [{"type": "play", "card": "R1"}], exposed=[1]), 1.0)
    assert model.shown_message == "play refused: it does not match"
    apply_view(model, hand_view(["R1"], [], to_act=1), 2.0)
    assert model.shown_message == "play refused: it does not match"
    apply_view(model, hand_view(["R1"], [], to_act=2), 3.0)
    assert model.shown_message == ""


def test_a_challenge_of_your_own_wild_draw_four_reads_your() -> None:
    body = {"kind": "challenged", "seat": 1, "target": 0, "guilty": False}

    def name(seat: int | None) -> str:
        return {0: "you", 1: "Bot 3"}.get(seat or 0, "?")

    assert describe_event(event(body), name) == "Bot 3 challenged your Wild Draw Four: it was legal"
    body = {"kind": "challenged", "seat": 0, "target": 1, "guilty": True}
    assert describe_event(event(body), name).startswith("you challenged Bot 3's")


def test_a_refused_way_into_a_table_says_cannot() -> None:
    model = Model(name="Lou", connected=True)
    apply_reply(model, "spectate", False, "banned", "the host has banned you from this table")
    assert model.message == "cannot watch the table: the host has banned you from this table"
    apply_reply(model, "kick", False, "not-host", "only the host may do that")
    assert model.message == "cannot remove the player: only the host may do that"
