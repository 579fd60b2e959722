"""Journal writes that fail under a running server, and guesses at a table's password.

1. A full journal (a real ``SQLITE_FULL``: ``PRAGMA max_page_count`` keeps the file from
   growing; the real ``Server`` and ``Lobby`` in this process, on real loopback sockets):
   the table plays on, its host is told once, ``create-table`` is refused with
   ``journal-unavailable`` (``internal-error`` to a 1.0 client) and the connection stays
   open; once there is room, new tables are journaled again.
2. The same on a real full disk: a 1 MiB tmpfs (root only) under a real ``uno-server``.
3. A journal that cannot be written at start stops ``uno-server`` with one line.
4. A flood of wrong passwords from one guest while an honest pair plays: the pair's
   every move is answered, and the figures go to ``reliability_figures.record``.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from e2e_client import FAST_OPTIONS, Player, drive
from e2e_server import ServerProcess
from reliability_figures import record
from reliability_guests import attacker, connect_from, honest_table, latency_ms, play

from protocol.messages import (
    AddBot,
    ChatMessage,
    CreateTable,
    Join,
    ListTables,
    Ok,
    Rejected,
    Start,
    Welcome,
)
from protocol.options import TableOptions
from server.app import Server, ServerSettings
from server.identity import ServerIdentity
from server.journal import Journal
from server.lobby import Lobby
from server.retention import Retention
from server.settings import LobbySettings

IDENTITY = ServerIdentity(name="test", server_id="srv-test", version="0.1.0")
OPTIONS = TableOptions.parse({**FAST_OPTIONS, "seats": 2, "target_score": 2000})


def notices(player: Player) -> list[ChatMessage]:
    """The chat lines the server itself sent ``player``."""
    return [f for f in player.frames if isinstance(f, ChatMessage) and f.sender == "uno-server"]


def rebuildable(path: Path) -> dict[str, int]:
    """Each table of the journal file and its ``rebuildable`` mark (the server stopped)."""
    db = sqlite3.connect(path)
    try:
        return dict(db.execute("SELECT table_id, rebuildable FROM tables").fetchall())
    finally:
        db.close()


async def create(player: Player) -> Ok | Rejected:
    return await player.request(lambda id_: CreateTable(id=id_, name="next", options=OPTIONS))


async def play_until_the_journal_fails(
    port: int, nursery: trio.Nursery, fill: Callable[[], object]
) -> Player:
    """A host and a server bot start a match, ``fill()`` fills the journal's room, and
    they play until the host hears that the journal failed, then a good while longer: the
    table plays on. Returns the host, its reader running."""
    host = await connect_from(port, "127.0.0.100", "ann")
    nursery.start_soon(host.read_forever)
    await host.ok(lambda id_: CreateTable(id=id_, name="kept", options=OPTIONS))
    await host.ok(lambda id_: AddBot(id=id_, strategy="basic"))
    await host.ok(lambda id_: Start(id=id_))
    await host.hub.until(lambda: host.view is not None)
    fill()
    rng = random.Random(3)
    await drive([host], lambda: bool(notices(host)) or host.match_over, rng, max_commands=5000)
    assert notices(host), "the journal never filled"
    seen = host.last_seq
    await drive([host], lambda: host.last_seq > seen + 60 or host.match_over, rng)
    assert host.last_seq > seen and not host.closed  # it played on, in memory
    assert not host.unexpected_rejections
    return host


async def refused_then_kept(port: int, nursery: trio.Nursery, free: Callable[[], object]) -> None:
    """Newcomers are refused a table, by a code their version knows, and stay connected;
    once ``free()`` has made room, a table is made again."""
    newer = await connect_from(port, "127.0.0.101", "bob")
    older = await Player.connect(port, "cat", versions=("1.0",))
    for player in (newer, older):
        nursery.start_soon(player.read_forever)
    answers = [await create(newer), await create(older)]
    codes = [answer.code if isinstance(answer, Rejected) else "ok" for answer in answers]
    assert codes == ["journal-unavailable", "internal-error"]
    for player in (newer, older):
        await player.ok(lambda id_: ListTables(id=id_))  # the connection is still open
        assert not player.closed
    free()
    assert isinstance(await create(newer), Ok)


@asynccontextmanager
async def in_process_server(journal: Journal) -> AsyncIterator[int]:
    # No cleaning after the first round: it would drop the closed tables that fill the file.
    quiet = Retention(every_seconds=3600.0)
    lobby = Lobby(LobbySettings(seed=3, bot_think_ms=0, retention=quiet), journal=journal)
    server = Server(ServerSettings(hosts=("127.0.0.1",), port=0), lobby, IDENTITY)
    async with trio.open_nursery() as nursery:
        await nursery.start(lobby.run)
        addresses = await nursery.start(server.run)
        yield addresses[0][1]
        await lobby.shutdown()  # as a stopping server does: the tables stay in the journal
        nursery.cancel_scope.cancel()


async def test_a_full_journal_costs_no_table_and_no_connection(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    Journal.open(path).close()
    db = sqlite3.connect(path)
    with db:  # someone else's data in the file, to be freed later as a file on a disk is
        db.execute("CREATE TABLE filler (data BLOB)")
        db.executemany("INSERT INTO filler VALUES (?)", [(bytes(3000),)] * 30)
    db.close()

    numbers = iter(range(1000, 100_000))  # the filler tables' ids, across fills

    def fill() -> None:
        """Closed tables' rows (the history's) until the file, kept at its size, has no
        room for one more."""
        other = sqlite3.connect(path, isolation_level=None, timeout=5)
        (pages,) = other.execute("PRAGMA page_count").fetchone()
        other.execute(f"PRAGMA max_page_count = {pages}")
        # Long rows first, then the shortest, so that no page keeps room for a table's row
        # (the room a long row left would take a new table's, on a slow run).
        for name in ("old table " * 3, "x"):
            with contextlib.suppress(sqlite3.OperationalError):
                for number in numbers:
                    other.execute(
                        "INSERT INTO tables (table_id, name, config, created_from, open, engine)"
                        " VALUES (?, ?, '{}', 'x', 0, '1')",
                        (str(number), name),
                    )
        other.close()

    def free() -> None:
        other = sqlite3.connect(path, isolation_level=None, timeout=5)
        other.execute("DROP TABLE filler")
        other.close()

    journal = Journal.open(path, page_limit=1)  # the file may not grow from here on
    try:
        with trio.fail_after(120):
            async with in_process_server(journal) as port, trio.open_nursery() as nursery:
                host = await play_until_the_journal_fails(port, nursery, fill)
                # The table played on meanwhile: whatever room its rows' updates left
                # in the pages is taken again before the newcomers ask.
                fill()
                await refused_then_kept(port, nursery, free)
                assert len(notices(host)) == 1  # told once
                nursery.cancel_scope.cancel()
    finally:
        journal.close()
    kept = {table_id: mark for table_id, mark in rebuildable(path).items() if int(table_id) < 1000}
    assert kept == {"1": 0, "2": 1}
    again = Journal.open(path)
    try:
        tables, closed = again.open_tables()
        assert closed == ["1"] and [saved.table_id for saved in tables] == ["2"]
        assert "could not write its journal" in again.history()[0]["note"]
    finally:
        again.close()


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs mounted at ``folder`` (root only; skipped otherwise)."""
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(filler: Path) -> None:
    """Take every free byte of its disk into the file ``filler``."""
    with contextlib.suppress(OSError), filler.open("wb", buffering=0) as file:
        while True:
            file.write(bytes(4096))


async def test_a_full_disk_costs_no_table_and_no_connection(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        state = disk / "server.sqlite3"
        server = ServerProcess.start(tmp_path, state=state)
        try:
            with trio.fail_after(120):
                async with trio.open_nursery() as nursery:
                    filler = disk / "filler"
                    host = await play_until_the_journal_fails(
                        server.port, nursery, lambda: fill(filler)
                    )
                    await refused_then_kept(server.port, nursery, filler.unlink)
                    assert len(notices(host)) == 1
                    nursery.cancel_scope.cancel()
        finally:
            server.stop()
        assert "the journal cannot be written" in server.log_text()
        assert rebuildable(state) == {"1": 0, "2": 1}
        assert (disk / "server.sqlite3.reserve").exists()  # made again before table 2


def unwritable(kind: str, folder: Path) -> tuple[Path, list[str]]:
    """A journal that cannot be written, of ``kind``; the command prefix that keeps even
    root from writing it (root's capabilities dropped), if one is needed."""
    path = folder / "server.sqlite3"
    Journal.open(path).close()
    drop = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"] if os.geteuid() == 0 else []
    if drop and shutil.which("setpriv") is None:
        pytest.skip("root ignores file modes, and setpriv is missing to drop that power")
    if kind == "read-only file":
        path.chmod(0o400)
        return path, drop
    if kind == "read-only folder":
        for file in folder.iterdir():
            file.chmod(0o400)
        folder.chmod(0o500)
        return path, drop
    chattr = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if os.geteuid() != 0 or chattr.returncode != 0:
        pytest.skip("an immutable file (chattr +i) needs root and a file system for it")
    return path, []


@pytest.mark.parametrize("kind", ["read-only file", "read-only folder", "immutable file"])
def test_a_journal_that_cannot_be_written_stops_the_server_with_one_line(
    tmp_path: Path, kind: str
) -> None:
    folder = tmp_path / "state"
    folder.mkdir(mode=0o700)
    path, prefix = unwritable(kind, folder)
    command = [*prefix, sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--no-mdns", "--state", str(path)]
    try:
        done = subprocess.run(command, capture_output=True, timeout=60, check=False)
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True, check=False)
        folder.chmod(0o700)
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 1 and b"listening" not in done.stdout, done.stderr
    assert len(lines) == 1 and lines[0].startswith("uno-server: cannot "), lines
    assert str(path) in lines[0]
    assert not list(folder.glob("*.damaged-*"))  # not taken for a damaged file


GUESSES = 40


async def test_wrong_passwords_from_one_guest_do_not_stall_the_honest_pair(
    tmp_path: Path,
) -> None:
    server = ServerProcess.start(tmp_path, "--log-level", "INFO")
    try:
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                host = await connect_from(server.port, attacker(0), "owner")
                nursery.start_soon(host.read_forever)
                locked = await host.ok(
                    lambda id_: CreateTable(id=id_, name="locked", options=OPTIONS, password="pw")
                )
                people = await honest_table(server.port, nursery)
                await play(people, 30)
                quiet = latency_ms(people)
                for person in people:
                    person.latencies.clear()
                guesser = await connect_from(server.port, attacker(1), "guess")
                assert isinstance(guesser.welcome, Welcome)
                nursery.start_soon(guesser.read_forever)
                guesses = [
                    Join(
                        id=guesser.conn.next_request_id(),
                        table_id=locked["table_id"],
                        password=f"guess{n}",
                    )
                    for n in range(GUESSES)
                ]
                await guesser.stream.send_all(b"".join(guesser.conn.send(g) for g in guesses))
                await play(people, 30)
                flooded = latency_ms(people)
                await guesser.hub.until(lambda: len(guesser.replies) == GUESSES)
                codes = {
                    reply.code for reply in guesser.replies.values() if isinstance(reply, Rejected)
                }
                assert codes == {"wrong-password"} and not guesser.closed
                friend = await connect_from(server.port, attacker(2), "friend")
                nursery.start_soon(friend.read_forever)
                await friend.ok(
                    lambda id_: Join(id=id_, table_id=locked["table_id"], password="pw")
                )
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
    record("wrong_passwords", guesses=GUESSES, quiet=quiet, flooded=flooded)
