"""Intents: what the person asked for, handed from the UI to the Trio network side.

Key bindings never talk to the network. They build one of these plain values and hand it
over (``TrioToken.run_sync_soon`` in the app, a list in tests); the network side turns it
into protocol messages. Tests assert on the intents a key press produced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol.commands import SeatCommand
from protocol.messages import Message, Request, Sender, message_from_data

__all__ = [
    "ChangeName",
    "Connect",
    "GameIntent",
    "Intent",
    "LeaveTable",
    "Quit",
    "RememberSetting",
    "RestartServer",
    "SaveReplay",
    "TableRequest",
    "TakeBackSeat",
]


@dataclass(frozen=True, slots=True)
class GameIntent:
    """Send one game command (one of the view's ``legal`` commands, or a dance)."""

    command: SeatCommand

    @property
    def kind(self) -> str:
        return self.command.TYPE


@dataclass(frozen=True, slots=True)
class TableRequest:
    """A lobby or table command by its wire type (``add-bot``, ``start``, ``chat``...)."""

    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    then: tuple[TableRequest, ...] = ()
    """Requests sent after this one, in order, once the server accepted it (the bots of a
    new table)."""

    def to_message(self, request_id: int) -> Request:
        """The protocol message, validated like any message; raises on bad fields."""
        data = {"type": self.type, "id": request_id, **self.fields}
        message: Message = message_from_data(data, Sender.CLIENT)
        if not isinstance(message, Request):
            raise TypeError(f"{self.type} is not a command")
        return message


@dataclass(frozen=True, slots=True)
class LeaveTable:
    """Leave the table (back to the server's lobby)."""


@dataclass(frozen=True, slots=True)
class TakeBackSeat:
    """Take back the seat this machine keeps at a table (the lobby's "your seat")."""

    table_id: str


@dataclass(frozen=True, slots=True)
class Connect:
    """Connect to a server typed on the find screen."""

    host: str
    port: int


@dataclass(frozen=True, slots=True)
class RememberSetting:
    """Save a setting in the config file for next time (the app does it, not the network)."""

    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class ChangeName:
    """Ask the server (1.3 ``rename``, in the lobby) to call us ``name`` from now on."""

    name: str


@dataclass(frozen=True, slots=True)
class RestartServer:
    """Start again the server this client started (``--serve``), which has stopped."""


@dataclass(frozen=True, slots=True)
class SaveReplay:
    """(1.3) Fetch finished match ``match_id``'s replay (or that of the latest finished at
    ``table_id``) and save it to a file of its own (``client.replay_save``); the message
    line says where."""

    match_id: int | None = None
    table_id: str | None = None


@dataclass(frozen=True, slots=True)
class Quit:
    """Say bye and end the program."""


Intent = (
    GameIntent
    | TableRequest
    | LeaveTable
    | TakeBackSeat
    | Connect
    | ChangeName
    | RememberSetting
    | RestartServer
    | SaveReplay
    | Quit
)
