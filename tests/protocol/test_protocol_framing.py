"""Length-prefixed framing: split and joined chunks, empty, oversized and truncated frames."""

from __future__ import annotations

import pytest

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.framing import HEADER_SIZE, FrameDecoder, encode_frame
from protocol.limits import MAX_FRAME_BODY


def test_frame_is_big_endian_length_then_body() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"


def test_frames_fed_one_byte_at_a_time_come_out_whole() -> None:
    bodies = [b"first", b"x", b"third body" * 50]
    stream = b"".join(encode_frame(body) for body in bodies)
    decoder = FrameDecoder()
    received: list[bytes] = []
    for index in range(len(stream)):
        decoder.feed(stream[index : index + 1])
        while (body := decoder.next_frame()) is not None:
            received.append(body)
    assert received == bodies
    assert decoder.buffered == 0


def test_several_frames_in_one_chunk() -> None:
    decoder = FrameDecoder()
    decoder.feed(encode_frame(b"one") + encode_frame(b"two") + encode_frame(b"three")[:5])
    assert decoder.next_frame() == b"one"
    assert decoder.next_frame() == b"two"
    assert decoder.next_frame() is None
    decoder.feed(encode_frame(b"three")[5:])
    assert decoder.next_frame() == b"three"
    assert decoder.next_frame() is None


def test_truncated_frame_waits_for_the_rest() -> None:
    decoder = FrameDecoder()
    decoder.feed(encode_frame(b"hello")[:-1])
    assert decoder.next_frame() is None
    assert decoder.buffered == HEADER_SIZE + 4


def test_largest_frame_is_accepted() -> None:
    body = b"\x01" * MAX_FRAME_BODY
    decoder = FrameDecoder()
    decoder.feed(encode_frame(body))
    assert decoder.next_frame() == body


@pytest.mark.parametrize("length", [0, MAX_FRAME_BODY + 1, 2**32 - 1])
def test_header_out_of_range_is_refused_before_the_body(length: int) -> None:
    decoder = FrameDecoder()
    decoder.feed(length.to_bytes(4, "big"))
    with pytest.raises(RemoteProtocolError) as caught:
        decoder.next_frame()
    assert caught.value.code is ErrorCode.FRAME_TOO_LARGE
    # The decoder stays failed: the stream cannot be resynchronised.
    decoder.feed(encode_frame(b"ok"))
    with pytest.raises(RemoteProtocolError):
        decoder.next_frame()


@pytest.mark.parametrize("size", [0, MAX_FRAME_BODY + 1])
def test_encoding_an_empty_or_oversized_body_is_a_local_error(size: int) -> None:
    with pytest.raises(LocalProtocolError) as caught:
        encode_frame(b"\x00" * size)
    assert caught.value.code is ErrorCode.FRAME_TOO_LARGE


def test_many_small_frames_do_not_keep_consumed_bytes() -> None:
    decoder = FrameDecoder()
    frame = encode_frame(b"z" * 100)
    for _ in range(2000):
        decoder.feed(frame)
        assert decoder.next_frame() == b"z" * 100
    assert decoder.buffered == 0
