"""What each key does: it reads the model, changes its UI state and emits intents.

The controller is the one place where a key press becomes a game command. Playing a card
narrows the view's ``legal`` plays of that card step by step: a colour picker when the
plays differ by colour, then a seat picker (Swap Hands, a Skip under ``skip_any``), then
a dance picker (Dancing Wild); UNO is added when it was armed with ``u``. The controller
never sends anything itself: ``emit(intent)`` hands the intent to the network side.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from client.ui.faces import card_label, color_name
from client.ui.intents import Connect, GameIntent, Intent, LeaveTable, Quit, TableRequest
from client.ui.model import Mode, Model, Picker, Screen
from protocol.commands import (
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Dance,
    Draw,
    Pass,
    Play,
    RefuseDance,
)
from protocol.limits import MAX_PASSWORD_LEN, MAX_TABLE_NAME_LEN
from protocol.messages import (
    AddBot,
    Chat,
    CreateTable,
    Join,
    Kick,
    ListTables,
    PauseTable,
    Ready,
    Rematch,
    RemoveBot,
    ResumeTable,
    Spectate,
    Start,
    TableStatus,
)
from protocol.options import TableConfig
from protocol.version import SUPPORTED_VERSIONS

__all__ = [
    "ARROWS",
    "DRAFT_FIELDS",
    "FORM_STEPS",
    "FORM_TEXT_ROWS",
    "Controller",
    "form_fields",
]

ARROWS = tuple(arrow.value for arrow in Arrow)
DRAFT_FIELDS = ("color", "target", "dance")
"""The fields a play (or a first-card colour choice) is narrowed by, in the asking order."""

_FIELD_TITLES = {
    "color": "Choose the colour",
    "target": "Choose a player",
    "dance": "Choose the dance",
}


FORM_TEXT_ROWS = ("name", "password")
"""The new-table form's typed rows, before the table options; typing edits them."""

_FORM_TEXT_LIMITS = {"name": MAX_TABLE_NAME_LEN, "password": MAX_PASSWORD_LEN}


def form_fields() -> list[dataclasses.Field[Any]]:
    """The table options the new-table form edits, in TableConfig's order."""
    return list(dataclasses.fields(TableConfig))


class Controller:
    """Turns key presses into model changes and intents (see the module docstring)."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self.emit = emit

    # -- the hand ------------------------------------------------------------------------

    def move(self, delta: int) -> None:
        """Select the card ``delta`` places to the right (wrapping)."""
        hand = self.model.hand
        if hand:
            self.model.selected = (self.model.selected + delta) % len(hand)

    def select_index(self, index: int) -> None:
        """Select a card by its position (a mouse click)."""
        if 0 <= index < len(self.model.hand):
            self.model.selected = index

    def play_selected(self) -> None:
        """Enter: play the selected card, asking for colour, seat and dance as needed."""
        model = self.model
        if model.phase in ("round-over", "match-over") or model.view is None:
            self.ready()
            return
        choices = model.legal_of(ChooseColor.TYPE)
        if choices:
            self._start_draft(choices)
            return
        code = model.selected_card
        if code is None:
            return
        plays = model.plays_of(code)
        if not plays:
            model.notify(f"{card_label(code)} cannot be played now: {self._why_not(code)}", True)
            return
        self._start_draft(plays)

    def _why_not(self, code: str) -> str:
        """The rule that keeps ``code`` from being played now, in words."""
        model = self.model
        view = model.view or {}
        if model.spectating:
            return "you are watching"
        if not model.my_turn:
            return (
                f"it is {model.seat_name(model.to_act)}'s turn"
                if model.to_act is not None
                else "it is nobody's turn"
            )
        drawn = view.get("drawn")
        if drawn:
            return f"only the drawn {card_label(drawn)} may be played now (or p to pass)"
        phase = model.phase
        if phase == "challenge":
            return "first answer the Wild Draw Four: y challenge, n accept"
        if phase == "stack":
            return "only a Draw Two answers the Draw Two (or d to draw)"
        if phase == "dance":
            return "you must dance first"
        if not model.legal_of(Play.TYPE):
            return "no play is open to you now"
        top = view.get("top")
        colour = color_name(view.get("color"))
        if top and code.startswith("W") and "+4" in card_label(code):
            return f"a Wild Draw Four needs a hand without {colour} (bluffing is off)"
        on = f"the {card_label(top)}" if top else "the discard"
        return f"it matches neither the colour in force ({colour}) nor {on}"

    def _start_draft(self, candidates: list[dict[str, Any]]) -> None:
        self.model.draft = list(candidates)
        self._narrow()

    def _narrow(self) -> None:
        """Ask for the next field that still differs among the candidates, or send."""
        model = self.model
        for name in DRAFT_FIELDS:
            values = list(dict.fromkeys(c.get(name) for c in model.draft))
            if len(values) > 1:
                model.picker = Picker(
                    _FIELD_TITLES[name], name, [(v, self._label(name, v)) for v in values]
                )
                model.mode = Mode.PICK
                return
        self._send_draft()

    def _label(self, name: str, value: Any) -> str:
        if name == "color":
            return color_name(value)
        if name == "target":
            count = ""
            if self.model.view and isinstance(value, int):
                counts = self.model.view.get("counts") or []
                if value < len(counts):
                    count = f" ({counts[value]} cards)"
            return self.model.seat_name(value) + count
        return str(value)

    def _send_draft(self) -> None:
        model = self.model
        draft = model.draft
        wanted_uno = model.uno_armed
        chosen = next((c for c in draft if bool(c.get("uno")) == wanted_uno), draft[0])
        model.draft = []
        model.picker = None
        model.mode = Mode.NORMAL
        if chosen.get("uno"):
            model.uno_armed = False
        self.emit(GameIntent(chosen))

    # -- pickers -------------------------------------------------------------------------

    def pick_move(self, delta: int) -> None:
        picker = self.model.picker
        if picker is not None and picker.options:
            picker.index = (picker.index + delta) % len(picker.options)

    def pick_value(self, value: Any, confirm: bool = True) -> None:
        """Choose an option by value: ``r``/``y``/``g``/``b`` in a colour picker choose and
        confirm; a seat's digit only selects it (``confirm`` False), Enter confirms."""
        picker = self.model.picker
        if picker is None:
            return
        for index, (option, _) in enumerate(picker.options):
            if option == value:
                picker.index = index
                if confirm:
                    self.pick_confirm()
                return

    def pick_confirm(self) -> None:
        model = self.model
        picker = model.picker
        if picker is None:
            return
        value = picker.value
        if picker.purpose in DRAFT_FIELDS:
            model.draft = [c for c in model.draft if c.get(picker.purpose) == value]
            model.picker = None
            self._narrow()
            return
        model.picker = None
        model.mode = Mode.NORMAL
        if picker.purpose == Catch.TYPE:
            self.emit(GameIntent({"type": Catch.TYPE, "target": value}))
        elif picker.purpose in (Kick.TYPE, RemoveBot.TYPE):
            self.emit(TableRequest(picker.purpose, {"seat": value}))

    def cancel(self) -> None:
        """Escape: close a picker, the help, the chat line or the confirmation."""
        model = self.model
        if model.mode is Mode.DANCE:
            model.dance_steps = []
            return
        model.mode = Mode.NORMAL
        model.picker = None
        model.draft = []
        model.text = ""
        model.entering = None

    # -- game keys -----------------------------------------------------------------------

    def _send_first(self, kind: str, missing: str) -> None:
        legal = self.model.legal_of(kind)
        if legal:
            self.emit(GameIntent(legal[0]))
        else:
            self.model.notify(missing, error=True)

    def draw(self) -> None:
        self._send_first(Draw.TYPE, "you cannot draw now")

    def pass_turn(self) -> None:
        self._send_first(Pass.TYPE, "you can pass only after drawing")

    def uno(self) -> None:
        """u: declare UNO now if that is legal, else arm it for the next play."""
        model = self.model
        if model.legal_of(CallUno.TYPE):
            self.emit(GameIntent({"type": CallUno.TYPE}))
            return
        if any(c.get("uno") for c in model.legal_of(Play.TYPE)):
            model.uno_armed = not model.uno_armed
            model.notify("UNO will be said with your play" if model.uno_armed else "UNO unarmed")
            return
        model.notify("nothing to declare: UNO is for your last card but one", error=True)

    def catch(self) -> None:
        """c: catch the one exposed player, or choose whom when several are exposed."""
        catches = self.model.legal_of(Catch.TYPE)
        if not catches:
            self.model.notify("nobody to catch", error=True)
            return
        if len(catches) == 1:
            self.emit(GameIntent(catches[0]))
            return
        targets = [c["target"] for c in catches]
        self.model.picker = Picker(
            "Catch whom?", Catch.TYPE, [(t, self.model.seat_name(t)) for t in targets]
        )
        self.model.mode = Mode.PICK

    def challenge(self, yes: bool) -> None:
        """y / n: challenge the Wild Draw Four, or take it."""
        self._send_first(
            Challenge.TYPE if yes else Accept.TYPE, "there is no Wild Draw Four to answer"
        )

    # -- the dance -----------------------------------------------------------------------

    def dance_step(self, arrow: str) -> None:
        if len(self.model.dance_steps) < 16:
            self.model.dance_steps.append(arrow)

    def dance_undo(self) -> None:
        if self.model.dance_steps:
            self.model.dance_steps.pop()

    def dance_submit(self) -> None:
        model = self.model
        if not model.legal_of(Dance.TYPE):
            model.notify("there is no dance to answer", error=True)
            return
        steps = list(model.dance_steps)
        model.dance_steps = []
        model.mode = Mode.NORMAL
        self.emit(GameIntent({"type": Dance.TYPE, "steps": steps}))

    def refuse_dance(self) -> None:
        self.model.mode = Mode.NORMAL
        self.model.dance_steps = []
        self._send_first(RefuseDance.TYPE, "there is no dance to refuse")

    # -- table and host keys ---------------------------------------------------------------

    def ready(self) -> None:
        model = self.model
        if model.table is not None and model.table.state is TableStatus.BETWEEN_ROUNDS:
            self.emit(TableRequest(Ready.TYPE, {"ready": True}))
            model.notify("ready for the next round")

    def start(self) -> None:
        if self._host_only("start the match"):
            self.emit(TableRequest(Start.TYPE))

    def add_bot(self) -> None:
        if self._host_only("add a bot"):
            self.emit(TableRequest(AddBot.TYPE, {"strategy": "basic"}))

    def remove_bot(self) -> None:
        table = self.model.table
        if table is None or not self._host_only("remove a bot"):
            return
        bots = [s.seat for s in table.seats if s.bot]
        if not bots:
            self.model.notify("there is no bot to remove", error=True)
        elif len(bots) == 1:
            self.emit(TableRequest(RemoveBot.TYPE, {"seat": bots[0]}))
        else:
            self._seat_picker("Remove which bot?", RemoveBot.TYPE, bots)

    def kick(self) -> None:
        table = self.model.table
        if table is None or not self._host_only("kick a player"):
            return
        others = [s.seat for s in table.seats if s.name and s.seat != self.model.seat]
        if others:
            self._seat_picker("Kick whom?", Kick.TYPE, others)
        else:
            self.model.notify("nobody else is seated", error=True)

    def _seat_picker(self, title: str, purpose: str, seats: list[int]) -> None:
        options = [(seat, self.model.seat_name(seat)) for seat in seats]
        self.model.picker = Picker(title, purpose, options)
        self.model.mode = Mode.PICK

    def pause(self) -> None:
        table = self.model.table
        if table is None or not self._host_only("pause"):
            return
        self.emit(
            TableRequest(ResumeTable.TYPE if table.state is TableStatus.PAUSED else PauseTable.TYPE)
        )

    def rematch(self) -> None:
        if self._host_only("start a rematch"):
            self.emit(TableRequest(Rematch.TYPE))

    def _host_only(self, what: str) -> bool:
        if not self.model.is_host:
            self.model.notify(f"only the host can {what}", error=True)
            return False
        return True

    # -- typing: chat and host:port --------------------------------------------------------

    def start_chat(self) -> None:
        self.model.mode = Mode.CHAT
        self.model.text = ""

    def start_address(self) -> None:
        self.model.mode = Mode.ADDRESS
        self.model.text = ""

    def type_text(self, text: str) -> None:
        limit = MAX_PASSWORD_LEN if self.model.mode is Mode.PASSWORD else 200
        typed = "".join(ch for ch in text if ch.isprintable())
        self.model.text = (self.model.text + typed)[:limit]

    def backspace(self) -> None:
        self.model.text = self.model.text[:-1]

    def submit_text(self) -> None:
        model = self.model
        raw = model.text
        text = raw.strip()
        mode = model.mode
        model.text = ""
        model.mode = Mode.NORMAL
        if mode is Mode.PASSWORD:
            self._enter_with_password(raw)  # a password is sent as typed, spaces and all
            return
        if not text:
            return
        if mode is Mode.CHAT:
            self.emit(TableRequest(Chat.TYPE, {"text": text}))
        elif mode is Mode.ADDRESS:
            problem = address_problem(text)
            address = parse_address(text)
            if problem is not None or address is None:
                model.notify(problem or f"not HOST:PORT: {text}", error=True)
                return
            model.address = text
            self.emit(Connect(*address))

    # -- finding a server ------------------------------------------------------------------

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

    def _enter_with_password(self, password: str) -> None:
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
        count = len(form_fields()) + len(FORM_TEXT_ROWS)
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

    # -- the log ---------------------------------------------------------------------------

    def scroll_log(self, lines: int) -> None:
        """PgUp / PgDn: scroll the match log back (positive) or forward; 0 goes to the end."""
        model = self.model
        if lines == 0:
            model.log_scroll = 0
            return
        model.log_scroll = max(0, min(model.log_scroll + lines, len(model.log) - 1))

    # -- help, leaving ---------------------------------------------------------------------

    def toggle_help(self) -> None:
        self.model.mode = Mode.NORMAL if self.model.mode is Mode.HELP else Mode.HELP

    def leave(self) -> None:
        """q: leave the table (asking first mid-match), or quit from the lobby."""
        model = self.model
        if model.screen is Screen.TABLE and model.match_running and not model.spectating:
            model.mode = Mode.CONFIRM_LEAVE
            return
        self._leave_now()

    def confirm_leave(self, yes: bool) -> None:
        self.model.mode = Mode.NORMAL
        if yes:
            self._leave_now()

    def _leave_now(self) -> None:
        model = self.model
        if model.screen is Screen.TABLE and not model.solo:
            self.emit(LeaveTable())
        else:
            self.quit()

    def quit(self) -> None:
        self.model.finished = True
        self.emit(Quit())


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
