"""The panes that take the middle of the table screen: a picker, the dance, the results."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.utils import get_cwidth

from client.i18n import _
from client.ui.faces import card_label, sort_hand
from client.ui.layout import Line, text_line
from client.ui.model import Model
from client.ui.sentences import say
from protocol.commands import Arrow
from protocol.messages import TableState

__all__ = ["dance_pane", "is_seat_picker", "picker_pane", "results_pane", "seat_number"]

_ARROWS: dict[str, str] = {Arrow.UP: "↑", Arrow.DOWN: "↓", Arrow.LEFT: "←", Arrow.RIGHT: "→"}


def picker_pane(model: Model) -> list[Line]:
    """The open picker: its options in a row, the chosen one marked, and how to choose."""
    picker = model.picker
    assert picker is not None
    line: Line = [("", " ")]
    seats = is_seat_picker(picker.options)
    for index, (value, words) in enumerate(picker.options):
        label = f"{seat_number(value)} {words}" if seats else words  # the digit that picks it
        text = f"[{label}]" if index == picker.index else f" {label} "
        style = "class:picked" if index == picker.index else ""
        if picker.purpose == "color":
            style += f" class:card-{str(value).lower()}"
        line.append((style, text))
        line.append(("", " "))
    hint = _("←/→ choose · Enter confirm · Esc cancel")
    if picker.purpose == "color":
        hint = _("r/y/g/b or ←/→ and Enter · Esc cancel")
    elif seats:
        hint = _("←/→ or the seat's number, then Enter confirm · Esc cancel")
    return [line, text_line(f" {hint}", "class:hint")]


def is_seat_picker(options: list[tuple[Any, str]]) -> bool:
    """Whether a picker's options are seats (a number key then chooses one)."""
    return bool(options) and all(type(value) is int for value, _ in options)


def seat_number(seat: int) -> int:
    """The number a seat shows as and the digit that chooses it: seats count from 1 on
    screen (the tenth seat is 0, the last digit key)."""
    return (seat + 1) % 10


def dance_pane(model: Model) -> list[Line]:
    """The dance to enter: the steps the server drew and the ones typed so far."""
    dance = None if model.view is None else model.view.shared.dance
    steps = None if dance is None else dance.steps
    name = (dance.dance if dance is not None else None) or _("the dance")
    if steps is None:
        honour = _("Dance {dance}! (honour rule) Enter: I danced · x refuse").format(dance=name)
        return [text_line(f" {honour}", "class:myturn")]
    wanted = " ".join(_ARROWS.get(step, step) for step in steps)
    typed = " ".join(_ARROWS.get(step, step) for step in model.dance_steps)
    return [
        text_line(
            " " + _("Dance {dance}: {steps}").format(dance=name, steps=wanted), "class:myturn"
        ),
        text_line(" " + _("Your steps:") + f"   {typed}▏"),
        text_line(
            " " + _("arrows add a step · Backspace undo · Enter send · x refuse"), "class:hint"
        ),
    ]


def results_pane(model: Model, width: int) -> list[Line]:
    """A round's (or the match's) results: every hand as counted, its points, the totals."""
    shared = None if model.view is None else model.view.shared
    result = None if shared is None else shared.round_result
    match = None if shared is None else shared.match_result
    lines: list[Line] = []
    if result is not None:
        lines.append(
            text_line(
                " "
                + _("{player} won round {round}!").format(
                    player=model.seat_name(result.winner), round=result.round
                ),
                "class:title",
            )
        )
    hands = [[card.code for card in hand] for hand in result.hands] if result else []
    points = list(result.points) if result else []
    gained = list(result.gained) if result else []
    scores = list(result.scores if result else shared.scores if shared else ())
    for seat, hand in enumerate(hands):
        start = (
            f"   {model.seat_name(seat):<16} {_at(points, seat):>4} {_('in hand')} "
            f"{'+' + str(_at(gained, seat)) if _at(gained, seat) else '':>6} "
            f"{_('total')} {_at(scores, seat):>5}   "
        )
        labels = [card_label(code) for code in sort_hand(hand)] or [_("(out)")]
        rows = _wrap_labels(labels, width - get_cwidth(start) - 1)
        lines.append(text_line(start + rows[0]))
        lines += [text_line(" " * get_cwidth(start) + row) for row in rows[1:]]
    if match:
        winners = say("and").join(model.seat_name(s) for s in match.winners)
        won = _("{players} won the match!").format(players=winners)
        lines.append(text_line(f" {won}", "class:myturn"))
        leave = _("q: quit") if model.solo else _("q: leave")
        if model.records.replays:
            leave = _("e: save the replay · {leave}").format(leave=leave)
        if model.replaying:
            pass  # the viewer's keys line says what comes next
        elif (table := model.table) is not None and table.rematch_asked:
            lines.append(text_line(f" {_rematch_answers(table)} · {leave}", "class:hint"))
        elif model.is_host:
            rematch = _("r: rematch with the same seats")
            lines.append(text_line(f" {rematch} · {leave}", "class:hint"))
        else:
            lines.append(text_line(f" {_('The host may start a rematch.')} {leave}", "class:hint"))
    return lines


def _rematch_answers(table: TableState) -> str:
    """Who said ready for the host's rematch, and who is waited for (bots are ready)."""
    ready = [seat.name for seat in table.seats if seat.name and (seat.ready or seat.bot)]
    waited = [
        seat.name for seat in table.seats if seat.name and not (seat.ready or seat.bot or seat.away)
    ]
    said = _("Ready for the rematch: {names}").format(names=", ".join(ready) or _("nobody yet"))
    if not waited:
        return said
    return _("{ready} · waiting for {names}").format(ready=said, names=", ".join(waited))


def _wrap_labels(labels: list[str], room: int) -> list[str]:
    """Card labels joined by spaces, in rows of at most ``room`` cells (one at least)."""
    rows: list[str] = []
    row = ""
    for label in labels:
        joined = f"{row} {label}" if row else label
        if row and get_cwidth(joined) > room:
            rows.append(row)
            joined = label
        row = joined
    return [*rows, row]


def _at(values: list[Any], index: int) -> Any:
    return values[index] if index < len(values) else ""
