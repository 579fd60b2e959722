"""``spectators_see_hands`` at one table: a table journaled before the option existed
(its stored configuration lacks it) is rebuilt as it was, its spectators seeing no hand.
The option's flow over real sockets is tests/e2e/test_spectators_see_hands.py."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from test_table_rig import FakePeer, create, journaled_lobby, ok, settle

from protocol.messages import Join, ResumeSeat, Spectate, Start
from protocol.options import TableConfig
from server.settings import LobbySettings


def forget_the_option(path: Path) -> int:
    """Rewrite the stored configurations as a server before the option wrote them;
    returns how many were rewritten."""
    db = sqlite3.connect(path)
    try:
        rewritten = 0
        for table in ("tables", "matches"):
            rows = db.execute(f"SELECT rowid, config FROM {table}").fetchall()
            for rowid, text in rows:
                config = json.loads(text)
                assert config.pop("spectators_see_hands") is False
                db.execute(
                    f"UPDATE {table} SET config = ? WHERE rowid = ?", (json.dumps(config), rowid)
                )
                rewritten += 1
        db.commit()
        return rewritten
    finally:
        db.close()


async def test_a_table_journaled_before_the_option_is_rebuilt_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    settings = LobbySettings(seed=1)
    async with journaled_lobby(path, settings) as lobby:
        ann, bob = FakePeer("Ann"), FakePeer("Bob")
        table = await create(lobby, ann, seats=2, turn_seconds=0)
        await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
        await ok(lobby, ann, lambda i: Start(id=i))
        await settle()
        before = table.game.config
        token = ann.token
        assert token is not None
    assert forget_the_option(path) >= 2  # the table's and its match's
    async with journaled_lobby(path, settings) as lobby:
        back = FakePeer("Ann")
        await ok(lobby, back, lambda i: ResumeSeat(id=i, token=token, last_seq=0))
        rebuilt = lobby.location(back)
        assert rebuilt is not None and rebuilt.game.config == before
        assert rebuilt.game.config == TableConfig(seats=2, turn_seconds=0)
        watcher = FakePeer("Cy")
        await ok(lobby, watcher, lambda i: Spectate(id=i, table_id=rebuilt.table_id))
        await settle()
        assert "hands" not in watcher.view and watcher.view["counts"]
