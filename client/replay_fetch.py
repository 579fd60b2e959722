"""A finished match's replay file, fetched from the server a page at a time (``get-replay``,
protocol 1.3; docs/replays.md).

The pages' lines, each followed by a newline, are exactly the file ``uno-server replay``
writes; ``fetch_replay`` checks that they read as a replay before it hands them back.
"""

from __future__ import annotations

from client.session import ClientSession, SessionError
from protocol.messages import MAX_REPLAY_LINES_PER_PAGE, GetReplay
from protocol.replay_file import ReplayFileError, read_replay

__all__ = ["MAX_REPLAY_PAGES", "ReplayFetchError", "fetch_replay"]

MAX_REPLAY_PAGES = 10_000
"""Pages one fetch asks for at most: far beyond any match's, so a server that never says
"last page" cannot keep the client asking."""


class ReplayFetchError(SessionError):
    """The server sent no replay: ``code`` is its rejection's (``no-replay``, ...), or None
    for pages that do not make a replay file."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


async def fetch_replay(
    session: ClientSession,
    match_id: int | None = None,
    *,
    table_id: str | None = None,
    lines_per_page: int = MAX_REPLAY_LINES_PER_PAGE,
) -> tuple[int, str]:
    """The replay file of match ``match_id`` (or of the latest finished at ``table_id``),
    its match's id and its text, asking for pages of at most ``lines_per_page`` lines;
    raises ReplayFetchError (or the session's error, if the connection ends)."""
    lines: list[str] = []
    cursor: str | None = None
    for _ in range(MAX_REPLAY_PAGES):
        session.replay_page = None
        request = GetReplay(
            id=session.next_id(),
            match_id=match_id,
            table_id=table_id if match_id is None else None,
            cursor=cursor,
            limit=lines_per_page,
        )
        reply = await session.request(request)
        if not reply.ok:
            raise ReplayFetchError(reply.message or "the server sent no replay", reply.code)
        page = session.replay_page
        if page is None or match_id not in (None, page.match_id):
            raise ReplayFetchError("the server answered with no page of that replay")
        match_id = page.match_id
        lines.extend(page.lines)
        if page.next_cursor is None:
            text = "".join(line + "\n" for line in lines)
            try:
                read_replay(lines)
            except ReplayFileError as error:
                raise ReplayFetchError(f"the server's replay does not read: {error}") from None
            return match_id, text
        if page.next_cursor == cursor:
            raise ReplayFetchError("the server sent the same page again")
        cursor = page.next_cursor
    raise ReplayFetchError(f"the replay ran past {MAX_REPLAY_PAGES} pages")
