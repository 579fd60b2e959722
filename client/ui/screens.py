"""The screens around the game: too small, help, finding a server, a server's lobby."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from prompt_toolkit.utils import get_cwidth

from client.ui.keys import KEY_HINTS
from client.ui.layout import Line, clock_text, rule, text_line, wrap_keys
from client.ui.model import Mode, Model
from client.ui.page_code import page_url
from client.ui.rule_card import rule_card
from client.ui.table_form import form_rows, row_text
from protocol.options import house_rule_words

if TYPE_CHECKING:
    from client.discovery import FoundServer
    from protocol.messages import TableSummary

__all__ = [
    "HELP_KEYS",
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "find_screen",
    "footer",
    "header",
    "help_screen",
    "kept_seat_words",
    "lobby_screen",
    "too_small_screen",
]

MIN_WIDTH = 60
"""The narrowest terminal (in cells) the screens are laid out for."""
MIN_HEIGHT = 20
"""The lowest terminal (in lines) the screens are laid out for."""


def too_small_screen(width: int, height: int) -> list[Line]:
    """What a terminal below ``MIN_WIDTH`` x ``MIN_HEIGHT`` shows: the size it needs and the
    size it has (``width`` x ``height``)."""
    return [
        text_line("The terminal is too small for uno-lan.", "class:error"),
        text_line(f"It needs {MIN_WIDTH}x{MIN_HEIGHT}; it is {width}x{height}."),
        text_line("Enlarge the window; the game goes on."),
    ]


HELP_KEYS = "↑/↓ PgUp/PgDn scroll · ? or Esc back"


def help_screen(model: Model, width: int, height: int, now: float = 0.0) -> list[Line]:
    """The help page: at a table, its rule card first (what its house rules do here),
    then every key and the card labels, scrolled by ``Model.help_scroll`` to fit
    ``height`` lines of ``width``. At a table the top line says the game goes on behind
    it, with your clock when it is your turn."""
    top = text_line("uno-lan: help", "class:title")
    if model.table is not None and model.view is not None:
        clock = clock_text(model.remaining_ms(now))
        if model.my_turn:
            left = f": ⏱ {clock} left" if clock else ""
            top = text_line(f"▶ YOUR TURN{left}. ? or Esc to go back.", "class:myturn")
        else:
            top = text_line(
                "The game goes on behind this page. ? or Esc to go back.", "class:title"
            )
    body = _help_body(model, width)
    room = max(1, height - 3)  # the top line, the keys line, a line for what is below
    first = max(0, min(model.help_scroll, len(body) - room))
    shown = body[first : first + room]
    below = len(body) - first - len(shown)
    more = f"  ↓ {below} more lines below" if below else ""
    hints = [text_line(line, "class:keys") for line in wrap_keys(HELP_KEYS, width)]
    return [top, *shown, text_line(more, "class:hint"), *hints]


def _help_body(model: Model, width: int) -> list[Line]:
    """The help page's lines, before scrolling: rule card, keys, card labels."""
    lines: list[Line] = []
    if model.table is not None:
        lines.append(text_line(f"This table's rules ({model.table.name}):", "class:title"))
        for sentence in rule_card(model.table.options):
            wrapped = textwrap.wrap(sentence, width - 4) or [""]
            lines.append(text_line(f"  • {wrapped[0]}"))
            lines += [text_line(f"    {more}") for more in wrapped[1:]]
        lines.append([])
    lines.append(text_line("Keys:", "class:title"))
    for key, what in KEY_HINTS:
        wrapped = textwrap.wrap(what, max(10, width - 18)) or [""]
        lines.append(text_line(f"  {key:<14} {wrapped[0]}"))
        lines += [text_line(f"  {'':<14} {more}") for more in wrapped[1:]]
    lines += [
        [],
        text_line("Cards: R/Y/G/B colour letter, then the number or symbol:"),
        text_line("  ⊘ Skip  ⟲ Reverse  +2 Draw Two  W Wild  W+4 Wild Draw Four"),
        text_line("  W⇄ Swap Hands  W≋ Shuffle Hands  W✱ Customizable"),
        text_line("  W♪ Dancing Wild  W✸ Creeper"),
    ]
    return lines


def header(model: Model, title: str) -> Line:
    """The top line of a screen: ``title``, the connection's state and the server's address."""
    where = model.address or "no server"
    if model.friends_at is not None:  # --serve: what the host gives friends
        where = f"friends join {model.friends_at}"
    state = "connected" if model.connected and not model.replaying else model.status
    return [("class:title", f" UNO · {title} "), ("class:hint", f"  {state} · {where}")]


def find_screen(model: Model, width: int, height: int) -> list[Line]:
    """The find screen: the servers discovered on the network (or what discovery is doing),
    the address being typed, and the footer; ``height`` lines of ``width`` at most."""
    lines = [header(model, "find a game"), rule(), []]
    lines.append(text_line(f"  You are {model.name}.  {model.status}"))
    if model.name_note:
        lines.append(text_line(f"  {model.name_note}", "class:error"))
    lines.append([])
    lines.append(text_line("  Servers found on this network:", "class:title"))
    if model.discovered:
        lines.append(text_line(f"   {'name':<24} {'address':<22} {'load':<18} notes", "class:hint"))
        chosen = min(model.server_index, len(model.discovered) - 1)
        for index, server in enumerate(model.discovered):
            lines += _server_row(server, index == chosen)
    else:
        looking = model.discovery or "not looking"
        lines.append(
            text_line(f"    (none found: {looking}; press a to type the address)", "class:hint")
        )
    lines.append([])
    if model.mode is Mode.ADDRESS:
        lines.append(text_line(f"  Server address (HOST:PORT): {model.text}▏", "class:input"))
    else:
        lines.append(text_line("  Press a to type a server's address (HOST:PORT).", "class:hint"))
    keys = "↑/↓ server · Enter join · a address · ? help · q quit"
    lines += footer(model, width, height - len(lines), keys)
    return lines


def _server_row(server: FoundServer, chosen: bool) -> list[Line]:
    """One server on the find screen: name, address, load, password; a server this
    client cannot join says why on a line of its own."""
    host = f"[{server.host}]" if ":" in server.host else server.host
    tables = "1 table" if server.tables == 1 else f"{server.tables} tables"
    seats = f"{server.seats_free} free"
    marker = "▶" if chosen else " "
    text = (
        f" {marker} {server.name:<24} {host + ':' + str(server.port):<22} "
        f"{tables + ', ' + seats:<18} {'password' if server.password else ''}"
    )
    style = "class:picked" if chosen else ""
    if server.compatible:
        return [text_line(text, style)]
    speaks = ", ".join(server.protocols) or "an unknown version"
    return [
        text_line(text, (style + " class:hint").strip()),
        text_line(f"     incompatible: it speaks protocol {speaks}", "class:hint"),
    ]


def lobby_screen(model: Model, width: int, height: int) -> list[Line]:
    """A server's lobby: its tables, or the new-table form, or the password prompt for a
    locked table, then the lobby's chat and the footer; ``height`` lines of ``width``."""
    title = model.server_name or "server"
    lines = [header(model, title)]
    if model.name_note:
        lines.append(text_line(f"  {model.name_note}", "class:error"))
    lines.append(rule("tables"))
    if model.mode is Mode.CREATE:
        lines += _form(model, height - len(lines) - 2)
    elif model.mode is Mode.PASSWORD and model.entering is not None:
        _, name, spectate = model.entering
        what = "watch" if spectate else "join"
        lines.append(text_line(f"  The table {name} is locked.", "class:title"))
        lines.append(text_line(f"  Password to {what} it: {'•' * len(model.text)}▏", "class:input"))
    elif not model.tables:
        lines += _page_line(model)
        lines.append(text_line("  No tables yet. Press n to create one.", "class:hint"))
    else:
        lines += _page_line(model)
        lines += _table_rows(model, width)
    typing: list[Line] = []
    if model.mode is Mode.CHAT:
        typing = [text_line(f"  say: {model.text}▏", "class:input")]
    elif model.mode is Mode.RENAME:
        typing = [text_line(f"  your new name: {model.text}▏", "class:input")]
    if model.mode is not Mode.CREATE:
        lines += _lobby_chat(model, height - len(lines) - len(typing) - 3)
    lines += typing
    if model.mode is Mode.CREATE:
        keys = "↑/↓ row · ←/→ change · Enter create · Esc back"
    elif model.mode is Mode.PASSWORD:
        keys = "Enter join · Esc cancel"
    elif model.mode in (Mode.CHAT, Mode.RENAME):
        keys = "Enter send · Esc cancel"
    else:
        keys = (
            "↑/↓ table · Enter join · s spectate · n new table · r refresh · h standings"
            " · t chat · c name · ? help · q quit"
        )
    lines += footer(model, width, height - len(lines), keys)
    return lines


def _lobby_chat(model: Model, room: int) -> list[Line]:
    """The lobby's chat pane in ``room`` lines: a rule, then the latest lines said here
    (table chat stays with its table)."""
    if room < 2:
        return []
    said = list(model.lobby_chat)[-(room - 1) :]
    if not said:
        return [
            rule("lobby chat"),
            text_line("  Nobody has said anything yet: t to chat.", "class:hint"),
        ]
    return [rule("lobby chat"), *(text_line(f"  {line}", "class:log") for line in said)]


def _page_line(model: Model) -> list[Line]:
    """Where a phone opens the server's browser page (issue 25), if it serves one."""
    url = page_url(model)
    return [] if url is None else [text_line(f"  Phones: {url} (p: its QR code)", "class:hint")]


def _table_rows(model: Model, width: int) -> list[Line]:
    """The lobby's list of tables, under a line naming the seat kept here, if one is."""
    lines: list[Line] = []
    kept = next((t for t in model.tables if t.table_id == model.kept_seat), None)
    if kept is not None:
        lines.append(text_line(f"  {kept_seat_words(kept)} is kept for you.", "class:title"))
    lines.append(text_line(f"   {'name':<22} {'state':<15} {'seats':<7} {'host':<16} notes"))
    for index, table in enumerate(model.tables):
        marker = "▶" if index == model.table_index else " "
        style = "class:picked" if index == model.table_index else ""
        seats = f"{table.taken}/{table.seats}"
        notes = ["password"] if table.locked else []
        if table.table_id == model.kept_seat:
            notes.insert(0, "your seat: Enter takes it back")
        if table.banned:
            notes = ["the host banned you: no seat for you here"]
        elif table.bot_seats:
            plural = "s" if table.bot_seats != 1 else ""
            notes.append(f"{table.bot_seats} bot seat{plural} to take")
        host = table.host or ""
        row = f" {marker} {table.name:<22} {table.state.value:<15} {seats:<7} {host:<16}"
        said = " · ".join(notes)
        if get_cwidth(f"{row} {said}".rstrip()) <= width:
            lines.append(text_line(f"{row} {said}".rstrip(), style))
        else:  # too long for one line: the notes go under the row
            lines += [text_line(row.rstrip(), style), text_line(f"     {said}", "class:hint")]
        if table.house_rules:
            lines.append(text_line(f"     {house_rule_words(table.house_rules)}", "class:hint"))
    return lines


def kept_seat_words(table: TableSummary) -> str:
    """How the lobby names a seat this machine keeps: "Your seat at Ann's table"."""
    if table.host:
        return f"Your seat at {table.host}'s table"
    return f"Your seat at the table {table.name}"


def _form(model: Model, room: int) -> list[Line]:
    """The new-table form in ``room`` lines: its title, then as many rows as fit, scrolled
    so that the selected one shows (a last line says how many more are below)."""
    title = "  New table: type its name and password; ←/→ changes a row"
    lines = [text_line(title, "class:title")]
    rows = form_rows()
    fit = max(1, room - 2)  # the title, and a line for what is below
    first = max(0, min(model.form_index - fit + 1, len(rows) - fit))
    shown = rows[first : first + fit]
    for index, name in enumerate(shown, start=first):
        selected = index == model.form_index
        marker = "▶" if selected else " "
        style = "class:picked" if selected else ""
        value = row_text(model.form, name, selected, model.table_defaults)
        lines.append(text_line(f"  {marker} {name.replace('_', ' '):<22} {value}", style))
    below = len(rows) - first - len(shown)
    if below:
        lines.append(text_line(f"    ↓ {below} more below", "class:hint"))
    return lines


def footer(model: Model, width: int, room: int, keys: str) -> list[Line]:
    """The bottom of a screen, ``room`` lines tall: blank lines, then the message line (the
    model's message, styled as an error when it is one), then the ``keys`` hints, on as
    many lines of ``width`` as they need (a hint is never cut)."""
    if model.server_down is not None:
        keys = f"{model.server_down}: R start it again · {keys}"
    hints = [text_line(line, "class:keys") for line in wrap_keys(keys, width)]
    lines: list[Line] = [[] for _ in range(max(0, room - 1 - len(hints)))]
    style = "class:error" if model.message_is_error else "class:message"
    lines.append(text_line(f" {model.shown_message}", style))
    return lines + hints
