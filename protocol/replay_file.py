"""A replay file: one finished match's public record, as JSON lines (docs/replays.md).

The first line is the header: the format's name and version, the match's stable id (the
journal's), the table's name, its options, the players with their final scores, the
winners. Every later line is one event exactly as a spectator received it (the flat wire
map of ``SeenEvent``: ``seq``, ``kind`` and the public fields), in order. A round's
``round-over`` event holds every hand as the round's end revealed it; nothing else of a
hand is in the file. The header's optional ``deck_size`` (still version 1) is the number of
cards the table's deck holds, from which a viewer counts the draw pile at every step
(``protocol.draw_pile``); a file without it shows no count. A player's optional
``stand_in_turns`` is the match record's: the turns a server bot played for them.

Pure and synchronous: the server writes these files and the client reads them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from protocol.errors import ProtocolError
from protocol.events import EventKind, RoundOver, SeenEvent
from protocol.options import ConfigError, TableConfig

__all__ = [
    "REPLAY_FORMAT",
    "REPLAY_VERSION",
    "Replay",
    "ReplayFileError",
    "ReplayPlayer",
    "event_line",
    "header_line",
    "read_events",
    "read_replay",
    "replay_lines",
]

REPLAY_FORMAT = "uno-lan-replay"
"""The header's ``format``: what tells a replay file from any other JSON lines."""
REPLAY_VERSION = 1
"""The header's ``version``: bumped when a reader of this one could misread a new file."""


class ReplayFileError(ValueError):
    """A file that is no replay this release reads: says the line and what is wrong."""


@dataclass(frozen=True, slots=True)
class ReplayPlayer:
    """One seat of the match, in seat order."""

    name: str
    bot: bool
    score: int
    """The final score."""
    stand_in_turns: int = 0
    """The turns a server bot played for this person while they were away (the match
    record's field of that name); optional in the file, left out when 0."""


@dataclass(frozen=True, slots=True)
class Replay:
    """One finished match's public record (the module docstring)."""

    match_id: int
    """The journal's stable id of the match."""
    table: str
    """The table's name."""
    config: TableConfig
    players: tuple[ReplayPlayer, ...]
    winners: tuple[str, ...]
    """The winners' names (none for a match that never finished, with a ``note``)."""
    events: tuple[SeenEvent, ...]
    """Every public event, in order, numbered as the table numbered them."""
    finished_at: float | None = None
    """Unix time the match finished."""
    note: str | None = None
    """Why the match has no winner, if it has none."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Header fields this release does not know (kept, so a copy loses nothing)."""
    deck_size: int | None = None
    """The cards in the table's deck (every round is dealt from all of them); None in a
    file written before the field: the draw pile's count is then not shown."""

    def rounds(self) -> tuple[RoundOver, ...]:
        """Each finished round's ``round-over``: its hands, points and scores."""
        return tuple(
            event.body
            for event in self.events
            if event.kind is EventKind.ROUND_OVER and isinstance(event.body, RoundOver)
        )

    def header(self) -> dict[str, Any]:
        """The first line's map."""
        data: dict[str, Any] = {
            **self.extra,
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "match_id": self.match_id,
            "table": self.table,
            "options": _options_of(self.config),
            "players": [_player_data(player) for player in self.players],
            "winners": list(self.winners),
            "finished_at": self.finished_at,
        }
        if self.note is not None:
            data["note"] = self.note
        if self.deck_size is not None:
            data["deck_size"] = self.deck_size
        return data


def _player_data(player: ReplayPlayer) -> dict[str, Any]:
    data: dict[str, Any] = {"name": player.name, "bot": player.bot, "score": player.score}
    if player.stand_in_turns:
        data["stand_in_turns"] = player.stand_in_turns
    return data


def replay_lines(replay: Replay) -> Iterator[str]:
    """The file's lines, each without its newline."""
    yield header_line(replay)
    for event in replay.events:
        yield event_line(event)


def header_line(replay: Replay) -> str:
    """The file's first line (without its newline)."""
    return json.dumps(replay.header(), ensure_ascii=False, separators=(",", ":"))


def event_line(event: SeenEvent) -> str:
    """One event's line of the file (without its newline)."""
    return json.dumps(event.to_data(), ensure_ascii=False, separators=(",", ":"))


def _options_of(config: TableConfig) -> dict[str, Any]:
    """The header's options: every option, but ``spectators_see_hands`` (1.3) only when
    on, so that a file of a table without it reads and writes as version 1 always did."""
    options = config.to_data()
    if not options["spectators_see_hands"]:
        del options["spectators_see_hands"]
    return options


_HEADER_FIELDS = {"format", "version", "match_id", "table", "options", "players", "winners"}


def read_replay(lines: Iterable[str]) -> Replay:
    """The replay in ``lines`` (a file's lines); raises ReplayFileError naming the line."""
    numbered = ((number, line) for number, line in enumerate(lines, 1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise ReplayFileError("an empty file, not a replay")
    header = _json(*first)
    if not isinstance(header, dict) or header.get("format") != REPLAY_FORMAT:
        raise ReplayFileError(f"line 1: not a replay (no format {REPLAY_FORMAT!r})")
    version = header.get("version")
    if version != REPLAY_VERSION:
        raise ReplayFileError(f"line 1: replay version {version!r}; this release reads 1")
    missing = _HEADER_FIELDS - header.keys()
    if missing:
        raise ReplayFileError(f"line 1: the header lacks {', '.join(sorted(missing))}")
    try:
        config = TableConfig.from_data(header["options"])
        players = tuple(
            ReplayPlayer(
                str(p["name"]), bool(p["bot"]), int(p["score"]), _count(p.get("stand_in_turns"))
            )
            for p in header["players"]
        )
        winners = tuple(str(name) for name in header["winners"])
        match_id = int(header["match_id"])
        finished = header.get("finished_at")
        finished_at = None if finished is None else float(finished)
        deck_size = _deck_size(header.get("deck_size"))
    except (ConfigError, ProtocolError, KeyError, TypeError, ValueError) as error:
        raise ReplayFileError(f"line 1: a bad header: {error}") from None
    events = _events(numbered)
    note = header.get("note")
    return Replay(
        match_id=match_id,
        table=str(header["table"]),
        config=config,
        players=players,
        winners=winners,
        events=events,
        finished_at=finished_at,
        note=None if note is None else str(note),
        extra={k: v for k, v in header.items() if k not in _KNOWN},
        deck_size=deck_size,
    )


_KNOWN = _HEADER_FIELDS | {"finished_at", "note", "deck_size"}

MAX_DECK_SIZE = 1000
"""The largest ``deck_size`` a file may give (the decks have 108 or 112 cards)."""


def _count(value: object) -> int:
    """An optional count of the header (``stand_in_turns``): 0 when left out."""
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"a count must be a whole number 0 or more, not {value!r}")
    return value


def _deck_size(value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_DECK_SIZE:
        raise ValueError(f"deck_size must be a whole number 1-{MAX_DECK_SIZE}, not {value!r}")
    return value


def read_events(lines: Iterable[str]) -> tuple[SeenEvent, ...]:
    """The events of a record's lines without their header (as the journal stores them);
    raises ReplayFileError naming the line (counted from 1)."""
    return _events((number, line) for number, line in enumerate(lines, 1) if line.strip())


def _events(numbered: Iterable[tuple[int, str]]) -> tuple[SeenEvent, ...]:
    events: list[SeenEvent] = []
    for number, line in numbered:
        data = _json(number, line)
        if not isinstance(data, dict):
            raise ReplayFileError(f"line {number}: not an event")
        try:
            event = SeenEvent.from_data(data)
        except (ProtocolError, TypeError, ValueError) as error:
            raise ReplayFileError(f"line {number}: not an event: {error}") from None
        if event.secret is not None:
            raise ReplayFileError(f"line {number}: an event with a seat's secret")
        if events and event.seq <= events[-1].seq:
            raise ReplayFileError(f"line {number}: seq {event.seq} out of order")
        events.append(event)
    return tuple(events)


def _json(number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError as error:
        raise ReplayFileError(f"line {number}: not JSON: {error}") from None
