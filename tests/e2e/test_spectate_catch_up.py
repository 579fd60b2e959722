"""A spectator who arrives mid-round (issue 28), end to end on a real server: a 1.3 one
is sent the round's public events from its ``round-started``, however long the round (here
more than 800 events: the catch-up goes a batch at a time, each once the last is written,
so even a spectator that reads nothing for a while through a small window catches up,
where the whole round at once would close it as too slow), then the live ones with no gap
in ``seq``, exactly as a spectator there since the deal got them; a 1.2 one gets the view
alone and the events after it, as before 1.3."""

from __future__ import annotations

import random
from typing import Any

import trio
from e2e_client import Player, drive, seat_table, settle, turn_choice
from e2e_server import ServerProcess

from protocol.messages import GameEvent, GameView, Spectate, Start
from protocol.version import SUPPORTED_VERSIONS
from server.limits import OUTBOX_SIZE

LONG_ROUND = 800
"""The round is this long when the late spectators arrive: beyond the resume window, and
beyond what one connection's outbox (``OUTBOX_SIZE`` messages) and a slow reader's socket
buffers hold at once (sent whole, the slow spectator below is closed as too slow)."""


def stalling(player: Player, rng: random.Random) -> dict[str, Any] | None:
    """Draw and pass whenever allowed, so the round runs long; otherwise any legal move."""
    view, legal = player.view, player.legal()
    if view is None or not legal or view.get("to_act") != view.get("seat"):
        return None
    for wanted in ("draw", "pass"):
        found = [data for data in legal if data["type"] == wanted]
        if found:
            return found[0]
    return turn_choice(legal, rng)


def round_so_far(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events from the latest ``round-started`` on."""
    starts = [i for i, event in enumerate(events) if event["kind"] == "round-started"]
    return events[starts[-1] :] if starts else []


async def test_a_late_spectator_reads_the_round_from_its_deal(uno_server: ServerProcess) -> None:
    rng = random.Random(28)
    options = {"turn_seconds": 0, "target_score": 500}
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(
                uno_server.port, nursery, ["ann", "bob"], options=options, start=False
            )
            hub = players[0].hub
            table_id = players[0].table_id
            assert table_id is not None

            async def watcher(name: str, versions: tuple[str, ...]) -> Player:
                spectator = await Player.connect(uno_server.port, name, hub, versions=versions)
                nursery.start_soon(spectator.read_forever)
                await spectator.ok(lambda id_: Spectate(id=id_, table_id=table_id))
                return spectator

            early = await watcher("early", SUPPORTED_VERSIONS)
            await players[0].ok(lambda id_: Start(id=id_))
            await drive(
                players, lambda: len(round_so_far(early.events)) > LONG_ROUND, rng, stalling
            )
            await settle([*players, early])
            joined_at = early.last_seq
            late = await watcher("late", SUPPORTED_VERSIONS)
            old = await watcher("old", ("1.2",))
            # One that reads nothing for a while, through a small window: its catch-up
            # waits for it, a batch at a time, and never fills its outbox (too-slow).
            slow = await Player.connect(
                uno_server.port, "slow", hub, versions=SUPPORTED_VERSIONS, receive_buffer=1024
            )
            await slow.send(Spectate(id=slow.conn.next_request_id(), table_id=table_id))
            await trio.sleep(0.5)
            nursery.start_soon(slow.read_forever)
            await hub.until(
                lambda: late.view is not None and old.view is not None
                and (slow.view is not None or slow.closed)
            )  # fmt: skip
            assert slow.error is None, slow.error  # not closed as too slow
            # Play on a little: the live events must follow the catch-up without a gap.
            await drive(players, lambda: early.last_seq > joined_at + 20, rng, stalling)
            await settle([*players, early, late, old, slow])
            nursery.cancel_scope.cancel()

    caught_up = [event for event in late.events if event["seq"] <= joined_at]
    assert caught_up[0]["kind"] == "round-started"
    assert len(caught_up) > max(LONG_ROUND, OUTBOX_SIZE)  # more than one outbox holds
    seqs = [event["seq"] for event in late.events]
    assert seqs == list(range(seqs[0], early.last_seq + 1))
    # Public events only: exactly what the spectator there since the deal was sent.
    assert late.events == [event for event in early.events if event["seq"] >= seqs[0]]
    assert caught_up == round_so_far([e for e in early.events if e["seq"] <= joined_at])
    # The order: the whole catch-up, then the first view (at the catch-up's last seq).
    first_view = next(i for i, frame in enumerate(late.frames) if isinstance(frame, GameView))
    before_view = [frame for frame in late.frames[:first_view] if isinstance(frame, GameEvent)]
    assert [frame.seq for frame in before_view] == [event["seq"] for event in caught_up]
    view = late.frames[first_view]
    assert isinstance(view, GameView) and view.seq == joined_at
    assert slow.error is None and slow.events == late.events
    # A 1.2 spectator keeps the old way: its view first, then only what came after it.
    assert old.events and all(event["seq"] > joined_at for event in old.events)
    assert old.events == [event for event in early.events if event["seq"] > joined_at]
