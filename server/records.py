"""The history and standings as the lobby answers for them (``get-standings``,
``list-matches``, protocol 1.2; a match's replay file, ``get-replay``, 1.3).

Both read what the journal keeps (``server.ledger``) in a worker thread
(``server.journal_reader``), never on the event loop: the standings, kept as matches
finish, are cut into pages by position; the match list pages by the matches' ids, so a
match that finishes between two pages never repeats one, and a cursor names the same
place after the retention has dropped older matches. A page is bounded by the message's
limit and the protocol's largest page. A replay comes in pages of the file's lines, each
within one frame (``server.replay_rows.replay_page``).
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from functools import partial
from typing import Any

from protocol.errors import LobbyRejectCode, LocalProtocolError
from protocol.messages import (
    MAX_REPLAY_PAGE_BYTES,
    GetReplay,
    GetStandings,
    ListMatches,
    MatchList,
    MatchPlayer,
    MatchRecord,
    Ok,
    Rejected,
    ReplayPage,
    Standing,
    Standings,
    StandingsPeriod,
)
from protocol.options import DeckName, TableOptions
from protocol.replay_file import Replay
from server.journal_reader import JournalReader
from server.ledger import match_page, standings_page
from server.match_notes import note_code
from server.peer import Peer
from server.recent_replays import RecentReplays
from server.replay_rows import ReplayCursorError, latest_of_table, replay_page

__all__ = [
    "RecordsRefused",
    "answer_records",
    "match_list",
    "parse_cursor",
    "recent_match_list",
    "replay",
    "standings",
]

log = logging.getLogger("uno.server.lobby")

_CURSOR = re.compile(r"[0-9]{1,18}")
"""A cursor is a number: ASCII digits only (``str.isdigit`` also accepts "²" and other
scripts' digits, which ``int`` refuses), and short enough to stay a plain number."""


def parse_cursor(text: str) -> int | None:
    """The number a list cursor (a table's, or a match's) names, or None if it is not one
    this server hands out."""
    return int(text) if _CURSOR.fullmatch(text) else None


class RecordsRefused(Exception):
    """A history request that cannot be answered; ``code`` says why."""

    def __init__(self, code: LobbyRejectCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def answer_records(
    reader: JournalReader | None,
    peer: Peer,
    request: GetStandings | ListMatches | GetReplay,
    *,
    recent: RecentReplays | None = None,
) -> None:
    """Send ``peer`` the page ``request`` asks for and its ``ok``, or the refusal;
    ``recent``: a server without a journal's latest records (for ``get-replay``)."""
    try:
        page: Standings | MatchList | ReplayPage
        if isinstance(request, GetStandings):
            page = await standings(reader, request)
        elif isinstance(request, ListMatches):
            if reader is None and recent is not None:
                page = recent_match_list(recent, request)
            else:
                page = await match_list(reader, request)
        else:
            page = await replay(reader, recent, request)
    except RecordsRefused as refused:
        peer.send(Rejected(id=request.id, code=refused.code.value, message=refused.message))
        return
    except (LocalProtocolError, sqlite3.Error, ValueError, KeyError, TypeError):
        log.exception("the history could not be read for %s", request.TYPE)
        code = LobbyRejectCode.INTERNAL_ERROR.value
        peer.send(Rejected(id=request.id, code=code, message="the history could not be read"))
        return
    peer.send(page)
    peer.send(Ok(id=request.id))


async def standings(reader: JournalReader | None, request: GetStandings) -> Standings:
    """One page of the standings for ``request``'s period; raises RecordsRefused."""
    reader = _kept(reader)
    start = _cursor(request.cursor)
    week_of = time.time() if request.period is StandingsPeriod.WEEK else None
    read = partial(standings_page, week_of=week_of, offset=start, limit=request.limit)
    page, later = await reader.read(read)
    return Standings(
        period=request.period,
        players=tuple(
            Standing(
                name=s.name, bot=s.bot, matches=s.matches, wins=s.wins, points=max(0, s.points)
            )
            for s in page
        ),
        next_cursor=str(start + request.limit) if later else None,
    )


async def match_list(reader: JournalReader | None, request: ListMatches) -> MatchList:
    """One page of finished matches, the latest first; raises RecordsRefused."""
    reader = _kept(reader)
    before = None if request.cursor is None else _cursor(request.cursor)
    found = await reader.read(partial(match_page, before=before, limit=request.limit + 1))
    page = found[: request.limit]
    return MatchList(
        matches=tuple(_record(match) for match in page),
        next_cursor=str(page[-1]["match_id"]) if len(found) > request.limit else None,
    )


def recent_match_list(recent: RecentReplays, request: ListMatches) -> MatchList:
    """One page of the matches a server without a journal keeps the records of (1.3), the
    latest first, paged by id as the journal's; raises RecordsRefused."""
    before = None if request.cursor is None else _cursor(request.cursor)
    found = recent.headers(before=before, limit=request.limit + 1)
    page = found[: request.limit]
    return MatchList(
        matches=tuple(_recent_record(table_id, header) for table_id, header in page),
        next_cursor=str(page[-1][1].match_id) if len(found) > request.limit else None,
    )


async def replay(
    reader: JournalReader | None, recent: RecentReplays | None, request: GetReplay
) -> ReplayPage:
    """One page of a finished match's replay file, from the journal or, on a server
    without one, from the latest matches' records in memory; raises RecordsRefused."""
    if (request.match_id is None) == (request.table_id is None):
        raise RecordsRefused(LobbyRejectCode.NO_REPLAY, "name a match_id or a table_id")
    if request.table_id is not None and request.cursor is not None:
        raise RecordsRefused(LobbyRejectCode.BAD_CURSOR, "a later page names its match_id")
    try:
        if reader is None and recent is not None:
            match_id = request.match_id
            if request.table_id is not None:
                match_id = recent.latest_of_table(request.table_id)
            page = _recent_page(recent, match_id, request)
        else:
            match_id, page = await _journal_page(_kept(reader), request)
    except ReplayCursorError:
        raise RecordsRefused(LobbyRejectCode.BAD_CURSOR, "that cursor is not one of ours") from None
    if match_id is None or page is None:
        asked = f"match {match_id}" if match_id is not None else "that table's latest match"
        raise RecordsRefused(
            LobbyRejectCode.NO_REPLAY,
            f"this server keeps no replay of {asked} (not finished, or past its keeping)",
        )
    lines, next_cursor = page
    return ReplayPage(match_id=match_id, lines=tuple(lines), next_cursor=next_cursor)


_Page = tuple[list[str], str | None]


def _recent_page(recent: RecentReplays, match_id: int | None, request: GetReplay) -> _Page | None:
    if match_id is None:
        return None
    return recent.page(
        match_id, request.cursor, max_lines=request.limit, max_bytes=MAX_REPLAY_PAGE_BYTES
    )


async def _journal_page(
    reader: JournalReader, request: GetReplay
) -> tuple[int | None, _Page | None]:
    def read(db: sqlite3.Connection) -> tuple[int | None, _Page | None]:
        match_id = request.match_id
        if request.table_id is not None:
            match_id = latest_of_table(db, request.table_id)
        if match_id is None:
            return None, None
        page = replay_page(
            db, match_id, request.cursor, max_lines=request.limit, max_bytes=MAX_REPLAY_PAGE_BYTES
        )
        return match_id, page

    return await reader.read(read)


def _kept(reader: JournalReader | None) -> JournalReader:
    if reader is None:
        raise RecordsRefused(
            LobbyRejectCode.NO_HISTORY, "this server keeps no history (it runs with --no-state)"
        )
    return reader


def _cursor(text: str | None) -> int:
    if text is None:
        return 0
    number = parse_cursor(text)
    if number is None:
        raise RecordsRefused(LobbyRejectCode.BAD_CURSOR, "that cursor is not one of ours")
    return number


def _recent_record(table_id: str, header: Replay) -> MatchRecord:
    """A kept record's header as the match list shows a match."""
    return MatchRecord(
        finished_at=int(header.finished_at or 0),
        table_id=table_id,
        table=header.table,
        deck=str(header.config.deck),
        options=TableOptions.of(header.config),
        players=tuple(
            MatchPlayer(
                name=player.name,
                bot=player.bot,
                score=player.score,
                stand_in_turns=player.stand_in_turns,
            )
            for player in header.players
        ),
        winners=header.winners,
        note=header.note or "",
        note_code=note_code(header.note or ""),
        match_id=header.match_id,
    )


def _record(match: dict[str, Any]) -> MatchRecord:
    # Read as a received record: an option this release no longer knows is skipped.
    options = TableOptions.from_data(match.get("options") or {})
    return MatchRecord(
        finished_at=int(match.get("finished_at") or 0),
        table_id=match["table_id"],
        table=match["table"],
        deck=str(match.get("deck") or options.deck or DeckName.CLASSIC),
        options=options,
        players=tuple(
            MatchPlayer(
                name=player["name"],
                bot=bool(player.get("bot")),
                score=int(player.get("score", 0)),
                stand_in_turns=int(player.get("stand_in_turns", 0)),
            )
            for player in match.get("players", [])
        ),
        winners=tuple(match.get("winners", [])),
        note=str(match.get("note") or ""),
        note_code=note_code(str(match.get("note") or "")),
        match_id=match["match_id"],
    )
