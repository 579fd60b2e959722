"""What each key does: it reads the model, changes its UI state and emits intents.

The controller is the one place where a key press becomes a game command. Playing a card
narrows the view's ``legal`` plays of that card step by step: a colour picker when the
plays differ by colour, then a seat picker (Swap Hands, a Skip under ``skip_any``), then
a dance picker (Dancing Wild); UNO is added when it was armed with ``u``. The controller
never sends anything itself: ``emit(intent)`` hands the intent to the network side.

Why this module is long: one short method per key of the table screen, beside the picker
steps they share; the lobby's, the host's and the history's keys already live in
controllers of their own, and where a picker opens in ``client.ui.picker_start``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from client.i18n import _, mark, pgettext
from client.ui.faces import card_label, color_name
from client.ui.hints import refused_while_away, why_not_playable
from client.ui.host_controller import BAN, HostController
from client.ui.intents import (
    GameIntent,
    Intent,
    LeaveTable,
    Quit,
    RememberSetting,
    SaveReplay,
    TableRequest,
)
from client.ui.lobby_controller import LobbyController
from client.ui.model import Mode, Model, Picker, Screen
from client.ui.picker_start import sensible_start
from client.ui.records_controller import RecordsController
from client.ui.sentences import say_count
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
    SeatCommand,
)
from protocol.limits import MAX_PASSWORD_LEN
from protocol.messages import (
    AddBot,
    Chat,
    Kick,
    Ready,
    RemoveBot,
    TableStatus,
    TakeBotSeat,
)
from protocol.phase import Phase

__all__ = ["ARROWS", "DRAFT_FIELDS", "Controller"]

ARROWS = tuple(arrow.value for arrow in Arrow)
DRAFT_FIELDS = ("color", "target", "dance")
"""The fields a play (or a first-card colour choice) is narrowed by, in the asking order."""

_FIELD_TITLES = {
    "color": mark("picker", "Choose the colour"),
    "target": mark("picker", "Choose a player"),
    "dance": mark("picker", "Choose the dance"),
}


def _says_uno(command: SeatCommand) -> bool:
    """Whether ``command`` is a play that declares UNO with it."""
    return isinstance(command, Play) and command.uno


class Controller:
    """Turns key presses into model changes and intents (see the module docstring)."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self._send = emit
        emit = self.emit
        self.lobby = LobbyController(model, emit)
        """The keys of the find screen, the server's lobby and the new-table form."""
        self.host = HostController(model, emit)
        """The host's keys at a table: bots, start, kick, pause, rematch."""
        self.records = RecordsController(model, emit)
        """The keys of the standings screen."""

    def emit(self, intent: Intent) -> None:
        """Hand ``intent`` to the network side; while the server is away a command is not
        sent (the message line says so): it would only reach a connection that is gone."""
        if isinstance(intent, GameIntent | TableRequest | LeaveTable):
            what = intent.kind if isinstance(intent, GameIntent) else "leave"
            what = intent.type if isinstance(intent, TableRequest) else what
            if refused_while_away(self.model, what):
                return
        self._send(intent)

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
        if model.spectating:
            self.lobby.offer_bot_seat()
            return
        if model.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER) or model.view is None:
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
            model.notify(
                _("{card} cannot be played now: {why}").format(
                    card=card_label(code), why=why_not_playable(model, code)
                ),
                True,
            )
            return
        self._start_draft(plays)

    def jump_in(self) -> None:
        """j: jump in (Ruling 37) with the card identical to the top card, from anywhere
        in the table screen: it is selected and played out of turn."""
        model = self.model
        jumps = [] if model.my_turn else model.legal_of(Play.TYPE)
        if not jumps:
            model.notify(_("no jump-in now: it needs a card identical to the top card"), True)
            return
        plays = [c for c in jumps if isinstance(c, Play)]
        code = plays[0].card.code
        if code in model.hand:
            model.selected = model.hand.index(code)
        self._start_draft([c for c in plays if c.card.code == code])

    def _start_draft(self, candidates: Sequence[SeatCommand]) -> None:
        self.model.draft = list(candidates)
        self._narrow()

    def _narrow(self) -> None:
        """Ask for the next field that still differs among the candidates, or send."""
        model = self.model
        for name in DRAFT_FIELDS:
            values = list(dict.fromkeys(getattr(c, name, None) for c in model.draft))
            if len(values) > 1:
                picker = Picker(
                    pgettext("picker", _FIELD_TITLES[name]),
                    name,
                    [(v, self._label(name, v)) for v in values],
                )
                picker.index = sensible_start(name, values, model.view, model.seat, model.hand)
                model.picker = picker
                model.mode = Mode.PICK
                return
        self._send_draft()

    def _label(self, name: str, value: Any) -> str:
        if name == "color":
            return color_name(value)
        if name == "target":
            count = ""
            if self.model.view is not None and isinstance(value, int):
                counts = self.model.view.shared.counts
                if value < len(counts):
                    count = " (" + say_count("cards", counts[value]) + ")"
            return self.model.seat_name(value) + count
        return str(value)

    def _send_draft(self) -> None:
        model = self.model
        draft = model.draft
        wanted_uno = model.uno_armed
        chosen = next((c for c in draft if _says_uno(c) == wanted_uno), draft[0])
        model.draft = []
        model.picker = None
        model.mode = Mode.NORMAL
        if _says_uno(chosen):
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
        for index, (option, _words) in enumerate(picker.options):
            if option == value:
                picker.index = index
                if confirm:
                    self.pick_confirm()
                return

    def pick_seat_number(self, digit: int) -> None:
        """A digit in a seat picker selects the seat shown with that number (seats count
        from 1 on screen: ``client.ui.panes.seat_number``); Enter confirms."""
        self.pick_value((digit - 1) % 10, confirm=False)

    def pick_confirm(self) -> None:
        model = self.model
        picker = model.picker
        if picker is None:
            return
        value = picker.value
        if picker.purpose in DRAFT_FIELDS:
            model.draft = [c for c in model.draft if getattr(c, picker.purpose, None) == value]
            model.picker = None
            self._narrow()
            return
        model.picker = None
        model.mode = Mode.NORMAL
        if picker.purpose == Catch.TYPE:
            self.emit(GameIntent(Catch(target=value)))
        elif picker.purpose in (Kick.TYPE, BAN):
            self.host.ask_kick(value, ban=picker.purpose == BAN)
        elif picker.purpose == RemoveBot.TYPE:
            self.emit(TableRequest(picker.purpose, {"seat": value}))
        elif picker.purpose == TakeBotSeat.TYPE:
            self.lobby.take_bot_seat(value)
        elif picker.purpose == AddBot.TYPE:
            self.emit(TableRequest(AddBot.TYPE, {"strategy": value}))

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
            self.emit(GameIntent(CallUno()))
            return
        if any(_says_uno(c) for c in model.legal_of(Play.TYPE)):
            model.uno_armed = not model.uno_armed
            model.notify(_("UNO will be said with your play") if model.uno_armed else "UNO unarmed")
            return
        model.notify(_("nothing to declare: UNO is for your last card but one"), error=True)

    def catch(self) -> None:
        """c: catch the one exposed player, or choose whom when several are exposed."""
        catches = self.model.legal_of(Catch.TYPE)
        if not catches:
            self.model.notify(_("nobody to catch"), error=True)
            return
        if len(catches) == 1:
            self.emit(GameIntent(catches[0]))
            return
        targets = [c.target for c in catches if isinstance(c, Catch)]
        self.model.picker = Picker(
            _("Catch whom?"), Catch.TYPE, [(t, self.model.seat_name(t)) for t in targets]
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
            model.notify(_("there is no dance to answer"), error=True)
            return
        steps = tuple(Arrow(step) for step in model.dance_steps)
        model.dance_steps = []
        model.mode = Mode.NORMAL
        self.emit(GameIntent(Dance(steps=steps)))

    def refuse_dance(self) -> None:
        self.model.mode = Mode.NORMAL
        self.model.dance_steps = []
        self._send_first(RefuseDance.TYPE, "there is no dance to refuse")

    # -- between rounds ---------------------------------------------------------------------

    def ready(self) -> None:
        model = self.model
        table = model.table
        if table is not None and table.state is TableStatus.BETWEEN_ROUNDS:
            model.notify(_("ready for the next round"))
            self.emit(TableRequest(Ready.TYPE, {"ready": True}))
        elif table is not None and table.state is TableStatus.OVER and table.rematch_asked:
            model.notify(_("ready for the rematch"))
            self.emit(TableRequest(Ready.TYPE, {"ready": True}))

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
            self.lobby.enter_with_password(raw)  # sent as typed, spaces and all
            return
        if not text:
            return
        if mode is Mode.CHAT:
            self.emit(TableRequest(Chat.TYPE, {"text": text}))
        elif mode is Mode.RENAME:
            self.lobby.rename(raw)
        elif mode is Mode.ADDRESS:
            self.lobby.connect_to(text)

    # -- the bell --------------------------------------------------------------------------

    def toggle_bell(self) -> None:
        """m: the bell on your turn on or off (remembered for next time)."""
        model = self.model
        model.bell = not model.bell
        self.emit(RememberSetting("bell", model.bell))
        model.notify(_("the bell rings when it is your turn") if model.bell else "bell off")

    # -- the log ---------------------------------------------------------------------------

    def scroll_log(self, lines: int) -> None:
        """PgUp / PgDn: scroll the match log back (positive) or forward; 0 goes to the end."""
        model = self.model
        if lines == 0:
            model.log_scroll = 0
            return
        model.log_scroll = max(0, min(model.log_scroll + lines, len(model.log) - 1))

    # -- the replay ------------------------------------------------------------------------

    def save_replay(self) -> None:
        """e, after the match: save the match's replay to a file (``SaveReplay``)."""
        model = self.model
        if model.table is None or model.phase != Phase.MATCH_OVER:
            model.notify("the replay can be saved once the match is over", error=True)
        elif not model.records.replays:
            model.notify("this server keeps no replays (its protocol is older)", error=True)
        else:
            self.emit(SaveReplay(table_id=model.table.table_id))

    # -- help, leaving ---------------------------------------------------------------------

    def toggle_help(self) -> None:
        self.model.mode = Mode.NORMAL if self.model.mode is Mode.HELP else Mode.HELP
        self.model.help_scroll = 0

    def scroll_help(self, lines: int) -> None:
        """↑/↓ (PgUp/PgDn) on the help page: scroll it (the render keeps it in range)."""
        self.model.help_scroll = max(0, self.model.help_scroll + lines)

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
