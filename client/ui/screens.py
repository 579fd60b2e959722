"""The screens around the game: too small, help, finding a server, a server's lobby."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from prompt_toolkit.utils import get_cwidth

from client.i18n import _, ngettext, pgettext
from client.ui.keys import KEY_HINTS
from client.ui.layout import Line, clock_text, rule, text_line, wrap_keys
from client.ui.model import Mode, Model
from client.ui.page_code import page_url
from client.ui.rule_card import rule_card
from client.ui.table_form import form_rows, row_text
from client.ui.words import row_word, state_word
from protocol.options import house_rule_words

if TYPE_CHECKING:
    from client.discovery import FoundServer
    from protocol.messages import TableSummary

__all__ = [
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "find_screen",
    "footer",
    "header",
    "help_keys",
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
        text_line(_("The terminal is too small for uno-lan."), "class:error"),
        text_line(
            _("It needs {need}; it is {size}.").format(
                need=f"{MIN_WIDTH}x{MIN_HEIGHT}", size=f"{width}x{height}"
            )
        ),
        text_line(_("Enlarge the window; the game goes on.")),
    ]


def help_keys() -> str:
    """The help page's key line."""
    return _("↑/↓ PgUp/PgDn scroll · ? or Esc back")


def help_screen(model: Model, width: int, height: int, now: float = 0.0) -> list[Line]:
    """The help page: at a table, its rule card first (what its house rules do here),
    then every key and the card labels, scrolled by ``Model.help_scroll`` to fit
    ``height`` lines of ``width``. At a table the top line says the game goes on behind
    it, with your clock when it is your turn."""
    top = text_line(_("uno-lan: help"), "class:title")
    if model.table is not None and model.view is not None:
        clock = clock_text(model.remaining_ms(now))
        if model.my_turn:
            if clock:
                turn = _("▶ YOUR TURN: ⏱ {clock} left. ? or Esc to go back.").format(clock=clock)
            else:
                turn = _("▶ YOUR TURN. ? or Esc to go back.")
            top = text_line(turn, "class:myturn")
        else:
            top = text_line(
                _("The game goes on behind this page. ? or Esc to go back."), "class:title"
            )
    body = _help_body(model, width)
    room = max(1, height - 3)  # the top line, the keys line, a line for what is below
    first = max(0, min(model.help_scroll, len(body) - room))
    shown = body[first : first + room]
    below = len(body) - first - len(shown)
    more = (
        "  " + ngettext("↓ {count} more line below", "↓ {count} more lines below", below)
        if below
        else ""
    ).format(count=below)
    hints = [text_line(line, "class:keys") for line in wrap_keys(help_keys(), width)]
    return [top, *shown, text_line(more, "class:hint"), *hints]


def _help_body(model: Model, width: int) -> list[Line]:
    """The help page's lines, before scrolling: rule card, keys, card labels."""
    lines: list[Line] = []
    if model.table is not None:
        rules = _("This table's rules ({table}):").format(table=model.table.name)
        lines.append(text_line(rules, "class:title"))
        for sentence in rule_card(model.table.options):
            wrapped = textwrap.wrap(sentence, width - 4) or [""]
            lines.append(text_line(f"  • {wrapped[0]}"))
            lines += [text_line(f"    {more}") for more in wrapped[1:]]
        lines.append([])
    lines.append(text_line(_("Keys:"), "class:title"))
    for key, what in KEY_HINTS:
        wrapped = textwrap.wrap(pgettext("key", what), max(10, width - 18)) or [""]
        lines.append(text_line(f"  {pgettext('key', key) if key else '':<14} {wrapped[0]}"))
        lines += [text_line(f"  {'':<14} {more}") for more in wrapped[1:]]
    lines += [
        [],
        text_line(_("Cards: R/Y/G/B colour letter, then the number or symbol:")),
        text_line("  " + _("⊘ Skip  ⟲ Reverse  +2 Draw Two  W Wild  W+4 Wild Draw Four")),
        text_line("  " + _("W⇄ Swap Hands  W≋ Shuffle Hands  W✱ Customizable")),
        text_line("  " + _("W♪ Dancing Wild  W✸ Creeper")),
    ]
    return lines


def header(model: Model, title: str) -> Line:
    """The top line of a screen: ``title``, the connection's state and the server's address."""
    where = model.address or _("no server")
    if model.friends_at is not None:  # --serve: what the host gives friends
        where = _("friends join {address}").format(address=model.friends_at)
    state = _("connected") if model.connected and not model.replaying else model.status
    return [("class:title", f" UNO · {title} "), ("class:hint", f"  {state} · {where}")]


def find_screen(model: Model, width: int, height: int) -> list[Line]:
    """The find screen: the servers discovered on the network (or what discovery is doing),
    the address being typed, and the footer; ``height`` lines of ``width`` at most."""
    lines = [header(model, _("find a game")), rule(), []]
    you_are = _("You are {name}.").format(name=model.name)
    lines.append(text_line(f"  {you_are}  {model.status}"))
    if model.name_note:
        lines.append(text_line(f"  {model.name_note}", "class:error"))
    lines.append([])
    lines.append(text_line("  " + _("Servers found on this network:"), "class:title"))
    if model.discovered:
        heads = f"   {_('name'):<24} {_('address'):<22} {_('load'):<18} {_('notes')}"
        lines.append(text_line(heads, "class:hint"))
        chosen = min(model.server_index, len(model.discovered) - 1)
        for index, server in enumerate(model.discovered):
            lines += _server_row(server, index == chosen)
    else:
        looking = model.discovery or _("not looking")
        none = _("(none found: {looking}; press a to type the address)").format(looking=looking)
        lines.append(text_line(f"    {none}", "class:hint"))
    lines.append([])
    if model.mode is Mode.ADDRESS:
        typed = _("Server address (HOST:PORT):")
        lines.append(text_line(f"  {typed} {model.text}▏", "class:input"))
    else:
        press = _("Press a to type a server's address (HOST:PORT).")
        lines.append(text_line(f"  {press}", "class:hint"))
    keys = _("↑/↓ server · Enter join · a address · ? help · q quit")
    lines += footer(model, width, height - len(lines), keys)
    return lines


def _server_row(server: FoundServer, chosen: bool) -> list[Line]:
    """One server on the find screen: name, address, load, password; a server this
    client cannot join says why on a line of its own."""
    host = f"[{server.host}]" if ":" in server.host else server.host
    tables = ngettext("{count} table", "{count} tables", server.tables).format(count=server.tables)
    seats = _("{count} free").format(count=server.seats_free)
    marker = "▶" if chosen else " "
    text = (
        f" {marker} {server.name:<24} {host + ':' + str(server.port):<22} "
        f"{tables + ', ' + seats:<18} {_('password') if server.password else ''}"
    )
    style = "class:picked" if chosen else ""
    if server.compatible:
        return [text_line(text, style)]
    speaks = ", ".join(server.protocols) or _("an unknown version")
    incompatible = _("incompatible: it speaks protocol {versions}").format(versions=speaks)
    return [
        text_line(text, (style + " class:hint").strip()),
        text_line(f"     {incompatible}", "class:hint"),
    ]


def lobby_screen(model: Model, width: int, height: int) -> list[Line]:
    """A server's lobby: its tables, or the new-table form, or the password prompt for a
    locked table, then the lobby's chat and the footer; ``height`` lines of ``width``."""
    title = model.server_name or _("server")
    lines = [header(model, title)]
    if model.name_note:
        lines.append(text_line(f"  {model.name_note}", "class:error"))
    lines.append(rule(_("tables")))
    if model.mode is Mode.CREATE:
        lines += _form(model, height - len(lines) - 2)
    elif model.mode is Mode.PASSWORD and model.entering is not None:
        _table_id, name, spectate = model.entering
        locked = _("The table {table} is locked.").format(table=name)
        ask = _("Password to watch it:") if spectate else _("Password to join it:")
        lines.append(text_line(f"  {locked}", "class:title"))
        lines.append(text_line(f"  {ask} {'•' * len(model.text)}▏", "class:input"))
    elif not model.tables:
        lines += _page_line(model)
        lines.append(text_line("  " + _("No tables yet. Press n to create one."), "class:hint"))
    else:
        lines += _page_line(model)
        lines += _table_rows(model, width)
    typing: list[Line] = []
    if model.mode is Mode.CHAT:
        typing = [text_line(f"  {_('say:')} {model.text}▏", "class:input")]
    elif model.mode is Mode.RENAME:
        typing = [text_line(f"  {_('your new name:')} {model.text}▏", "class:input")]
    if model.mode is not Mode.CREATE:
        lines += _lobby_chat(model, height - len(lines) - len(typing) - 3)
    lines += typing
    if model.mode is Mode.CREATE:
        keys = _("↑/↓ row · ←/→ change · Enter create · Esc back")
    elif model.mode is Mode.PASSWORD:
        keys = _("Enter join · Esc cancel")
    elif model.mode in (Mode.CHAT, Mode.RENAME):
        keys = _("Enter send · Esc cancel")
    else:
        keys = _(
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
            rule(_("lobby chat")),
            text_line("  " + _("Nobody has said anything yet: t to chat."), "class:hint"),
        ]
    return [rule(_("lobby chat")), *(text_line(f"  {line}", "class:log") for line in said)]


def _page_line(model: Model) -> list[Line]:
    """Where a phone opens the server's browser page (issue 25), if it serves one."""
    url = page_url(model)
    if url is None:
        return []
    return [text_line("  " + _("Phones: {url} (p: its QR code)").format(url=url), "class:hint")]


def _table_rows(model: Model, width: int) -> list[Line]:
    """The lobby's list of tables, under a line naming the seat kept here, if one is."""
    lines: list[Line] = []
    kept = next((t for t in model.tables if t.table_id == model.kept_seat), None)
    if kept is not None:
        kept_line = _("{seat} is kept for you.").format(seat=kept_seat_words(kept))
        lines.append(text_line(f"  {kept_line}", "class:title"))
    heads = f"   {_('name'):<22} {_('state'):<15} {_('seats'):<7} {_('host'):<16} {_('notes')}"
    lines.append(text_line(heads))
    for index, table in enumerate(model.tables):
        marker = "▶" if index == model.table_index else " "
        style = "class:picked" if index == model.table_index else ""
        seats = f"{table.taken}/{table.seats}"
        notes = [_("password")] if table.locked else []
        if table.table_id == model.kept_seat:
            notes.insert(0, _("your seat: Enter takes it back"))
        if table.banned:
            notes = [_("the host banned you: no seat for you here")]
        elif table.bot_seats:
            count = table.bot_seats
            notes.append(
                ngettext("{count} bot seat to take", "{count} bot seats to take", count).format(
                    count=count
                )
            )
        if table.spectators_see_hands:
            notes.append(_("spectators see every hand"))
        host = table.host or ""
        state = state_word(table.state.value)
        row = f" {marker} {table.name:<22} {state:<15} {seats:<7} {host:<16}"
        said = " · ".join(notes)
        if get_cwidth(f"{row} {said}".rstrip()) <= width:
            lines.append(text_line(f"{row} {said}".rstrip(), style))
        else:  # too long for one line: the notes go under the row
            lines += [text_line(row.rstrip(), style), text_line(f"     {said}", "class:hint")]
        if table.house_rules:
            lines.append(
                text_line(f"     {house_rule_words(table.house_rules, pgettext)}", "class:hint")
            )
    return lines


def kept_seat_words(table: TableSummary) -> str:
    """How the lobby names a seat this machine keeps: "Your seat at Ann's table"."""
    if table.host:
        return _("Your seat at {host}'s table").format(host=table.host)
    return _("Your seat at the table {table}").format(table=table.name)


def _form(model: Model, room: int) -> list[Line]:
    """The new-table form in ``room`` lines: its title, then as many rows as fit, scrolled
    so that the selected one shows (a last line says how many more are below)."""
    title = "  " + _("New table: type its name and password; ←/→ changes a row")
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
        lines.append(text_line(f"  {marker} {row_word(name):<22} {value}", style))
    below = len(rows) - first - len(shown)
    if below:
        lines.append(
            text_line("    " + _("↓ {count} more below").format(count=below), "class:hint")
        )
    return lines


def footer(model: Model, width: int, room: int, keys: str) -> list[Line]:
    """The bottom of a screen, ``room`` lines tall: blank lines, then the message line (the
    model's message, styled as an error when it is one), then the ``keys`` hints, on as
    many lines of ``width`` as they need (a hint is never cut)."""
    if model.server_down is not None:
        again = _("{problem}: R start it again").format(problem=model.server_down)
        keys = f"{again} · {keys}"
    hints = [text_line(line, "class:keys") for line in wrap_keys(keys, width)]
    lines: list[Line] = [[] for _ in range(max(0, room - 1 - len(hints)))]
    style = "class:error" if model.message_is_error else "class:message"
    lines.append(text_line(f" {model.shown_message}", style))
    return lines + hints
