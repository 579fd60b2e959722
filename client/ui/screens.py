"""The screens around the game: too small, help, finding a server, a server's lobby."""

from __future__ import annotations

from typing import Any

from client.ui.controller import form_fields
from client.ui.keys import KEY_HINTS
from client.ui.layout import Line, rule, text_line
from client.ui.model import Mode, Model

__all__ = [
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "find_screen",
    "footer",
    "header",
    "help_screen",
    "lobby_screen",
    "too_small_screen",
]

MIN_WIDTH = 60
MIN_HEIGHT = 20


def too_small_screen(width: int, height: int) -> list[Line]:
    return [
        text_line("The terminal is too small for uno-lan.", "class:error"),
        text_line(f"It needs {MIN_WIDTH}x{MIN_HEIGHT}; it is {width}x{height}."),
        text_line("Enlarge the window; the game goes on."),
    ]


def help_screen(model: Model) -> list[Line]:
    lines = [text_line("uno-lan: keys", "class:title"), []]
    lines += [text_line(f"  {key:<14} {what}") for key, what in KEY_HINTS]
    lines += [
        [],
        text_line("Cards: R/Y/G/B colour letter, then the number or symbol:"),
        text_line("  ⊘ Skip  ⟲ Reverse  +2 Draw Two  W Wild  W+4 Wild Draw Four"),
        text_line(
            "  W⇄ Swap Hands  W≋ Shuffle Hands  W✱ Customizable  W♪ Dancing Wild  W✸ Creeper"
        ),
        [],
        text_line("Press ? or Esc to go back.", "class:hint"),
    ]
    return lines


def header(model: Model, title: str) -> Line:
    where = model.address or "no server"
    state = "connected" if model.connected else model.status
    return [("class:title", f" UNO · {title} "), ("class:hint", f"  {state} · {where}")]


def find_screen(model: Model, height: int) -> list[Line]:
    lines = [header(model, "find a game"), rule(), []]
    lines.append(text_line(f"  You are {model.name}.  {model.status}"))
    lines.append([])
    lines.append(text_line("  Servers found on this network:", "class:title"))
    if model.discovered:
        for name, host, port in model.discovered:
            lines.append(text_line(f"    {name}  {host}:{port}"))
    else:
        lines.append(text_line("    (none found: type the address instead)", "class:hint"))
    lines.append([])
    if model.mode is Mode.ADDRESS:
        lines.append(text_line(f"  Server address (HOST:PORT): {model.text}▏", "class:input"))
    else:
        lines.append(text_line("  Press a to type a server's address (HOST:PORT).", "class:hint"))
    lines += footer(model, height - len(lines), "a address · ? help · q quit")
    return lines


def lobby_screen(model: Model, height: int) -> list[Line]:
    title = model.server_name or "server"
    lines = [header(model, title), rule("tables")]
    if model.mode is Mode.CREATE:
        lines += _form(model)
    elif not model.tables:
        lines.append(text_line("  No tables yet. Press n to create one.", "class:hint"))
    else:
        lines.append(text_line(f"   {'name':<22} {'state':<15} {'seats':<7} {'host':<16} lock"))
        for index, table in enumerate(model.tables):
            marker = "▶" if index == model.table_index else " "
            style = "class:picked" if index == model.table_index else ""
            seats = f"{table.taken}/{table.seats}"
            lock = "yes" if table.locked else ""
            lines.append(
                text_line(
                    f" {marker} {table.name:<22} {table.state.value:<15} {seats:<7} "
                    f"{(table.host or ''):<16} {lock}",
                    style,
                )
            )
    keys = (
        "↑/↓ option · ←/→ change · Enter create · Esc back"
        if model.mode is Mode.CREATE
        else "↑/↓ table · Enter join · s spectate · n new table · r refresh · q quit"
    )
    lines += footer(model, height - len(lines), keys)
    return lines


def _form(model: Model) -> list[Line]:
    lines = [text_line("  New table (←/→ changes the selected option):", "class:title")]
    rows: list[tuple[str, Any]] = [("name", model.form.get("name", ""))]
    rows += [(f.name, model.form.get(f.name, f.default)) for f in form_fields()]
    for index, (name, value) in enumerate(rows):
        marker = "▶" if index == model.form_index else " "
        style = "class:picked" if index == model.form_index else ""
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        lines.append(text_line(f"  {marker} {name.replace('_', ' '):<22} {shown}", style))
    return lines


def footer(model: Model, room: int, keys: str) -> list[Line]:
    lines: list[Line] = [[] for _ in range(max(0, room - 2))]
    style = "class:error" if model.message_is_error else "class:message"
    lines.append(text_line(f" {model.message}", style))
    lines.append(text_line(f" {keys}", "class:keys"))
    return lines
