"""The standings and the latest matches a server remembers, as the client holds them.

Plain state and its reducer, like ``client.ui.model``: the network side hands over the
latest ``standings`` and ``match-list`` pages (protocol 1.2) and ``apply_records`` keeps
what belongs to the period shown. The screen that draws it is
``client.ui.standings_screen``.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.messages import (
    GetStandings,
    ListMatches,
    MatchList,
    MatchRecord,
    Request,
    Standing,
    Standings,
    StandingsPeriod,
)

__all__ = ["Records", "apply_records", "records_refused"]


@dataclass(slots=True)
class Records:
    """What the standings screen shows."""

    available: bool = False
    """The server's protocol has the history messages (1.2 and later)."""
    replays: bool = False
    """The server's protocol has ``get-replay`` (1.3 and later)."""
    period: StandingsPeriod = StandingsPeriod.WEEK
    """This week or all time."""
    players: tuple[Standing, ...] = ()
    """The standings of ``period``: people first, then bots."""
    loaded: bool = False
    """``players`` is the server's answer for ``period`` (not still on its way)."""
    matches: tuple[MatchRecord, ...] = ()
    """The latest finished matches, the latest first."""
    match_index: int = 0
    """The match chosen in the list."""
    showing_match: bool = False
    """The chosen match's final table is shown instead of the list."""
    refused: bool = False
    """The server refused to give the standings (it keeps no history); the message line
    says why."""
    refused_code: str | None = None
    """The code of that refusal (``no-history``: the server runs with ``--no-state``)."""

    @property
    def chosen(self) -> MatchRecord | None:
        """The match chosen in the list, if there is one."""
        if not self.matches:
            return None
        return self.matches[min(self.match_index, len(self.matches) - 1)]


def apply_records(
    records: Records, standings: Standings | None, match_list: MatchList | None
) -> None:
    """Take the latest pages the server sent; standings of another period than the one
    shown (an answer to an earlier toggle) are left aside."""
    if standings is not None and standings.period is records.period:
        records.players = standings.players
        records.loaded = True
    if match_list is not None:
        records.matches = match_list.matches
        records.match_index = min(records.match_index, max(0, len(match_list.matches) - 1))


def records_refused(records: Records, request: Request, code: str | None = None) -> None:
    """The server refused ``request`` (with ``code``); if it asked for the standings or
    the matches, the screen stops waiting for them."""
    if isinstance(request, GetStandings | ListMatches):
        records.refused = True
        records.refused_code = code
