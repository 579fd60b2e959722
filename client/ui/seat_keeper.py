"""The seat kept on this machine, seen from one running client: which slot it holds at
the server it talks to, what it keeps there and when, and taking a kept seat back.

``client.kept_seats`` is the file and its locks; this part of the network side decides:
a ``joined`` keeps the seat, a ``left`` forgets it (a ``closing`` keeps it again: the
session took back a seat a stopping server said closed), a refused token forgets it. At
the first connection to a server the seat an earlier run kept there is taken back, or
offered in the lobby when its match moved on without us.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from client.i18n import _
from client.kept_seats import KeptSeat, SeatClaim
from client.session import ClientSession, ResumeState
from client.ui.model import Model, apply_reply
from client.ui.screens import kept_seat_words
from protocol.messages import Closing, Joined, Left, ListTables, ServerMessage, TableStatus

__all__ = ["SeatKeeper"]

log = logging.getLogger(__name__)

MOVED_ON = (TableStatus.LOBBY, TableStatus.OVER)
"""A kept seat's table in these states plays no match we were in: offered, not taken."""


class SeatKeeper:
    """The kept seat of one client; see the module docstring."""

    def __init__(self, model: Model, redraw: Callable[[], None]) -> None:
        self.model = model
        self.redraw = redraw
        self.claim: SeatClaim | None = None
        """This client's slot among the seats kept on this machine, at its server."""

    def claim_for(self, session: ClientSession) -> None:
        """Hold a slot for our name at the session's server (the one held already, if it
        is the same server); the ``joined`` of a seat taken or resumed keeps it there."""
        welcome = session.welcome
        if welcome is None:
            return
        if self.claim is not None and self.claim.server_id == welcome.server_id:
            return
        self.release()
        self.claim = SeatClaim.claim(welcome.server_id, self.model.name)

    def release(self) -> None:
        """Let the slot go (the client ends, or talks to another server)."""
        if self.claim is not None:
            self.claim.release()
            self.claim = None

    def heard(self, session: ClientSession, message: ServerMessage) -> None:
        """The session took in ``message`` (its own state already changed)."""
        if isinstance(message, Joined) and message.seat is not None:
            self._keep(session)
        elif isinstance(message, Left) and session.table_id is None:
            self.forget()
        elif isinstance(message, Closing):
            self._keep(session)  # a seat a stopping server said closed: see the session

    def forget(self) -> None:
        """The kept seat opens nothing any more (a left, a dead token, a closed table)."""
        self.model.kept_seat = None
        if self.claim is not None:
            self.claim.forget()

    async def take_back_at_start(self, session: ClientSession, offer: bool) -> bool:
        """At the first connection to a server: take back the seat an earlier run kept
        here, if its table still plays its match (True: the start-up plan is not carried
        out). With ``offer`` (no ``--serve``), a table whose match moved on without us
        (it waits in its lobby or is over) is offered in the lobby instead; a seat whose
        table is gone is forgotten."""
        kept = self.claim.kept() if self.claim is not None else None
        if kept is None:
            return False
        session.table_list = None
        listed = await session.request(ListTables(id=session.next_id(), limit=100))
        apply_reply(self.model, ListTables.TYPE, listed.ok, listed.code, listed.message)
        listing = session.table_list
        if not listed.ok or listing is None:
            return False
        table = next((t for t in listing.tables if t.table_id == kept.table_id), None)
        if table is None:
            self.forget()
            return False
        if offer and table.state in MOVED_ON:
            self.model.kept_seat = table.table_id
            self.model.notify(
                _("{seat} is kept: Enter on it takes it back").format(seat=kept_seat_words(table))
            )
            self.redraw()
            return True
        return await self._resume(session, kept)

    async def take_back(self, session: ClientSession, table_id: str) -> None:
        """Enter on the lobby's "your seat": resume it, if it is still the seat kept."""
        kept = self.claim.kept() if self.claim is not None else None
        if kept is None or kept.table_id != table_id:
            self.model.kept_seat = None
            self.model.notify("that seat is no longer kept", error=True)
            self.redraw()
            return
        await self._resume(session, kept)

    def _keep(self, session: ClientSession) -> None:
        token, table_id = session.resume_token, session.table_id
        if self.claim is not None and token is not None and table_id is not None:
            self.claim.keep(KeptSeat(token, table_id))

    async def _resume(self, session: ClientSession, kept: KeptSeat) -> bool:
        """Ask for the kept seat on this connection (``last_seq`` 0: a new screen wants a
        fresh view, not old events); a token the server refuses is forgotten. True once
        the seat is back."""
        # As after a lost connection: a table paused for its people was rebuilt after a
        # restart (the table state the resume brings clears this otherwise).
        self.model.rebuilt_table = kept.table_id
        reply = await session.resume_seat(ResumeState(kept.token, 0))
        if reply.ok:
            self.model.kept_seat = None
            self.model.notify("Your seat is back")
        else:
            self.model.rebuilt_table = None
            log.info("the kept seat was refused: %s %s", reply.code, reply.message)
            self.forget()
            self.model.notify("The seat kept from last time is gone", error=True)
        self.redraw()
        return reply.ok
