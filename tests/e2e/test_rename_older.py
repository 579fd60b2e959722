"""``rename`` is 1.3: a connection that agreed on 1.2 cannot send it from its own side, and
the server answers one sent anyway (raw bytes) with the error ``unknown-message`` and
closes the connection, with no ``ok``."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from e2e_client import Player
from e2e_server import ServerProcess

from protocol.codec import encode_body
from protocol.errors import ErrorCode, LocalProtocolError
from protocol.framing import encode_frame
from protocol.messages import Ok, Rename

pytestmark = pytest.mark.e2e

OLD = ("1.0", "1.1", "1.2")


async def test_a_1_2_peers_rename_is_refused_with_unknown_message(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--no-state")
    try:
        with trio.fail_after(30):
            old = await Player.connect(server.port, "Oldie", versions=OLD)
            assert old.welcome is not None and old.welcome.version == "1.2"
            with pytest.raises(LocalProtocolError) as refused:
                old.conn.send(Rename(id=old.conn.next_request_id(), name="Newbie"))
            assert refused.value.code is ErrorCode.UNKNOWN_MESSAGE

            frame = encode_frame(encode_body({"type": "rename", "id": 1, "name": "Newbie"}))
            await old.stream.send_all(frame)
            while await old.receive() is not None:
                pass
            assert old.error is not None and old.error.code == "unknown-message"
            assert "rename" in old.error.message
            assert not any(isinstance(frame, Ok) for frame in old.frames)
    finally:
        server.stop()
