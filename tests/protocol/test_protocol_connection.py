"""The sans-IO connection: handshake, version negotiation, state rules, command replies."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.cards import Card
from protocol.codec import encode_body
from protocol.commands import Draw
from protocol.connection import ClientConnection, ConnectionState, ServerConnection
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.events import DealerChosen, DealerDraw, SeenEvent, Turn
from protocol.framing import encode_frame
from protocol.limits import MAX_ID, MAX_PENDING_REQUESTS
from protocol.messages import (
    Bye,
    Closing,
    Error,
    Game,
    GameEvent,
    Hello,
    Leave,
    Message,
    Ok,
    Ping,
    Pong,
    Rejected,
    Welcome,
)
from protocol.phase import Phase


def _raw(data: dict[str, Any]) -> bytes:
    """A frame as a misbehaving peer might send it, bypassing its own connection."""
    return encode_frame(encode_body(data))


def _welcome(version: str = "1.0") -> Welcome:
    return Welcome(version=version, server_name="Den", server_id="s1", server_version="0.1.0")


def _pass(data: bytes, to: ServerConnection | ClientConnection) -> list[Message]:
    to.receive_data(data)
    received: list[Message] = []
    while (message := to.next_message()) is not None:
        received.append(message)
    return received


def _handshake() -> tuple[ServerConnection, ClientConnection]:
    server, client = ServerConnection(), ClientConnection()
    _pass(client.send(Hello(versions=("1.0",), name="Ann")), server)
    _pass(server.send(_welcome()), client)
    return server, client


def _remote_error(conn: ServerConnection | ClientConnection, data: bytes) -> ErrorCode:
    conn.receive_data(data)
    with pytest.raises(RemoteProtocolError) as caught:
        while conn.next_message() is not None:
            pass
    return caught.value.code


def test_handshake_reaches_ready_on_both_ends() -> None:
    server, client = _handshake()
    assert server.state is client.state is ConnectionState.READY
    assert server.version == client.version == "1.0"


@pytest.mark.parametrize(
    ("offered", "chosen"),
    [
        (("1.0",), "1.0"),
        (("1.4",), "1.3"),
        (("1.0", "1.1", "1.2", "1.3"), "1.3"),
        (("0.9", "1.0", "2.1"), "1.0"),
        (("1.0", "1.1"), "1.1"),
        (("1.0", "1.1", "1.2"), "1.2"),
        (("banana", "1.0"), "1.0"),
    ],
)
def test_server_negotiates_a_version_it_speaks(offered: tuple[str, ...], chosen: str) -> None:
    server = ServerConnection()
    [hello] = _pass(ClientConnection().send(Hello(versions=offered, name="Ann")), server)
    assert isinstance(hello, Hello)
    assert server.version == chosen


def test_unsupported_version_is_answered_with_the_servers_versions_then_closed() -> None:
    server, client = ServerConnection(("1.0", "1.2")), ClientConnection()
    server.receive_data(client.send(Hello(versions=("2.0", "3.1"), name="Ann")))
    with pytest.raises(RemoteProtocolError) as caught:
        server.next_message()
    assert caught.value.code is ErrorCode.UNSUPPORTED_VERSION
    reply = server.send_error(caught.value)
    assert server.state is ConnectionState.CLOSED
    [error] = _pass(reply, client)
    assert error == Error(
        code="unsupported-version", message=caught.value.message, versions=("1.0", "1.2")
    )
    assert client.state is ConnectionState.CLOSED


def test_client_refuses_a_version_it_did_not_offer() -> None:
    client = ClientConnection()
    client.send(Hello(versions=("1.0",), name="Ann"))
    code = _remote_error(client, _raw(_welcome("1.1").to_data()))
    assert code is ErrorCode.UNSUPPORTED_VERSION
    client = ClientConnection()
    client.send(Hello(versions=("1.0",), name="Ann"))
    assert _remote_error(client, _raw(_welcome("2.0").to_data())) is ErrorCode.UNSUPPORTED_VERSION


def test_server_may_only_welcome_with_the_negotiated_version() -> None:
    server = ServerConnection()
    _pass(ClientConnection().send(Hello(versions=("1.0",), name="Ann")), server)
    with pytest.raises(LocalProtocolError):
        server.send(_welcome("1.1"))
    assert server.state is ConnectionState.AWAIT_WELCOME


def test_first_message_must_be_hello() -> None:
    server = ServerConnection()
    code = _remote_error(server, _raw({"type": "join", "id": 1, "table_id": "t"}))
    assert code is ErrorCode.HELLO_REQUIRED
    with pytest.raises(LocalProtocolError) as caught:
        ClientConnection().send(Ping())
    assert caught.value.code is ErrorCode.HELLO_REQUIRED


def test_second_hello_is_a_protocol_error() -> None:
    server, client = _handshake()
    hello = Hello(versions=("1.0",), name="Ann").to_data()
    assert _remote_error(server, _raw(hello)) is ErrorCode.DUPLICATE_HELLO
    with pytest.raises(LocalProtocolError) as caught:
        client.send(Hello(versions=("1.0",), name="Ann"))
    assert caught.value.code is ErrorCode.DUPLICATE_HELLO


def test_client_waits_for_welcome_before_anything_else() -> None:
    server, client = ServerConnection(), ClientConnection()
    _pass(client.send(Hello(versions=("1.0",), name="Ann")), server)
    with pytest.raises(LocalProtocolError):
        client.send(Leave(id=1))
    assert _remote_error(server, _raw({"type": "leave", "id": 1})) is (ErrorCode.UNEXPECTED_MESSAGE)


def test_a_second_welcome_is_unexpected() -> None:
    server, client = _handshake()
    with pytest.raises(LocalProtocolError):
        server.send(_welcome())
    assert _remote_error(client, _raw(_welcome().to_data())) is ErrorCode.UNEXPECTED_MESSAGE


def test_message_of_the_other_side_is_unknown() -> None:
    server, client = _handshake()
    assert _remote_error(server, _raw({"type": "welcome"})) is ErrorCode.UNKNOWN_MESSAGE
    with pytest.raises(LocalProtocolError) as caught:
        client.send(Ok(id=1))
    assert caught.value.code is ErrorCode.UNKNOWN_MESSAGE


def test_server_may_refuse_before_the_hello() -> None:
    server, client = ServerConnection(), ClientConnection()
    [error] = _pass(server.send(Error(code=ErrorCode.SERVER_FULL, message="full")), client)
    assert isinstance(error, Error)
    assert error.error_code is ErrorCode.SERVER_FULL
    assert server.state is client.state is ConnectionState.CLOSED


def test_after_a_remote_error_the_connection_keeps_failing() -> None:
    server = ServerConnection()
    server.receive_data(b"\x00\x00\x00\x01\xc1")
    for _ in range(2):
        with pytest.raises(RemoteProtocolError) as caught:
            server.next_message()
        assert caught.value.code is ErrorCode.MALFORMED_FRAME


def test_nothing_moves_after_bye() -> None:
    server, client = _handshake()
    data = client.send(Bye(reason="dinner"))
    assert client.state is ConnectionState.CLOSED
    with pytest.raises(LocalProtocolError):
        client.send(Ping())
    # Messages after the bye, even in the same chunk, are dropped unread.
    received = _pass(data + _raw({"type": "ping", "nonce": 1}), server)
    assert received == [Bye(reason="dinner")]
    assert server.state is ConnectionState.CLOSED
    assert _pass(_raw({"type": "ping"}), server) == []
    with pytest.raises(LocalProtocolError):
        server.send(Pong())


def test_closing_and_close_end_the_connection() -> None:
    server, client = _handshake()
    [closing] = _pass(server.send(Closing(reason="maintenance")), client)
    assert closing == Closing(reason="maintenance")
    assert client.state is ConnectionState.CLOSED
    server, _ = _handshake()
    server.close()
    with pytest.raises(LocalProtocolError):
        server.send(Ping())


def test_every_command_gets_exactly_one_reply() -> None:
    server, client = _handshake()
    first, second = client.next_request_id(), client.next_request_id()
    _pass(client.send(Game(id=first, command=Draw())) + client.send(Leave(id=second)), server)
    assert server.pending_requests == {first, second}
    turn = SeenEvent(1, Turn(seat=0, direction=1, phase=Phase.TURN))
    data = server.send(GameEvent(seq=1, body=turn, cause=first))
    data += server.send(Ok(id=first)) + server.send(Rejected(id=second, code="not-at-table"))
    with pytest.raises(LocalProtocolError) as caught:
        server.send(Ok(id=first))
    assert caught.value.code is ErrorCode.UNKNOWN_ID
    received = _pass(data, client)
    assert [type(message) for message in received] == [GameEvent, Ok, Rejected]
    assert client.pending_requests == frozenset() == server.pending_requests


def test_reply_to_an_id_never_sent_is_a_remote_error() -> None:
    _, client = _handshake()
    assert _remote_error(client, _raw({"type": "ok", "id": 9})) is ErrorCode.UNKNOWN_ID


def test_reused_id_while_waiting_is_refused() -> None:
    server, client = _handshake()
    client.send(Leave(id=3))
    with pytest.raises(LocalProtocolError) as caught:
        client.send(Leave(id=3))
    assert caught.value.code is ErrorCode.DUPLICATE_ID
    _pass(_raw({"type": "leave", "id": 3}), server)
    assert _remote_error(server, _raw({"type": "leave", "id": 3})) is ErrorCode.DUPLICATE_ID


def test_too_many_waiting_commands_is_rate_limited() -> None:
    server, client = _handshake()
    flood = b"".join(_raw({"type": "leave", "id": i}) for i in range(MAX_PENDING_REQUESTS))
    assert len(_pass(flood, server)) == MAX_PENDING_REQUESTS
    code = _remote_error(server, _raw({"type": "leave", "id": MAX_PENDING_REQUESTS}))
    assert code is ErrorCode.RATE_LIMITED
    for index in range(MAX_PENDING_REQUESTS):
        client.send(Leave(id=index))
    with pytest.raises(LocalProtocolError) as caught:
        client.send(Leave(id=MAX_PENDING_REQUESTS))
    assert caught.value.code is ErrorCode.RATE_LIMITED


def test_request_ids_count_up_wrap_and_skip_waiting_ones() -> None:
    _, client = _handshake()
    assert [client.next_request_id() for _ in range(3)] == [0, 1, 2]
    client.send(Leave(id=3))
    assert client.next_request_id() == 4
    client._last_id = MAX_ID - 1
    assert [client.next_request_id(), client.next_request_id()] == [MAX_ID, 0]


def test_a_failed_send_changes_nothing() -> None:
    server, client = _handshake()
    with pytest.raises(LocalProtocolError):
        draws = ((DealerDraw(0, Card.parse("R1")),) * 10,) * 2000  # over 64 KiB encoded
        big = SeenEvent(1, DealerChosen(dealer=0, draws=draws))
        server.send(GameEvent(seq=1, body=big))
    assert server.state is ConnectionState.READY
    assert _pass(server.send(Ping(nonce=1)), client) == [Ping(nonce=1)]


def test_the_hello_frame_is_the_one_docs_protocol_md_shows() -> None:
    documented = bytes.fromhex(
        "00000023 83 a474797065 a568656c6c6f a876657273696f6e73 91a3312e30 a46e616d65 a3416e6e"
    )
    assert ClientConnection().send(Hello(versions=("1.0",), name="Ann")) == documented
