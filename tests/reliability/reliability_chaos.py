"""Chaos at the table: seats whose connections are cut at random moments and resumed.

A ``ChaosTable`` seats protocol-only players (``e2e_client.Player``) and runs one actor
task per seat. Before each move an actor may cut its own connection instead, at the moment
its latest view shows:

- ``turn``: it is this seat's turn;
- ``challenge``: this seat may challenge a Wild Draw Four;
- ``dance``: this seat owes a dance;
- ``catch``: someone at the table is exposed (the UNO catch window is open);
- ``idle``: nothing of the above.

and in one of four ways: a clean close, a reset (``SO_LINGER`` 0), in the middle of a frame
(half a command written, then the close), or with a command in flight (written whole, the
reply never read). A server bot plays the seat meanwhile; after 0 to 8 more events the seat
comes back with its resume token, in the hello or with a ``resume`` command, and says the
last event it saw.

Every connection of a seat is kept, so that at the end the seat's whole story can be
checked: events numbered 1, 2, 3... with no gap and no repeat across the cuts, the hand in
every view equal to the hand its own events build (so each seat resumes with its hand),
no frame showing a card the seat may not see (``e2e_secrets.leaks``), and every view's
cards adding up to the deck. One seat always stays connected, so the table never empties.
"""

from __future__ import annotations

import random
import socket
import struct
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import trio
from e2e_client import Hub, Player, basic_policy, seat_table
from e2e_secrets import leaks
from reliability_tables import cards_in_view, deck_size

from protocol.commands import command_from_data
from protocol.messages import Game, GameEvent, GameView, Leave, Ok, Rejected, ResumeSeat

__all__ = ["MOMENTS", "WAYS", "ChaosPlan", "ChaosTable", "chaos_policy", "cut_totals"]

MOMENTS = ("turn", "challenge", "dance", "catch", "idle")
"""When a connection may be cut (see the module docstring)."""

WAYS = ("close", "reset", "mid-frame", "in-flight")
"""How a connection may be cut."""


@dataclass(frozen=True, slots=True)
class ChaosPlan:
    """How much chaos: the chance of a cut at each moment a view shows, and the most cuts
    per table at each moment (so that common moments do not use up the rare ones' share)."""

    chances: dict[str, float] = field(
        default_factory=lambda: {
            "turn": 0.04,
            "challenge": 0.8,
            "dance": 1.0,
            "catch": 0.5,
            "idle": 0.02,
        }
    )
    cuts_per_moment: int = 2


def _news(player: Player, views_seen: int) -> bool:
    """Whether ``player`` has a view it has not seen ``views_seen`` of, or the match ended."""
    return player.views_seen != views_seen or player.match_over


def moment_of(view: dict[str, Any]) -> str:
    """Which of ``MOMENTS`` a seat's view shows."""
    kinds = {data["type"] for data in view.get("legal") or []}
    if "challenge" in kinds:
        return "challenge"
    if "dance" in kinds or "refuse-dance" in kinds:
        return "dance"
    if view.get("exposed"):
        return "catch"
    if view.get("to_act") == view.get("seat"):
        return "turn"
    return "idle"


def chaos_policy(player: Player, rng: random.Random) -> dict[str, Any] | None:
    """``basic_policy``, except that half the time a turn plays a card without calling
    UNO, so that catch windows open."""
    view = player.view
    legal = player.legal()
    if view is not None and view.get("to_act") == view.get("seat") and rng.random() < 0.5:
        silent = [data for data in legal if data["type"] == "play" and not data.get("uno")]
        only_plays = all(data["type"] in ("play", "draw", "pass", "call-uno") for data in legal)
        if silent and only_plays:
            return rng.choice(silent)
    return basic_policy(player, rng)


@dataclass(slots=True)
class SeatStory:
    """Every connection one seat has had, the latest last."""

    connections: list[Player]

    @property
    def current(self) -> Player:
        return self.connections[-1]

    @property
    def last_seq(self) -> int:
        """The last event the seat received, on whichever connection (0 for none)."""
        for player in reversed(self.connections):
            if player.events:
                return player.last_seq
        return 0

    def merged(self) -> Player:
        """One Player holding the frames and events of every connection, in order."""
        last = self.current
        whole = Player(last.stream, last.name, last.hub)
        whole.seat = last.seat
        whole.frames = [frame for player in self.connections for frame in player.frames]
        whole.events = [event for player in self.connections for event in player.events]
        return whole


class ChaosTable:
    """One match of people whose connections are cut and resumed (module docstring)."""

    def __init__(
        self,
        port: int,
        name: str,
        *,
        seats: int,
        options: dict[str, Any],
        rng: random.Random,
        plan: ChaosPlan,
    ) -> None:
        self.port = port
        self.name = name
        self.seats = seats
        self.options = options
        self.rng = rng
        self.plan = plan
        self.hub = Hub()
        self.stories: list[SeatStory] = []
        self.cuts: Counter[tuple[str, str]] = Counter()
        self.via: Counter[str] = Counter()
        self.problems: list[str] = []
        self.commands = 0
        self._cutting: set[int] = set()
        self._nursery: trio.Nursery | None = None

    # --- running -------------------------------------------------------------------------

    async def play(self) -> None:
        """Seat the people, play the match to its end with cuts, leave, stop every reader."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            names = [f"{self.name}s{index}" for index in range(self.seats)]
            people, _ = await seat_table(
                self.port, nursery, names, options=self.options, hub=self.hub, table_name=self.name
            )
            self.stories = [SeatStory([player]) for player in people]
            async with trio.open_nursery() as actors:
                for index in range(self.seats):
                    actors.start_soon(self._act, index)
            # Leave, so the table closes now rather than when its empty-table timer ends.
            for story in self.stories:
                if not story.current.closed:
                    await story.current.request(lambda id_: Leave(id=id_))
            nursery.cancel_scope.cancel()

    @property
    def over(self) -> bool:
        return all(story.current.match_over for story in self.stories)

    async def _act(self, index: int) -> None:
        story = self.stories[index]
        marks: dict[int, int] = {}
        while True:
            player = story.current
            mark = marks.get(id(player), 0)
            await self.hub.until(partial(_news, player, mark))
            if player.match_over:
                return
            marks[id(player)] = player.views_seen
            assert player.view is not None
            moment = moment_of(player.view)
            if self._wants_cut(index, moment):
                await self._cut_and_resume(index, moment)
                continue
            data = chaos_policy(player, self.rng)
            if data is not None:
                await self._send(player, data)

    def _wants_cut(self, index: int, moment: str) -> bool:
        made = sum(count for (when, _), count in self.cuts.items() if when == moment)
        if made >= self.plan.cuts_per_moment:
            return False
        others_connected = any(
            not story.current.closed and number not in self._cutting
            for number, story in enumerate(self.stories)
            if number != index
        )
        if not others_connected or self.rng.random() >= self.plan.chances[moment]:
            return False
        self._cutting.add(index)
        return True

    async def _send(self, player: Player, data: dict[str, Any]) -> Ok | Rejected | None:
        """Send one game command and wait for its reply (None if the connection ended)."""
        command = command_from_data(data)
        request = Game(id=player.conn.next_request_id(), command=command)  # type: ignore[arg-type]
        try:
            await player.send(request)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return None
        self.commands += 1
        await self.hub.until(lambda: request.id in player.replies or player.closed)
        return player.replies.pop(request.id, None)

    # --- the cut ---------------------------------------------------------------------------

    async def _cut_and_resume(self, index: int, moment: str) -> None:
        story = self.stories[index]
        old = story.current
        way = self.rng.choice(WAYS)
        self.cuts[(moment, way)] += 1
        await self._cut(old, way)
        # Bytes the reader took in just before the cut are recorded when it next runs: wait
        # for it to finish, so the resume names the last event this seat really holds.
        await self.hub.until(lambda: old.closed)
        token, last_seq = old.token, story.last_seq
        assert token is not None
        await self._let_the_table_move_on(index, last_seq, self.rng.choice((0, 0, 1, 3, 8)))
        back = await self._resume(old, token, last_seq)
        story.connections.append(back)
        self._cutting.discard(index)
        self._check_resumed(old, back, last_seq)

    async def _cut(self, player: Player, way: str) -> None:
        try:
            if way in ("mid-frame", "in-flight"):
                data = chaos_policy(player, self.rng) or {"type": "draw"}
                command = command_from_data(data)
                game = Game(id=player.conn.next_request_id(), command=command)  # type: ignore[arg-type]
                frame = player.conn.send(game)
                if way == "mid-frame":
                    frame = frame[: self.rng.randint(1, len(frame) - 1)]
                await player.stream.send_all(frame)
            if way == "reset":
                linger = struct.pack("ii", 1, 0)
                player.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        await player.close()

    async def _let_the_table_move_on(self, index: int, last_seq: int, events: int) -> None:
        """Wait until another connected seat has seen ``events`` more events (or the match
        ended, or that seat was cut too)."""
        if not events:
            return
        others = [
            story.current
            for number, story in enumerate(self.stories)
            if number != index and not story.current.closed
        ]
        await self.hub.until(
            lambda: any(
                other.closed or other.match_over or other.last_seq >= last_seq + events
                for other in others
            )
        )

    async def _resume(self, old: Player, token: str, last_seq: int) -> Player:
        assert self._nursery is not None
        if self.rng.random() < 0.5:
            self.via["hello"] += 1
            back = await Player.connect(
                self.port, old.name, self.hub, resume_token=token, last_seq=last_seq
            )
            self._nursery.start_soon(back.read_forever)
            if back.welcome is None or not back.welcome.resumed:
                self.problems.append(f"{old.name}: the hello's token did not resume the seat")
        else:
            self.via["command"] += 1
            back = await Player.connect(self.port, old.name, self.hub)
            self._nursery.start_soon(back.read_forever)
            reply = await back.request(
                lambda id_: ResumeSeat(id=id_, token=token, last_seq=last_seq)
            )
            if not isinstance(reply, Ok):
                self.problems.append(f"{old.name}: resume refused: {reply}")
        await self.hub.until(lambda: back.view is not None or back.closed)
        back.token = back.token or token
        return back

    def _check_resumed(self, old: Player, back: Player, last_seq: int) -> None:
        who = f"{old.name} after a cut at seq {last_seq}"
        if back.seat != old.seat:
            self.problems.append(f"{who}: came back in seat {back.seat}, not {old.seat}")
        seqs = [frame.seq for frame in back.frames if isinstance(frame, GameEvent)]
        if seqs and seqs[0] != last_seq + 1:
            self.problems.append(f"{who}: the first event resent is {seqs[0]}")
        if not any(isinstance(frame, GameView) for frame in back.frames):
            self.problems.append(f"{who}: no view after resuming")

    # --- the verdict -------------------------------------------------------------------------

    def frames_received(self) -> int:
        """Frames the server sent this table's people, over every connection."""
        return sum(len(player.frames) for story in self.stories for player in story.connections)

    def verdict(self) -> list[str]:
        """Everything wrong with the finished match (empty when all is well)."""
        problems = list(self.problems)
        if not self.over:
            problems.append(f"{self.name}: the match did not finish")
        whole = [story.merged() for story in self.stories]
        problems += leaks(whole)
        state = self.stories[0].connections[0].state
        cards = deck_size(state.options.to_data()) if state is not None else None
        for player in whole:
            seqs = [frame.seq for frame in player.frames if isinstance(frame, GameEvent)]
            if seqs != list(range(1, len(seqs) + 1)):
                runs = [
                    [f.seq for f in c.frames if isinstance(f, GameEvent)]
                    for story in self.stories
                    if story.current.name == player.name
                    for c in story.connections
                ]
                shown = [(run[0], run[-1]) if run else () for run in runs]
                problems.append(f"{player.name}: events are not numbered 1..{len(seqs)}: {shown}")
            for frame in player.frames:
                if isinstance(frame, GameView) and cards_in_view(frame.body) != cards:
                    counted = cards_in_view(frame.body)
                    problems.append(f"{player.name}: a view counts {counted} cards, not {cards}")
        return problems


def cut_totals(tables: Sequence[ChaosTable]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Cuts by moment, cuts by way, and resumes by route, over ``tables``."""
    moments: Counter[str] = Counter()
    ways: Counter[str] = Counter()
    via: Counter[str] = Counter()
    for table in tables:
        for (moment, way), count in table.cuts.items():
            moments[moment] += count
            ways[way] += count
        via.update(table.via)
    return moments, ways, via
