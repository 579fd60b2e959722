"""The host's keys at a table: add and remove bots, start, kick, pause, rematch.

``HostController`` is the part of the controller (``client/ui/controller.py``) for the
table's host; a guest pressing these keys gets a short "only the host" message.
"""

from __future__ import annotations

from collections.abc import Callable

from client.ui.intents import Intent, TableRequest
from client.ui.model import Mode, Model, Picker
from client.ui.table_form import DEFAULT_LEVEL, LEVEL_CHOICES
from protocol.messages import (
    AddBot,
    Kick,
    PauseTable,
    Rematch,
    RemoveBot,
    ResumeTable,
    Start,
    TableStatus,
)

__all__ = ["HostController"]


class HostController:
    """The host's keys (see the module docstring)."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self.emit = emit

    def start(self) -> None:
        if self._host_only("start the match"):
            self.emit(TableRequest(Start.TYPE))

    def add_bot(self) -> None:
        """b: a picker of the bot levels (normal first chosen); Enter adds one."""
        if not self._host_only("add a bot"):
            return
        options: list[tuple[object, str]] = [(level, level) for level in LEVEL_CHOICES]
        picker = Picker("Add a bot of which level?", AddBot.TYPE, options)
        picker.index = LEVEL_CHOICES.index(DEFAULT_LEVEL)
        self.model.picker = picker
        self.model.mode = Mode.PICK

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
