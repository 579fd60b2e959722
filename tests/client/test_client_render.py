"""render(): the screens as text, at exact sizes, with and without colour."""

from __future__ import annotations

import dataclasses

from client_builders import engine_view, event, hand_view, model_with, table_state
from prompt_toolkit.utils import get_cwidth

from client.ui.controller import Controller
from client.ui.faces import card_label, sort_hand
from client.ui.model import Mode, Model, apply_event, apply_table_state, apply_view
from client.ui.render import MIN_HEIGHT, MIN_WIDTH, render
from client.ui.table_form import row_text
from protocol.messages import TableStatus, TableSummary


def screen(model: Model, width: int = 100, height: int = 30, now: float = 0.0) -> list[str]:
    fragments = render(model, width, height, now)
    return "".join(fragment[1] for fragment in fragments).split("\n")


def styles_of(model: Model, text: str) -> list[str]:
    return [f[0] for f in render(model, 100, 30, 0.0) if f[1].strip() == text]


def test_every_screen_is_exactly_the_terminal_size() -> None:
    models = [Model(name="Ann"), Model(name="Ann", connected=True), model_with(engine_view())]
    for model in models:
        for width, height in ((60, 20), (100, 30), (200, 60)):
            lines = screen(model, width, height)
            assert len(lines) == height
            assert all(get_cwidth(line) == width for line in lines), model.screen


def test_too_small_says_so() -> None:
    lines = screen(model_with(engine_view()), MIN_WIDTH - 1, MIN_HEIGHT)
    assert "too small" in lines[0]
    assert f"{MIN_WIDTH}x{MIN_HEIGHT}" in lines[1]


def test_table_shows_hand_seats_turn_discard_and_clock() -> None:
    view = engine_view(seats=3, seed=4, deck="modern-swap")  # hand R1 G0 G1 G7 G8 G2 W+4, top G9
    model = model_with(view)
    model.selected = 0
    text = "\n".join(screen(model, now=12.2))
    assert "[R1]" in text and "G7" in text and "W+4" in text
    assert "Discard:  G9" in text and "colour in force: GREEN" in text
    assert "▶ Ann (you)" in text and "Bob" in text and "Cy" in text
    assert "YOUR TURN" in text and "0:48" in text
    assert "clockwise" in text
    assert "Enter play" in text and "d draw" in text


def test_legal_cards_are_marked_in_text_and_style() -> None:
    model = model_with(
        engine_view(seats=3, seed=4, deck="modern-swap")
    )  # R1 cannot be played on G9
    model.selected = 0
    lines = screen(model)
    hand_row = next(i for i, line in enumerate(lines) if "[R1]" in line)
    marks = lines[hand_row + 1]
    assert "△" in marks  # the selected R1 is not playable
    assert marks.count("•") == 6
    assert any("card-g" in style and "off" not in style for style in styles_of(model, "G7"))
    assert any("card-r-off" in style for style in styles_of(model, "[R1]"))


def test_other_players_marks() -> None:
    view = hand_view(["R1", "R2"], [], counts=[2, 1, 6], exposed=[1], to_act=2, scores=[5, 0, 9])
    model = model_with(view)
    text = "\n".join(screen(model))
    bob = next(line for line in text.split("\n") if "Bob" in line)
    assert "1 card" in bob and "UNO!" in bob and "FORGOT UNO" in bob
    assert "▶ Cy" in text and "Cy's turn" in text


def test_pickers_dance_and_confirmation_are_shown() -> None:
    model = model_with(
        hand_view(["W"], [{"type": "play", "card": "W", "color": c} for c in "RYGB"])
    )
    Controller(model, lambda intent: None).play_selected()
    text = "\n".join(screen(model))
    assert "Choose the colour" in text and "[red]" in text and "r/y/g/b" in text
    dance = {"seat": 0, "dance": "idol", "steps": ["up", "right"]}
    legal = [{"type": "dance", "steps": ["up", "right"]}, {"type": "refuse-dance"}]
    model = model_with(hand_view(["R1"], legal, phase="dance", dance=dance))
    model.dance_steps = ["up"]
    text = "\n".join(screen(model))
    assert "Dance idol: ↑ →" in text and "Your steps:   ↑" in text
    model = model_with(engine_view())
    model.mode = Mode.CONFIRM_LEAVE
    assert "Leave the match?" in "\n".join(screen(model))


def test_round_and_match_results() -> None:
    result = {
        "round": 3,
        "winner": 1,
        "reason": "out",
        "hands": [["R1", "W"], [], ["B+2"]],
        "points": [51, 0, 20],
        "gained": [0, 71, 0],
        "scores": [10, 520, 40],
        "eliminated": [],
    }
    match_result = {"winners": [1], "scores": [10, 520, 40]}
    view = hand_view(
        [],
        [],
        phase="match-over",
        to_act=None,
        pending=None,
        round_result=result,
        match_result=match_result,
    )
    model = model_with(view)
    text = "\n".join(screen(model))
    assert "Bob won round 3!" in text and "Bob won the match!" in text
    assert "+71" in text and "520" in text and "R1 W" in text
    assert "r: rematch with the same seats · q: leave" in text  # Ann hosts
    model.solo = True  # q quits the program in solo play, and the pane says so
    assert "r: rematch with the same seats · q: quit" in "\n".join(screen(model))


def test_log_shows_the_latest_events() -> None:
    model = model_with(engine_view())
    for number in range(60):
        apply_event(model, event({"kind": "passed", "seat": 1, "stuck": False, "seq": number + 1}))
    played = {"kind": "played", "seat": 2, "card": "B7", "color": "B", "count": 3, "seq": 61}
    apply_event(model, event(played))
    lines = screen(model)
    assert any("Cy played blue 7" in line for line in lines)


def test_lobby_and_find_screens() -> None:
    model = Model(name="Ann", connected=True, server_name="Kitchen")
    model.tables = [
        TableSummary(table_id="t1", name="Friday", state=TableStatus.LOBBY, seats=4, taken=2),
        TableSummary(table_id="t2", name="Late", state=TableStatus.PLAYING, seats=3, taken=3),
    ]
    text = "\n".join(screen(model))
    assert "Kitchen" in text and "▶ Friday" in text and "2/4" in text and "playing" in text
    find = "\n".join(screen(Model(name="Ann")))
    assert "none found" in find and "a to type" in find


def test_waiting_room_for_the_host() -> None:
    model = Model(name="Ann", connected=True)
    apply_table_state(model, table_state(3, TableStatus.LOBBY), 0)
    text = "\n".join(screen(model))
    assert "Waiting for the match to start" in text and "b add a bot" in text


def test_help_lists_the_keys() -> None:
    model = model_with(engine_view())
    model.mode = Mode.HELP
    text = "\n".join(screen(model, 100, 60))  # tall enough for the whole page
    for key in ("Enter", "catch", "challenge", "dance", "chat", "leave"):
        assert key in text


def test_round_results_show_every_card_of_a_long_hand_sorted() -> None:
    long_hand = ["W", "B9", "R1", "G3", "Y+2", "B1", "R7", "GS", "W+4", "Y5", "R2"] * 2 + ["G1"]
    result = {
        "round": 1,
        "winner": 1,
        "reason": "out",
        "hands": [long_hand, [], ["B+2"]],
        "points": [400, 0, 20],
        "gained": [0, 420, 0],
        "scores": [0, 420, 0],
        "eliminated": [],
    }
    view = hand_view([], [], phase="round-over", to_act=None, pending=None, round_result=result)
    model = model_with(view)
    lines = screen(model, width=100, height=30)
    row = next(i for i, line in enumerate(lines) if line.startswith("   you "))
    shown: list[str] = []
    for line in lines[row:]:
        if line.startswith("   Bob "):
            break
        shown += line.split("total")[1].split()[1:] if "total" in line else line.split()
    assert len(shown) == len(long_hand) == 23
    assert shown == [card_label(code) for code in sort_hand(long_hand)]
    assert all(len(line.rstrip()) <= 100 for line in lines)


def keys_line(model: Model) -> str:
    lines = screen(model)
    return " ".join(line for line in lines[-3:] if "?" in line or "·" in line)


def test_the_keys_line_shows_only_the_keys_that_work_now() -> None:
    over = hand_view(["R1"], [], phase="round-over", to_act=None, pending=None)
    model = model_with(over)
    model.table = table_state(3, TableStatus.BETWEEN_ROUNDS)
    keys = keys_line(model)
    assert "Enter ready" in keys
    for stale in ("p pass", "u UNO", "c catch", "y challenge", "d draw"):
        assert stale not in keys, stale
    drawn = hand_view(["R1", "Y5"], [{"type": "play", "card": "Y5"}, {"type": "pass"}], drawn="Y5")
    keys = keys_line(model_with(drawn))
    assert "Enter play the drawn Y5" in keys and "p pass" in keys and "d draw" not in keys
    waiting = hand_view(["R1"], [{"type": "catch", "target": 2}], to_act=1)
    keys = keys_line(model_with(waiting))
    assert "c catch" in keys and "Enter play" not in keys and "p pass" not in keys


def test_between_rounds_a_countdown_to_the_next_round() -> None:
    over = hand_view(["R1"], [], phase="round-over", to_act=None, pending=None, remaining_ms=8000)
    model = model_with(over)
    text = "\n".join(screen(model, now=2.5))
    assert "the next round starts in 0:06" in text


def test_the_log_scrolls_back_with_page_up(drive) -> None:
    model = model_with(engine_view())
    for number in range(60):
        passed = {"kind": "passed", "seat": 1 + number % 2, "stuck": False, "seq": number + 1}
        apply_event(model, event(passed))
        card = f"B{number % 10}"
        played = {"kind": "played", "seat": 1, "card": card, "color": "B", "count": 3}
        apply_event(model, event({**played, "seq": number + 1}))
    assert model.log[0] == "Bob passed"
    controller, _ = drive(model)
    controller.scroll_log(1000)
    text = "\n".join(line.strip() for line in screen(model))
    assert "Bob passed\nBob played blue 0\nCy passed" in text
    assert "newer lines below" in text
    apply_event(
        model, event({"kind": "passed", "seat": 2, "stuck": False, "seq": 99})
    )  # news keeps the place
    assert "Bob passed\nBob played blue 0\nCy passed" in "\n".join(x.strip() for x in screen(model))
    controller.scroll_log(0)
    lines = screen(model)
    log_end = next(i for i, line in enumerate(lines) if line.startswith(" Your hand"))
    assert lines[log_end - 1].strip() == "Cy passed"
    assert "Bob played blue 0\n" not in "\n".join(line.strip() for line in lines)


def test_help_over_the_table_says_your_clock_runs() -> None:
    model = model_with(engine_view())
    model.mode = Mode.HELP
    text = "\n".join(screen(model, now=10.0))
    assert "YOUR TURN: ⏱ 0:50 left" in text and "Esc to go back" in text


def test_in_solo_q_says_it_quits() -> None:
    model = model_with(engine_view(), solo=True)
    model.mode = Mode.CONFIRM_LEAVE
    text = "\n".join(screen(model))
    assert "Quit the game?" in text and "A bot will play your seat" not in text
    assert "y quit" in text


def test_between_rounds_a_spectator_is_not_asked_to_say_ready() -> None:
    view = hand_view([], [], phase="round-over", to_act=None)
    model = model_with(view)
    assert model.table is not None
    model.table = dataclasses.replace(model.table, state=TableStatus.BETWEEN_ROUNDS)
    model.spectating = True
    text = "\n".join(screen(model))
    assert "Round over" in text
    assert "ready for the next round" not in text and "you are ready" not in text


def test_a_cut_header_ends_in_an_ellipsis() -> None:
    model = model_with(engine_view())
    assert model.table is not None
    model.table = dataclasses.replace(model.table, name="A very long table name for us")
    header = screen(model, width=60, height=20)[0]
    assert header.endswith("…") and len(header) == 60
    wide = screen(model, width=200, height=30)[0]
    assert "127.0.0.1:7531" in wide and "…" not in wide


def test_between_rounds_a_ready_player_is_told_the_others_are_waited_for() -> None:
    view = hand_view([], [], phase="round-over", to_act=None)
    model = model_with(view)
    assert model.table is not None
    model.table = dataclasses.replace(model.table, state=TableStatus.BETWEEN_ROUNDS)
    text = "\n".join(screen(model))
    assert "Enter: ready for the next round" in text and "Enter ready for the next" in text
    seats = list(model.table.seats)
    seats[0] = dataclasses.replace(seats[0], ready=True)
    model.table = dataclasses.replace(model.table, seats=tuple(seats))
    text = "\n".join(screen(model))
    assert "you are ready; waiting for the others" in text
    assert "Enter ready for the next round" not in text and "Enter:" not in text


def test_a_teaching_tables_spectator_sees_every_hand_and_a_player_does_not() -> None:
    watching = Model(name="Pupil", connected=True)
    apply_table_state(watching, table_state(3), None)
    shown = engine_view(seat=None, spectators_see_hands=True)
    assert shown.hands is not None
    apply_view(watching, shown, 0.0)
    text = "\n".join(screen(watching))
    for hand in shown.hands:
        assert " ".join(card_label(card.code) for card in hand) in text
    playing = model_with(engine_view(spectators_see_hands=True))
    assert playing.view is not None and playing.view.hands is None
    others = [engine_view(seat=None, spectators_see_hands=True).hands]
    assert others[0] is not None
    theirs = " ".join(card_label(card.code) for card in others[0][1])
    assert theirs not in "\n".join(screen(playing))


def test_the_lobby_and_the_form_say_a_teaching_table_shows_every_hand() -> None:
    teaching = TableSummary(
        table_id="t1", name="Class", state=TableStatus.PLAYING, seats=2, taken=2,
        spectators_see_hands=True,
    )  # fmt: skip
    model = Model(name="Di", connected=True, tables=[teaching])
    assert "spectators see every hand" in "\n".join(screen(model))
    words = row_text({"spectators_see_hands": True}, "spectators_see_hands", False)
    assert "trust" in words and "anyone watching sees all the cards" in words
    assert row_text({}, "spectators_see_hands", False) == "server's default (usually off)"
