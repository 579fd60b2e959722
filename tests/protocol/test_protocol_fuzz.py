"""Whatever arrives, a connection answers with a message, None or RemoteProtocolError."""

from __future__ import annotations

from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import CLIENT_CLASSES, SERVER_CLASSES, plain_values

from protocol.connection import ClientConnection, ServerConnection
from protocol.errors import RemoteProtocolError
from protocol.framing import encode_frame
from protocol.messages import Hello, Message, Welcome

_CLIENT_TYPES = sorted({cls.TYPE for cls in CLIENT_CLASSES})
_SERVER_TYPES = sorted({cls.TYPE for cls in SERVER_CLASSES})


def _ready_pair() -> tuple[ServerConnection, ClientConnection]:
    server, client = ServerConnection(), ClientConnection()
    server.receive_data(client.send(Hello(versions=("1.0",), name="Fuzz")))
    assert isinstance(server.next_message(), Hello)
    client.receive_data(
        server.send(Welcome(version="1.0", server_name="Den", server_id="s", server_version="0"))
    )
    assert isinstance(client.next_message(), Welcome)
    return server, client


def _drain(conn: ServerConnection | ClientConnection, chunks: list[bytes]) -> list[Message]:
    """Feed every chunk; return what came out, stopping at the first protocol error."""
    received: list[Message] = []
    try:
        for chunk in chunks:
            conn.receive_data(chunk)
            while (message := conn.next_message()) is not None:
                received.append(message)
    except RemoteProtocolError:
        pass
    return received


def _maps(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Maps that look like messages: a real type and random fields, some with real names."""
    keys = st.sampled_from(
        ["id", "name", "versions", "seat", "table_id", "command", "text", "body", "seq", "x"]
    )
    return st.builds(
        lambda wire_type, fields: {"type": wire_type, **fields},
        st.sampled_from(types),
        st.dictionaries(keys | st.text(max_size=5), plain_values, max_size=6),
    )


def _frames(maps: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[bytes]:
    return maps.map(lambda data: encode_frame(msgpack.packb(data)))


@settings(max_examples=300, deadline=None)
@given(chunks=st.lists(st.binary(max_size=64), max_size=8), ready=st.booleans())
def test_random_bytes_raise_nothing_but_remote_protocol_error(
    chunks: list[bytes], ready: bool
) -> None:
    server, client = _ready_pair() if ready else (ServerConnection(), ClientConnection())
    _drain(server, chunks)
    _drain(client, chunks)


@settings(max_examples=300, deadline=None)
@given(frames=st.lists(_frames(_maps(_CLIENT_TYPES)), min_size=1, max_size=5))
def test_random_client_maps_give_messages_or_remote_protocol_errors(frames: list[bytes]) -> None:
    server, _ = _ready_pair()
    for message in _drain(server, [b"".join(frames)]):
        assert type(message) in CLIENT_CLASSES


@settings(max_examples=300, deadline=None)
@given(frames=st.lists(_frames(_maps(_SERVER_TYPES)), min_size=1, max_size=5))
def test_random_server_maps_give_messages_or_remote_protocol_errors(frames: list[bytes]) -> None:
    _, client = _ready_pair()
    for message in _drain(client, [b"".join(frames)]):
        assert type(message) in SERVER_CLASSES


@settings(max_examples=200, deadline=None)
@given(
    frame=_frames(_maps(_CLIENT_TYPES)),
    position=st.integers(min_value=0),
    replacement=st.integers(0, 255),
)
def test_corrupted_frames_raise_nothing_but_remote_protocol_error(
    frame: bytes, position: int, replacement: int
) -> None:
    corrupted = bytearray(frame)
    corrupted[position % len(corrupted)] = replacement
    server, _ = _ready_pair()
    _drain(server, [bytes(corrupted)])
