"""A teaching table (``spectators_see_hands``, 1.3), end to end on a real server: its
spectators' views hold every hand and its players' never hold another's; a spectator may
not take a bot's seat, even after it stopped watching; the table list says so; and a 1.2
client may not make one."""

from __future__ import annotations

import random

import trio
from e2e_client import FAST_OPTIONS, Player, drive, seat_table
from e2e_server import ServerProcess

from protocol.messages import (
    CreateTable,
    Leave,
    ListTables,
    Rejected,
    Rename,
    Spectate,
    TableList,
    TakeBotSeat,
)
from protocol.options import TableOptions
from protocol.version import SUPPORTED_VERSIONS

TEACHING = {"spectators_see_hands": True, "turn_seconds": 0}


def same_moment(*players: Player) -> bool:
    """Every one of ``players`` has a view, all of the same event."""
    seqs = {player.view["last_seq"] if player.view else None for player in players}
    return len(seqs) == 1 and None not in seqs


async def test_spectators_see_every_hand_and_players_only_their_own(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(
                uno_server.port, nursery, ["ann"], options=TEACHING, bots=1,
                versions=[SUPPORTED_VERSIONS],
            )  # fmt: skip
            (ann,) = players
            table_id = ann.table_id
            assert table_id is not None
            pupil = await Player.connect(
                uno_server.port, "pupil", ann.hub, versions=SUPPORTED_VERSIONS
            )
            nursery.start_soon(pupil.read_forever)
            await pupil.ok(lambda id_: Spectate(id=id_, table_id=table_id))
            await drive(players, lambda: len(ann.events) > 30, random.Random(3))
            await ann.hub.until(lambda: same_moment(ann, pupil))
            assert ann.view is not None and pupil.view is not None
            hands = pupil.view["hands"]
            assert hands[0] == ann.hand  # what Ann holds, the pupil sees
            assert [len(hand) for hand in hands] == pupil.view["counts"]
            assert "hands" not in ann.view  # a player never sees another's hand

            # The pupil saw every hand: no seat for it in this match, not even after it
            # stopped watching and came back by the lobby.
            refused = await pupil.request(
                lambda id_: TakeBotSeat(id=id_, table_id=table_id, seat=1)
            )
            assert isinstance(refused, Rejected) and refused.code == "watched-hands"
            await pupil.ok(lambda id_: Leave(id=id_))
            again = await pupil.request(lambda id_: TakeBotSeat(id=id_, table_id=table_id, seat=1))
            assert isinstance(again, Rejected) and again.code == "watched-hands"
            # Someone who never watched may take it (the refusal is the watcher's alone).
            newcomer = await Player.connect(
                uno_server.port, "cy", ann.hub, versions=SUPPORTED_VERSIONS
            )
            nursery.start_soon(newcomer.read_forever)
            await newcomer.ok(lambda id_: ListTables(id=id_))
            summaries = [f for f in newcomer.frames if isinstance(f, TableList)]
            assert summaries[-1].tables[0].spectators_see_hands
            await newcomer.ok(lambda id_: TakeBotSeat(id=id_, table_id=table_id, seat=1))
            await ann.hub.until(lambda: newcomer.view is not None and "hands" not in newcomer.view)
            nursery.cancel_scope.cancel()


async def test_a_pupil_who_renames_or_reconnects_under_another_name_gets_no_seat(
    uno_server: ServerProcess,
) -> None:
    guest = "127.0.0.2"  # a guest's machine: the server's own is marked by name alone
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            players, _ = await seat_table(
                uno_server.port, nursery, ["ann"], options=TEACHING, bots=1,
                versions=[SUPPORTED_VERSIONS],
            )  # fmt: skip
            (ann,) = players
            table_id = ann.table_id
            assert table_id is not None

            async def from_guest(name: str) -> Player:
                player = await Player.connect(
                    uno_server.port, name, ann.hub, versions=SUPPORTED_VERSIONS,
                    local_address=guest,
                )  # fmt: skip
                nursery.start_soon(player.read_forever)
                return player

            pupil = await from_guest("pupil")
            await pupil.ok(lambda id_: Spectate(id=id_, table_id=table_id))
            await ann.hub.until(lambda: pupil.view is not None and "hands" in pupil.view)
            await pupil.ok(lambda id_: Leave(id=id_))
            await pupil.ok(lambda id_: Rename(id=id_, name="zed"))
            renamed = await pupil.request(
                lambda id_: TakeBotSeat(id=id_, table_id=table_id, seat=1)
            )
            await pupil.close()
            # A new connection from the same machine, under yet another name.
            again = await from_guest("quinn")
            reconnected = await again.request(
                lambda id_: TakeBotSeat(id=id_, table_id=table_id, seat=1)
            )
            # Another machine's person who never watched may sit.
            other = await Player.connect(
                uno_server.port, "cy", ann.hub, versions=SUPPORTED_VERSIONS,
                local_address="127.0.0.3",
            )  # fmt: skip
            nursery.start_soon(other.read_forever)
            await other.ok(lambda id_: TakeBotSeat(id=id_, table_id=table_id, seat=1))
            nursery.cancel_scope.cancel()
    assert isinstance(renamed, Rejected) and renamed.code == "watched-hands"
    assert isinstance(reconnected, Rejected) and reconnected.code == "watched-hands"


async def test_a_12_client_may_not_make_a_teaching_table(uno_server: ServerProcess) -> None:
    options = TableOptions.parse({**FAST_OPTIONS, **TEACHING, "seats": 2})
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            old = await Player.connect(uno_server.port, "old", versions=("1.2",))
            nursery.start_soon(old.read_forever)
            reply = await old.request(
                lambda id_: CreateTable(id=id_, name="class", options=options)
            )
            assert isinstance(reply, Rejected) and reply.code == "bad-options"
            assert "spectators_see_hands" in reply.message
            assert old.table_id is None
            new = await Player.connect(uno_server.port, "new", versions=SUPPORTED_VERSIONS)
            nursery.start_soon(new.read_forever)
            await new.ok(lambda id_: CreateTable(id=id_, name="class", options=options))
            nursery.cancel_scope.cancel()
