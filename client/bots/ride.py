"""A bot that rides through a lost connection: it takes its seat back, or says why not.

When the server goes away (a crash, a restart, a pulled cable) a bot keeps trying to
reconnect with its seat's resume token, with a short growing pause between tries, for at
most ``seconds``. A server that keeps a journal gives the seat back (``welcome.resumed``)
and the bot plays on; one that came back without the table, or never came back, ends the
bot with :class:`SeatLostError`, which ``uno-bot`` reports in one line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import trio

from client.bots.api import Bot
from client.session import (
    ClientSession,
    ConnectionLostError,
    ServerClosedError,
    SessionError,
    open_session,
)
from protocol.errors import ErrorCode
from protocol.messages import Closing

__all__ = ["RETRY_DELAYS", "SeatLostError", "reconnected", "worth_resuming"]

RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0)
"""Seconds between tries to reconnect; the last one repeats."""

_SHUTDOWNS = {Closing.TYPE, ErrorCode.SERVER_SHUTDOWN.value}


class SeatLostError(SessionError):
    """A bot could not take its seat back: the server stayed away or forgot the table."""


def worth_resuming(session: ClientSession) -> bool:
    """True when ``session`` held a seat and ended because the server went away (not for
    a protocol error, or a seat taken over by another connection)."""
    if session.resume_state() is None:
        return False
    reason = session.close_reason
    if isinstance(reason, ServerClosedError):
        return reason.code in _SHUTDOWNS
    return isinstance(reason, ConnectionLostError)


@asynccontextmanager
async def reconnected(bot: Bot, host: str, port: int, seconds: float) -> AsyncIterator[Bot]:
    """Reconnect ``bot`` to its seat within ``seconds`` and yield it on the new session
    (closed when the block ends); raise :class:`SeatLostError` if that cannot be done."""
    state = bot.session.resume_state()
    assert state is not None, "only a seated bot can resume"
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    deadline = trio.current_time() + seconds
    async with AsyncExitStack() as stack:
        session: ClientSession | None = None
        tries = 0
        while session is None and trio.current_time() < deadline:
            try:
                with trio.fail_after(max(deadline - trio.current_time(), 0)):
                    stream = await trio.open_tcp_stream(host, port)
                # Not under the deadline's scope: the session outlives it (its nursery).
                session = await stack.enter_async_context(
                    open_session(
                        stream,
                        bot.name,
                        resume=state,
                        greet_seconds=max(deadline - trio.current_time(), 0),
                        bot=True,
                    )
                )
            except (OSError, SessionError, trio.TooSlowError):
                pause = RETRY_DELAYS[min(tries, len(RETRY_DELAYS) - 1)]
                await trio.sleep(min(pause, max(deadline - trio.current_time(), 0)))
                tries += 1
        if session is None:
            raise SeatLostError(
                f"{bot.name}: the server at {where} did not come back within {seconds:g}s"
            )
        if not session.resumed:
            raise SeatLostError(
                f"{bot.name}: the server at {where} came back without our table "
                "(it restarted and did not keep it)"
            )
        bot.session = session
        yield bot
