"""The keys around the game: the find screen, a server's lobby and the new-table form.

``LobbyController`` is the part of the controller (``client/ui/controller.py``) that picks
a server, a table or a new table's options; like the rest it changes the model's UI state
and emits intents, never sending anything itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from client.ui.intents import Connect, Intent, TableRequest
from client.ui.model import Mode, Model
from protocol.limits import MAX_PASSWORD_LEN, MAX_TABLE_NAME_LEN
from protocol.messages import CreateTable, Join, ListTables, Spectate
from protocol.options import PRESETS, TableConfig, preset_options
from protocol.version import SUPPORTED_VERSIONS

__all__ = [
    "FORM_PRESET_ROW",
    "FORM_STEPS",
    "FORM_TEXT_ROWS",
    "LobbyController",
    "address_problem",
    "form_fields",
    "form_preset",
    "parse_address",
]

FORM_TEXT_ROWS = ("name", "password")
"""The new-table form's typed rows, before the table options; typing edits them."""

FORM_PRESET_ROW = "preset"
"""The form's last row, after the options: ←/→ picks a preset, which fills the form."""

_FORM_TEXT_LIMITS = {"name": MAX_TABLE_NAME_LEN, "password": MAX_PASSWORD_LEN}


def form_fields() -> list[dataclasses.Field[Any]]:
    """The table options the new-table form edits, in TableConfig's order."""
    return list(dataclasses.fields(TableConfig))


def form_preset(form: dict[str, Any]) -> str | None:
    """The preset whose house rules the form holds now, or None (a mix of one's own)."""
    for name in PRESETS:
        if all(form.get(key) == value for key, value in preset_options(name).items()):
            return name
    return None


class LobbyController:
    """Keys of the find screen, the lobby and the new-table form (see the module docstring)."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self.emit = emit

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
            model.notify("no server found yet: press a to type its address", error=True)
            return
        if not server.compatible:
            theirs = ", ".join(server.protocols) or "an unknown version"
            ours = ", ".join(SUPPORTED_VERSIONS)
            model.notify(
                f"cannot join {server.name}: it speaks protocol {theirs}, this client {ours}; "
                "update the older one",
                error=True,
            )
            return
        host = f"[{server.host}]" if ":" in server.host else server.host
        model.address = f"{host}:{server.port}"
        model.notify(f"joining {server.name}…")
        self.emit(Connect(server.host, server.port))

    # -- the lobby -----------------------------------------------------------------------

    def lobby_move(self, delta: int) -> None:
        tables = self.model.tables
        if tables:
            self.model.table_index = (self.model.table_index + delta) % len(tables)

    def join_selected(self, spectate: bool = False) -> None:
        tables = self.model.tables
        if not tables:
            self.model.notify("no table yet: press n to create one", error=True)
            return
        table = tables[min(self.model.table_index, len(tables) - 1)]
        if table.locked:
            self.model.entering = (table.table_id, table.name, spectate)
            self.model.mode = Mode.PASSWORD
            self.model.text = ""
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
            model.notify("no password typed: nothing sent", error=True)
            return
        table_id, _name, spectate = entering
        kind = Spectate.TYPE if spectate else Join.TYPE
        self.emit(TableRequest(kind, {"table_id": table_id, "password": password}))

    def refresh(self) -> None:
        self.emit(TableRequest(ListTables.TYPE, {"limit": 100}))

    def open_form(self) -> None:
        """n: the new-table form, every option at its default."""
        model = self.model
        model.form = {
            "name": f"{model.name}'s table"[:MAX_TABLE_NAME_LEN],
            "password": "",
            **TableConfig().to_data(),
        }
        model.form_index = 0
        model.mode = Mode.CREATE

    def form_move(self, delta: int) -> None:
        count = len(FORM_TEXT_ROWS) + len(form_fields()) + 1  # the preset row last
        self.model.form_index = (self.model.form_index + delta) % count

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
        self.model.form[row] = (current + typed)[: _FORM_TEXT_LIMITS[row]]

    def form_backspace(self) -> None:
        row = self.form_text_row
        if row is not None:
            self.model.form[row] = str(self.model.form.get(row, ""))[:-1]

    def form_change(self, delta: int) -> None:
        """Left / right: step the selected option through its values."""
        model = self.model
        if model.form_index < len(FORM_TEXT_ROWS):
            return
        if model.form_index == len(FORM_TEXT_ROWS) + len(form_fields()):
            self._step_preset(delta)
            return
        option = form_fields()[model.form_index - len(FORM_TEXT_ROWS)]
        value = model.form.get(option.name, option.default)
        default = option.default
        if isinstance(default, bool):
            model.form[option.name] = not value
        elif isinstance(default, StrEnum):
            values = [member.value for member in type(default)]
            model.form[option.name] = values[(values.index(value) + delta) % len(values)]
        elif isinstance(default, int):
            step = _int_step(option.name)
            model.form[option.name] = max(0, int(value) + delta * step)

    def _step_preset(self, delta: int) -> None:
        """The preset row: the next preset fills in its house rules (Ruling 36)."""
        form = self.model.form
        names = list(PRESETS)
        current = form_preset(form)
        index = names.index(current) + delta if current is not None else 0 if delta > 0 else -1
        expanded = preset_options(names[index % len(names)], form)
        form.clear()
        form.update(expanded)

    def submit_form(self) -> None:
        """Enter: create the table; a password, if typed, is needed by everyone else."""
        model = self.model
        options = {k: v for k, v in model.form.items() if k not in FORM_TEXT_ROWS}
        name = str(model.form.get("name", "")).strip()
        if not name:
            model.notify("cannot create: the table needs a name", error=True)
            return
        try:
            TableConfig.from_data(options)
        except ValueError as error:
            model.notify(f"cannot create: {error}", error=True)
            return
        model.mode = Mode.NORMAL
        fields: dict[str, Any] = {"name": name, "options": options}
        password = str(model.form.get("password", ""))
        if password:
            fields["password"] = password
        self.emit(TableRequest(CreateTable.TYPE, fields))


FORM_STEPS = {"target_score": 50, "catch_grace_ms": 250}
"""How far one left / right moves a whole-number option, by TableConfig field name (a test
checks each is one); other ``*_seconds`` options move by 5, the rest by 1."""


def _int_step(name: str) -> int:
    if name in FORM_STEPS:
        return FORM_STEPS[name]
    if name.endswith("_seconds"):
        return 5
    return 1


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
        return f"{text!r} has no port: type HOST:PORT, e.g. 192.168.1.20:7531"
    if not (port.isascii() and port.isdigit()):
        return f"the port must be a number, not {port!r}"
    if not 0 < int(port) < 65536:
        return f"the port {port} is out of range: ports go from 1 to 65535"
    if ":" in host and not host.startswith("["):
        return "write an IPv6 address in brackets: [v6addr]:port"
    return None
