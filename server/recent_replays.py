"""The records of a ``--no-state`` server's latest finished matches, in memory (issue 28).

A server without a journal keeps no history, but a player who just finished a match (a
``uno-client --solo`` game, say) may still want its replay. Such a server keeps the
public records of its latest ``KEPT_REPLAYS`` finished matches, each stored as the
journal stores one (``server.replay_rows``: a stretch a row, compressed), and gives them
ids of its own, 1, 2, ... from its start; they go when the server stops. A record whose
stretches grow past ``MAX_REPLAY_BYTES`` compressed is not kept (a match that long is
rare; memory stays flat): at most ``KEPT_REPLAYS`` x ``MAX_REPLAY_BYTES`` in all, and a
match being played holds only its own record so far.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from protocol.options import TableConfig
from protocol.replay_file import Replay
from server.replay_rows import header_of, packed, page_of, unpacked

__all__ = ["KEPT_REPLAYS", "MAX_REPLAY_BYTES", "RecentReplays", "TableReplays"]

KEPT_REPLAYS = 10
"""Finished matches whose records a server without a journal keeps."""
MAX_REPLAY_BYTES = 256 * 1024
"""The most one kept record may take, compressed (a seven-round party match takes about
11 KB: docs/performance.md, "The size of a match's record")."""


@dataclass(frozen=True, slots=True)
class _Record:
    table_id: str
    header: Replay
    stretches: tuple[bytes, ...]


class RecentReplays:
    """The latest finished matches' records of a server without a journal."""

    def __init__(self, kept: int = KEPT_REPLAYS, max_bytes: int = MAX_REPLAY_BYTES) -> None:
        self._kept = kept
        self.max_bytes = max_bytes
        self._records: OrderedDict[int, _Record] = OrderedDict()
        self._last_id = 0

    def for_table(self, table_id: str, table: str) -> TableReplays:
        """Where table ``table_id`` (named ``table``) writes its matches' records."""
        return TableReplays(self, table_id, table)

    def add(self, table_id: str, header: Replay, stretches: list[bytes]) -> int:
        """Keep a finished match's record (the oldest kept goes beyond ``kept``); its id."""
        self._last_id += 1
        match_id = self._last_id
        record = _Record(table_id, replace(header, match_id=match_id), tuple(stretches))
        self._records[match_id] = record
        while len(self._records) > self._kept:
            self._records.popitem(last=False)
        return match_id

    def ids(self) -> list[int]:
        """The kept records' ids, the oldest first."""
        return list(self._records)

    def headers(self, *, before: int | None, limit: int) -> list[tuple[str, Replay]]:
        """The kept records' table ids and headers, the latest first: at most ``limit``,
        each with an id below ``before`` (all of them for None)."""
        found: list[tuple[str, Replay]] = []
        for match_id in reversed(self._records):
            if len(found) == limit:
                break
            if before is None or match_id < before:
                record = self._records[match_id]
                found.append((record.table_id, record.header))
        return found

    def latest_of_table(self, table_id: str) -> int | None:
        """The id of the table's latest kept record; None if none is kept."""
        for match_id in reversed(self._records):
            if self._records[match_id].table_id == table_id:
                return match_id
        return None

    def page(
        self, match_id: int, cursor: str | None, *, max_lines: int, max_bytes: int
    ) -> tuple[list[str], str | None] | None:
        """A page of the record's file (``server.replay_rows.page_of``); None if it is not
        kept; raises ReplayCursorError."""
        record = self._records.get(match_id)
        if record is None:
            return None
        stretches = record.stretches
        return page_of(
            record.header,
            len(stretches),
            lambda part: unpacked(stretches[part]),
            cursor,
            max_lines=max_lines,
            max_bytes=max_bytes,
        )


class TableReplays:
    """One table's store of its match's record (a ``ReplayStore``), kept by
    ``RecentReplays`` once the match is over."""

    def __init__(self, recent: RecentReplays, table_id: str, table: str) -> None:
        self._recent = recent
        self._table_id = table_id
        self._table = table
        self._stretches: list[bytes] = []
        self._size = 0
        self._whole = True
        self._header: Replay | None = None

    def replay_part(self, part: int, lines: list[str]) -> None:
        """Stretch ``part`` of the match's record; the one after the result ends it."""
        if part == 0:  # a new match
            self._stretches, self._size, self._whole, self._header = [], 0, True, None
        stored = packed(lines)
        self._size += len(stored)
        if part != len(self._stretches) or self._size > self._recent.max_bytes:
            self._whole = False
            self._stretches = []  # not kept: its memory goes now
        if self._whole:
            self._stretches.append(stored)
        header = self._header
        if header is not None:  # the match is over: this was its last stretch
            if self._whole:
                self._recent.add(self._table_id, header, self._stretches)
            self._stretches, self._size, self._header = [], 0, None

    def match_finished(self, result: dict[str, Any], config: TableConfig) -> None:
        """The match's result (``server.table.game``), before its last stretch is written."""
        self._header = header_of(0, self._table, config, result, time.time())
