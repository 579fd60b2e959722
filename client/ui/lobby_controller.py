"""The keys around the game: the find screen, a server's lobby and the new-table form.

``LobbyController`` is the part of the controller (``client/ui/controller.py``) that picks
a server, a table or a new table's options; like the rest it changes the model's UI state
and emits intents, never sending anything itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.i18n import _
from client.ui.intents import ChangeName, Connect, Intent, TableRequest, TakeBackSeat
from client.ui.model import Mode, Model, Picker
from client.ui.page_code import page_url
from client.ui.table_form import (
    FORM_TEXT_ROWS,
    TEXT_LIMITS,
    bot_requests,
    bot_think_ms,
    form_rows,
    new_form,
    step_row,
    table_options,
)
from protocol.limits import MAX_NAME_LEN, clean_text
from protocol.messages import (
    CreateTable,
    Join,
    ListTables,
    SeatInfo,
    Spectate,
    TableStatus,
    TableSummary,
    TakeBotSeat,
)
from protocol.options import TableConfig
from protocol.version import SUPPORTED_VERSIONS

__all__ = ["LobbyController", "address_problem", "parse_address"]


class LobbyController:
    """Keys of the find screen, the lobby and the new-table form (see the module docstring)."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self.emit = emit
        self._passwords: dict[str, str] = {}
        """The password typed for each locked table entered, for taking a seat there."""

    # -- finding a server ------------------------------------------------------------------

    def connect_to(self, text: str) -> None:
        """A typed ``HOST:PORT``: connect to it, or say what is wrong with it."""
        problem = address_problem(text)
        address = parse_address(text)
        if problem is not None or address is None:
            self.model.notify(problem or f"not HOST:PORT: {text}", error=True)
            return
        self.model.address = text
        self.emit(Connect(*address))

    def find_move(self, delta: int) -> None:
        """↑ / ↓ on the find screen: choose among the servers found (wrapping)."""
        servers = self.model.discovered
        if servers:
            self.model.server_index = (self.model.server_index + delta) % len(servers)

    def join_discovered(self) -> None:
        """Enter on the find screen: connect to the chosen server, unless it cannot be
        joined (it speaks no protocol version this client speaks)."""
        model = self.model
        server = model.chosen_server
        if server is None:
            model.notify(_("no server found yet: press a to type its address"), error=True)
            return
        if not server.compatible:
            theirs = ", ".join(server.protocols) or _("an unknown version")
            ours = ", ".join(SUPPORTED_VERSIONS)
            model.notify(
                _(
                    "cannot join {server}: it speaks protocol {theirs}, this client {ours}; "
                    "update the older one"
                ).format(server=server.name, theirs=theirs, ours=ours),
                error=True,
            )
            return
        host = f"[{server.host}]" if ":" in server.host else server.host
        model.address = f"{host}:{server.port}"
        model.notify(_("joining {server}…").format(server=server.name))
        self.emit(Connect(server.host, server.port))

    # -- the lobby -----------------------------------------------------------------------

    def lobby_move(self, delta: int) -> None:
        tables = self.model.tables
        if tables:
            self.model.table_index = (self.model.table_index + delta) % len(tables)

    def join_selected(self, spectate: bool = False) -> None:
        """Enter (or s): join the chosen table; a table in play (or full) that has bot
        seats is watched first, and Enter there takes a bot's seat."""
        model = self.model
        tables = model.tables
        if not tables:
            model.notify(_("no table yet: press n to create one"), error=True)
            return
        table = tables[min(model.table_index, len(tables) - 1)]
        if table.banned:
            model.notify(
                _("the host of {table} banned you: choose another table").format(table=table.name),
                error=True,
            )
            return
        if not spectate and table.table_id == model.kept_seat:
            self.emit(TakeBackSeat(table.table_id))
            return
        if not spectate and _late(table):
            if not table.bot_seats and table.state is not TableStatus.LOBBY:
                model.notify(
                    _("{table}'s match has begun and people hold every seat: s to watch").format(
                        table=table.name
                    ),
                    error=True,
                )
                return
            spectate = table.bot_seats > 0
        if table.locked:
            model.entering = (table.table_id, table.name, spectate)
            model.mode = Mode.PASSWORD
            model.text = ""
            return
        kind = Spectate.TYPE if spectate else Join.TYPE
        self.emit(TableRequest(kind, {"table_id": table.table_id}))

    def enter_with_password(self, password: str) -> None:
        """The password typed for a locked table: join or watch it with that password."""
        model = self.model
        entering, model.entering = model.entering, None
        if entering is None:
            return
        if not password:
            model.notify(_("no password typed: nothing sent"), error=True)
            return
        table_id, _name, spectate = entering
        self._passwords[table_id] = password
        kind = Spectate.TYPE if spectate else Join.TYPE
        self.emit(TableRequest(kind, {"table_id": table_id, "password": password}))

    # -- a late-comer's seat ---------------------------------------------------------------

    def offer_bot_seat(self) -> None:
        """Enter while watching: choose a bot whose seat to take (its cards and points
        shown), or hear that there is none."""
        model = self.model
        table = model.table
        bots = [seat for seat in table.seats if seat.bot] if table is not None else []
        if not bots:
            model.notify(_("no bot holds a seat here: you can only watch"), error=True)
            return
        options = [(seat.seat, self._bot_label(seat)) for seat in bots]
        model.picker = Picker(_("Take which bot's seat?"), TakeBotSeat.TYPE, options)
        model.mode = Mode.PICK

    def _bot_label(self, seat: SeatInfo) -> str:
        shared = None if self.model.view is None else self.model.view.shared
        counts, scores = (shared.counts, shared.scores) if shared else ((), ())
        label = seat.name or f"seat {seat.seat}"
        if seat.level:
            label += f" ({seat.level})"
        if seat.seat < len(counts):
            cards = counts[seat.seat]
            label += f" · {cards} card{'s' if cards != 1 else ''}"
        if seat.seat < len(scores):
            label += f" · {scores[seat.seat]} pts"
        return label

    def take_bot_seat(self, seat: int) -> None:
        """Take the bot's seat chosen in the picker."""
        table = self.model.table
        if table is None:
            return
        fields: dict[str, Any] = {"table_id": table.table_id, "seat": seat}
        password = self._passwords.get(table.table_id)
        if password:
            fields["password"] = password
        self.emit(TableRequest(TakeBotSeat.TYPE, fields))

    def start_rename(self) -> None:
        """c in the lobby: type a new name (Enter asks the server for it)."""
        self.model.mode = Mode.RENAME
        self.model.text = ""

    def rename(self, typed: str) -> None:
        """The name typed: cleaned and cut as ``--name`` is, then asked for; a name with
        nothing printable in it is refused here."""
        name = clean_text(typed)[:MAX_NAME_LEN]
        if not name:
            self.model.notify(_("a name needs something printable: nothing sent"), error=True)
            return
        if name == self.model.name:
            self.model.notify(_("you are already {name}").format(name=name))
            return
        self.emit(ChangeName(name))

    def refresh(self) -> None:
        self.emit(TableRequest(ListTables.TYPE, {"limit": 100}))

    def toggle_page_code(self) -> None:
        """p: the browser page's QR code full screen, or back to the tables."""
        model = self.model
        if model.mode is Mode.PAGE_CODE:
            model.mode = Mode.NORMAL
        elif page_url(model) is None:
            model.notify(_("This server serves no browser page."), error=True)
        else:
            model.mode = Mode.PAGE_CODE

    def open_form(self) -> None:
        """n: the new-table form; no option set (each takes the server's default)."""
        model = self.model
        model.form = new_form(model.name)
        model.form_index = 0
        model.mode = Mode.CREATE

    def form_move(self, delta: int) -> None:
        self.model.form_index = (self.model.form_index + delta) % len(form_rows())

    @property
    def form_text_row(self) -> str | None:
        """The typed row selected in the new-table form (name, password), if one is."""
        index = self.model.form_index
        return FORM_TEXT_ROWS[index] if index < len(FORM_TEXT_ROWS) else None

    def form_type(self, text: str) -> None:
        """Typing in the form edits the selected name or password row."""
        row = self.form_text_row
        if row is None:
            return
        typed = "".join(ch for ch in text if ch.isprintable())
        current = str(self.model.form.get(row, ""))
        self.model.form[row] = (current + typed)[: TEXT_LIMITS[row]]

    def form_backspace(self) -> None:
        row = self.form_text_row
        if row is not None:
            self.model.form[row] = str(self.model.form.get(row, ""))[:-1]

    def form_change(self, delta: int) -> None:
        """Left / right: step the selected row through its values."""
        model = self.model
        step_row(model.form, form_rows()[model.form_index], delta)

    def submit_form(self) -> None:
        """Enter: create the table with the options set, then seat its bots; a password,
        if typed, is needed by everyone else."""
        model = self.model
        form = model.form
        options = table_options(form)
        name = str(form.get("name", "")).strip()
        if not name:
            model.notify(_("cannot create: the table needs a name"), error=True)
            return
        try:
            config = TableConfig.from_data(options)
        except ValueError as error:
            model.notify(_("cannot create: {why}").format(why=error), error=True)
            return
        bots = bot_requests(form)
        if "seats" in options and len(bots) >= config.seats:
            model.notify(
                _("cannot create: {count} bots leave no seat of {seats} for you").format(
                    count=len(bots), seats=config.seats
                ),
                error=True,
            )
            return
        model.mode = Mode.NORMAL
        fields: dict[str, Any] = {"name": name, "options": options}
        password = str(form.get("password", ""))
        if password:
            fields["password"] = password
        pace = bot_think_ms(form)
        if pace is not None:
            fields["bot_think_ms"] = pace
        self.emit(TableRequest(CreateTable.TYPE, fields, then=bots))


def _late(table: TableSummary) -> bool:
    """Whether a newcomer can no longer simply sit down: the match started or the seats
    are full."""
    return table.state is not TableStatus.LOBBY or table.taken >= table.seats


def parse_address(text: str) -> tuple[str, int] | None:
    """``host:port`` or ``[v6]:port`` -> (host, port); None if it is neither."""
    if address_problem(text) is not None:
        return None
    host, _, port = text.strip().rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


def address_problem(text: str) -> str | None:
    """What is wrong with a typed server address, in words; None when it is usable."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not port:
        return _("{text} has no port: type HOST:PORT, e.g. 192.168.1.20:7531").format(
            text=repr(text)
        )
    if not (port.isascii() and port.isdigit()):
        return _("the port must be a number, not {port}").format(port=repr(port))
    if not 0 < int(port) < 65536:
        return _("the port {port} is out of range: ports go from 1 to 65535").format(port=port)
    if ":" in host and not host.startswith("["):
        return _("write an IPv6 address in brackets: [v6addr]:port")
    return None
