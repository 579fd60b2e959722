"""The end of a stream: a frame cut off is malformed, a clean end is not; ``left`` is 1.1."""

from __future__ import annotations

import pytest

from protocol.codec import encode_body
from protocol.connection import ClientConnection, ServerConnection
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.framing import encode_frame
from protocol.messages import (
    Error,
    Hello,
    Left,
    LeftReason,
    Sender,
    Welcome,
    message_from_data,
)


def greeted() -> ServerConnection:
    server = ServerConnection()
    server.receive_data(ClientConnection().send(Hello(versions=("1.0",), name="Ann")))
    assert server.next_message() is not None
    server.send(Welcome(version="1.0", server_name="Den", server_id="s", server_version="0"))
    return server


@pytest.mark.parametrize("cut", [1, 3, 4, 9])
def test_a_stream_that_ends_inside_a_frame_is_malformed(cut: int) -> None:
    server = greeted()
    frame = encode_frame(encode_body({"type": "list-tables", "id": 1}))
    server.receive_data(frame[:cut])
    assert server.next_message() is None and server.partial_frame == cut
    with pytest.raises(RemoteProtocolError) as caught:
        server.end_of_stream()
    assert caught.value.code is ErrorCode.MALFORMED_FRAME
    with pytest.raises(RemoteProtocolError):
        server.next_message()  # the failure sticks
    assert isinstance(server.send_error(caught.value), bytes)  # and can still be answered


def test_a_stream_that_ends_between_frames_is_fine() -> None:
    server = greeted()
    server.receive_data(encode_frame(encode_body({"type": "list-tables", "id": 1})))
    assert server.next_message() is not None and server.partial_frame == 0
    server.end_of_stream()
    server.close()
    server.end_of_stream()  # closed: nothing to say


def test_left_is_a_1_1_message() -> None:
    left = Left(table_id="3", reason=LeftReason.TABLE_CLOSED, message="bye")
    data = left.to_data()
    assert data == {"type": "left", "table_id": "3", "reason": "table-closed", "message": "bye"}
    assert message_from_data(data, Sender.SERVER, "1.1") == left
    with pytest.raises(RemoteProtocolError) as caught:
        message_from_data(data, Sender.SERVER, "1.0")
    assert caught.value.code is ErrorCode.UNKNOWN_MESSAGE
    server = greeted()
    with pytest.raises(LocalProtocolError):
        server.send(left)  # this connection negotiated 1.0
    assert isinstance(Error(code="x"), Error)
