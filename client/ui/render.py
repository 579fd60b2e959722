"""Render the model as formatted text; the table screen is drawn here.

``render(model, width, height, now)`` returns prompt-toolkit fragments for the whole
screen, exactly ``height`` lines of at most ``width`` cells. It reads only the model and
the time it is given, so tests call it directly and the benchmark measures it alone. The
app wraps it as ``FormattedTextControl(lambda: render(model, ...))``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from client.ui.faces import card_label, color_name, sort_hand
from client.ui.layout import Line, assemble, clock_text, rule, text_line, wrap_keys
from client.ui.model import Mode, Model, Screen
from client.ui.screens import (
    MIN_HEIGHT,
    MIN_WIDTH,
    find_screen,
    header,
    help_screen,
    lobby_screen,
    too_small_screen,
)
from protocol.commands import (
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from protocol.messages import TableStatus
from protocol.options import DeckName

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "CardClick", "render"]

CardClick = Callable[[int], None]

_ARROWS: dict[str, str] = {Arrow.UP: "↑", Arrow.DOWN: "↓", Arrow.LEFT: "←", Arrow.RIGHT: "→"}


def render(
    model: Model, width: int, height: int, now: float, on_card: CardClick | None = None
) -> StyleAndTextTuples:
    """The whole screen as fragments (see the module docstring)."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        lines = too_small_screen(width, height)
    elif model.mode is Mode.HELP:
        lines = help_screen(model, now)
    elif model.screen is Screen.FIND:
        lines = find_screen(model, height)
    elif model.screen is Screen.LOBBY:
        lines = lobby_screen(model, height)
    else:
        lines = _table(model, width, height, now, on_card)
    return assemble(lines, width, height)


# -- the table --------------------------------------------------------------------------


def _table(
    model: Model, width: int, height: int, now: float, on_card: CardClick | None
) -> list[Line]:
    table = model.table
    assert table is not None
    options = table.options
    view = model.view or {}
    round_no = view.get("round")
    title = f"{table.name} · {options.get('deck', DeckName.CLASSIC.value)}"
    if round_no:
        title += f" · round {round_no}"
    if model.spectating:
        title += " · watching"
    lines: list[Line] = [header(model, title), rule("players")]
    lines += _seats(model)
    lines.append(rule())
    if view:
        lines += _discard(model)
        lines.append(_turn_line(model, now))
    else:
        lines += _waiting(model)
    bottom = _bottom(model, width, on_card)
    room = height - len(lines) - len(bottom) - 1
    lines.append(rule(_middle_title(model)))
    lines += _middle(model, width, max(room, 0))
    return lines + bottom


def _seats(model: Model) -> list[Line]:
    table = model.table
    assert table is not None
    view = model.view or {}
    counts = view.get("counts") or []
    scores = view.get("scores") or []
    exposed = set(view.get("exposed") or ())
    away = set(view.get("away") or ())
    eliminated = set(view.get("eliminated") or ())
    skip_marks = view.get("skip_marks") or []
    to_act = view.get("to_act")
    lines: list[Line] = []
    for info in table.seats:
        seat = info.seat
        turn = to_act == seat
        name = info.name or "(empty)"
        if seat == model.seat and not model.spectating:
            name += " (you)"
        tags = []
        if table.host_seat == seat:
            tags.append("host")
        if info.bot:
            tags.append("bot")
        if info.away or seat in away:
            tags.append("away")
        if seat in eliminated:
            tags.append("out")
        if seat < len(skip_marks) and skip_marks[seat]:
            tags.append("skip next")
        if info.ready and table.state in (TableStatus.BETWEEN_ROUNDS, TableStatus.LOBBY):
            tags.append("ready")
        line: Line = [
            ("class:turn" if turn else "", " ▶ " if turn else "   "),
            ("class:me" if seat == model.seat else "", f"{name:<24}"),
        ]
        if seat < len(counts):
            count = counts[seat]
            line.append(("", f"{count:>3} card{'s' if count != 1 else ' '}"))
        else:
            line.append(("", " " * 9))
        if seat < len(scores):
            line.append(("", f"{scores[seat]:>6} pts"))
        if seat < len(counts) and counts[seat] == 1:
            line.append(("class:uno", "  UNO!"))
        if seat in exposed:
            mine = seat == model.seat and not model.spectating
            line.append(
                (
                    "class:exposed",
                    "  FORGOT UNO (u: say it!)" if mine else "  FORGOT UNO (c: catch)",
                )
            )
        if tags:
            line.append(("class:hint", "  " + " · ".join(tags)))
        lines.append(line)
    if view:
        direction = view.get("direction", 1)
        arrow = "↻ clockwise" if direction == 1 else "↺ counter-clockwise"
        lines.append(text_line(f"   play goes {arrow}", "class:hint"))
    return lines


def _card_style(code: str, usable: bool) -> str:
    letter = code[0] if code[:1] in ("R", "Y", "G", "B") and code != "W" else "W"
    if code.startswith("W"):
        letter = "W"
    return f"class:card-{letter.lower()}" + ("" if usable else "-off")


def _discard(model: Model) -> list[Line]:
    view = model.view or {}
    top = view.get("top")
    color = view.get("color")
    line: Line = [("", " Discard: ")]
    if top:
        line.append((_card_style(top, True), f" {card_label(top)} "))
    else:
        line.append(("class:hint", " none "))
    line.append(("", f"   colour in force: {color_name(color).upper()}"))
    line.append(("class:hint", f"   draw pile {view.get('draw_count', 0)}"))
    pending_draw = view.get("pending_draw") or 0
    if pending_draw:
        line.append(("class:exposed", f"   +{pending_draw} waiting"))
    return [line]


def _turn_line(model: Model, now: float) -> Line:
    view = model.view or {}
    phase = view.get("phase")
    clock = clock_text(model.remaining_ms(now))
    clock_part: Line = [("class:clock", f"  ⏱ {clock}")] if clock else []
    if phase == "paused":
        return text_line(" ⏸ PAUSED by the host", "class:exposed")
    if phase == "match-over":
        return [("class:title", " Match over")]
    if phase == "round-over":
        countdown = f" · the next round starts in {clock}" if clock else ""
        return [("class:title", f" Round over{countdown} · Enter: ready for the next round")]
    to_act = view.get("to_act")
    if model.my_turn:
        prompts = {
            "turn": "YOUR TURN: play a card (Enter) or draw (d)",
            "choose-color": "YOUR TURN: choose the colour for the first card (Enter)",
            "challenge": "A Wild Draw Four on you: y challenge · n accept",
            "dance": "DANCE! enter the steps with the arrows, Enter to send, x to refuse",
            "stack": "A Draw Two on you: answer with a +2 (Enter) or d to draw",
        }
        text = prompts.get(str(phase), "YOUR TURN")
        if view.get("drawn"):
            text = f"YOUR TURN: play the drawn {card_label(view['drawn'])} (Enter) or pass (p)"
        return [("class:myturn", f" ▶ {text}"), *clock_part]
    who = model.seat_name(to_act)
    waiting = {
        "challenge": f"{who} decides whether to challenge",
        "dance": f"{who} must dance",
        "choose-color": f"{who} chooses the colour",
        "stack": f"{who} answers the Draw Two",
    }.get(str(phase), f"{who}'s turn")
    return [("", f"   {waiting}"), *clock_part]


def _waiting(model: Model) -> list[Line]:
    table = model.table
    assert table is not None
    taken = sum(1 for s in table.seats if s.name)
    lines = [text_line(f" Waiting for the match to start: {taken}/{len(table.seats)} seats taken.")]
    if model.is_host:
        lines.append(
            text_line(" You are the host: b add a bot · x remove a bot · s start", "class:hint")
        )
    else:
        lines.append(text_line(" The host starts the match.", "class:hint"))
    return lines


def _middle_title(model: Model) -> str:
    if model.mode is Mode.PICK and model.picker is not None:
        return model.picker.title
    if model.mode is Mode.DANCE:
        return "the dance"
    if model.phase in ("round-over", "match-over"):
        return "results"
    return "what happened"


def _middle(model: Model, width: int, room: int) -> list[Line]:
    if room <= 0:
        return []
    if model.mode is Mode.PICK and model.picker is not None:
        lines = _picker(model)
    elif model.mode is Mode.DANCE:
        lines = _dance(model)
    elif model.mode is Mode.CONFIRM_LEAVE:
        question = (
            " Quit the game? The private server stops with it. y yes · n no"
            if model.solo
            else " Leave the match? A bot will play your seat. y yes · n no"
        )
        lines = [text_line(question, "class:error")]
    elif model.phase in ("round-over", "match-over"):
        lines = _results(model, width)
    else:
        lines = []
    log_room = room - len(lines)
    if log_room > 0:
        entries = list(model.log)
        scroll = model.log_scroll
        if scroll:
            log_room -= 1  # the last line says how much is below
            scroll = max(0, min(scroll, len(entries) - log_room))  # the oldest at the top
        if scroll:
            entries = entries[:-scroll]
        shown = entries[-log_room:] if log_room > 0 else []
        log = [text_line(f" {entry}", "class:log") for entry in shown]
        if scroll:
            more = f" ↓ {scroll} newer line{'s' if scroll != 1 else ''} below · PgDn / End"
            log.append(text_line(more, "class:hint"))
        lines = log + lines
        lines = [[] for _ in range(room - len(lines))] + lines
    return lines[-room:]


def _picker(model: Model) -> list[Line]:
    picker = model.picker
    assert picker is not None
    line: Line = [("", " ")]
    for index, (value, label) in enumerate(picker.options):
        text = f"[{label}]" if index == picker.index else f" {label} "
        style = "class:picked" if index == picker.index else ""
        if picker.purpose == "color":
            style += f" class:card-{str(value).lower()}"
        line.append((style, text))
        line.append(("", " "))
    hint = "←/→ choose · Enter confirm · Esc cancel"
    if picker.purpose == "color":
        hint = "r/y/g/b or ←/→ and Enter · Esc cancel"
    elif all(isinstance(value, int) for value, _ in picker.options):
        hint = "←/→ or the seat's digit, then Enter confirm · Esc cancel"
    return [line, text_line(f" {hint}", "class:hint")]


def _dance(model: Model) -> list[Line]:
    view = model.view or {}
    dance = view.get("dance") or {}
    steps = dance.get("steps")
    name = dance.get("dance") or "the dance"
    if steps is None:
        return [
            text_line(f" Dance {name}! (honour rule) Enter: I danced · x refuse", "class:myturn"),
        ]
    wanted = " ".join(_ARROWS.get(step, step) for step in steps)
    typed = " ".join(_ARROWS.get(step, step) for step in model.dance_steps)
    return [
        text_line(f" Dance {name}: {wanted}", "class:myturn"),
        text_line(f" Your steps:   {typed}▏"),
        text_line(" arrows add a step · Backspace undo · Enter send · x refuse", "class:hint"),
    ]


def _results(model: Model, width: int) -> list[Line]:
    view = model.view or {}
    result = view.get("round_result") or {}
    match = view.get("match_result")
    lines: list[Line] = []
    winner = result.get("winner")
    if winner is not None:
        lines.append(
            text_line(f" {model.seat_name(winner)} won round {result.get('round')}!", "class:title")
        )
    hands = result.get("hands") or []
    points = result.get("points") or []
    gained = result.get("gained") or []
    scores = result.get("scores") or view.get("scores") or []
    for seat, hand in enumerate(hands):
        start = (
            f"   {model.seat_name(seat):<16} {_at(points, seat):>4} in hand "
            f"{'+' + str(_at(gained, seat)) if _at(gained, seat) else '':>6} "
            f"total {_at(scores, seat):>5}   "
        )
        labels = [card_label(code) for code in sort_hand(list(hand))] or ["(out)"]
        rows = _wrap_labels(labels, width - get_cwidth(start) - 1)
        lines.append(text_line(start + rows[0]))
        lines += [text_line(" " * get_cwidth(start) + row) for row in rows[1:]]
    if match:
        winners = " and ".join(model.seat_name(s) for s in match.get("winners") or [])
        lines.append(text_line(f" {winners} won the match!", "class:myturn"))
        if model.is_host:
            lines.append(text_line(" r: rematch with the same seats · q: leave", "class:hint"))
        else:
            lines.append(text_line(" The host may start a rematch. q: leave", "class:hint"))
    return lines


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


def _bottom(model: Model, width: int, on_card: CardClick | None) -> list[Line]:
    lines: list[Line] = []
    if model.view and not model.spectating:
        lines += _hand(model, width, on_card)
    if model.mode is Mode.CHAT:
        lines.append(text_line(f" say: {model.text}▏", "class:input"))
    else:
        style = "class:error" if model.message_is_error else "class:message"
        lines.append(text_line(f" {model.shown_message}", style))
    lines += [text_line(line, "class:keys") for line in wrap_keys(_keys(model), width)]
    return lines


def _hand(model: Model, width: int, on_card: CardClick | None) -> list[Line]:
    hand = model.hand
    playable = {c.get("card") for c in model.legal_of(Play.TYPE)}
    selected = min(model.selected, max(len(hand) - 1, 0))
    title = f" Your hand ({len(hand)})"
    if model.uno_armed:
        title += "  · UNO armed: you will say UNO with your play"
    lines: list[Line] = [text_line(title, "class:title")]
    cards: Line = [("", " ")]
    marks: Line = [("", " ")]
    used = 1
    previous_group = None
    for index, code in enumerate(hand):
        group = "W" if code.startswith("W") else code[0]
        gap = "  " if previous_group is not None and group != previous_group else " "
        previous_group = group
        label = card_label(code)
        shown = f"[{label}]" if index == selected else f" {label} "
        cell = get_cwidth(shown) + get_cwidth(gap)
        if used + cell > width - 1:
            lines += [cards, marks]
            cards, marks, used, gap = [("", " ")], [("", " ")], 1, ""
        usable = code in playable
        style = _card_style(code, usable) + (" class:selected" if index == selected else "")
        cards.append(("", gap))
        if on_card is not None:
            cards.append((style, shown, _click_handler(on_card, index)))
        else:
            cards.append((style, shown))
        mark = _MARKS[index == selected, usable]
        size = get_cwidth(shown)
        marks.append(("", gap))
        marks.append(("class:mark", mark.center(size)))
        used += cell
    lines += [cards, marks]
    return lines


_MARKS = {(True, True): "▲", (True, False): "△", (False, True): "•", (False, False): " "}
"""Under each card: selected (playable or not), playable, neither. Readable without colour."""


def _click_handler(on_card: CardClick, index: int) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_card(index)

    return handler


def _keys(model: Model) -> str:
    if model.mode is Mode.CHAT:
        return "Enter send · Esc cancel"
    if model.mode is Mode.CONFIRM_LEAVE:
        return "y quit · n stay" if model.solo else "y leave · n stay"
    if model.mode is Mode.PICK:
        return "←/→ choose · Enter confirm · Esc cancel"
    if model.mode is Mode.DANCE:
        return "←↑↓→ steps · Backspace undo · Enter send · x refuse · Esc clear"
    if model.spectating:
        return "t chat · ? help · q leave"
    if model.view is None:
        host = "b bot · x remove bot · s start · k kick · " if model.is_host else ""
        return f"{host}t chat · ? help · q leave"
    keys = _game_keys(model)
    keys += ["PgUp log", "t chat", "? help", "q quit" if model.solo else "q leave"]
    if model.is_host:
        if model.phase == "match-over":
            keys.append("r rematch")
        else:
            keys.append("P go on" if model.phase == "paused" else "P pause")
    return " · ".join(keys)


def _game_keys(model: Model) -> list[str]:
    """The game's keys that do something now, in the order a player needs them."""
    phase = model.phase
    if phase == "round-over":
        return ["Enter ready for the next round"]
    if phase in ("match-over", "paused"):
        return []
    kinds = {command.get("type") for command in model.legal}
    keys = ["←/→ select"] if model.hand else []
    if model.my_turn:
        drawn = (model.view or {}).get("drawn")
        if ChooseColor.TYPE in kinds:
            keys.append("Enter choose the colour")
        elif drawn and Play.TYPE in kinds:
            keys.append(f"Enter play the drawn {card_label(drawn)}")
        elif Play.TYPE in kinds:
            keys.append("Enter play")
        if Draw.TYPE in kinds:
            keys.append("d draw")
        if Pass.TYPE in kinds:
            keys.append("p pass")
        if Challenge.TYPE in kinds or Accept.TYPE in kinds:
            keys.append("y challenge · n accept")
    if CallUno.TYPE in kinds or any(c.get("uno") for c in model.legal_of(Play.TYPE)):
        keys.append("u UNO")
    if Catch.TYPE in kinds:
        keys.append("c catch")
    return keys
