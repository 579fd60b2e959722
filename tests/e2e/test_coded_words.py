"""What a real uno-server sends in words also travels as a code with its fields (issue
29): a rejection, an error, a ``left`` and a match's note each carry a code the clients'
sentence table says, and a 1.2 peer gets the words alone (docs/protocol.md section 4)."""

from __future__ import annotations

import pytest
import trio
from e2e_client import seat_table
from e2e_server import ServerProcess

from client.ui.sentences import SENTENCES, coded
from protocol.codec import decode_body, encode_body
from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.framing import FrameDecoder, encode_frame
from protocol.messages import Kick, Left, LeftCause, LeftReason, Rejected, Start

pytestmark = pytest.mark.e2e


async def test_a_rejection_and_a_left_carry_their_codes_and_fields(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            (ann, bob, old), _ = await seat_table(
                uno_server.port,
                nursery,
                ["ann", "bob", "old"],
                options={"seats": 4},
                start=False,
                versions=[("1.3",), ("1.3",), ("1.2",)],
            )
            refused = await bob.request(lambda id_: Start(id=id_))
            assert isinstance(refused, Rejected)
            assert refused.lobby_code is LobbyRejectCode.NOT_HOST
            said = coded("rejected", refused.code, refused.message)
            assert said == SENTENCES["rejected.not-host"]

            assert bob.seat is not None and old.seat is not None
            bob_seat, old_seat = bob.seat, old.seat
            await ann.ok(lambda id_: Kick(id=id_, seat=bob_seat, ban=True))
            await ann.ok(lambda id_: Kick(id=id_, seat=old_seat))
            await ann.hub.until(
                lambda: all(any(isinstance(f, Left) for f in p.frames) for p in (bob, old))
            )
            (left,) = [frame for frame in bob.frames if isinstance(frame, Left)]
            assert left.reason is LeftReason.KICKED
            assert (left.cause, left.by, left.banned) == (LeftCause.ASKED_TO_LEAVE, "ann", True)
            assert coded("left", left.cause, left.message, host=left.by) == "ann asked you to leave"

            # The 1.2 peer reads the words only: no cause, no host, no ban.
            (older,) = [frame for frame in old.frames if isinstance(frame, Left)]
            assert (older.cause, older.by, older.banned) == (None, None, False)
            assert older.message == "ann asked you to leave"
            nursery.cancel_scope.cancel()


async def test_an_error_carries_its_code(uno_server: ServerProcess) -> None:
    hello = encode_frame(encode_body({"type": "hello", "versions": ["1.3"], "name": "twice"}))
    with trio.fail_after(30):
        stream = await trio.open_tcp_stream("127.0.0.1", uno_server.port)
        await stream.send_all(hello)
        await stream.send_all(hello)
        decoder, bodies = FrameDecoder(), []
        while data := await stream.receive_some(65536):
            decoder.feed(bytes(data))
            while (body := decoder.next_frame()) is not None:
                bodies.append(decode_body(body))
        await stream.aclose()
    assert [body["type"] for body in bodies] == ["welcome", "error"]
    error = bodies[-1]
    assert error["code"] == ErrorCode.DUPLICATE_HELLO.value and error["message"]
    assert f"error.{error['code']}" in SENTENCES
