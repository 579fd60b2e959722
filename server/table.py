"""One table: a Trio task that owns the seats and the engine's Match, and talks to its peers.

Everything that changes a table happens inside its own task, one request at a time, so the
match never sees two commands at once and never waits for a socket:

- Requests arrive through a bounded inbox (``submit``; a full inbox is the lobby's "busy").
  A game command that finds the task idle, waiting on an empty inbox, is handled at once
  in the sender's own step (its events leave with no task switch); the task then delivers
  the views and the reply as for any other request.
- The task stamps each with the server clock (``now_ms``, Trio's clock in milliseconds)
  and hands game commands to ``Match.apply``.
- Time is data: the task sleeps on the inbox until the earliest of the match's deadline
  and the empty-table timer, then applies ``Timeout()`` (or closes the table). Tests run
  this on Trio's ``autojump_clock``. Server bots are not the task's business: they are
  protocol clients in the task's own nursery (server/bot_seats.py, server/autoplay.py).
- Every accepted batch of events is numbered (server/history.py) and redacted for each
  seat by the engine's ``Event.for_seat``. The command's sender gets its copies at once;
  everyone else's are held for their fresh view (it carries the legal commands and the
  clocks as milliseconds left), and leave with it in one write. Then the table state if
  it changed, then the sender its view and its one reply. Everything a command causes
  reaches its sender before the reply.
- A lost connection only leaves a note (``peer_gone``); the task marks the seat away and a
  server bot plays it until its owner resumes with the token.

The host is the table's creator, passed on to the next person in seat order when the host
leaves, is kicked or loses the connection. A table whose last person leaves is removed at
once; one where nobody is connected any more is removed after ``empty_table_seconds``.
"""

from __future__ import annotations

import logging
import math

import trio

from protocol.errors import LobbyRejectCode
from protocol.messages import (
    CreateTable,
    Game,
    Join,
    Left,
    LeftReason,
    Ok,
    Request,
    ResumeSeat,
    Spectate,
    TakeBotSeat,
)
from server.peer import Peer
from server.table_core import Reply, RequestRefused, TableHooks, TableRequest, rejected
from server.table_requests import TableRequests

__all__ = ["RequestRefused", "Table", "TableHooks", "TableRequest"]

log = logging.getLogger("uno.server.table")

ENTRY_REQUESTS = (CreateTable, Join, Spectate, TakeBotSeat, ResumeSeat)
"""Requests from a peer not (yet) at the table; the lobby marks it as arriving."""


class Table(TableRequests):
    """One table, run by its own Trio task (``run``); see the module docstring.

    The state and its shared operations are ``TableCore``'s, the request handlers
    ``TableRequests``'; this class adds the lobby's side (``submit``, ``peer_gone``,
    ``stop``) and the task: its clock loop, dispatch and the settling after each change.
    """

    # ------------------------------------------------------------------ for the lobby

    def submit(self, peer: Peer, message: Request, *, reply: bool = True) -> bool:
        """Hand a request to the table; False when the inbox is full or closed.

        A game command that finds the task idle is handled here and now; anything else
        queues for the task, in arrival order.
        """
        request = TableRequest(peer, message, reply)
        if self._idle and isinstance(message, Game):
            # Nothing is queued: handling it now keeps the order of requests (and a clock
            # that ran out meanwhile still comes first, see ``_on_game``).
            self._idle = False
            self._handed_over.append(self._dispatch(request))
            try:
                self._inbox.send_nowait(None)  # wakes the task for the views and the reply
            except trio.WouldBlock:
                self._wake()
            return True
        self._idle = False
        try:
            self._inbox.send_nowait(request)
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        return True

    def peer_gone(self, peer: Peer) -> None:
        """``peer``'s connection is gone; the table's task deals with it next."""
        self._gone.append(peer)
        self._wake()

    def stop(self) -> None:
        """Ask the table's task to finish (the server is shutting down)."""
        self._closing = True
        self._wake()

    # ------------------------------------------------------------------ the task

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it is empty or stopped; its server bots run inside."""
        async with trio.open_nursery() as bots:
            self._bot_nursery = bots
            task_status.started()
            try:
                while True:
                    if self._tick():
                        await self._deliver()
                    if self._closing:
                        break
                    request = await self._next_request()
                    while self._handed_over:
                        await self._deliver(self._handed_over.pop(0))
                    if request is not None:
                        await self._deliver(self._dispatch(request))
            finally:
                self._closing = True
                self._idle = False  # nothing is handled inline by a table that has stopped
                self._waiting = None
                self._bot_nursery = None
                bots.cancel_scope.cancel()
                self._finish()

    async def _next_request(self) -> TableRequest | None:
        """The next queued request; or, with none queued, wait (idle) for one, a move
        handled in ``submit`` (None), a lost connection or the next clock (None).

        Idle means an empty inbox: ``submit`` handles a move at once only then. Trio's
        ``receive`` yields once after taking a queued request, and a move handled inline
        in that moment would overtake it.
        """
        try:
            request = self._requests.receive_nowait()
        except trio.WouldBlock:
            pass
        else:
            # Yield as ``receive`` does, shielded: a request taken is never dropped.
            await trio.lowlevel.cancel_shielded_checkpoint()
            return request
        if self._gone or self._bots_ended:
            return None  # noted while the task was busy (nothing could wake it): due now
        request = None
        with trio.CancelScope(deadline=self._next_wake()) as waiting:
            self._waiting = waiting
            self._idle = True
            request = await self._requests.receive()
        self._idle = False
        self._waiting = None
        return request

    def _next_wake(self) -> float:
        times = [self._empty_deadline]
        deadline = self._match.deadline_ms() if self._match is not None else None
        if deadline is not None and deadline != self._refused_deadline:
            times.append(deadline / 1000)
        return min((t for t in times if t is not None), default=math.inf)

    def _tick(self) -> bool:
        """Everything that is due: lost connections, clocks, bots, the empty-table timer.

        True when there may be something to deliver: anything was due, or the table has
        not seen its first request yet (the empty-table rules apply from the start).
        """
        due = bool(self._gone or self._bots_ended) or not self._opened
        try:
            while self._gone:
                self._lost(self._gone.pop(0))
            if self._run_out_clock():
                due = True
            if self._empty_deadline is not None and trio.current_time() >= self._empty_deadline:
                log.info("table %s: nobody came back; removing it", self._label())
                self._closing = True
        except Exception:
            log.exception("table %s failed and is removed", self._label())
            self._closing = True
        return due or self._closing

    async def _deliver(self, reply: Reply | None = None) -> None:
        """After any change: the fresh views, the table state, then the reply, in that order.

        The sender's events are already sent (or queued for its writer); every other
        member's are held, to leave with its view in one write. Building each seat's view
        is the slow part of a move, so the task yields before each one: a move at another
        table goes out before the rest of this one's views. The sender's view comes last,
        in one write with the table state and its reply. A client sees its own move at
        once and its view a moment later, which is why clients act only on a view that
        covers every event they hold. Nothing changes the match while its views go out
        (requests wait in the inbox: the task is not idle), so every view is of the
        moment the delivery began, and the part all seats share is built once.
        """
        owed = self._take_owed_views()
        sender = reply.peer if reply is not None else None
        owed.sort(key=lambda entry: entry[0] is sender)  # the sender's view last
        try:
            shared = self._shared_view() if owed else None
            for peer, seat_index in owed:
                await trio.lowlevel.checkpoint()
                # The sender's view waits for the table state and the reply: one write.
                self._send_view(peer, seat_index, hold=peer is sender, shared=shared)
            self._settle(sender)
        except Exception:
            log.exception("table %s failed and is removed", self._label())
            self._closing = True
        if reply is not None:
            reply.peer.send(reply.message)

    def _finish(self) -> None:
        """The task ends: refuse what is still queued, send everyone off, tell the lobby."""
        self._inbox.close()
        while True:
            try:
                request = self._requests.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                break
            if request is None:
                continue
            if request.reply:
                request.peer.send(
                    rejected(request.message, LobbyRejectCode.TABLE_NOT_FOUND, "the table closed")
                )
            self._hooks.departed(request.peer, self)
        farewell = Left(
            table_id=self.table_id, reason=LeftReason.TABLE_CLOSED, message="the table closed"
        )
        for peer in self._members():
            peer.send(farewell)
            self._hooks.departed(peer, self)
        self._requests.close()
        self._hooks.closed(self)
        log.info("table %s closed", self._label())

    # ------------------------------------------------------------------ requests

    def _dispatch(self, request: TableRequest) -> Reply | None:
        """Handle one request; its reply is returned to be sent after the views."""
        peer, message = request.peer, request.message
        entering = isinstance(message, ENTRY_REQUESTS)
        if entering and self._hooks.location(peer) is not self:
            return None  # the peer disconnected while its request waited in the inbox
        self._opened = True
        try:
            result = self._handle(peer, message)
        except RequestRefused as refusal:
            log.debug(
                "table %s refused %s from %s: %s", self._label(), message.TYPE, peer.name, refusal
            )
            if entering and not self._is_member(peer):
                self._hooks.departed(peer, self)
            return Reply.to(request, rejected(message, refusal.code, refusal.message))
        except Exception:
            log.exception("table %s failed on %s from %s", self._label(), message.TYPE, peer.name)
            if entering and not self._is_member(peer):
                self._hooks.departed(peer, self)  # or the lobby thinks it is still arriving
            failed = rejected(
                message, LobbyRejectCode.INTERNAL_ERROR, "the server failed on this command"
            )
            return Reply.to(request, failed)
        # Trusted: the id was checked on arrival, the result is the handler's own.
        return Reply.to(request, Ok.trusted(id=message.id, result=result))

    def _settle(self, sender: Peer | None = None) -> None:
        """After any change: the empty-table rules, the server bots, the public state (held
        for ``sender``, whose reply follows at once)."""
        if not self._closing:
            if self._opened and not self.seats.people():
                log.info("table %s: no player is left", self._label())
                self._closing = True
            elif self.seats.connected():
                self._empty_deadline = None
            elif self._empty_deadline is None:
                self._empty_deadline = trio.current_time() + self._settings.empty_table_seconds
        if self._closing:
            return
        self._reconcile_stand_ins()
        state = self._state()
        members = self._members() + self._stand_in_peers()
        for peer in members:
            self._tell_state(peer, state, hold=peer is sender)
        present = {peer.peer_id for peer in members}
        for gone in [peer_id for peer_id in self._told if peer_id not in present]:
            del self._told[gone]
