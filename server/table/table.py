"""One table: its parts, and the Trio task that owns them and reads one inbox.

Everything that changes a table happens inside its own task, one inbox item at a time, so
the match never sees two commands at once and never waits for a socket:

- Requests, lost connections, ended bots and stop arrive as typed items
  (``server.table.inbox``) on one channel that only the task reads. The lobby's side
  (``submit``, ``peer_gone``, ``stop``) only puts items there.
- One fast path (``_handle_now``): a game command that finds the task parked on an empty
  inbox is handled in the sender's own step; the task then delivers it like any other.
- The task waits for the next item under a cancel scope that ends at the earliest of the
  match's deadline and the empty-table timer; when it ends, the task applies the engine's
  ``Timeout()`` (or closes the table). Tests run this on Trio's ``autojump_clock``.
- After each item the task settles the table and delivers what the change owes: every
  member's fresh view (its events left at once for the command's sender, or are held to
  leave with the view), then the table state where it changed, then the sender's reply.
  Everything a command causes reaches its sender before the reply.

A failed journal write (``server.journal``) costs the table nothing but its durability:
the lobby puts ``JournalFailed`` in the inbox, and the host is told once, in a chat line
from ``uno-server`` (as soon as the host is connected).

The host is the table's owner (its creator, or whom they handed it to by leaving), lent to
another person while the owner is away (``Seating.settle_host``). A table whose last
person leaves is removed at once; one where nobody is connected any more is removed after
``empty_table_seconds``.

Why this module is long: the lobby's side of the inbox, the one fast path and the task's
loop share one invariant (what may be handled when, and in which order), so they stay
together where it can be read at once.
"""

from __future__ import annotations

import logging
import math

import trio

from protocol.errors import LobbyRejectCode
from protocol.messages import (
    ChatMessage,
    CloseTable,
    Game,
    Left,
    LeftCause,
    LeftReason,
    MatchNote,
    Ok,
    Rejected,
    Request,
    TableStatus,
    TableSummary,
)
from protocol.options import TableConfig, TableOptions, house_rules
from server.autoplay import BotLauncher, StandIn
from server.engine import Match
from server.journal import SavedTable, TableJournal
from server.lobby_budget import LobbyBudget
from server.match_notes import NOTE_WORDS
from server.own_addresses import OwnAddresses
from server.peer import Peer
from server.recent_replays import RecentReplays
from server.settings import LobbySettings
from server.table.broadcast import Broadcast
from server.table.catch_up import CatchUps
from server.table.empty_clock import EmptyTableClock
from server.table.game import TableGame
from server.table.handlers import RequestHandlers
from server.table.hooks import TableHooks
from server.table.inbox import (
    ENTRY_REQUESTS,
    PERSONS_MOVES,
    BotEnded,
    CatchUpDrained,
    ConnectionLost,
    Delivery,
    GiveWay,
    InboxItem,
    JournalFailed,
    NewPosition,
    Reply,
    Stop,
    TableRequest,
)
from server.table.names import SERVER_NAME
from server.table.public_state import PublicState
from server.table.refusals import RequestRefused, rejected
from server.table.restore import RestartGrace, TableRecorder, rebuild
from server.table.seating import Seating
from server.table.stand_ins import StandIns

__all__ = ["Table"]

log = logging.getLogger("uno.server.table")

JOURNAL_LOST_NOTICE = (
    "The server cannot write its journal (its disk may be full): this table plays on,"
    " but it will not come back if the server restarts."
)
"""What the host is told when the journal fails under the table."""


class Table:
    """One table, run by its own Trio task (``run``); see the module docstring."""

    def __init__(
        self,
        *,
        table_id: str,
        name: str,
        config: TableConfig,
        password_hash: str | None,
        settings: LobbySettings,
        hooks: TableHooks,
        bots: BotLauncher,
        created_from: str = "",
        budget: LobbyBudget | None = None,
        journal: TableJournal | None = None,
        saved: SavedTable | None = None,
        bot_think_ms: int | None = None,
        own_addresses: OwnAddresses | None = None,
        recent: RecentReplays | None = None,
    ) -> None:
        """``created_from`` is the address of whoever created it (for the lobby's
        per-address quota); ``budget`` is the lobby's (a table of its own without).
        With a ``journal`` (already ``opened``, or the one ``saved`` came from) the table
        is written to it as it goes; ``saved`` rebuilds it as the journal held it
        (``config`` is then the saved one); without one, ``recent`` keeps its finished
        matches' records (a ``--no-state`` server's). ``password_hash`` is the stored hash of its
        password (``server.passwords``). ``bot_think_ms`` is the pace of the server bots
        (the lobby's choice: server/settings.py ``bot_pace``); None for the server's
        ``bot_think_ms``. ``own_addresses`` are the server machine's, which a ban never
        covers."""
        self.table_id = table_id
        self.name = name
        self.created_from = created_from
        self._settings = settings
        self._hooks = hooks
        label = f"{table_id} ({name})"
        self._label = label
        self.seating = Seating(config.seats, settings.max_spectators, password_hash, own_addresses)
        self.broadcast = Broadcast(self.seating, settings.history_limit)
        self.game = TableGame(
            table_id,
            config,
            settings,
            self.seating,
            self.broadcast,
            journal=journal,
            recent=recent.for_table(table_id, name) if recent is not None else None,
        )
        think_ms = settings.bot_think_ms if bot_think_ms is None else bot_think_ms
        self.public = PublicState(table_id, name, self.seating, self.game, think_ms)
        self.stand_ins = StandIns(
            table_id,
            self.seating,
            self.game,
            self.broadcast,
            self.public,
            launcher=bots,
            settings=settings,
            think_ms=think_ms,
            departed=self._departed,
        )
        self.catch_ups = CatchUps(
            self.seating,
            self.broadcast,
            self.game.replay_log,
            self._catch_up_drained,
        )
        self.handlers = RequestHandlers(
            table_id,
            label,
            seating=self.seating,
            game=self.game,
            broadcast=self.broadcast,
            public=self.public,
            stand_ins=self.stand_ins,
            catch_ups=self.catch_ups,
            settings=settings,
            departed=self._departed,
            budget=budget or LobbyBudget(),
        )
        # Unbounded as a channel; requests are bounded by ``submit``. The table's own items
        # are at most two per connection it has had (its loss, and the one drained callback
        # its catch-ups share: server.table.catch_up), so they always fit.
        self._inbox, self._items = trio.open_memory_channel[InboxItem | Delivery](math.inf)
        self._parked = False  # the task waits on an empty inbox (see ``_handle_now``)
        self._queued_requests = 0
        self._closing = False
        self._opened = False  # the table has handled its first request
        self._stopping = False  # the server is shutting down: the journal keeps the table
        self._empty_clock = EmptyTableClock(settings.empty_table_seconds)
        self.last_move = trio.current_time()
        """When (Trio time) a person last moved here (made it, joined, played ...)."""
        self._farewell = ("the table closed", LeftCause.TABLE_CLOSED)
        self._journal = journal
        self._grace: RestartGrace | None = None
        self._closable_until = -math.inf  # the host may close a rebuilt table until then
        self._journal_notice_owed = False  # the host is yet to hear that the journal failed
        self._journal_notice_sent = False  # once in the table's life: it stays unjournaled
        if saved is not None:
            rebuild(self.seating, self.game, saved)
            self._opened = True
            until = trio.current_time() + settings.restart_grace_seconds
            self._grace = RestartGrace(self.seating, self.game, until)
            self._closable_until = until
        # After the rebuild: what it put back is already in the journal.
        self._recorder = TableRecorder(journal, self.seating, self.game) if journal else None

    # ------------------------------------------------------------------ for the lobby

    @property
    def locked(self) -> bool:
        """Whether joining or watching needs the password."""
        return self.seating.locked

    @property
    def closed(self) -> bool:
        return self._closing

    def status(self) -> TableStatus:
        """Where the table is in its life."""
        return self.game.status()

    def holds_token(self, token: str) -> bool:
        """Whether a resume token opens one of this table's seats (a person's, or a server
        bot's stand-in token)."""
        return self.seating.holds_token(token)

    def summary(self, peer: Peer) -> TableSummary:
        """The table's line in the table list, as ``peer`` (who asked) is sent it."""
        seating = self.seating
        host = seating[seating.host] if seating.host is not None else None
        return TableSummary(
            table_id=self.table_id,
            name=self.name,
            state=self.status(),
            seats=seating.size,
            taken=seating.size - seating.free_count(),
            spectators=len(seating.spectators),
            locked=self.locked,
            host=host.name if host is not None else None,
            bot_seats=seating.bot_count(),
            house_rules=house_rules(TableOptions.of(self.game.config)),
            banned=seating.bans.bars(peer),
            spectators_see_hands=self.game.config.spectators_see_hands,
        )

    @property
    def closes_at(self) -> float | None:
        """When (Trio time) the table will be removed for want of anyone connected, if
        nobody comes back before then; None while someone is connected."""
        return self._empty_clock.deadline

    def free_seats(self) -> int:
        """Seats a newcomer could take now (only before the match starts)."""
        return self.seating.free_count() if self.game.match is None else 0

    def submit(
        self, peer: Peer, message: Request, *, reply: bool = True, admitted: bool = False
    ) -> bool:
        """Queue a request for the table's task; False when the inbox is full or closed.
        ``admitted``: the lobby found the table's password right for this entry."""
        if self._queued_requests >= self._settings.inbox_size:
            return False
        seen = None
        if isinstance(message, Game):
            seat = self.stand_ins.seat_played_by(peer) or self.seating.of_peer(peer)
            seen = None if seat is None else self.broadcast.seen.get(seat.index)
        request = TableRequest(peer, message, reply, seen, admitted)
        if self._parked and isinstance(message, Game):
            self._handle_now(request)
            return True
        if not self._put(request):
            return False
        self._queued_requests += 1
        return True

    def _handle_now(self, request: TableRequest) -> None:
        """The one fast path: a game command that finds the task parked on an empty inbox
        is handled in the sender's own step, so its events leave with no task switch
        (measured: p50 1.66-2.01 times the echo without it, 1.47 with it; docs/
        performance.md, "One inbox").

        Invariant: only while the task waits in ``receive`` and nothing has been put in the
        inbox since it began to (``_parked``; every ``_put`` clears it), so it can never
        overtake an item; and the task, woken with the reply, delivers that change before
        anything that came later, which queues behind it.
        """
        self._parked = False
        self._queued_requests += 1
        self._put(Delivery(self._take(request)))

    def peer_gone(self, peer: Peer) -> None:
        """``peer``'s connection is gone; the table's task deals with it next."""
        self._put(ConnectionLost(peer))

    def stop(self) -> None:
        """Ask the table's task to finish (the server is shutting down)."""
        self._put(Stop())

    def journal_failed(self) -> None:
        """The journal could not be written: the task tells the host."""
        self._put(JournalFailed())

    def may_give_way(self, now: float, idle_seconds: float) -> bool:
        """Whether the table has had no person's move for ``idle_seconds`` and is not a
        rebuilt table within its restart grace: it may close for a new table."""
        return now >= self._closable_until and now - self.last_move >= idle_seconds

    def give_way(self) -> None:
        """Close to make room for a new table (``may_give_way``); the task does it next."""
        self._put(GiveWay())

    def set_position(self, match: Match) -> None:
        """Go on from ``match``, keeping the event numbers (tests rig positions so)."""
        self._put(NewPosition(match))

    def _put(self, item: InboxItem | Delivery) -> bool:
        self._parked = False
        try:
            self._inbox.send_nowait(item)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def _departed(self, peer: Peer) -> None:
        self._hooks.departed(peer, self)

    def _catch_up_drained(self, peer: Peer, token: object) -> None:
        """Called from a peer's writer when a batch of its catch-up has left."""
        self._put(CatchUpDrained(peer, token))

    def _bot_ended(self, stand_in: StandIn) -> None:
        """Called from a bot's own task when it ends."""
        self._put(BotEnded(stand_in))

    # ------------------------------------------------------------------ the task

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it is empty or stopped; its server bots run inside."""
        async with trio.open_nursery() as bots:
            self.stand_ins.open(bots, self._bot_ended)
            task_status.started()
            try:
                await self._serve()
            finally:
                self._closing = True
                self.stand_ins.close()
                bots.cancel_scope.cancel()
                self._finish()

    async def _serve(self) -> None:
        """The loop: whatever is due, then the next inbox item, then its delivery."""
        reply: Reply | None = None
        while True:
            self._tick()
            await self._deliver(reply)
            if self._closing:
                return
            item: InboxItem | Delivery | None = None
            with trio.move_on_at(self._next_wake()):
                self._parked = not self._items.statistics().current_buffer_used
                item = await self._items.receive()
            self._parked = False
            if isinstance(item, Delivery):
                reply = item.reply
                continue
            reply = None
            if item is not None:
                try:
                    reply = self._take(item)
                except Exception:
                    log.exception("table %s failed and is removed", self._label)
                    self._closing = True

    def _next_wake(self) -> float:
        grace = self._grace.until if self._grace is not None else None
        times = [self._empty_clock.deadline, self.game.deadline(), grace]
        return min((t for t in times if t is not None), default=math.inf)

    def _tick(self) -> None:
        """What is due: the match's timeout, the end of a rebuilt table's grace (its Resume
        owes views, so it comes before a delivery), the empty-table timer."""
        now = trio.current_time()
        try:
            self.game.run_out_clock()
            if self._grace is not None and self._grace.over(now):
                self._grace = None
                self.handlers.settle_host()  # an owner not back lends the role from now
        except Exception:
            log.exception("table %s failed and is removed", self._label)
            self._closing = True
        if self._empty_clock.expired(now):
            log.info("table %s: nobody came back; removing it", self._label)
            self._closing = True

    def _take(self, item: InboxItem) -> Reply | None:
        """Carry out one inbox item; a request's reply is returned, to follow its views."""
        match item:
            case TableRequest():
                self._queued_requests -= 1
                return self._dispatch(item)
            case ConnectionLost(peer):
                self.handlers.lost(peer)
            case BotEnded(stand_in):
                self.stand_ins.ended(stand_in)
            case CatchUpDrained(peer, token):
                self.catch_ups.fed(peer, token)
            case NewPosition(match):
                self.game.replace_match(match)
            case JournalFailed():
                self._journal_notice_owed = not self._journal_notice_sent
            case Stop():
                self._closing = self._stopping = True
            case GiveWay():
                self._give_way()
        return None

    def _dispatch(self, request: TableRequest) -> Reply | None:
        """Handle one request; its reply is returned to be sent after the views."""
        peer, message = request.peer, request.message
        entering = isinstance(message, ENTRY_REQUESTS)
        if entering and self._hooks.location(peer) is not self:
            # The peer left (a leave sent just before this went first) or lost its
            # connection while this waited in the inbox. Still its one reply (a lost
            # peer's goes nowhere).
            words = "you had left this table when it read this request; send it again"
            gone = rejected(message, LobbyRejectCode.NOT_AT_TABLE, words)
            return Reply(peer, gone) if request.reply else None
        self._opened = True
        self.game.arrival_seen = request.seen
        try:
            result = None
            if isinstance(message, CloseTable):
                self._close_rebuilt(peer)
            else:
                result = self.handlers.handle(peer, message, admitted=request.admitted)
        except RequestRefused as refusal:
            log.debug(
                "table %s refused %s from %s: %s", self._label, message.TYPE, peer.name, refusal
            )
            answer: Ok | Rejected = rejected(message, refusal.code, refusal.message, refusal.card)
        except Exception:
            log.exception("table %s failed on %s from %s", self._label, message.TYPE, peer.name)
            answer = rejected(
                message, LobbyRejectCode.INTERNAL_ERROR, "the server failed on this command"
            )
        else:
            # Trusted: the id was checked on arrival, the result is the handler's own.
            answer = Ok.trusted(id=message.id, result=result)
            if isinstance(message, PERSONS_MOVES) and self.seating.of_peer(peer) is not None:
                self._empty_clock.wind_back()
                self.last_move = trio.current_time()
        if isinstance(answer, Rejected) and entering and not self.seating.is_member(peer):
            self._departed(peer)  # or the lobby thinks it is still arriving
        return Reply(peer, answer) if request.reply else None

    def _close_rebuilt(self, peer: Peer) -> None:
        """The host closes a table rebuilt after a restart instead of playing on; the
        task then ends, sending everyone ``left`` after the host's reply."""
        self.seating.require_owner(peer, "close the table")
        if trio.current_time() >= self._closable_until:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE,
                "only a table rebuilt after a restart can be closed, during its restart grace",
            )
        log.info("table %s: closed by its host after the restart", self._label)
        if self._journal is not None and self.game.running() is not None:
            self._journal.abandoned(NOTE_WORDS[MatchNote.HOST_CLOSED_AFTER_RESTART])
        self._grace = None
        self._closing = True

    def _give_way(self) -> None:
        minutes = (trio.current_time() - self.last_move) / 60
        log.info("table %s: no move for %.0f min; closed to make room", self._label, minutes)
        if self._journal is not None and self.game.running() is not None:
            self._journal.abandoned(NOTE_WORDS[MatchNote.CLOSED_FOR_NEW_TABLE])
        words = "the table closed to make room for a new one: nobody had moved"
        self._farewell = (words, LeftCause.MADE_ROOM)
        self._closing = True

    async def _deliver(self, reply: Reply | None) -> None:
        """After any change: the fresh views, the table state, then the reply, in that order.

        Building each seat's view is the slow part of a move, so the task yields before
        each one: a move at another table goes out before the rest of this one's views.
        The sender's view comes last, in one write with the table state and its reply.
        Nothing changes the table while its views go out (only this task changes it), so
        every view is of the same moment and the part all seats share is built once.
        """
        sender = reply.peer if reply is not None else None
        try:
            owed = self.broadcast.take_owed()
            owed.sort(key=lambda entry: entry[0] is sender)  # the sender's view last
            match = self.game.match
            shared = (
                self.broadcast.shared_view(match, self.game.now_ms()) if owed and match else None
            )
            for peer, seat in owed:
                await trio.lowlevel.checkpoint()
                self.broadcast.send_view(peer, seat, match, shared, hold=peer is sender)
            self._settle(sender)
        except Exception:
            log.exception("table %s failed and is removed", self._label)
            self._closing = True
        if reply is not None:
            reply.peer.send(reply.message)

    def _settle(self, sender: Peer | None) -> None:
        """After any change: the empty-table rules, the server bots, the public state (held
        for ``sender``, whose reply follows at once)."""
        if not self._closing and self._opened and not self.seating.people():
            log.info("table %s: no player is left", self._label)
            self._closing = True
        if self._closing:
            return
        if self._grace is None:  # a rebuilt table's empty-table clock starts after its grace
            self._empty_clock.update(bool(self.seating.connected()), trio.current_time())
        if self._recorder is not None:
            self._recorder.seats_changed()
        host = self.seating.host_peer()
        if self._journal_notice_owed and host is not None:
            self._journal_notice_owed = False
            self._journal_notice_sent = True
            host.send(ChatMessage(sender=SERVER_NAME, text=JOURNAL_LOST_NOTICE, seat=None))
        self.stand_ins.reconcile()
        self.public.tell_all(self.seating.members() + self.seating.stand_in_peers(), sender)

    def _finish(self) -> None:
        """The task ends: refuse what is still queued, send everyone off, tell the lobby."""
        self._inbox.close()
        while True:
            try:
                item = self._items.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                break
            if isinstance(item, Delivery) and item.reply is not None:
                item.reply.peer.send(item.reply.message)  # its change was made: answer it
            if not isinstance(item, TableRequest):
                continue
            if item.reply:
                item.peer.send(
                    rejected(item.message, LobbyRejectCode.TABLE_NOT_FOUND, "the table closed")
                )
            self._departed(item.peer)
        words, cause = self._farewell
        farewell = Left(
            table_id=self.table_id, reason=LeftReason.TABLE_CLOSED, message=words, cause=str(cause)
        )
        # A server that stops keeps a journaled table for its next start: its seated people
        # hear only ``closing``, and their tokens take the seats back once it is up again.
        rebuilt_later = self._journal is not None and self._stopping
        for peer in self.seating.members():
            if not (rebuilt_later and self.seating.of_peer(peer) is not None):
                peer.send(farewell)
            self._departed(peer)
        self._items.close()
        if self._journal is not None and not self._stopping:
            self._journal.closed()
        self._hooks.closed(self)
        log.info("table %s closed", self._label)
