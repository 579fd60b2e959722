"""A refused connection always hears why: a real ``uno-server`` at its connection cap,
with the machine kept busy, refuses wave after wave of clients whose hello is on its way
(a frame split across segments, as on a loaded machine), and every one of them reads
``server-full`` and then an orderly end, never a reset.

On Linux a reset arrives after the data already received, so the reset itself is what
this test looks for: on Windows and macOS the same reset throws the unread error away.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player
from e2e_server import ServerProcess

from protocol.codec import decode_body, encode_body
from protocol.framing import FrameDecoder, encode_frame

pytestmark = pytest.mark.e2e

CAP = 4
WAVES = 4
PER_WAVE = 24  # within the server's polite refusals at once (server/app.py)
BURN_SECONDS = 30  # the busy process's own bound; it is killed when the test ends


async def refused_client(port: int) -> str:
    """Connect, send a hello's header at once and its body once the server has answered;
    then read to the end. Returns ``<code>/<ending>``: the error's code (or ``none``) and
    ``close`` or ``reset``."""
    hello = encode_frame(encode_body({"type": "hello", "versions": ["1.3"], "name": "late"}))
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    decoder = FrameDecoder()
    code, ending = "none", "close"
    try:
        await stream.send_all(hello[:4])
        await trio.lowlevel.wait_readable(stream.socket)
        await stream.send_all(hello[4:])
        while data := await stream.receive_some(65536):
            decoder.feed(bytes(data))
            while (body := decoder.next_frame()) is not None:
                code = str(decode_body(body).get("code"))
    except trio.BrokenResourceError:
        ending = "reset"
    finally:
        await stream.aclose()
    return f"{code}/{ending}"


async def test_every_refusal_at_the_cap_is_heard_before_an_orderly_end(tmp_path: Path) -> None:
    server = ServerProcess.start(
        tmp_path, "--max-connections", str(CAP), "--max-per-address", str(CAP)
    )
    burner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import time\nend = time.time() + {BURN_SECONDS}\nwhile time.time() < end: pass",
        ]
    )
    endings: Counter[str] = Counter()
    try:
        with trio.fail_after(60):
            hub = Hub()
            held = [await Player.connect(server.port, f"p{n}", hub) for n in range(CAP)]
            for _ in range(WAVES):
                async with trio.open_nursery() as nursery:

                    async def one() -> None:
                        endings[await refused_client(server.port)] += 1

                    for _ in range(PER_WAVE):
                        nursery.start_soon(one)
            for player in held:
                await player.close()
    finally:
        burner.kill()
        burner.wait()
        server.stop()
    assert endings == {"server-full/close": WAVES * PER_WAVE}, endings
