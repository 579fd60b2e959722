"""The Trio side of the client: one server session, reduced into the model.

``Network.run()`` connects, carries out the start-up ``Plan`` (create a table with bots
and start, join a table by name, spectate), then executes the intents the UI submits.
Every message the session takes in goes, in order, through the one reducer
(``client.ui.reducer.apply``) into the model; after each change of the session the UI is
asked to redraw. A lost connection is resumed with the seat's token, with a growing
pause between attempts; a server's ``closing`` is such a loss too (it may come back).
The seat is also kept on disk (``client.ui.seat_keeper``), so that the next run of the
client takes it back, or offers it in the lobby. The servers found on the LAN reach the model from
``client.discovery.keep_listed`` (see ``client/cli.py``), not from here.

Why this module is long: the connection loop (connect, resume with a growing pause, the
moved seat), the hand-over of a session's messages to the model and the intents carried
out in order are one conversation with one server; cut apart, each part would reach into
the others' state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import trio

from client.config import remember_name
from client.i18n import _
from client.launch import WatchedServer
from client.replay_fetch import ReplayFetchError, fetch_replay
from client.replay_save import save_replay, shown_path
from client.session import (
    ClientSession,
    InvalidLocalCommandError,
    Reply,
    ResumeState,
    ServerClosedError,
    SessionError,
    open_session,
)
from client.ui.intents import (
    ChangeName,
    Connect,
    GameIntent,
    Intent,
    LeaveTable,
    Quit,
    RestartServer,
    SaveReplay,
    TableRequest,
    TakeBackSeat,
)
from client.ui.model import Model, apply_connection, apply_reply, clear_table, refusal_words
from client.ui.records import records_refused
from client.ui.reducer import apply, left_reason_words
from client.ui.seat_keeper import SeatKeeper
from client.ui.sentences import coded, say
from client.ui.table_form import DEFAULT_LEVEL
from protocol.errors import ErrorCode, RemoteProtocolError
from protocol.messages import (
    AddBot,
    Closing,
    CreateTable,
    Join,
    Leave,
    Left,
    LeftReason,
    ListTables,
    Rename,
    Request,
    ServerMessage,
    Spectate,
    Start,
    TableStatus,
    TableSummary,
)
from protocol.options import TableOptions
from protocol.version import speaks

__all__ = ["Network", "Plan"]

log = logging.getLogger(__name__)

CONNECT_SECONDS = 10.0
LOBBY_REFRESH_SECONDS = 3.0
RESUME_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
INTENTS_QUEUED = 64
"""Intents waiting for the ones before them to be answered; more means keys held down."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What to do once connected: create (with bots, then start), join or spectate."""

    create: bool = False
    table_name: str = ""
    options: TableOptions = field(default_factory=TableOptions)
    bots: int = 0
    level: str = DEFAULT_LEVEL
    """The bots' level (a strategy name)."""
    start: bool = False
    join: str | None = None
    spectate: bool = False
    password: str | None = None
    """The table's password: to lock the new table, or to join or watch one."""


class Network:
    """Runs in the Trio guest; see the module docstring."""

    def __init__(
        self,
        model: Model,
        redraw: Callable[[], None],
        clock: Callable[[], float],
        address: tuple[str, int] | None = None,
        plan: Plan | None = None,
    ) -> None:
        self.model = model
        self.redraw = redraw
        self.clock = clock
        self.address = address
        self.plan = plan or Plan()
        self.session: ClientSession | None = None
        self.served: WatchedServer | None = None
        """The server this client started and watches (``--serve``), if it did."""
        self.seats = SeatKeeper(model, redraw)
        """The seat kept on this machine for the next run (``client.ui.seat_keeper``)."""
        self._intents_in, self._intents = trio.open_memory_channel[Intent](256)
        self._lobby_wanted = trio.Event()

    def submit(self, intent: Intent) -> None:
        """Hand an intent over (call from the Trio thread: ``TrioToken.run_sync_soon``)."""
        if isinstance(intent, RestartServer):
            # Heard at once, even while the connection loop waits to reconnect.
            if self.served is not None:
                self.served.restart()
            return
        try:
            self._intents_in.send_nowait(intent)
        except trio.WouldBlock:
            self.model.notify(_("too many commands at once; slow down"), error=True)

    # -- the connection loop -------------------------------------------------------------

    async def run(self) -> None:
        """Connect, play, resume after losses; return when the person quits (the slot of
        the kept seats is then let go, what it keeps stays)."""
        try:
            await self._connection_loop()
        finally:
            self.seats.release()

    async def _connection_loop(self) -> None:
        resume: ResumeState | None = None
        failures = 0
        planned = False
        while not self.model.finished:
            if self.address is None:
                if await self._wait_for_address():
                    return
                continue
            host, port = self.address
            self.model.address = _show(host, port)
            self._show_trying(failures)
            reason: object
            try:
                with trio.fail_after(CONNECT_SECONDS):
                    stream = await trio.open_tcp_stream(host, port)
                early: list[ServerMessage] = []  # reduced once the session is served
                async with open_session(
                    stream, self.model.name, resume=resume, listener=early.append
                ) as session:
                    failures = 0
                    if resume is not None and not session.resumed:
                        self.seats.forget()
                        self._seat_gone()
                    elif resume is not None:
                        self.model.notify(_("Reconnected: your seat is back"))
                        self._note_restart()
                    self.seats.claim_for(session)
                    first, planned = not planned, True
                    if await self._serve(session, early, first=first):
                        return
                reason = session.close_reason or "the connection ended"
            except (OSError, SessionError, trio.TooSlowError, RemoteProtocolError) as error:
                reason = error or "timed out"
            log.info("connection to %s:%s ended: %s", host, port, reason)
            if isinstance(reason, ServerClosedError) and reason.code == ErrorCode.REPLACED:
                # Our seat was resumed from another connection (another window with the
                # same token): resuming it from here would only take it back again.
                self.session = None
                resume = None
                clear_table(self.model)
                apply_connection(self.model, False, _("the seat moved to another connection"))
                self.model.notify(_("Your seat was taken over by another connection"), error=True)
                self.address = None
                self.redraw()
                continue
            if self.session is not None:
                # None after a ``left``: that seat is gone, there is nothing to resume.
                resume = self.session.resume_state()
            if resume is None and self.session is None:
                apply_connection(
                    self.model,
                    False,
                    _("cannot connect: {reason}").format(reason=_in_words(reason)),
                )
                self.model.notify(
                    _("cannot reach {address}").format(address=f"{host}:{port}"), error=True
                )
                self.address = None
                self.redraw()
                continue
            delay = RESUME_DELAYS[min(failures, len(RESUME_DELAYS) - 1)]
            failures += 1
            apply_connection(
                self.model,
                False,
                _("connection lost; reconnecting in {seconds}s").format(seconds=f"{delay:g}"),
            )
            self.redraw()
            if await self._pause(delay):
                return

    def _show_trying(self, failures: int) -> None:
        """The connection line while a connection is being made (or made again)."""
        if self.session is None:
            apply_connection(self.model, False, _("connecting…"))
        elif failures:
            apply_connection(
                self.model,
                False,
                _("connection lost; reconnecting (try {count})…").format(count=failures + 1),
            )
        self.redraw()

    def _note_restart(self) -> None:
        """The seat came back after the connection was lost: the server may have restarted
        and rebuilt the table from its journal (its id stays the same, so nothing says so
        but the table waiting, paused, for its people), so its host may close it while it
        waits. The table state the resume brings clears this unless the table is paused."""
        if self.model.table is not None:
            self.model.rebuilt_table = self.model.table.table_id

    def _seat_gone(self) -> None:
        """The server is back but has no seat for our token (it restarted without its
        tables, or the table closed meanwhile): say so and show its lobby."""
        if self.model.table is not None:
            clear_table(self.model)
            apply_connection(self.model, True, _("connected"))
            self.model.notify(
                _("The server came back without your table (it restarted and did not keep it)"),
                error=True,
            )

    async def _wait_for_address(self) -> bool:
        """On the find screen: wait for a Connect (False) or a Quit (True)."""
        intent = await self._intents.receive()
        if isinstance(intent, Quit):
            return True
        if isinstance(intent, Connect):
            self.address = (intent.host, intent.port)
        return False

    async def _pause(self, seconds: float) -> bool:
        """Wait before reconnecting, still listening for a Quit; True if quitting."""
        with trio.move_on_after(seconds):
            while True:
                if isinstance(await self._intents.receive(), Quit):
                    return True
        return False

    async def _serve(self, session: ClientSession, early: list[ServerMessage], first: bool) -> bool:
        """Play on one session until the person quits (True) or it is lost (False).

        ``early`` are the messages taken in before (the welcome and what came with it):
        they are reduced first, then every later one as it comes.
        """
        self.session = session
        if not self.model.connected:
            apply_connection(self.model, True, _("connected"))
        for message in early:
            self._reduce(message)
        session.listener = self._reduce
        self.redraw()
        # One task carries out the intents, each after the one before has its reply, so
        # two quick keys (draw, then pass) reach the server in the order pressed. This loop
        # only hands them over, so a Quit is heard even while a command waits.
        work_in, work = trio.open_memory_channel[Intent](INTENTS_QUEUED)
        async with trio.open_nursery() as nursery:
            scope = nursery.cancel_scope
            nursery.start_soon(self._guarded, scope, self._redraw_on_change, session)
            nursery.start_soon(self._guarded, scope, self._refresh_lobby, session)
            if first:
                nursery.start_soon(self._guarded, scope, self._carry_out_plan, session)
            nursery.start_soon(self._guarded, scope, self._execute_in_order, session, work)
            while True:
                intent = await self._intents.receive()
                if isinstance(intent, Quit):
                    scope.cancel()
                    return True
                try:
                    work_in.send_nowait(intent)
                except trio.WouldBlock:
                    self.model.notify(_("too many commands at once; slow down"), error=True)
                    self.redraw()
        return False

    async def _execute_in_order(
        self, session: ClientSession, work: trio.MemoryReceiveChannel[Intent]
    ) -> None:
        async for intent in work:
            await self._execute(session, intent)

    async def _guarded(
        self, scope: trio.CancelScope, work: Callable[..., Awaitable[None]], *args: object
    ) -> None:
        """Run one task of a session; when the session is gone, end them all (no raise).

        Errors stay inside the nursery so nothing reaches the caller as an exception
        group: the connection loop reads why from ``session.close_reason``.
        """
        try:
            await work(*args)
        except SessionError as error:
            log.info("session ended: %s", error)
            scope.cancel()

    # -- reducing the session's messages into the model -----------------------------------

    def _reduce(self, message: ServerMessage) -> None:
        """One message into the model, as the session takes it in; a ``left`` that sent us
        back to the lobby refreshes its table list at once."""
        model = self.model
        at_table = model.table is not None
        if self.session is not None:
            # Before the view is applied: what it offers counts only once it has caught up.
            model.view_behind = self.session.view_seq < self.session.last_seq
        apply(model, message, self.clock())
        if isinstance(message, Left) and at_table and model.table is None:
            self._lobby_wanted.set()
        if self.session is not None:
            self.seats.heard(self.session, message)

    async def _redraw_on_change(self, session: ClientSession) -> None:
        seen = session.changes
        while True:
            seen = await session.wait_changed(seen)
            self.redraw()

    async def _refresh_lobby(self, session: ClientSession) -> None:
        """Keep the server's table list fresh while the lobby screen shows it (at once
        after a ``left``)."""
        while True:
            if self.model.table is None:
                await self._request(session, ListTables(id=session.next_id(), limit=100))
            with trio.move_on_after(LOBBY_REFRESH_SECONDS):
                await self._lobby_wanted.wait()
            self._lobby_wanted = trio.Event()

    # -- carrying out intents ---------------------------------------------------------------

    async def _request(self, session: ClientSession, message: Request) -> bool:
        return (await self._ask(session, message)).ok

    async def _ask(self, session: ClientSession, message: Request) -> Reply:
        """Send ``message`` and reduce the server's answer (a refusal on the message line)."""
        reply = await session.request(message)
        apply_reply(self.model, message.TYPE, reply.ok, reply.code, reply.message, case=reply.case)
        if not reply.ok:
            log.info("%s rejected: %s %s", message.TYPE, reply.code, reply.message)
        self.redraw()
        return reply

    async def _execute(self, session: ClientSession, intent: Intent) -> None:
        model = self.model
        if isinstance(intent, GameIntent):
            try:
                reply = await session.play(intent.command)
            except InvalidLocalCommandError as error:
                model.notify(str(error), error=True)
                self.redraw()
                return
            apply_reply(model, intent.kind, reply.ok, reply.code, reply.message, case=reply.case)
            if reply.ok and model.message_is_error:
                model.notify("")
            self.redraw()
        elif isinstance(intent, TableRequest):
            await self._table_request(session, intent)
        elif isinstance(intent, TakeBackSeat):
            await self.seats.take_back(session, intent.table_id)
        elif isinstance(intent, LeaveTable):
            if await self._request(session, Leave(id=session.next_id())):
                clear_table(model)
                model.notify(left_reason_words(LeftReason.LEFT))
                await self._request(session, ListTables(id=session.next_id(), limit=100))
        elif isinstance(intent, ChangeName):
            await self._rename(session, intent.name)
        elif isinstance(intent, SaveReplay):
            await self._save_replay(session, intent)
        elif isinstance(intent, Connect):
            model.notify(_("already connected"), error=True)
            self.redraw()

    async def _table_request(self, session: ClientSession, intent: TableRequest) -> None:
        """A lobby or table request, then its follow-ups once it is accepted."""
        model = self.model
        try:
            message = intent.to_message(session.next_id())
        except (RemoteProtocolError, TypeError) as error:
            model.notify(f"{refusal_words(intent.type)}: {error}", error=True)
            self.redraw()
            return
        reply = await self._ask(session, message)
        if reply.ok:
            for follow in intent.then:
                await self._execute(session, follow)
        else:
            records_refused(model.records, message, reply.code)

    async def _save_replay(self, session: ClientSession, intent: SaveReplay) -> None:
        """Fetch the match's replay in pages and write it to a new file; the message line
        says where, or why not."""
        model = self.model
        model.notify(_("saving the replay..."))
        self.redraw()
        try:
            match_id, text = await fetch_replay(session, intent.match_id, table_id=intent.table_id)
            path = await trio.to_thread.run_sync(save_replay, text, match_id, time.time())
        except ReplayFetchError as error:
            model.notify(_("no replay saved: {why}").format(why=error), error=True)
        except OSError as error:
            model.notify(
                _("no replay saved: cannot write it ({why})").format(why=error), error=True
            )
        else:
            log.info("replay of match %d saved in %s", match_id, path)
            # The name first: a long folder is what the message line cuts off.
            model.notify(
                _("Replay saved as {name} in {folder}").format(
                    name=path.name, folder=shown_path(path.parent)
                )
            )
        self.redraw()

    async def _rename(self, session: ClientSession, name: str) -> None:
        """Ask the server (1.3) to call us ``name``; once it agrees, so do the screen and the
        config file."""
        model = self.model
        welcome = session.welcome
        if welcome is None or not speaks(welcome.version, Rename.SINCE):
            model.notify(_("this server is too old to change names: reconnect with --name"), True)
        elif await self._request(session, Rename(id=session.next_id(), name=name)):
            model.name = name
            model.name_note = ""
            remember_name(name)  # the next start uses it too, as a --name would
            model.notify(_("You are {name} now").format(name=name))
        self.redraw()

    async def _carry_out_plan(self, session: ClientSession) -> None:
        plan = self.plan
        if await self.seats.take_back_at_start(session, offer=not plan.create):
            return
        if plan.create:
            created = await self._request(
                session,
                CreateTable(
                    id=session.next_id(),
                    name=plan.table_name,
                    options=plan.options,
                    password=plan.password or None,
                ),
            )
            if not created:
                return
            for _ in range(plan.bots):
                if not await self._request(
                    session, AddBot(id=session.next_id(), strategy=plan.level)
                ):
                    return
            if plan.start:
                await self._request(session, Start(id=session.next_id()))
        elif plan.join is not None or plan.spectate:
            await self._join_by_name(session, plan)

    async def _join_by_name(self, session: ClientSession, plan: Plan) -> None:
        session.table_list = None
        if not await self._request(session, ListTables(id=session.next_id(), limit=100)):
            return
        listing = session.table_list
        tables: list[TableSummary] = list(listing.tables) if listing is not None else []
        if plan.join:
            tables = [t for t in tables if t.name == plan.join]
        elif plan.spectate:
            tables.sort(key=lambda t: t.state is not TableStatus.PLAYING)
        if not tables:
            self.model.notify(
                _("no table called {table} on this server").format(table=repr(plan.join)),
                error=True,
            )
            self.redraw()
            return
        table_id = tables[0].table_id
        password = plan.password or None
        late = tables[0].state is not TableStatus.LOBBY and tables[0].bot_seats > 0
        if plan.spectate or late:  # late: watch; Enter there takes a bot's seat
            message: Request = Spectate(id=session.next_id(), table_id=table_id, password=password)
        else:
            message = Join(id=session.next_id(), table_id=table_id, password=password)
        await self._request(session, message)


def _show(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _in_words(reason: object) -> str:
    """Why a connection ended, for the connection line: a server's ``error`` or
    ``closing`` said from its code through the sentence table (its own words only for a
    code this release does not know); anything else as it describes itself."""
    if not isinstance(reason, ServerClosedError):
        return str(reason)
    if reason.code == Closing.TYPE:
        return say("closing")
    return coded("error", reason.code, reason.message)
