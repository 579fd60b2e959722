"""The one reducer of server messages: ``apply(model, message, now)``.

The network side hands every message its session takes in, in the order they arrived, to
``apply``; it dispatches on the message's type to the model's reducers (``apply_view``,
``apply_table_state``...). Replies (``ok``, ``rejected``) are reduced by the task that sent
the command, which knows what was asked (``apply_reply``); ``ping``, ``pong``, ``error``
and ``closing`` concern the connection, not the screen, and change nothing here.
"""

from __future__ import annotations

from typing import assert_never

from client.ui.describe import describe_host
from client.ui.model import (
    Model,
    apply_chat,
    apply_connection,
    apply_event,
    apply_table_list,
    apply_table_state,
    apply_view,
    clear_table,
    forget_table_lines,
)
from client.ui.records import apply_records
from client.ui.sentences import coded, say
from protocol.messages import (
    ChatMessage,
    Closing,
    Error,
    GameEvent,
    GameView,
    GetReplay,
    GetStandings,
    Joined,
    Left,
    LeftReason,
    MatchList,
    Ok,
    Ping,
    Pong,
    Rejected,
    ReplayPage,
    ServerMessage,
    Standings,
    TableList,
    TableState,
    TableStatus,
    Welcome,
)
from protocol.version import speaks

__all__ = ["apply", "left_reason_words", "left_words"]


def left_reason_words(reason: LeftReason) -> str:
    """What the message line says when an older server (one that sends no ``cause``) tells
    us we are no longer at a table for ``reason``; its words follow. Said when it is shown,
    in the language chosen by then."""
    return say(f"left.{reason.value}")


FITS = 78
"""The longest message line that shows whole at 80 columns (a space either side)."""


def apply(model: Model, message: ServerMessage, now: float) -> None:  # noqa: C901 (one case per message type)
    """Reduce one server message into the model; ``now`` is when it arrived (the clock
    of a view counts from it)."""
    match message:
        case Welcome():
            apply_connection(model, True, "connected")
            model.server_name = message.server_name
            model.web_port = message.web_port
            model.table_defaults = message.table_defaults
            model.records.available = speaks(message.version, GetStandings.SINCE)
            model.records.replays = speaks(message.version, GetReplay.SINCE)
        case TableList():
            apply_table_list(model, list(message.tables))
        case Joined():
            if model.table is None or model.table.table_id != message.table_id:
                forget_table_lines(model)  # a new table: nothing of the last one shows
            model.seat = message.seat
        case TableState():
            before = model.table
            if not message.rematch_asked:
                model.rematch_at = None
            elif model.rematch_at is None:
                model.rematch_at = now  # the ask has just come: its clock starts
            apply_table_state(model, message, model.seat)
            if before is not None and before.table_id == message.table_id:
                moved = describe_host(before, message, model.seat_name)
                if moved is not None:
                    model.log.append(moved)
            if message.state is not TableStatus.PAUSED:
                model.rebuilt_table = None  # it plays on: closing it is over
        case GameEvent():
            if model.table is not None:  # a late one of a table we left tells nothing
                apply_event(model, message.body)
        case GameView():
            if model.table is not None:
                apply_view(model, message.body, now)
        case ChatMessage():
            apply_chat(model, message.sender, message.text)
        case Left():
            _apply_left(model, message)
        case Standings():
            apply_records(model.records, message, None)
        case MatchList():
            apply_records(model.records, None, message)
        case Ok() | Rejected() | Ping() | Pong() | Error() | Closing():
            pass
        case ReplayPage():
            pass  # a fetch of a replay file collects its pages (client.replay_fetch)
        case _:
            assert_never(message)


def _apply_left(model: Model, message: Left) -> None:
    """The server says we are no longer at the table: back to the lobby, saying why."""
    if model.table is None or model.table.table_id != message.table_id:
        return  # a stale one, for a table we are no longer at
    clear_table(model)
    model.notify(left_words(message), error=message.reason is not LeftReason.LEFT)


def left_words(message: Left) -> str:
    """What the message line says for a ``left``: its cause's sentence with the host's name
    (1.3); from an older server, the reason's sentence and the server's words."""
    if message.cause is not None:
        text = coded("left", message.cause, message.message, host=message.by or "")
        if message.banned:
            text = say("left.banned", line=text)
    else:
        text = left_reason_words(message.reason)
        if message.message and message.message.lower() not in text.lower():
            text += f": {message.message}"
            if len(text) > FITS and message.reason is LeftReason.KICKED:
                # The server's sentence names who did it and whether it is a ban: alone,
                # it fits ("Hostess asked you to leave and banned you from this table").
                text = message.message[:1].upper() + message.message[1:]
    return text
