"""The log's one table of sentences (client/ui/sentences.py): the terminal reads it, the
page's copy is current, and a stack of draw cards is named as a stack (issue 26 item 8)."""

from __future__ import annotations

from enum import StrEnum
from importlib.resources import files
from typing import Any

from client_builders import NAMES, engine_view, event, model_with

from client.ui.describe import describe_event
from client.ui.model import apply_event
from client.ui.page_copy import page_module
from client.ui.sentences import SENTENCES, coded, plural, say
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.messages import LeftCause, LeftReason, MatchNote
from protocol.rejections import RejectCode


def test_the_pages_copy_of_the_sentences_is_current() -> None:
    shipped = files("server") / "web" / "sentences.js"
    assert shipped.read_text(encoding="utf-8") == page_module(), (
        "server/web/sentences.js is out of date: run `make web-sentences`"
    )


def test_placeholders_are_filled_by_name_and_plurals_are_entries() -> None:
    assert say("caught", by="Ann", player="Bob", penalty=2) == "Ann caught Bob: draws 2"
    assert say(plural("cards", 1), count=1) == "1 card"
    assert say(plural("cards", 3), count=3) == "3 cards"
    # A name that looks like a placeholder is left as it is, not filled in again.
    assert say("back", player="{player}") == "{player} is back"
    for key, text in SENTENCES.items():
        assert text.count("{") == text.count("}"), key


def _played(seat: int, card: str, color: str = "R") -> dict[str, Any]:
    return {"kind": "played", "seat": seat, "card": card, "color": color, "count": 5}


def _log_after(bodies: list[dict[str, Any]], cards: list[str] | None = None) -> list[str]:
    model = model_with(engine_view())
    for seq, body in enumerate(bodies, start=1):
        data = {"seq": seq, **body}
        if cards is not None and body["kind"] == "drew":
            data["cards"] = cards
        apply_event(model, event(data))
    return list(model.log)


def test_a_stack_of_draw_twos_is_named_as_a_stack() -> None:
    bodies = [
        _played(1, "R+2"),
        _played(2, "G+2", "G"),
        _played(0, "B+2", "B"),
        {"kind": "drew", "seat": 1, "count": 6, "reason": "draw-two"},
    ]
    assert _log_after(bodies)[-1] == f"{NAMES[1]} drew 6: a stack of three Draw Twos"


def test_the_drawer_reads_the_stack_and_the_cards() -> None:
    bodies = [
        _played(1, "W+4", "G"),
        _played(2, "W+4", "B"),
        {"kind": "drew", "seat": 0, "count": 8, "reason": "wild-draw-four"},
    ]
    line = _log_after(bodies, cards=["R1", "R2", "G3", "G4", "B5", "B6", "Y7", "Y8"])[-1]
    assert line == "you drew 8: a stack of two Wild Draw Fours (R1 R2 G3 G4 B5 B6 Y7 Y8)"


def test_a_mixed_stack_and_a_single_draw_two() -> None:
    mixed = [
        _played(1, "R+2"),
        _played(2, "W+4", "B"),
        {"kind": "drew", "seat": 0, "count": 6, "reason": "wild-draw-four"},
        _played(2, "B+2", "B"),
        {"kind": "drew", "seat": 0, "count": 2, "reason": "draw-two"},
    ]
    log = _log_after(mixed)
    assert log[2] == "you drew 6: a stack of two draw cards"
    # The stack was paid for: the next Draw Two alone reads as before.
    assert log[-1] == "you drew 2 cards (Draw Two)"


def test_a_catch_in_the_middle_of_a_stack_does_not_end_it() -> None:
    bodies = [
        _played(1, "R+2"),
        {"kind": "drew", "seat": 1, "count": 2, "reason": "caught"},
        _played(2, "G+2", "G"),
        {"kind": "drew", "seat": 0, "count": 4, "reason": "draw-two"},
    ]
    assert _log_after(bodies)[-1] == "you drew 4: a stack of two Draw Twos"


def test_describe_event_without_a_stack_reads_as_before() -> None:
    body = event({"kind": "drew", "seat": 1, "count": 2, "reason": "draw-two"})
    assert describe_event(body, lambda s: "Bob") == "Bob drew 2 cards (Draw Two)"


def test_every_code_a_server_can_send_has_a_sentence() -> None:
    coded_enums: dict[str, list[type[StrEnum]]] = {
        "rejected": [RejectCode, LobbyRejectCode],
        "error": [ErrorCode],
        "left": [LeftCause, LeftReason],
        "note": [MatchNote],
    }
    missing = [
        f"{prefix}.{code.value}"
        for prefix, enums in coded_enums.items()
        for enum in enums
        for code in enum
        if f"{prefix}.{code.value}" not in SENTENCES
    ]
    assert missing == []


def test_a_code_is_said_from_the_table_and_only_an_unknown_one_in_the_servers_words() -> None:
    assert coded("rejected", "table-full", "no room at Den") == "the table is full"
    assert coded("left", "seat-to-bot", "", host="Ann") == "Ann gave your seat to a bot"
    assert coded("rejected", "a-newer-code", "no, because") == "no, because"
    assert coded("error", "a-newer-code", "") == "a-newer-code"
    assert coded("note", None, "") == ""
