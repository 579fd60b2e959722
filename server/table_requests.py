"""What a table does with each request: seating, the host's controls, chat and game moves.

Every handler runs inside the table's task and either changes the table or raises
``RequestRefused`` having changed nothing. A handler that returns a dict gives the ``ok``
reply its ``result``. Whatever a request causes (joined, table state, events, views)
reaches its sender before that reply, which the task sends once the handler returns.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from protocol.commands import Pause, Resume, SeatCommand, SetAway
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.limits import MAX_CHAT_LEN, clean_text
from protocol.messages import (
    AddBot,
    Chat,
    ChatMessage,
    CreateTable,
    Game,
    Join,
    Joined,
    Kick,
    Leave,
    Left,
    LeftReason,
    PauseTable,
    Ready,
    Rematch,
    RemoveBot,
    Request,
    ResumeSeat,
    ResumeTable,
    Spectate,
    Start,
    TableStatus,
    TakeBotSeat,
)
from protocol.options import ConfigError
from protocol.rejections import RejectCode
from server.autoplay import known_strategy
from server.bot_seats import TableStandIns
from server.engine import Accepted
from server.peer import Peer
from server.table_core import RequestRefused

__all__ = ["TableRequests"]

log = logging.getLogger("uno.server.table")


class TableRequests(TableStandIns):
    """The request handlers of a table (mixed into ``server.table.Table``)."""

    def _handle(self, peer: Peer, message: Request) -> dict[str, Any] | None:
        """Carry out one request; raises RequestRefused. Returns the Ok's result."""
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
                return self._on_join(peer, message)
            case Spectate():
                self._on_spectate(peer, message)
            case TakeBotSeat():
                return self._on_take_bot_seat(peer, message)
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
                self._on_pause_or_resume(peer, Pause())
            case ResumeTable():
                self._on_pause_or_resume(peer, Resume())
            case _:
                raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "not a table request")
        return None

    def _on_create(self, peer: Peer) -> dict[str, Any]:
        seat = self.seats.seat_person(0, peer.name, peer)
        self._host_seat = seat.index
        log.info(
            "%s created table %s (%s deck, %d seats)",
            peer.name,
            self._label(),
            self.config.deck,
            self.seats.size,
        )
        self._send_joined(seat)
        return {"table_id": self.table_id, "seat": seat.index}

    def _on_join(self, peer: Peer, message: Join) -> dict[str, Any]:
        self._check_password(message.password)
        self._check_not_seated(peer)
        if self._match is not None:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE,
                "the match has started: spectate, or take a bot's seat between rounds",
            )
        if message.seat is not None:
            if not self.seats.valid(message.seat):
                raise RequestRefused(
                    LobbyRejectCode.BAD_SEAT, f"this table has no seat {message.seat}"
                )
            if self.seats[message.seat] is not None:
                raise RequestRefused(LobbyRejectCode.SEAT_TAKEN, f"seat {message.seat} is taken")
            index = message.seat
        else:
            free = self.seats.first_free()
            if free is None:
                raise RequestRefused(LobbyRejectCode.TABLE_FULL, "every seat is taken")
            index = free
        self._check_name(peer.name)
        self._spectators.pop(peer.peer_id, None)
        seat = self.seats.seat_person(index, peer.name, peer)
        log.info(
            "%s (%s) joined table %s in seat %d", peer.name, peer.address, self._label(), index
        )
        self._send_joined(seat)
        return {"seat": index}

    def _on_spectate(self, peer: Peer, message: Spectate) -> None:
        self._check_password(message.password)
        self._check_not_seated(peer)
        if peer.peer_id not in self._spectators:
            if len(self._spectators) >= self._settings.max_spectators:
                raise RequestRefused(LobbyRejectCode.TABLE_FULL, "no room for more spectators")
            self._spectators[peer.peer_id] = peer
            log.info("%s watches table %s", peer.name, self._label())
        peer.send(Joined(table_id=self.table_id, seat=None, resume_token=None))
        self._tell_state(peer)
        self._send_view(peer, None)

    def _on_take_bot_seat(self, peer: Peer, message: TakeBotSeat) -> dict[str, Any]:
        self._check_password(message.password)
        self._check_not_seated(peer)
        if self.status() not in (TableStatus.LOBBY, TableStatus.BETWEEN_ROUNDS, TableStatus.OVER):
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE, "a bot's seat can be taken only between rounds"
            )
        seat = self.seats[message.seat] if self.seats.valid(message.seat) else None
        if seat is None or not seat.is_bot:
            raise RequestRefused(LobbyRejectCode.NOT_A_BOT, f"no bot sits in seat {message.seat}")
        self._check_name(peer.name)
        self._spectators.pop(peer.peer_id, None)
        self._vacate(seat.index)
        taken = self.seats.seat_person(seat.index, peer.name, peer)
        self._note_seated(taken)
        log.info("%s took over the bot's seat %d at table %s", peer.name, seat.index, self._label())
        self._send_joined(taken)
        return {"seat": taken.index}

    def _on_resume(self, peer: Peer, message: ResumeSeat) -> dict[str, Any]:
        standing = self.seats.of_stand_in_token(message.token)
        if standing is not None and self.seats.of_peer(peer) is None:
            return self._attach_stand_in(peer, standing, message.last_seq)
        seat = self.seats.of_token(message.token)
        if seat is None:
            raise RequestRefused(LobbyRejectCode.BAD_TOKEN, "that token opens no seat here")
        held = self.seats.of_peer(peer)
        if held is not None and held is not seat:
            raise RequestRefused(LobbyRejectCode.ALREADY_AT_TABLE, "you already have a seat here")
        previous = seat.peer
        if previous is not None and previous.peer_id != peer.peer_id:
            # The old connection has not noticed it is dead; the seat follows its token.
            log.info(
                "table %s: seat %d moves to %s's new connection",
                self._label(),
                seat.index,
                seat.name,
            )
            self._hooks.departed(previous, self)
            previous.close(
                ErrorCode.REPLACED, "your seat was resumed from another connection with its token"
            )
        self._spectators.pop(peer.peer_id, None)
        seat.peer = None
        match = self._match
        if match is not None and match.away[seat.index] and not match.is_over:
            self._apply_table(SetAway(seat.index, False))  # numbered before the replay below
        seat.peer = peer
        log.info("%s resumed seat %d at table %s", peer.name, seat.index, self._label())
        peer.send(Joined(table_id=self.table_id, seat=seat.index, resume_token=seat.token))
        self._tell_state(peer)
        seated_at = self._seated_at.get(seat.token, 0) if seat.token is not None else 0
        self._catch_up(peer, seat.index, message.last_seq, seated_at)
        return {"seat": seat.index}

    def _on_leave(self, peer: Peer) -> None:
        if self._spectators.pop(peer.peer_id, None) is None:
            seat = self._seat_of(peer)
            self._remove_person(seat, "left")
        self._hooks.departed(peer, self)
        peer.send(Left(table_id=self.table_id, reason=LeftReason.LEFT, message="you left"))

    def _on_ready(self, peer: Peer, message: Ready) -> None:
        seat = self._seat_of(peer)
        seat.ready = message.ready
        self._maybe_next_round()

    def _on_start(self, peer: Peer, message: Start) -> None:
        self._require_host(peer)
        if self._match is not None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has already started")
        occupied = list(self.seats)
        if len(occupied) < 2:
            raise RequestRefused(
                LobbyRejectCode.NOT_ENOUGH_PLAYERS, "a match needs at least two seats filled"
            )
        try:
            self.config = replace(self.config, seats=len(occupied))
        except ConfigError as error:
            raise RequestRefused(LobbyRejectCode.NOT_ENOUGH_PLAYERS, str(error)) from None
        moves = self.seats.close_gaps()
        if self._host_seat is not None:
            self._host_seat = moves.get(self._host_seat, self._host_seat)
        for seat in self.seats:
            if seat.index not in moves.values():
                continue
            if seat.peer is not None:
                seat.peer.send(
                    Joined(table_id=self.table_id, seat=seat.index, resume_token=seat.token)
                )
            if seat.stand_in is not None and seat.stand_in.peer is not None:
                seat.stand_in.peer.send(
                    Joined(
                        table_id=self.table_id, seat=seat.index, resume_token=seat.stand_in.token
                    )
                )
        self._new_match(peer, message)
        names = ", ".join(seat.name for seat in self.seats)
        log.info("table %s started: %s", self._label(), names)

    def _on_rematch(self, peer: Peer, message: Rematch) -> None:
        self._require_host(peer)
        if self.status() is not TableStatus.OVER:
            raise RequestRefused(
                LobbyRejectCode.WRONG_TABLE_STATE, "a rematch follows a finished match"
            )
        self._new_match(peer, message)
        log.info("table %s started a rematch", self._label())

    def _on_add_bot(self, peer: Peer, message: AddBot) -> dict[str, Any]:
        self._require_host(peer)
        self._require_lobby("bots are added before the match")
        if not known_strategy(message.strategy):
            raise RequestRefused(
                LobbyRejectCode.UNKNOWN_STRATEGY, f"no bot strategy {message.strategy!r}"
            )
        index = self.seats.first_free()
        if index is None:
            raise RequestRefused(LobbyRejectCode.TABLE_FULL, "every seat is taken")
        self.seats.seat_bot(index, self.seats.bot_name(), message.strategy)
        return {"seat": index}

    def _on_remove_bot(self, peer: Peer, message: RemoveBot) -> None:
        self._require_host(peer)
        self._require_lobby("bots are removed before the match")
        seat = self.seats[message.seat] if self.seats.valid(message.seat) else None
        if seat is None or not seat.is_bot:
            raise RequestRefused(LobbyRejectCode.NOT_A_BOT, f"no bot sits in seat {message.seat}")
        self._vacate(seat.index)

    def _on_kick(self, peer: Peer, message: Kick) -> None:
        host = self._require_host(peer)
        seat = self.seats[message.seat] if self.seats.valid(message.seat) else None
        if seat is None or seat.is_bot:
            raise RequestRefused(LobbyRejectCode.BAD_SEAT, f"no person sits in seat {message.seat}")
        if seat.index == host.index:
            raise RequestRefused(
                LobbyRejectCode.BAD_SEAT, "the host cannot kick themselves; leave instead"
            )
        kicked = seat.peer
        self._remove_person(seat, f"kicked by {host.name}")
        if kicked is not None:
            self._hooks.departed(kicked, self)
            kicked.send(self._state())
            kicked.send(
                Left(
                    table_id=self.table_id,
                    reason=LeftReason.KICKED,
                    message=f"{host.name} gave your seat to a bot"
                    if self._match is not None
                    else f"{host.name} asked you to leave",
                )
            )

    def _on_pause_or_resume(self, peer: Peer, command: Pause | Resume) -> None:
        self._require_host(peer)
        self._game_table_command(command)

    def _on_chat(self, peer: Peer, message: Chat) -> None:
        text = clean_text(message.text)[:MAX_CHAT_LEN]
        seat = self.seats.of_peer(peer)
        if seat is None and peer.peer_id not in self._spectators:
            raise RequestRefused(LobbyRejectCode.NOT_AT_TABLE, "you are not at this table")
        if not text:
            return
        line = ChatMessage(sender=peer.name, text=text, seat=None if seat is None else seat.index)
        for member in self._members():
            member.send(line)

    def _on_game(self, peer: Peer, message: Game) -> None:
        standing = self._stand_in_seat(peer)
        seat = standing or self._seat_of(peer)
        match = self._match
        if match is None:
            raise RequestRefused(LobbyRejectCode.WRONG_TABLE_STATE, "the match has not started")
        command = message.command
        if not isinstance(command, SeatCommand):
            raise RequestRefused(RejectCode.TABLE_ONLY, "only the table may send this command")
        self._run_out_clock()
        owner = standing is None
        if owner and match.away[seat.index] and not match.is_over and not match.paused:
            # The owner is back at the controls (the engine had marked them away).
            self._apply_table(SetAway(seat.index, False))
        outcome = match.apply(seat.index, command, self._now_ms())
        if not isinstance(outcome, Accepted):
            raise RequestRefused(outcome.code, outcome.message)
        self._publish(outcome.events, peer.peer_id, message.id)
