"""The server's one door into the client (``client.bots.hosted``): the in-memory pipe a
hosted bot talks over, and the names the lobby checks. Hosted bots playing whole rounds
through it are tests/server/test_table_bots.py's business."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from client.bots.hosted import known_strategy, level_of, memory_pipe


async def test_the_pipe_carries_bytes_in_order_both_ways_and_in_pieces() -> None:
    left, right = memory_pipe()
    await left.send_all(b"hello ")
    await left.send_all(b"world")
    await right.send_all(b"back")
    assert await right.receive_some(3) == b"hel"
    assert await right.receive_some() == b"lo "
    assert await right.receive_some() == b"world"
    assert await left.receive_some(100) == b"back"


async def test_an_end_of_file_is_read_as_empty_and_the_other_way_stays_open() -> None:
    left, right = memory_pipe()
    await left.send_all(b"last")
    await left.send_eof()
    assert await right.receive_some() == b"last"
    assert await right.receive_some() == b""
    with pytest.raises(trio.ClosedResourceError):
        await left.send_all(b"more")
    await right.send_all(b"still")
    assert await left.receive_some() == b"still"


async def test_writing_to_a_closed_peer_is_a_broken_stream() -> None:
    left, right = memory_pipe()
    await right.aclose()
    with pytest.raises(trio.BrokenResourceError):
        await left.send_all(b"anyone?")
    with pytest.raises(trio.ClosedResourceError):
        await right.receive_some()
    with pytest.raises(ValueError):
        await left.receive_some(0)


async def test_a_reader_waits_for_bytes() -> None:
    left, right = memory_pipe()
    got: list[bytes | bytearray] = []

    async def read() -> None:
        got.append(await right.receive_some())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        await trio.testing.wait_all_tasks_blocked()
        assert got == []
        await left.send_all(b"now")
    assert got == [b"now"]


def test_the_lobby_knows_levels_aliases_and_nothing_else() -> None:
    assert all(known_strategy(name) for name in ("easy", "normal", "basic", "hard", "random"))
    assert not known_strategy("expert")
    assert level_of("basic") == "normal"
    assert level_of("hard") == "hard"
