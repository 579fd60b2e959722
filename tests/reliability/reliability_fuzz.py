"""Send fuzzing scripts to a live server over many short connections and judge each answer.

Each script gets a connection of its own: everything is written at once, then the client
ends its side (``send_eof``) and reads until the server closes. What came back is judged
against ``reliability_frames.expected_answer``:

- an expected error code: the last frame is an ``error`` with exactly that code, and the
  server closes right after it;
- bytes that stop inside a frame: an ``error`` saying ``malformed-frame``, or a bare close;
- nothing wrong (the mutation happened to make valid frames): no ``error`` at all.

Every frame the server sends must decode, and no command gets more replies than were
asked for. ``run_fuzz`` keeps a bounded number of connections open at once and tallies
everything in a ``FuzzTally``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import trio
from reliability_figures import rss_kib
from reliability_frames import Expected, Script, expected_answer

from protocol.codec import decode_body
from protocol.errors import ErrorCode, RemoteProtocolError
from protocol.framing import FrameDecoder

__all__ = ["Answer", "FuzzTally", "judge", "read_answer", "run_fuzz"]

CONNECTION_SECONDS = 20.0
"""How long one fuzzing connection may take before it counts as a hung server."""


@dataclass(slots=True)
class Answer:
    """What the server sent one connection, decoded, and how the connection ended."""

    frames: list[Any] = field(default_factory=list)
    ending: str = "close"
    """``close`` (an orderly end of stream), ``reset`` or ``undecodable``."""


@dataclass(slots=True)
class FuzzTally:
    """Everything ``run_fuzz`` did, for the assertions and the report."""

    connections: int = 0
    frames: int = 0
    hostile: int = 0
    hellos: int = 0
    accepted: int = 0
    """Frames after the hello that the server takes (valid requests with random content,
    pings, unknown optional fields): it answers them and reads on."""
    bytes_sent: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    by_answer: Counter[str] = field(default_factory=Counter)
    resets: int = 0
    """Connections the server reset after its answer: it closes with bytes of the client's
    still unread (a frame after the bad one), and TCP then answers the rest with a reset.
    The judge still demands the typed error before it."""
    failures: list[str] = field(default_factory=list)
    rss_samples: list[tuple[int, int]] = field(default_factory=list)
    """(connections so far, the server's resident KiB then), every ``sample_every``."""


async def read_answer(stream: trio.SocketStream) -> Answer:
    """Read and decode every frame until the server closes the connection."""
    answer = Answer()
    decoder = FrameDecoder()
    while True:
        try:
            data = await stream.receive_some(65536)
        except trio.BrokenResourceError:
            answer.ending = "reset"
            return answer
        if not data:
            if decoder.buffered:
                answer.ending = "undecodable"
            return answer
        decoder.feed(bytes(data))
        try:
            while (body := decoder.next_frame()) is not None:
                answer.frames.append(decode_body(body))
        except RemoteProtocolError:
            answer.ending = "undecodable"
            return answer


def judge(expected: Expected, answer: Answer) -> str | None:
    """Why ``answer`` is wrong for ``expected``, or None when it is right."""
    if answer.ending == "undecodable":
        return "the server sent bytes that are no frame"
    errors = [frame for frame in answer.frames if frame.get("type") == "error"]
    replies = Counter(
        frame.get("id") for frame in answer.frames if frame.get("type") in ("ok", "rejected")
    )
    for command_id, count in replies.items():
        asked = expected.requests.get(command_id, 0) if isinstance(command_id, int) else 0
        if count > asked:
            return f"command {command_id!r} answered {count} times, sent {asked} times"
    if len(errors) > 1 or (errors and answer.frames[-1] is not errors[0]):
        return "something followed the error"
    code = errors[0].get("code") if errors else None
    for outcome in expected.outcomes:
        if code == outcome.code or (outcome.cut and code in (None, ErrorCode.MALFORMED_FRAME)):
            return None
    wanted = " or ".join(repr(outcome.code) for outcome in expected.outcomes)
    return f"answered {code!r}, expected {wanted}"


async def _one(port: int, script: Script, tally: FuzzTally) -> None:
    """Play one script on a connection of its own and judge the answer."""
    data = script.data
    expected = expected_answer(data)
    with trio.fail_after(CONNECTION_SECONDS):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        try:
            try:
                await stream.send_all(data)
                await stream.send_eof()
            except trio.BrokenResourceError:
                pass  # the server closed early; what it said is still to be read
            answer = await read_answer(stream)
        finally:
            await stream.aclose()
    tally.connections += 1
    tally.frames += script.frames
    tally.hostile += 1
    tally.hellos += script.greeted
    tally.accepted += script.frames - 1 - script.greeted
    tally.bytes_sent += len(data)
    tally.by_kind[script.kind.split("+")[0]] += 1
    errors = [frame.get("code") for frame in answer.frames if frame.get("type") == "error"]
    tally.by_answer[str(errors[-1]) if errors else answer.ending] += 1
    if answer.ending == "reset":
        tally.resets += 1
    problem = judge(expected, answer)
    if problem is not None:
        tally.failures.append(f"{script.kind}: {problem}; sent {data[:400].hex()}")


async def run_fuzz(
    port: int,
    scripts: Iterator[Script],
    *,
    frames: int,
    concurrency: int,
    tally: FuzzTally,
    pid: int | None = None,
    sample_every: int = 1000,
) -> None:
    """Play scripts until ``frames`` frames are sent, ``concurrency`` connections at once,
    sampling the resident memory of process ``pid`` (the server) as it goes.

    Stops early (after the connections already open) once 20 answers were wrong.
    """

    async def worker() -> None:
        while tally.frames < frames and len(tally.failures) < 20:
            await _one(port, next(scripts), tally)
            if pid is not None and tally.connections % sample_every == 0:
                tally.rss_samples.append((tally.connections, rss_kib(pid)))

    async with trio.open_nursery() as nursery:
        for _ in range(concurrency):
            nursery.start_soon(worker)
