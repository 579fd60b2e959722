"""Clients of protocol 1.0 to 1.2 against this 1.3 server, over real sockets: one that
offers only 1.0-1.2 plays a whole match against server bots, never seeing a 1.3 field;
and a 1.0 connection takes a bot's seat in the middle of a round, as the page says any
version may (docs/protocol.md sections 4, 6 and 10)."""

from __future__ import annotations

import random

import pytest
import trio
from e2e_client import Player, drive, seat_table
from e2e_server import ServerProcess

from protocol.messages import TableState, TakeBotSeat

pytestmark = pytest.mark.e2e


async def test_a_1_2_client_plays_a_whole_match_against_server_bots(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            (old,), _ = await seat_table(
                uno_server.port, nursery, ["old"], bots=2, versions=[("1.0", "1.1", "1.2")]
            )
            assert old.welcome is not None and old.welcome.version == "1.2"
            await drive([old], lambda: old.match_over, random.Random(8))
            assert old.unexpected_rejections == []
            states = [frame for frame in old.frames if isinstance(frame, TableState)]
            assert states and all(s.owner_seat is None and s.host_reason is None for s in states)
            assert all(s.host_seat == 0 for s in states)
            nursery.cancel_scope.cancel()


async def test_a_1_0_connection_takes_a_bot_s_seat_during_a_round(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            (ann,), _ = await seat_table(
                uno_server.port, nursery, ["ann"], bots=1, options={"turn_seconds": 0}
            )
            await drive([ann], lambda: len(ann.events) > 6, random.Random(1))
            late = await Player.connect(uno_server.port, "late", ann.hub, versions=("1.0",))
            nursery.start_soon(late.read_forever)
            assert ann.table_id is not None
            table_id = ann.table_id
            result = await late.ok(lambda i: TakeBotSeat(id=i, table_id=table_id, seat=1))
            assert result == {"seat": 1}
            await ann.hub.until(lambda: late.view is not None)
            assert late.view is not None and late.view["seat"] == 1 and late.hand
            await drive([ann, late], lambda: ann.match_over, random.Random(2))
            nursery.cancel_scope.cancel()
