"""The lobby: the server's tables, who is at which, and the messages that find a table.

Sessions hand every message after the handshake (except ping, pong and bye) to
``Lobby.handle``. The lobby answers what is its own business (the table list, creating a
table, chat between people at no table) and forwards the rest to the table concerned,
through that table's bounded inbox: a full inbox is refused with ``slow-down`` ("the table
is busy") rather than waited on, so one flooded table never stalls a session.

Every connection is in the lobby from the moment its hello is answered (``arrived``):
it hears the lobby's chat until it sits at a table, and again once it leaves it. The
lobby keeps one fact per connection: the table it is at (or on its way to, while its
join waits in the inbox). A second join elsewhere is refused until the first is settled;
the table reports back through ``TableHooks`` when a peer leaves or is refused.

Each table runs as its own task in the lobby's nursery (``run``). A table that fails is
logged and dropped; the others play on.

Passwords are the lobby's business too: it hashes a new table's password, and checks the
password of a join, spectate or take-bot-seat against the table's hash, in a worker
thread (``server.passwords``, at most ``AT_ONCE`` at a time), before the request reaches
the table's inbox; the table is told only that the entry was admitted. When the journal
cannot be written, new tables are refused with ``journal-unavailable`` (the tables
already open play on, and their hosts are told).

Why this module is long: every command that is not a game move is answered or routed
here, and each reads or changes the one map of which connection is at which table; the
parts with state of their own live beside it (the budget, server/lobby_budget.py; room
for tables, server/table_room.py; memory, server/memory.py; passwords,
server/passwords.py; the history's reads, server/journal_reader.py).
"""

from __future__ import annotations

import gc
import logging
import math

import trio

from protocol.compat import SPECTATORS_SEE_HANDS_SINCE
from protocol.errors import LobbyRejectCode
from protocol.messages import (
    Chat,
    ChatMessage,
    CreateTable,
    Game,
    GetReplay,
    GetStandings,
    Join,
    ListMatches,
    ListTables,
    Message,
    Ok,
    Rename,
    Request,
    ResumeSeat,
    Spectate,
    TableList,
    TakeBotSeat,
)
from protocol.options import ConfigError, TableConfig
from server.autoplay import BotLauncher
from server.identity import ServerIdentity
from server.journal import Journal, SavedTable, TableJournal
from server.journal_reader import JournalReader
from server.lobby_budget import ACTION_COSTS, LobbyBudget, Spent, cut_for_refusals
from server.memory import collect_after_closes
from server.own_addresses import OwnAddresses
from server.passwords import AT_ONCE, hash_password, password_matches
from server.peer import Peer
from server.recent_replays import RecentReplays
from server.records import answer_records, parse_cursor
from server.retention import keep_tidy
from server.settings import LobbySettings, LobbySummary
from server.table import Table
from server.table.names import SERVERS_NAME_REFUSAL, is_servers_name, prepare_look_alikes
from server.table.refusals import rejected
from server.table_room import TableRoom

__all__ = ["Lobby", "LobbySettings", "LobbySummary"]

log = logging.getLogger("uno.server.lobby")


class Lobby:
    """Every table of the server, and the way from a connection's message to its table."""

    def __init__(
        self,
        settings: LobbySettings | None = None,
        *,
        identity: ServerIdentity | None = None,
        journal: Journal | None = None,
        own_addresses: OwnAddresses | None = None,
    ) -> None:
        """``identity`` is what the welcome to an in-process server bot says (a stand-in
        one by default: only the bots see it). With a ``journal``, every table is written
        to it, and the open tables it holds are rebuilt when the lobby starts.
        ``own_addresses`` are the server machine's (read from its interfaces by default):
        connections from there are the host's (server/own_addresses.py)."""
        self.settings = settings or LobbySettings()
        self._bots = BotLauncher(self, identity or ServerIdentity.fresh(self.settings.server_name))
        self.own_addresses = own_addresses if own_addresses is not None else OwnAddresses()
        """The server machine's addresses, shared by the budget, the tables and bans."""
        self.budget = LobbyBudget(own=self.own_addresses)
        """What each address may make the server do beyond game moves (chat, entering and
        leaving tables, history), shared by the lobby and its tables."""
        self._tables: dict[str, Table] = {}
        self._room = TableRoom(self.settings, self.own_addresses)
        self._where: dict[int, Table] = {}
        self._peers: dict[int, Peer] = {}
        self._journal = journal
        if journal is not None:
            journal.on_failure = self._journal_failed
        self._reader = JournalReader(journal) if journal is not None else None
        self._recent = RecentReplays() if journal is None else None
        """Without a journal, the records of the latest finished matches (issue 28)."""
        """The history's reads, off the event loop."""
        self._table_numbers = journal.next_table_number() if journal is not None else 0
        self._hashing = trio.CapacityLimiter(AT_ONCE)
        self._nursery: trio.Nursery | None = None
        self._all_closed: trio.Event | None = None
        self._gone, self._gone_ids = trio.open_memory_channel[str](math.inf)

    # ------------------------------------------------------------------ the contract

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Own the tables' tasks until cancelled; ready once ``task_status`` is reported."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                prepare_look_alikes()  # before anyone joins, not inside a table's step
                nursery.start_soon(collect_after_closes, self._gone_ids, self._memory_left)
                await self._rebuild_tables(nursery)
                if self._journal is not None:
                    nursery.start_soon(keep_tidy, self._journal, self.settings.retention)
                task_status.started()
                await trio.sleep_forever()
        finally:
            self._nursery = None
            if self._reader is not None:
                self._reader.close()

    async def _rebuild_tables(self, nursery: trio.Nursery) -> None:
        """Every open table of the journal, back as it was (paused for its people)."""
        journal = self._journal
        if journal is None:
            return
        saved_tables, stale = journal.open_tables()
        for table_id in stale:
            log.warning(
                "table %s: cannot be replayed (another engine's, or its journal writes failed);"
                " closed into the history",
                table_id,
            )
        for saved in saved_tables:
            try:
                table = self._new_table(
                    saved.table_id,
                    saved.name,
                    saved.config,
                    password_hash=saved.password_hash,
                    created_from=saved.created_from,
                    journal=journal.for_table(saved.table_id),
                    bot_think_ms=saved.bot_think_ms,
                    saved=saved,
                )
            except Exception:
                log.exception("table %s could not be rebuilt from the journal", saved.table_id)
                continue
            await nursery.start(self._host, table)
            log.info("table %s rebuilt from the journal", table.table_id)

    def _new_table(
        self,
        table_id: str,
        name: str,
        config: TableConfig,
        *,
        password_hash: str | None,
        created_from: str,
        journal: TableJournal | None,
        bot_think_ms: int | None = None,
        saved: SavedTable | None = None,
    ) -> Table:
        guest = created_from not in self.own_addresses
        table = Table(
            table_id=table_id,
            name=name,
            config=config,
            password_hash=password_hash,
            settings=self.settings,
            hooks=self,
            bots=self._bots,
            created_from=created_from,
            budget=self.budget,
            journal=journal,
            saved=saved,
            bot_think_ms=self.settings.bot_pace(bot_think_ms, guest=guest),
            own_addresses=self.own_addresses,
            recent=self._recent,
        )
        self._tables[table.table_id] = table
        return table

    def arrived(self, peer: Peer) -> None:
        """``peer``'s hello is answered: it is in the lobby (see the module docstring)."""
        self._peers[peer.peer_id] = peer

    async def handle(self, peer: Peer, message: Message) -> None:
        """Act on one message from ``peer``; every command gets its one reply."""
        self._peers[peer.peer_id] = peer  # also for peers handed in without ``arrived``
        if not isinstance(message, Request):
            log.debug("ignoring a %s from %s: not a command", message.TYPE, peer.name)
            return
        if type(message) is Game:  # most of what arrives: straight to the table
            self._to_table(peer, message)
            return
        cost = ACTION_COSTS.get(type(message))
        if cost is not None and not self._afford(
            peer, message, cost, "you are doing that too fast"
        ):
            return
        match message:
            case ListTables():
                self._list_tables(peer, message)
            case CreateTable():
                await self._create_table(peer, message)
            case Join() | Spectate() | TakeBotSeat():
                await self._enter(peer, message, self._tables.get(message.table_id))
            case ResumeSeat():
                self._resume(peer, message, reply=True)
            case GetStandings() | ListMatches() | GetReplay():
                await answer_records(self._reader, peer, message, recent=self._recent)
            case Chat() if peer.peer_id not in self._where:
                self._lobby_chat(peer, message)
            case Rename():
                self._rename(peer, message)
            case _:
                self._to_table(peer, message)

    def _to_table(self, peer: Peer, message: Request) -> None:
        """Hand ``message`` to the table ``peer`` is at, or refuse it."""
        table = self._where.get(peer.peer_id)
        if table is None:
            _refuse(peer, message, LobbyRejectCode.NOT_AT_TABLE, "you are not at a table")
        elif not table.submit(peer, message):
            _refuse(peer, message, LobbyRejectCode.SLOW_DOWN, "the table is busy; try again")

    def disconnected(self, peer: Peer) -> None:
        """``peer``'s connection is gone: its seat goes away (a bot plays it until it resumes),
        or it stops watching."""
        self._peers.pop(peer.peer_id, None)
        self.budget.forget_connection(peer.peer_id)
        table = self._where.pop(peer.peer_id, None)
        if table is not None:
            table.peer_gone(peer)

    def summary(self) -> LobbySummary:
        """The lobby in numbers: tables, the open ones, their free seats, passwords."""
        open_tables = [table for table in self._tables.values() if table.free_seats() > 0]
        return LobbySummary(
            tables=len(self._tables),
            open_tables=len(open_tables),
            seats_free=sum(table.free_seats() for table in open_tables),
            open_tables_with_password=sum(1 for table in open_tables if table.locked),
        )

    async def shutdown(self) -> None:
        """Stop every table (their bots stop with them) and wait until they have."""
        tables = list(self._tables.values())
        log.info("stopping %d table(s)", len(tables))
        if not tables:
            return
        self._all_closed = trio.Event()
        for table in tables:
            table.stop()
        await self._all_closed.wait()

    # ------------------------------------------------------------------ resume at hello

    def can_resume(self, token: str) -> bool:
        """Whether a resume token opens a seat at some table (for the welcome's ``resumed``)."""
        return self._table_of_token(token) is not None

    def resume(self, peer: Peer, token: str, last_seq: int) -> bool:
        """Give ``peer`` the seat its hello's token opens; no reply (no command id).

        The seat's table then sends joined, the table state, the missed events and the
        view. False if the token opens nothing or the table is busy.
        """
        request = ResumeSeat(id=0, token=token, last_seq=last_seq)
        return self._resume(peer, request, reply=False)

    # ------------------------------------------------------------------ for the tables

    def location(self, peer: Peer) -> Table | None:
        """The table ``peer`` is at or on its way to."""
        return self._where.get(peer.peer_id)

    def departed(self, peer: Peer, table: Table) -> None:
        """``table`` no longer holds ``peer``."""
        if self._where.get(peer.peer_id) is table:
            del self._where[peer.peer_id]

    def closed(self, table: Table) -> None:
        """``table``'s task has ended."""
        if self._tables.get(table.table_id) is table:
            del self._tables[table.table_id]
        for peer_id, where in list(self._where.items()):
            if where is table:
                del self._where[peer_id]
        if not self._tables and self._all_closed is not None:
            self._all_closed.set()

    def _journal_failed(self) -> None:
        """The journal could not be written: every open table is told (and tells its host)."""
        for table in self._tables.values():
            table.journal_failed()

    # ------------------------------------------------------------------ lobby business

    def _list_tables(self, peer: Peer, message: ListTables) -> None:
        after = 0
        if message.cursor is not None:
            parsed = parse_cursor(message.cursor)
            if parsed is None:
                _refuse(peer, message, LobbyRejectCode.BAD_CURSOR, "that cursor is not one of ours")
                return
            after = parsed
        limit = min(message.limit, self.settings.page_size)
        numbered = sorted((_number_of(table_id), table) for table_id, table in self._tables.items())
        later = [(number, table) for number, table in numbered if number > after]
        page = later[:limit]
        next_cursor = str(page[-1][0]) if len(later) > limit else None
        peer.send(
            TableList(
                tables=tuple(table.summary(peer) for _, table in page), next_cursor=next_cursor
            )
        )
        peer.send(Ok(id=message.id))

    def _refused_creation(self, peer: Peer, message: CreateTable) -> bool:
        """Refuse ``message`` if ``peer`` may not create a table now (options aside);
        whether it was refused."""
        if peer.peer_id in self._where:
            _refuse(peer, message, LobbyRejectCode.ALREADY_AT_TABLE, "leave your table first")
            return True
        mine = sum(1 for table in self._tables.values() if table.created_from == peer.address)
        limit = self.settings.max_tables_per_address
        if mine >= limit:
            words = f"{mine} tables made from your address are open already; join one of them"
            _refuse(peer, message, LobbyRejectCode.TOO_MANY_TABLES, words, limit=limit)
            return True
        refusal = self._room.refusal(
            self._tables, peer.address, holds_one=mine > 0, now=trio.current_time()
        )
        if refusal is not None:
            _refuse(peer, message, LobbyRejectCode.TOO_MANY_TABLES, refusal)
            return True
        return False

    async def _create_table(self, peer: Peer, message: CreateTable) -> None:
        if self._refused_creation(peer, message):
            return
        try:
            config = message.config(self.settings.table_defaults)
        except (ConfigError, TypeError) as error:
            option = error.option if isinstance(error, ConfigError) else None
            _refuse(peer, message, LobbyRejectCode.BAD_OPTIONS, str(error), option=option)
            return
        if config.spectators_see_hands and peer.version < SPECTATORS_SEE_HANDS_SINCE:
            # Asked for, or the server's default: its client could not say that every
            # spectator would see the cards.
            words = "spectators_see_hands needs protocol 1.3; this client speaks an older one"
            option = "spectators_see_hands"
            _refuse(peer, message, LobbyRejectCode.BAD_OPTIONS, words, option=option)
            return
        password_hash = None
        if message.password is not None:
            password_hash = await hash_password(message.password, self._hashing)
            if self._refused_creation(peer, message):  # the lobby went on meanwhile
                return
        if self._nursery is None:
            _refuse(peer, message, LobbyRejectCode.TABLE_NOT_FOUND, "the server is shutting down")
            return
        table_id = str(self._table_numbers + 1)
        journal = None
        if self._journal is not None:
            journal = self._journal.open_table(
                table_id,
                message.name,
                config,
                password_hash=password_hash,
                created_from=peer.address,
                bot_think_ms=message.bot_think_ms,
            )
            if journal is None:
                _refuse(
                    peer,
                    message,
                    LobbyRejectCode.JOURNAL_UNAVAILABLE,
                    "the server cannot write its journal (its disk may be full); try again later",
                )
                return
        self._room.make_room(self._tables, trio.current_time())
        self._table_numbers += 1
        table = self._new_table(
            table_id,
            message.name,
            config,
            password_hash=password_hash,
            created_from=peer.address,
            journal=journal,
            bot_think_ms=message.bot_think_ms,
        )
        self._where[peer.peer_id] = table
        await self._nursery.start(self._host, table)
        # The table's inbox is empty: the creator's request always fits.
        table.submit(peer, message)

    async def _host(
        self, table: Table, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Run one table; its failure is logged and costs no other table."""
        try:
            await table.run(task_status=task_status)
        except Exception:
            log.exception("table %s failed", table.table_id)
            self.closed(table)
        self._gone.send_nowait(table.table_id)
        del table  # its last reference: the lobby forgot it when it closed

    def _memory_left(self, table_id: str) -> None:
        """After closed tables' memory was collected: what is left (for the memory tests)."""
        if log.isEnabledFor(logging.DEBUG):
            addresses, refused = self.budget.tracked
            log.debug(
                "table %s is gone: %d table(s) open, %d connection(s), %d Python "
                "objects; the budget holds %d address(es), %d connection tally(ies)",
                table_id,
                len(self._tables),
                len(self._peers),
                len(gc.get_objects()),
                addresses,
                refused,
            )

    async def _enter(
        self, peer: Peer, message: Join | Spectate | TakeBotSeat, table: Table | None
    ) -> None:
        if table is None or table.closed:
            _refuse(peer, message, LobbyRejectCode.TABLE_NOT_FOUND, "no such table")
            return
        admitted = False
        stored = table.seating.password_hash
        current = self._where.get(peer.peer_id)
        if stored is not None and (current is None or current is table):
            # Off the loop, within the lobby's bound; this connection's next message
            # waits meanwhile, the rest of the server does not.
            admitted = await password_matches(message.password, stored, self._hashing)
            if not admitted:
                _refuse(
                    peer,
                    message,
                    LobbyRejectCode.WRONG_PASSWORD,
                    "this table needs the right password",
                )
                return
            if table.closed:
                _refuse(peer, message, LobbyRejectCode.TABLE_NOT_FOUND, "no such table")
                return
        self._forward_entry(peer, message, table, reply=True, admitted=admitted)

    def _resume(self, peer: Peer, message: ResumeSeat, *, reply: bool) -> bool:
        table = self._table_of_token(message.token)
        if table is None:
            if reply:
                _refuse(peer, message, LobbyRejectCode.BAD_TOKEN, "that token opens no seat")
            log.debug("a resume from %s (%s) named no seat", peer.name, peer.address)
            return False
        return self._forward_entry(peer, message, table, reply=reply)

    def _forward_entry(
        self, peer: Peer, message: Request, table: Table, *, reply: bool, admitted: bool = False
    ) -> bool:
        """Send a join-like request to ``table``, marking the peer as on its way there."""
        current = self._where.get(peer.peer_id)
        if current is not None and current is not table:
            if reply:
                _refuse(peer, message, LobbyRejectCode.ALREADY_AT_TABLE, "leave your table first")
            return False
        self._where[peer.peer_id] = table
        if table.submit(peer, message, reply=reply, admitted=admitted):
            return True
        if current is None:
            del self._where[peer.peer_id]
        if reply:
            _refuse(peer, message, LobbyRejectCode.SLOW_DOWN, "the table is busy; try again")
        return False

    def _rename(self, peer: Peer, message: Rename) -> None:
        """A person in the lobby takes a new name (cleaned by the schema, as a hello's is);
        the tables check it when it sits down, as they check a hello's."""
        if peer.peer_id in self._where:
            _refuse(
                peer, message, LobbyRejectCode.ALREADY_AT_TABLE, "leave your table to change names"
            )
            return
        log.info("%s is now called %s", peer.name, message.name)
        peer.name = message.name
        peer.send(Ok(id=message.id))

    def _lobby_chat(self, peer: Peer, message: Chat) -> None:
        if is_servers_name(peer.name):
            _refuse(peer, message, LobbyRejectCode.NAME_TAKEN, SERVERS_NAME_REFUSAL)
            return
        listeners = [other for other in self._peers.values() if other.peer_id not in self._where]
        if not self._afford(peer, message, len(listeners), "you are chatting too fast"):
            return
        line = ChatMessage(sender=peer.name, text=message.text, seat=None)
        for other in listeners:
            other.send(line)
        peer.send(Ok(id=message.id))

    def _afford(self, peer: Peer, message: Request, cost: int, refusal: str) -> bool:
        """Pay ``cost`` from ``peer``'s address budget; else refuse ``message`` (or cut
        ``peer``, refused too often) and say False."""
        spent = self.budget.spend(peer.peer_id, peer.address, cost, trio.current_time())
        if spent is Spent.CUT:
            cut_for_refusals(peer)
        elif spent is Spent.REFUSED:
            _refuse(peer, message, LobbyRejectCode.SLOW_DOWN, refusal)
        return spent is Spent.PAID

    def _table_of_token(self, token: str) -> Table | None:
        found: Table | None = None
        for table in self._tables.values():
            if table.holds_token(token) and found is None:
                found = table
        return found


def _number_of(table_id: str) -> int:
    return parse_cursor(table_id) or 0


def _refuse(
    peer: Peer,
    message: Request,
    code: LobbyRejectCode,
    text: str,
    *,
    option: str | None = None,
    limit: int | None = None,
) -> None:
    log.debug("refused %s from %s: %s", message.TYPE, peer.name, text)
    peer.send(rejected(message, code, text, option=option, limit=limit))
