"""What a table does with each request: seating, the host's controls, chat and game moves.

Every handler runs inside the table's task and either changes the table or raises
``RequestRefused`` having changed nothing. A handler that returns a dict gives the ``ok``
reply its ``result``. Whatever a request causes (joined, table state, events, views)
reaches its sender before that reply, which the task sends once the handler returns.
Views are owed here, never sent: the task sends each member one when the change is done.

Why this module is long: one short handler per request the table takes, beside the
dispatch that names them all; split, the dispatch would import every piece back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import trio

from protocol.commands import Pause, Resume, SeatCommand
from protocol.compat import CATCH_UP_SINCE
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.limits import MAX_CHAT_LEN, clean_text
from protocol.messages import (
    AddBot,
    Chat,
    ChatMessage,
    CreateTable,
    Game,
    HostReason,
    Join,
    Joined,
    Kick,
    Leave,
    Left,
    LeftCause,
    LeftReason,
    OkResult,
    PauseTable,
    Ready,
    Rematch,
    RemoveBot,
    Request,
    ResumeSeat,
    ResumeTable,
    Spectate,
    Start,
    TakeBotSeat,
)
from protocol.rejections import RejectCode
from server.autoplay import known_strategy
from server.lobby_budget import LobbyBudget, Spent, cut_for_refusals
from server.peer import Peer
from server.settings import LobbySettings
from server.table.broadcast import Broadcast
from server.table.catch_up import CatchUps
from server.table.game import TableGame
from server.table.hand_watchers import HandWatchers
from server.table.names import SERVERS_NAME_REFUSAL, is_servers_name
from server.table.public_state import PublicState
from server.table.refusals import RequestRefused
from server.table.seating import Seat, Seating
from server.table.stand_ins import StandIns

__all__ = ["RequestHandlers"]

log = logging.getLogger("uno.server.table")


class RequestHandlers:
    """The request handlers of one table, over its parts."""

    def __init__(
        self,
        table_id: str,
        label: str,
        *,
        seating: Seating,
        game: TableGame,
        broadcast: Broadcast,
        public: PublicState,
        stand_ins: StandIns,
        catch_ups: CatchUps,
        settings: LobbySettings,
        departed: Callable[[Peer], None],
        budget: LobbyBudget,
    ) -> None:
        """``departed`` tells the lobby that a peer no longer belongs to this table."""
        self._table_id = table_id
        self._label = label
        self._seating = seating
        self._game = game
        self._broadcast = broadcast
        self._public = public
        self._stand_ins = stand_ins
        self._catch_ups = catch_ups
        self._settings = settings
        self._departed = departed
        self._budget = budget
        self._watchers = HandWatchers(seating.bans.own_addresses)

    def handle(  # noqa: C901 (a dispatch: one case per request)
        self, peer: Peer, message: Request, *, admitted: bool = False
    ) -> OkResult | None:
        """Carry out one request; raises RequestRefused. Returns the Ok's result.
        ``admitted``: the lobby found the table's password right for this entry."""
        match message:
            case Game():
                self._on_game(peer, message)
            case Ready():
                self._on_ready(peer, message)
            case Chat():
                self._on_chat(peer, message)
            case CreateTable():
                return self._on_create(peer)
            case Join():
                return self._on_join(peer, message, admitted)
            case Spectate():
                self._on_spectate(peer, admitted)
            case TakeBotSeat():
                return self._on_take_bot_seat(peer, message, admitted)
            case ResumeSeat():
                return self._on_resume(peer, message)
            case Leave():
                self._on_leave(peer)
            case Start():
                self._on_start(peer, message)
            case Rematch():
                self._on_rematch(peer, message)
            case AddBot():
                return self._on_add_bot(peer, message)
            case RemoveBot():
                self._on_remove_bot(peer, message)
            case Kick():
                self._on_kick(peer, message)
            case PauseTable():
                self._seating.require_host(peer)
                self._game.host_command(Pause())
            case ResumeTable():
                self._seating.require_host(peer)
                self._game.host_command(Resume())
            case _:
                raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "not a table request")
        return None

    # ------------------------------------------------------------------ coming in

    def _on_create(self, peer: Peer) -> OkResult:
        seat = self._seating.seat_person(0, peer.name, peer)
        self._seating.claim_host(seat.index)
        config = self._game.config
        log.info(
            "%s created table %s (%s, %d seats)", peer.name, self._label, config.deck, config.seats
        )
        self._welcome(seat)
        return OkResult(table_id=self._table_id, seat=seat.index)

    def _on_join(self, peer: Peer, message: Join, admitted: bool) -> OkResult:
        self._seating.check_admitted(admitted)
        self._seating.check_not_banned(peer)
        self._seating.check_not_seated(peer)
        if self._game.match is not None:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE,
                "the match has started: spectate, or take a bot's seat",
            )
        index = self._seating.chair_for(message.seat)
        self._seating.check_name(peer.name)
        seat = self._seating.seat_person(index, peer.name, peer)
        log.info("%s (%s) joined table %s in seat %d", peer.name, peer.address, self._label, index)
        self._welcome(seat)
        return OkResult(seat=index)

    def _on_spectate(self, peer: Peer, admitted: bool) -> None:
        self._seating.check_admitted(admitted)
        self._seating.check_not_banned(peer)
        self._seating.check_not_seated(peer)
        arrived = self._seating.add_spectator(peer)
        if self._game.config.spectators_see_hands:
            self._watchers.note(peer, self._game.match)
        if arrived:
            log.info("%s watches table %s", peer.name, self._label)
        peer.send(Joined(table_id=self._table_id, seat=None, resume_token=None))
        self._public.tell(peer)
        if not (arrived and self._catch_up(peer)):
            self._broadcast.owe_view(peer, None)

    def _catch_up(self, peer: Peer) -> bool:
        """A new 1.3 spectator is sent the round so far, from its ``round-started``, as any
        spectator saw it: its log and discard pile then read as if it had been there. The
        live events and the view follow with no gap (``server.table.catch_up``). False
        when there is nothing to catch up on, or for an older peer: the view goes alone."""
        return peer.version >= CATCH_UP_SINCE and self._catch_ups.start(peer)

    def _on_take_bot_seat(self, peer: Peer, message: TakeBotSeat, admitted: bool) -> OkResult:
        seating = self._seating
        seating.check_admitted(admitted)
        seating.check_not_banned(peer)
        seating.check_not_seated(peer)
        seat = seating.bot_seat(message.seat)
        self._check_saw_no_hands(peer)
        seating.check_name(peer.name)
        self._vacate(seat.index)
        taken = seating.seat_person(seat.index, peer.name, peer)
        seating.note_seated(taken, self._broadcast.last_seq)
        # The hand and score stay the seat's; a seat the clock had marked away is played
        # by its new owner, not by another server bot.
        self._game.set_away(taken.index, False)
        log.info("%s took over the bot's seat %d at table %s", peer.name, seat.index, self._label)
        self._welcome(taken)
        return OkResult(seat=taken.index)

    def _check_saw_no_hands(self, peer: Peer) -> None:
        """A spectator of a ``spectators_see_hands`` table saw every hand: it may not sit
        in that match, now or after it stopped watching, under any name
        (``server.table.hand_watchers``)."""
        if not self._game.config.spectators_see_hands:
            return
        watching = peer.peer_id in self._seating.spectators
        if watching or self._watchers.saw(peer, self._game.match):
            raise RequestRefused(
                LobbyRejectCode.WATCHED_HANDS,
                "you watched this match with every hand showing: you cannot sit in it",
            )

    def _on_resume(self, peer: Peer, message: ResumeSeat) -> OkResult:
        seating = self._seating
        standing = seating.of_stand_in_token(message.token)
        if standing is not None and seating.of_peer(peer) is None:
            self._stand_ins.attach(peer, standing, message.last_seq)
            return OkResult(seat=standing.index)
        seat = seating.of_token(message.token)
        if seat is None:
            raise RequestRefused(LobbyRejectCode.BAD_TOKEN, "that token opens no seat here")
        held = seating.of_peer(peer)
        if held is not None and held is not seat:
            raise RequestRefused(LobbyRejectCode.ALREADY_AT_TABLE, "you already have a seat here")
        previous = seat.peer
        if previous is not None and previous.peer_id != peer.peer_id:
            # The old connection has not noticed it is dead; the seat follows its token.
            log.info("table %s: seat %d moves to a new connection", self._label, seat.index)
            self._departed(previous)
            previous.close(
                ErrorCode.REPLACED, "your seat was resumed from another connection with its token"
            )
        seating.spectators.pop(peer.peer_id, None)
        self._catch_ups.stop(peer)
        seat.peer = None
        self._game.set_away(seat.index, False)  # numbered before the replay below
        seat.peer = peer
        seat.address = peer.address
        seat.bot_client = seat.bot_client or peer.bot
        seat.token = message.token  # known again (a table rebuilt from the journal had lost it)
        self.settle_host()  # an owner back takes the role back; an away one lends it
        log.info("%s resumed seat %d at table %s", peer.name, seat.index, self._label)
        peer.send(Joined(table_id=self._table_id, seat=seat.index, resume_token=seat.token))
        self._public.tell(peer)
        self._broadcast.replay(peer, seat.index, message.last_seq, seating.seated_at(seat))
        return OkResult(seat=seat.index)

    def _welcome(self, seat: Seat) -> None:
        """Tell a person who just sat down their seat and token, the state; a view is owed."""
        assert seat.peer is not None
        self.settle_host()  # an owner back takes the role back; an away one lends it
        seat.peer.send(Joined(table_id=self._table_id, seat=seat.index, resume_token=seat.token))
        self._public.tell(seat.peer)
        self._broadcast.owe_view(seat.peer, seat.index)

    # ------------------------------------------------------------------ going out

    def _on_leave(self, peer: Peer) -> None:
        self._catch_ups.stop(peer)
        if self._seating.spectators.pop(peer.peer_id, None) is None:
            seat = self._seating.seat_of(peer)
            self.remove_person(seat, "left")
        self._departed(peer)
        table_id, cause = self._table_id, LeftCause.LEFT
        left = Left(table_id=table_id, reason=LeftReason.LEFT, message="you left", cause=str(cause))
        peer.send(left)

    def lost(self, peer: Peer) -> None:
        """A connection is gone: its seat goes away (a bot plays it) or it stops watching."""
        seating = self._seating
        self._catch_ups.stop(peer)
        if seating.spectators.pop(peer.peer_id, None) is not None:
            return
        if seating.of_stand_in(peer) is not None:
            return  # a server bot's connection: its launcher reports the bot's end
        seat = seating.of_peer(peer)
        if seat is None:
            return
        seat.peer = None
        seat.ready = False
        log.info("%s lost the connection to table %s; the seat waits", seat.name, self._label)
        self._game.set_away(seat.index, True)
        self.settle_host()
        self._game.go_on_if_ready()

    def remove_person(self, seat: Seat, why: str) -> None:
        """A person gives up their seat: emptied before the match, a bot's from then on."""
        log.info("%s %s table %s (seat %d)", seat.name, why, self._label, seat.index)
        if self._game.match is None:
            self._vacate(seat.index)
        else:
            seat.make_bot(self._settings.bot_strategy, self._seating.bot_name())
            self._game.set_away(seat.index, False)
        self.settle_host()
        self._game.go_on_if_ready()

    def _vacate(self, index: int) -> None:
        """Empty a chair, sending away the server bot that stood in for it, if any."""
        seat = self._seating.vacate(index)
        if seat is not None:
            self._stand_ins.let_go(seat)

    def settle_host(self) -> None:
        """Put the host role where the rules say, logging where it went and why."""
        seating = self._seating
        if not seating.settle_host():
            return
        host = seating[seating.host] if seating.host is not None else None
        if host is None:
            log.info("table %s: nobody holds the host role", self._label)
        elif seating.host_reason is HostReason.OWNER_AWAY:
            owner = seating[seating.owner] if seating.owner is not None else None
            away = owner.name if owner is not None else "the owner"
            log.info("table %s: %s is the host while %s is away", self._label, host.name, away)
        else:
            why = "for good" if seating.host_reason is HostReason.OWNER_LEFT else "as owner"
            log.info("table %s: %s is the host %s", self._label, host.name, why)

    # ------------------------------------------------------------------ the host's controls

    def _on_start(self, peer: Peer, message: Start) -> None:
        self._seating.require_host(peer)
        if self._game.match is not None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has already started")
        if sum(1 for _ in self._seating) < 2:
            raise RequestRefused(
                LobbyRejectCode.NOT_ENOUGH_PLAYERS, "a match needs at least two seats filled"
            )
        moves = self._game.shrink_to_players()
        for seat in self._seating:
            if seat.index in moves.values():
                self._tell_new_chair(seat)
        self._game.start(peer.peer_id, message.id)
        names = ", ".join(seat.name for seat in self._seating)
        log.info("table %s started: %s", self._label, names)

    def _tell_new_chair(self, seat: Seat) -> None:
        """Tell the connections playing ``seat`` (its owner, its stand-in) its new index."""
        if seat.peer is not None:
            seat.peer.send(
                Joined(table_id=self._table_id, seat=seat.index, resume_token=seat.token)
            )
        stand_in = seat.stand_in
        if stand_in is not None and stand_in.peer is not None:
            stand_in.peer.send(
                Joined(table_id=self._table_id, seat=seat.index, resume_token=stand_in.token)
            )

    def _on_rematch(self, peer: Peer, message: Rematch) -> None:
        host = self._seating.require_host(peer)
        self._game.propose_rematch(host, peer.peer_id, message.id)
        log.info("table %s: %s asks for a rematch", self._label, host.name)

    def _on_add_bot(self, peer: Peer, message: AddBot) -> OkResult:
        self._seating.require_host(peer)
        self._game.require_no_match("bots are added before the match")
        if not known_strategy(message.strategy):
            raise RequestRefused(
                LobbyRejectCode.UNKNOWN_STRATEGY, f"no bot strategy {message.strategy!r}"
            )
        index = self._seating.first_free()
        if index is None:
            raise RequestRefused(LobbyRejectCode.TABLE_FULL, "every seat is taken")
        self._seating.seat_bot(index, message.strategy)
        return OkResult(seat=index)

    def _on_remove_bot(self, peer: Peer, message: RemoveBot) -> None:
        self._seating.require_host(peer)
        self._game.require_no_match("bots are removed before the match")
        self._vacate(self._seating.bot_seat(message.seat).index)

    def _on_kick(self, peer: Peer, message: Kick) -> None:
        host = self._seating.require_host(peer)
        seating = self._seating
        seat = seating[message.seat] if seating.valid(message.seat) else None
        if seat is None or seat.is_bot:
            raise RequestRefused(LobbyRejectCode.BAD_SEAT, f"no person sits in seat {message.seat}")
        if seat.index == host.index:
            raise RequestRefused(
                LobbyRejectCode.BAD_SEAT, "the host cannot kick themselves; leave instead"
            )
        seating.require_owner_or_not_theirs(host, seat, "ban" if message.ban else "kick")
        kicked = seat.peer
        if message.ban:
            self._seating.bans.ban(seat.name, seat.address)  # connected or not
        self._public.note_removal(seat.index, message.ban)
        self.remove_person(seat, f"{'banned' if message.ban else 'kicked'} by {host.name}")
        if kicked is not None:
            self._departed(kicked)
            kicked.send(self._public.current())
            to_bot = self._game.match is not None
            done = "gave your seat to a bot" if to_bot else "asked you to leave"
            why = f"{host.name} {done}"
            if message.ban:
                why += " and banned you from this table"
            left = Left(
                table_id=self._table_id,
                reason=LeftReason.KICKED,
                message=why,
                cause=str(LeftCause.SEAT_TO_BOT if to_bot else LeftCause.ASKED_TO_LEAVE),
                by=host.name,
                banned=message.ban,
            )
            kicked.send(left)

    # ------------------------------------------------------------------ playing

    def _on_ready(self, peer: Peer, message: Ready) -> None:
        seat = self._seating.seat_of(peer)
        seat.ready = message.ready
        self._game.go_on_if_ready()

    def _on_chat(self, peer: Peer, message: Chat) -> None:
        text = clean_text(message.text)[:MAX_CHAT_LEN]
        seat = self._seating.of_peer(peer)
        if seat is None and peer.peer_id not in self._seating.spectators:
            raise RequestRefused(LobbyRejectCode.NOT_AT_TABLE, "you are not at this table")
        if not text:
            return
        if seat is None and is_servers_name(peer.name):
            raise RequestRefused(LobbyRejectCode.NAME_TAKEN, SERVERS_NAME_REFUSAL)
        members = self._seating.members()
        spent = self._budget.spend(
            peer.peer_id, peer.address, len(members) - 1, trio.current_time()
        )
        if spent is not Spent.PAID:
            if spent is Spent.CUT:
                cut_for_refusals(peer)  # the refusal below then goes nowhere
            raise RequestRefused(LobbyRejectCode.SLOW_DOWN, "you are chatting too fast")
        line = ChatMessage(sender=peer.name, text=text, seat=None if seat is None else seat.index)
        for member in members:
            member.send(line)

    def _on_game(self, peer: Peer, message: Game) -> None:
        standing = self._stand_ins.seat_played_by(peer)
        seat = standing or self._seating.seat_of(peer)
        match = self._game.match
        if match is None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has not started")
        command = message.command
        if not isinstance(command, SeatCommand):
            raise RequestRefused(RejectCode.TABLE_ONLY, "only the table may send this command")
        self._game.run_out_clock()
        if standing is None and not match.paused:
            # The owner is back at the controls (the engine had marked them away).
            self._game.set_away(seat.index, False)
        self._game.play(seat.index, command, peer.peer_id, message.id, by_owner=standing is None)
