"""The host's keys at a table: add and remove bots, start, kick and ban, pause, rematch,
close a table the server rebuilt after a restart, and start again the server
``--serve`` started once it has stopped.

``HostController`` is the part of the controller (``client/ui/controller.py``) for the
table's host; a guest pressing these keys gets a short "only the host" message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.i18n import _
from client.ui.intents import Intent, RestartServer, TableRequest
from client.ui.model import Mode, Model, Picker
from client.ui.table_form import DEFAULT_LEVEL, LEVEL_CHOICES
from client.ui.words import level_word
from protocol.messages import (
    AddBot,
    CloseTable,
    Kick,
    PauseTable,
    Rematch,
    RemoveBot,
    ResumeTable,
    Start,
    TableStatus,
)

__all__ = ["BAN", "HostController", "can_close_rebuilt"]

BAN = "ban"
"""The purpose of the picker and the question that ban a person (a kick with ``ban``)."""


def can_close_rebuilt(model: Model) -> bool:
    """Whether the host may close the table instead of resuming it: the server restarted
    and rebuilt it (``Model.rebuilt_table``), and it still waits, paused, for its people."""
    table = model.table
    return (
        table is not None
        and model.is_host
        and model.rebuilt_table == table.table_id
        and table.state is TableStatus.PAUSED
    )


class HostController:
    """The host's keys (see the module docstring)."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self.emit = emit

    def restart_server(self) -> None:
        """R, once the server ``--serve`` started has stopped: start it again."""
        if self.model.server_down is None:
            return
        self.model.notify(_("starting your server again…"))
        self.emit(RestartServer())

    def start(self) -> None:
        if self._host_only(_("start the match")):
            self.emit(TableRequest(Start.TYPE))

    def add_bot(self) -> None:
        """b: a picker of the bot levels (normal first chosen); Enter adds one."""
        if not self._host_only(_("add a bot")):
            return
        options: list[tuple[object, str]] = [(level, level_word(level)) for level in LEVEL_CHOICES]
        picker = Picker(_("Add a bot of which level?"), AddBot.TYPE, options)
        picker.index = LEVEL_CHOICES.index(DEFAULT_LEVEL)
        self.model.picker = picker
        self.model.mode = Mode.PICK

    def remove_bot(self) -> None:
        table = self.model.table
        if table is None or not self._host_only(_("remove a bot")):
            return
        bots = [s.seat for s in table.seats if s.bot]
        if not bots:
            self.model.notify(_("there is no bot to remove"), error=True)
        elif len(bots) == 1:
            self.emit(TableRequest(RemoveBot.TYPE, {"seat": bots[0]}))
        else:
            self._seat_picker(_("Remove which bot?"), RemoveBot.TYPE, bots)

    def kick(self, ban: bool = False) -> None:
        """k (K: ban): choose the person (a picker when there are several), then confirm."""
        table = self.model.table
        if table is None or not self._host_only(_("ban a player") if ban else _("kick a player")):
            return
        people = [s.seat for s in table.seats if s.name and not s.bot and s.seat != self.model.seat]
        if not people:
            self.model.notify(_("no other person is seated"), error=True)
        elif len(people) == 1:
            self.ask_kick(people[0], ban)
        else:
            self._seat_picker(
                _("Ban whom?") if ban else _("Kick whom?"), BAN if ban else Kick.TYPE, people
            )

    def ask_kick(self, seat: int, ban: bool) -> None:
        """Ask the host to confirm the kick (or ban) of the person in ``seat``."""
        model = self.model
        name = model.seat_name(seat)
        if ban:
            question = _("Ban {player}? They leave and may not come back to this table.")
        elif model.match_running:
            question = _("Kick {player}? A bot takes their seat.")
        else:
            question = _("Kick {player}? They go back to the lobby.")
        question = question.format(player=name)
        model.picker = Picker(question, BAN if ban else Kick.TYPE, [(seat, name)])
        model.mode = Mode.CONFIRM

    def close_rebuilt(self) -> None:
        """C: after a server restart, while the rebuilt table waits, ask to close it."""
        if not self._host_only(_("close the table")):
            return
        if not can_close_rebuilt(self.model):
            self.model.notify(
                _("only a table the server rebuilt after a restart, while it waits, can be closed"),
                error=True,
            )
            return
        question = _("Close this table for good? The match so far goes into the history.")
        self.model.picker = Picker(question, CloseTable.TYPE, [(None, _("close"))])
        self.model.mode = Mode.CONFIRM

    def confirm(self, yes: bool) -> None:
        """y / n to the kick, ban or close asked."""
        model = self.model
        picker, model.picker = model.picker, None
        model.mode = Mode.NORMAL
        if not yes or picker is None:
            return
        if picker.purpose == CloseTable.TYPE:
            self.emit(TableRequest(CloseTable.TYPE))
            return
        fields: dict[str, Any] = {"seat": picker.value}
        if picker.purpose == BAN:
            fields["ban"] = True
        self.emit(TableRequest(Kick.TYPE, fields))

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
            self.model.notify(_("only the host can {what}").format(what=what), error=True)
            return False
        return True
