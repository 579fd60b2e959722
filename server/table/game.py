"""A table's match and its clock: starting a match, stamping commands, running out clocks.

Time is data: the engine never reads a clock. ``TableGame`` stamps every command with the
server clock (Trio's, in milliseconds, never running backwards) and, when the match's
deadline has passed, applies the engine's ``Timeout()`` stamped with that deadline. Every
accepted batch of events goes to the table's ``Broadcast``, and the match then forgets it:
the broadcast's history keeps the recent events a resume needs, the journal every command.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import trio

from protocol.commands import Command, NextRound, SeatCommand, SetAway, TableCommand, Timeout
from protocol.errors import LobbyRejectCode
from protocol.events import Event, EventKind
from protocol.messages import TableStatus
from protocol.options import ConfigError, TableConfig
from server.engine import Accepted, Match, Phase
from server.journal import SavedMatch, TableJournal
from server.recent_replays import TableReplays
from server.settings import LobbySettings
from server.table.broadcast import Broadcast
from server.table.refusals import RequestRefused
from server.table.replay_log import ReplayLog, ReplayStore
from server.table.seating import Seat, Seating
from server.table.stand_in_turns import StandInTurns

__all__ = ["TableGame"]

log = logging.getLogger("uno.server.table")


class TableGame:
    """The match of one table (None until the host starts one), and its clock."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        settings: LobbySettings,
        seating: Seating,
        broadcast: Broadcast,
        *,
        journal: TableJournal | None = None,
        recent: TableReplays | None = None,
    ) -> None:
        """``journal``: where accepted commands are written before anyone hears of them
        (None keeps the table in memory only); ``recent``: where the public record of
        each match goes on a server without a journal (``server.recent_replays``)."""
        self.table_id = table_id
        self.config = config
        """The table's options; its ``seats`` shrink to the players when a match starts."""
        self.match: Match | None = None
        self.matches_played = 0
        self._settings = settings
        self._seating = seating
        self._broadcast = broadcast
        self._journal = journal
        self._recent = recent
        store: ReplayStore | None = recent if recent is not None else journal
        self.replay_log = ReplayLog(store)
        """The match's public record, a stretch at a time; the round being played."""
        self._last_ms = 0
        self._offset_ms = 0  # engine time minus Trio time (a match rebuilt goes on in time)
        self._refused_deadline: int | None = None
        self._stand_in_turns = StandInTurns(config.seats)
        self._moved_by_owner: set[int] | None = set()
        """The seats whose own player (not a stand-in) sent a move of this match; None
        for a match rebuilt from the journal, whose moves' makers are not known."""
        self.rematch_due: float | None = None
        """(Trio time) When the rematch the host proposed starts with whoever is there;
        None while no rematch waits for its guests."""
        self.arrival_seen: int | None = None
        """Ruling 37: for the game command being handled, the match's event count in the
        last view sent through its seat when it arrived (``TableRequest.seen``)."""

    def status(self) -> TableStatus:
        """Where the table is in its life."""
        match = self.match
        if match is None:
            return TableStatus.LOBBY
        if match.is_over:
            return TableStatus.OVER
        if match.paused:
            return TableStatus.PAUSED
        if match.phase is Phase.ROUND_OVER:
            return TableStatus.BETWEEN_ROUNDS
        return TableStatus.PLAYING

    def now_ms(self, at_least: int = 0) -> int:
        """The server clock in ms for stamping a command; never runs backwards."""
        engine_now = int(trio.current_time() * 1000) + self._offset_ms
        self._last_ms = max(self._last_ms, engine_now, at_least)
        return self._last_ms

    def require_no_match(self, why: str) -> None:
        """Refuse with ``why`` once a match has started."""
        if self.match is not None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, why)

    def running(self) -> Match | None:
        """The match while it is not over."""
        match = self.match
        return match if match is not None and not match.is_over else None

    def is_away(self, seat: int) -> bool:
        """Whether the running match marks ``seat`` away (a server bot plays it)."""
        match = self.running()
        return match is not None and match.away[seat]

    # ------------------------------------------------------------------ starting

    def shrink_to_players(self) -> dict[int, int]:
        """Before the first match: the table has as many seats as players, everyone moved
        down into chairs 0..n-1 (returned as old index -> new index)."""
        players = sum(1 for _ in self._seating)
        try:
            self.config = replace(self.config, seats=players)
        except ConfigError as error:
            raise RequestRefused(LobbyRejectCode.NOT_ENOUGH_PLAYERS, str(error)) from None
        return self._seating.close_gaps()

    def propose_rematch(self, host: Seat, cause_peer: int, cause_id: int) -> None:
        """The host asks for a rematch: as between rounds, everyone is asked to say ready
        (the host and the bots are), and the round break's clock runs; the rematch starts
        when every connected person is ready or when the clock runs out."""
        if self.status() is not TableStatus.OVER:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE, "a rematch follows a finished match"
            )
        if self.rematch_due is not None:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE, "a rematch is already asked for"
            )
        for seat in self._seating:
            seat.ready = seat.is_bot or seat.bot_client
        host.ready = True
        self.rematch_due = trio.current_time() + self.config.round_pause_seconds
        self.go_on_if_ready(cause_peer, cause_id)

    def start(self, cause_peer: int | None = None, cause_id: int | None = None) -> None:
        """Deal a new match (the first or a rematch); people not connected start away."""
        self.rematch_due = None
        self.matches_played += 1
        seed = self._settings.match_seed(self.table_id, self.matches_played)
        start_ms = self.now_ms()
        match = Match(self.config, seed, start_ms)
        self.match = match
        self._refused_deadline = None
        self._stand_in_turns = StandInTurns(self.config.seats)
        self._stand_in_turns.feed(match.events)
        self._moved_by_owner = set()
        self._broadcast.seen.clear()  # the counts of the last match's views
        if self._journal is not None:
            first_seq = self._broadcast.last_seq + 1
            self._journal.match_started(self.matches_played, seed, start_ms, first_seq, self.config)
        self.replay_log.match_started()
        for seat in self._seating:
            seat.ready = False
        self._publish(match, match.events, cause_peer, cause_id)
        for seat in self._seating.people():
            if seat.peer is None:
                self.apply_table(SetAway(seat.index, True))

    def restore(self, saved: SavedMatch) -> None:
        """Replay a match from the journal; its clocks go on from its last command."""
        self.config = saved.config
        self.matches_played = saved.number
        match = Match.replay(saved.config, saved.seed, saved.commands, saved.start_ms)
        self.match = match
        self._stand_in_turns = StandInTurns(saved.config.seats)
        self._stand_in_turns.feed(match.events)
        self._moved_by_owner = None
        last_ms = saved.commands[-1][2] if saved.commands else saved.start_ms
        self._last_ms = last_ms
        self._offset_ms = last_ms - int(trio.current_time() * 1000)
        if self._journal is not None:
            self._journal.resumed_match(saved.number, len(saved.commands))
        self.replay_log.match_started()
        self.replay_log.add(self._broadcast.restore(match.events, saved.first_seq))
        match.forget_history()

    def replace_match(self, match: Match) -> None:
        """Go on from ``match`` (a rigged position); the event numbers go on as they were."""
        self.match = match
        self._refused_deadline = None
        self._stand_in_turns = StandInTurns(match.config.seats)

    # ------------------------------------------------------------------ commands

    def play(
        self, seat: int, command: SeatCommand, cause_peer: int, cause_id: int, *, by_owner: bool
    ) -> None:
        """A seat's game command (``by_owner``: sent by the seat's own player, not a server
        bot standing in); refused with the engine's reason, changing nothing."""
        if by_owner and self._moved_by_owner is not None:
            self._moved_by_owner.add(seat)  # before the move: it may finish the match
        self._requested(seat, command, cause_peer, cause_id)

    def host_command(self, command: TableCommand) -> None:
        """A table command the host asked for (pause, resume); refused like ``play``."""
        self._requested(None, command)

    def _requested(
        self,
        actor: int | None,
        command: Command,
        cause_peer: int | None = None,
        cause_id: int | None = None,
    ) -> None:
        match = self.match
        if match is None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has not started")
        now_ms = self.now_ms()
        if actor is not None and self.arrival_seen is not None:
            match.saw(actor, self.arrival_seen)
        outcome = match.apply(actor, command, now_ms)
        if not isinstance(outcome, Accepted):
            raise RequestRefused(outcome.code, outcome.message, outcome.card)
        self._accepted(actor, command, now_ms, outcome)
        self._publish(match, outcome.events, cause_peer, cause_id)

    def apply_table(self, command: TableCommand, at_ms: int = 0) -> bool:
        """Apply the table's own command; True if the engine accepted it."""
        match = self.match
        if match is None:
            return False
        now_ms = self.now_ms(at_ms)
        outcome = match.apply(None, command, now_ms)
        if not isinstance(outcome, Accepted):
            log.debug("table %s: engine refused %s: %s", self.table_id, command.TYPE, outcome)
            return False
        self._accepted(None, command, now_ms, outcome)
        self._publish(match, outcome.events)
        return True

    def set_away(self, seat: int, away: bool) -> None:
        """Mark ``seat`` away (or back) in the running match, if it is not so already."""
        match = self.running()
        if match is not None and match.away[seat] != away:
            self.apply_table(SetAway(seat, away))

    def _publish(
        self,
        match: Match,
        events: Sequence[Event],
        cause_peer: int | None = None,
        cause_id: int | None = None,
    ) -> None:
        """Send ``events`` out; then the match forgets them and its commands so far. The
        table's history keeps the recent events a resume needs, and the journal every
        command: the match need not keep a long evening's worth of either."""
        self.replay_log.add(self._broadcast.publish(events, cause_peer, cause_id))
        match.forget_history()

    def _accepted(
        self, actor: int | None, command: Command, now_ms: int, outcome: Accepted
    ) -> None:
        """What the table does with an accepted command before its events leave: write it
        to the journal (a crash then loses only moves nobody heard of), have everyone ready
        again for a new round, and keep a finished match in the history."""
        journal = self._journal
        self._stand_in_turns.feed(outcome.events)
        if journal is not None:
            journal.command(actor, command, now_ms)
        if any(event.kind is EventKind.ROUND_STARTED for event in outcome.events):
            for seat in self._seating:
                seat.ready = False
        match = self.match
        round_over = any(event.kind is EventKind.ROUND_OVER for event in outcome.events)
        if journal is not None and match is not None and round_over:
            journal.round_scores(list(match.scores))
        if match is not None and match.is_over and (journal or self._recent) is not None:
            result = self._result(match)
            if journal is not None:
                journal.match_finished(result, people=self._people_played(result))
            if self._recent is not None:
                self._recent.match_finished(result, self.config)

    def _result(self, match: Match) -> dict[str, Any]:
        """A finished match as the history keeps it."""
        result = match.result
        players = []
        stand_in_turns = self._stand_in_turns.counts
        for index, score in enumerate(match.scores):
            seat = self._seating[index] if self._seating.valid(index) else None
            bot = seat is not None and (seat.is_bot or seat.bot_client)
            player: dict[str, Any] = {
                "name": seat.name if seat is not None else f"seat {index}",
                "bot": bot,
                "score": score,
            }
            if not bot and index < len(stand_in_turns) and stand_in_turns[index]:
                player["stand_in_turns"] = stand_in_turns[index]  # credited, with that note
            players.append(player)
        winners = [players[index]["name"] for index in (result.winners if result else ())]
        return {"deck": self.config.deck, "players": players, "winners": winners}

    def _people_played(self, result: dict[str, Any]) -> bool:
        """Whether a person made a move of the match: a seat's own player whom the result
        does not call a bot (a rebuilt match counts as played by people)."""
        moved = self._moved_by_owner
        if moved is None:
            return True
        players = result["players"]
        return any(not players[seat]["bot"] for seat in moved if seat < len(players))

    # ------------------------------------------------------------------ clocks

    def deadline(self) -> float | None:
        """When (Trio time, seconds) the match's clock (or a proposed rematch's) runs out,
        if one runs."""
        if self.rematch_due is not None:
            return self.rematch_due
        match = self.match
        deadline = match.deadline_ms() if match is not None else None
        if deadline is None or deadline == self._refused_deadline:
            return None
        return (deadline - self._offset_ms) / 1000

    def run_out_clock(self) -> bool:
        """Apply the match's ``Timeout`` if its deadline has passed; True if one was due.

        The task does this whenever it wakes, and before every game command: a move that
        arrives after the clock ran out, before the task woke to it, comes too late.
        """
        due = self.deadline()
        if due is None or trio.current_time() < due:
            return False
        if self.rematch_due is not None:
            self.start()  # with whoever is there, as a round break's end goes on
            return True
        assert self.match is not None
        deadline = self.match.deadline_ms()
        assert deadline is not None
        if not self.apply_table(Timeout(), at_ms=deadline):
            self._refused_deadline = deadline  # never spin on a refused deadline
        return True

    def go_on_if_ready(self, cause_peer: int | None = None, cause_id: int | None = None) -> None:
        """Between rounds, or while a rematch is asked for, go on as soon as every connected
        person is ready; a connected ``uno-bot`` and a seat the match marks away (its clock
        ran out three times) count as ready, as bots and people not there do."""
        status, match = self.status(), self.match
        asked = status is TableStatus.OVER and self.rematch_due is not None
        if match is None or (status is not TableStatus.BETWEEN_ROUNDS and not asked):
            return
        present = self._seating.connected()
        waited = [s for s in present if not (s.ready or s.bot_client or match.away[s.index])]
        if not present or waited:
            return
        if asked:
            self.start(cause_peer, cause_id)
        else:
            self.apply_table(NextRound())
