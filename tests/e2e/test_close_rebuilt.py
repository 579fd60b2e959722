"""The host of a table rebuilt after a restart closes it instead of playing on: a real
uno-server killed with SIGKILL and started again on its journal."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player, drive, seat_table, settle
from e2e_server import ServerProcess

from protocol.messages import (
    CloseTable,
    Left,
    ListMatches,
    ListTables,
    MatchList,
    MatchNote,
    Rejected,
)

pytestmark = pytest.mark.e2e

NEW = ("1.0", "1.1", "1.2")


async def test_the_host_closes_a_rebuilt_table_and_its_match_is_kept(tmp_path: Path) -> None:
    first = ServerProcess.start(tmp_path, "--restart-grace", "30")
    state = first.state
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                players, _ = await seat_table(
                    first.port,
                    nursery,
                    ["ann", "bob"],
                    options={"turn_seconds": 0},
                    versions=[NEW] * 2,
                )
                host = players[0]
                await drive(players, lambda: len(host.events) > 20, random.Random(8))
                await settle(players)
                # Not rebuilt: nothing to close.
                refused = await host.request(lambda id_: CloseTable(id=id_))
                assert isinstance(refused, Rejected) and refused.code == "wrong-table-state"
                held = [(p.name, p.token, p.last_seq) for p in players]
                first.process.send_signal(signal.SIGKILL)
                first.process.wait()
                nursery.cancel_scope.cancel()
    finally:
        first.stop()

    again = ServerProcess.start(tmp_path, "--restart-grace", "30", state=state)
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                back = {}
                # The host first: whoever comes back while the host is away takes the
                # role (docs/protocol.md section 7), so bob would be the host otherwise.
                for name, token, last_seq in held:
                    player = await Player.connect(
                        again.port, name, hub, resume_token=token, last_seq=last_seq, versions=NEW
                    )
                    assert player.welcome is not None and player.welcome.resumed
                    nursery.start_soon(player.read_forever)
                    await hub.until(lambda player=player: player.view is not None)  # type: ignore[misc]
                    back[name] = player
                    if name == "bob":
                        refused = await player.request(lambda id_: CloseTable(id=id_))
                        assert isinstance(refused, Rejected) and refused.code == "not-host"
                # Everyone is back, so the match would go on; the host closes it instead.
                await back["ann"].ok(lambda id_: CloseTable(id=id_))
                await hub.until(
                    lambda: all(p.frames and isinstance(p.frames[-1], Left) for p in back.values())
                )
                for player in back.values():
                    last = player.frames[-1]
                    assert isinstance(last, Left) and last.reason == "table-closed"
                await back["bob"].ok(lambda id_: ListTables(id=id_))
                listing = [f for f in back["bob"].frames if type(f).__name__ == "TableList"][-1]
                assert listing.tables == ()  # type: ignore[attr-defined]
                await back["bob"].ok(lambda id_: ListMatches(id=id_))
                (match,) = [f for f in back["bob"].frames if isinstance(f, MatchList)][-1].matches
                assert match.winners == () and "its host closed it" in match.note
                assert match.note_code is None  # bob speaks 1.2: the words alone
                assert [p.name for p in match.players] == ["ann", "bob"]
                # A 1.3 peer reads the note's code as well, and the clients say it.
                cy = await Player.connect(again.port, "cy", hub, versions=("1.3",))
                nursery.start_soon(cy.read_forever)
                await cy.ok(lambda id_: ListMatches(id=id_))
                (coded,) = [f for f in cy.frames if isinstance(f, MatchList)][-1].matches
                assert coded.note_code == MatchNote.HOST_CLOSED_AFTER_RESTART
                assert coded.note == match.note
                nursery.cancel_scope.cancel()
    finally:
        again.stop()
    third = ServerProcess.start(tmp_path, state=state)  # and it stays closed
    try:
        assert "rebuilt from the journal" not in third.log_text()
    finally:
        third.stop()
