"""create-table options over a real loopback socket: every kind of bad option answers the
same ``rejected`` map as before options were typed, and the connection stays open."""

from __future__ import annotations

from typing import Any

import trio
from test_table_resume_socket import real_server

from protocol.codec import decode_body, encode_body
from protocol.framing import FrameDecoder, encode_frame
from protocol.options import TableConfig

_BAD: list[tuple[dict[str, Any], str]] = [
    ({"colour": 1}, "unknown table option(s): colour"),
    ({"seats": 99}, "seats must be from 2 to 10, not 99"),
    ({"seats": "4"}, "seats must be an integer"),
    ({"force_play": 1}, "force_play must be true or false"),
    ({"deck": "nowhere"}, "deck must be one of classic, modern-swap"),
    ({"turn_seconds": None}, "turn_seconds is required"),
    ({"scoring": "teams", "seats": 5}, "teams scoring needs an even number of seats, at least 4"),
    ({"stack": "draw-four", "stack_draw_two": True}, "stack_draw_two and stack draw-four"),
    ({"seats": 10, "hand_size": 11}, "10 seats of 11 cards leave no draw pile"),
]
"""One refusal of each kind: a name, a range, two types, a choice, nil, three combinations."""


class RawClient:
    """Plain maps in and out, so that the test sees the wire as it is."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()

    async def send(self, data: dict[str, Any]) -> None:
        await self.stream.send_all(encode_frame(encode_body(data)))

    async def receive(self) -> dict[str, Any]:
        while (frame := self.decoder.next_frame()) is None:
            data = await self.stream.receive_some(65536)
            assert data, "the server closed the connection"
            self.decoder.feed(bytes(data))
        return decode_body(frame)

    async def reply(self, request_id: int) -> dict[str, Any]:
        while (message := await self.receive()).get("id") != request_id or message.get(
            "type"
        ) not in ("ok", "rejected"):
            pass
        return message


def _before(options: dict[str, Any]) -> str:
    """The lobby's message before options were typed: TableConfig over its defaults."""
    defaults = TableConfig().to_data()
    del defaults["stack_draw_two"]
    try:
        TableConfig.from_data({**defaults, **options})
    except ValueError as error:
        return str(error)
    raise AssertionError(f"{options} are good options")


async def test_each_kind_of_bad_option_is_refused_on_the_wire_as_before() -> None:
    async with real_server() as port:
        ann = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        await ann.send({"type": "hello", "versions": ["1.0", "1.1", "1.2"], "name": "Ann"})
        assert (await ann.receive())["type"] == "welcome"
        for request_id, (options, why) in enumerate(_BAD, start=1):
            await ann.send(
                {"type": "create-table", "id": request_id, "name": "Den", "options": options}
            )
            reply = await ann.reply(request_id)
            assert reply == {
                "type": "rejected",
                "id": request_id,
                "code": "bad-options",
                "message": _before(options),
            }
            assert reply["message"].startswith(why)
        # Still connected, still in the lobby: good options make the table.
        asked = {"seats": 2, "deck": "bts"}
        await ann.send({"type": "create-table", "id": 99, "name": "Den", "options": asked})
        states = []
        while (message := await ann.receive())["type"] != "ok":
            states += [message] if message["type"] == "table-state" else []
        assert message["result"] == {"table_id": message["result"]["table_id"], "seat": 0}
        options = states[-1]["options"]
        as_12 = TableConfig(seats=2, deck="bts").to_data()  # type: ignore[arg-type]
        del as_12["spectators_see_hands"]  # a 1.3 option: this 1.2 client is not sent it
        assert options == as_12
