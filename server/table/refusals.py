"""How a table says no: ``RequestRefused`` raised by a handler, and its ``rejected`` reply
(the lobby's refusals too)."""

from __future__ import annotations

from protocol.cards import Card
from protocol.errors import LobbyRejectCode
from protocol.messages import Rejected, Request
from protocol.rejections import RejectCode

__all__ = ["RequestRefused", "rejected"]


class RequestRefused(Exception):
    """A client asked for something it may not do now; it gets a rejection, nothing changed.

    ``card`` is the card a refused play named (the rejection's 1.3 field of that name)."""

    def __init__(
        self, code: LobbyRejectCode | RejectCode, message: str, card: Card | None = None
    ) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.card = card


def rejected(
    message: Request,
    code: LobbyRejectCode | RejectCode,
    text: str,
    card: Card | None = None,
    *,
    option: str | None = None,
    limit: int | None = None,
) -> Rejected:
    """The rejection of ``message`` with ``code``, ``text`` and the case's 1.3 fields: the
    ``card`` it is about, the ``option`` at fault, the ``limit`` reached."""
    return Rejected(
        id=message.id, code=code.value, message=text, card=card, option=option, limit=limit
    )
