"""What the keys of the standings screen do (``client.ui.standings_screen`` draws it).

Like every controller it changes the model's UI state and asks the server through
intents; the answers arrive in ``model.records``.
"""

from __future__ import annotations

from collections.abc import Callable

from client.i18n import _
from client.ui.intents import Intent, SaveReplay, TableRequest
from client.ui.model import Mode, Model
from protocol.messages import GetStandings, ListMatches, StandingsPeriod

__all__ = ["MATCHES_ASKED", "RecordsController"]

MATCHES_ASKED = 20
"""How many of the latest matches the screen asks for."""


class RecordsController:
    """The keys of the standings screen."""

    def __init__(self, model: Model, emit: Callable[[Intent], None]) -> None:
        self.model = model
        self.emit = emit

    def open(self) -> None:
        """h in the lobby: show the standings, asking the server for fresh ones."""
        model = self.model
        if not model.records.available:
            model.notify(_("this server keeps no standings (its protocol is older)"), error=True)
            return
        model.mode = Mode.STANDINGS
        model.records.showing_match = False
        model.records.refused = False
        self.refresh()

    def refresh(self) -> None:
        """Ask for the standings of the period shown and the latest matches."""
        period = self.model.records.period
        self.emit(TableRequest(GetStandings.TYPE, {"period": period.value, "limit": 100}))
        self.emit(TableRequest(ListMatches.TYPE, {"limit": MATCHES_ASKED}))

    def toggle_period(self) -> None:
        """w: this week <-> all time."""
        records = self.model.records
        week = records.period is StandingsPeriod.WEEK
        records.period = StandingsPeriod.ALL if week else StandingsPeriod.WEEK
        records.players = ()
        records.loaded = False
        self.emit(TableRequest(GetStandings.TYPE, {"period": records.period.value, "limit": 100}))

    def move(self, delta: int) -> None:
        """↑/↓: choose another match."""
        records = self.model.records
        if records.matches:
            records.match_index = max(0, min(len(records.matches) - 1, records.match_index + delta))

    def toggle_match(self) -> None:
        """Enter: the chosen match's final table, or back to the list."""
        records = self.model.records
        records.showing_match = not records.showing_match and records.chosen is not None

    def export(self) -> None:
        """e: save the chosen match's replay to a file (``SaveReplay``)."""
        model = self.model
        chosen = model.records.chosen
        if chosen is None:
            model.notify("no match chosen", error=True)
        elif chosen.match_id is None or not model.records.replays:
            model.notify("this server keeps no replays (its protocol is older)", error=True)
        else:
            self.emit(SaveReplay(chosen.match_id))
