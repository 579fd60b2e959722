"""How a table says no: ``RequestRefused`` raised by a handler, and its ``rejected`` reply."""

from __future__ import annotations

from protocol.errors import LobbyRejectCode
from protocol.messages import Rejected, Request
from protocol.rejections import RejectCode

__all__ = ["RequestRefused", "rejected"]


class RequestRefused(Exception):
    """A client asked for something it may not do now; it gets a rejection, nothing changed."""

    def __init__(self, code: LobbyRejectCode | RejectCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


def rejected(message: Request, code: LobbyRejectCode | RejectCode, text: str) -> Rejected:
    """The rejection of ``message`` with ``code`` and ``text``."""
    return Rejected(id=message.id, code=code.value, message=text)
