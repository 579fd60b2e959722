"""The table's owner keeps the host role, over real sockets to a real ``uno-server``: a
server killed mid-match and started again on its journal, a guest resuming first, the
grace lending nothing, then a role lent that cannot kick, ban or close on the owner, and
back to the owner the moment she returns; and the same after a blip of her connection."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player, drive, seat_table
from e2e_server import ServerProcess

from protocol.messages import CloseTable, HostReason, Kick, Rejected, Request, TableState

pytestmark = pytest.mark.e2e

V13 = ("1.0", "1.1", "1.2", "1.3")


def host_of(player: Player) -> tuple[int | None, int | None, HostReason | None]:
    state = player.state
    assert state is not None
    return state.host_seat, state.owner_seat, state.host_reason


async def refusal(player: Player, make: type[Request], **fields: object) -> str:
    reply = await player.request(lambda id_: make(id=id_, **fields))
    assert isinstance(reply, Rejected), reply
    return reply.code


async def test_after_a_restart_a_guest_back_first_never_takes_the_owner_s_role(
    tmp_path: Path,
) -> None:
    rng = random.Random(3)
    first = ServerProcess.start(tmp_path, "--restart-grace", "4")
    state = first.state
    assert state is not None
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(
                    first.port,
                    nursery,
                    ["ann", "bob", "cat"],
                    options={"turn_seconds": 0, "target_score": 500},
                    versions=[V13, V13, V13],
                )
                await drive(players, lambda: len(players[0].events) > 10, rng)
                tokens = {p.name: (p.token or "", p.last_seq) for p in players}
                first.process.send_signal(signal.SIGKILL)
                first.process.wait()
                nursery.cancel_scope.cancel()
    finally:
        first.stop()

    again = ServerProcess.start(tmp_path, "--restart-grace", "4", state=state)
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()

                async def back(name: str) -> Player:
                    token, last_seq = tokens[name]
                    player = await Player.connect(
                        again.port, name, hub, resume_token=token, last_seq=last_seq, versions=V13
                    )
                    assert player.welcome is not None and player.welcome.resumed, name
                    nursery.start_soon(player.read_forever)
                    await hub.until(lambda: isinstance(player.state, TableState))
                    return player

                bob = await back("bob")
                # The grace lends nothing: the owner, not back yet, is still the host.
                assert host_of(bob) == (0, 0, HostReason.OWNER)
                assert await refusal(bob, Kick, seat=0) == "not-host"
                assert await refusal(bob, CloseTable) == "not-host"
                # The grace ends with Ann and Cat away: Bob is lent the role.
                await hub.until(lambda: host_of(bob)[0] == 1)
                assert host_of(bob) == (1, 0, HostReason.OWNER_AWAY)
                assert await refusal(bob, Kick, seat=0) == "not-host"
                assert await refusal(bob, Kick, seat=0, ban=True) == "not-host"
                assert await refusal(bob, CloseTable) == "not-host"
                ann = await back("ann")
                await hub.until(lambda: host_of(bob)[0] == 0)
                assert host_of(bob) == host_of(ann) == (0, 0, HostReason.OWNER)
                assert bob.state is not None and bob.state.seats[0].name == "ann"
                nursery.cancel_scope.cancel()
    finally:
        again.stop()


async def test_a_blip_of_the_owner_s_connection_lends_the_role_only_until_she_is_back(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(tmp_path)
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(
                    server.port,
                    nursery,
                    ["ann", "bob", "cat"],
                    options={"turn_seconds": 0},
                    versions=[V13, V13, V13],
                )
                ann, bob, cat = players
                token, last_seq = ann.token or "", ann.last_seq
                await ann.close()
                await bob.hub.until(lambda: host_of(bob)[0] == 1)
                assert host_of(cat) == (1, 0, HostReason.OWNER_AWAY)
                assert await refusal(bob, Kick, seat=0, ban=True) == "not-host"
                again = await Player.connect(
                    server.port, "ann", bob.hub, resume_token=token, last_seq=last_seq, versions=V13
                )
                assert again.welcome is not None and again.welcome.resumed  # her seat is hers
                nursery.start_soon(again.read_forever)
                await bob.hub.until(lambda: host_of(cat)[0] == 0)
                assert host_of(cat) == (0, 0, HostReason.OWNER)
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
