"""msgpack bodies: plain data in, bytes out, and back, with every limit enforced.

The wire carries only plain values: nil, booleans, integers, UTF-8 strings, arrays and
maps whose keys are strings. Decoding refuses everything else (floats, binary, extension
types, timestamps), refuses headers that announce more items than ``MAX_ARRAY_ITEMS`` /
``MAX_MAP_ITEMS`` before allocating them, and refuses nesting deeper than ``MAX_DEPTH``.
Every such refusal is a RemoteProtocolError(malformed-frame).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, NoReturn

import msgpack

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_ARRAY_ITEMS, MAX_FRAME_BODY, MAX_MAP_ITEMS
from protocol.plain import check_plain

__all__ = ["check_plain", "decode_body", "encode_body", "encode_trusted_body"]


def _refuse_extension(code: int, data: bytes) -> NoReturn:
    raise ValueError(f"msgpack extension type {code} is not allowed")


def decode_body(body: bytes) -> dict[str, Any]:
    """The map one frame body holds; raises RemoteProtocolError(malformed-frame)."""
    try:
        data = msgpack.unpackb(
            body,
            raw=False,
            use_list=True,
            strict_map_key=True,
            ext_hook=_refuse_extension,
            # Refuse extensions (timestamps included) and binary before they are read,
            # and bound every count a header may announce.
            max_ext_len=0,
            max_bin_len=0,
            max_str_len=MAX_FRAME_BODY,
            max_array_len=MAX_ARRAY_ITEMS,
            max_map_len=MAX_MAP_ITEMS,
        )
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        reason = str(error) or type(error).__name__
        raise RemoteProtocolError(
            ErrorCode.MALFORMED_FRAME, f"not a msgpack value: {reason}"
        ) from None
    if not isinstance(data, dict):
        raise RemoteProtocolError(
            ErrorCode.MALFORMED_FRAME, f"a frame must hold a map, not {type(data).__name__}"
        )
    try:
        check_plain(data)
    except ValueError as error:
        raise RemoteProtocolError(ErrorCode.MALFORMED_FRAME, str(error)) from None
    return data


def encode_body(data: Mapping[str, Any]) -> bytes:
    """The msgpack bytes of one map; raises LocalProtocolError if it is not plain data."""
    try:
        check_plain(data)
        return _packers.loose.pack(data)  # type: ignore[no-any-return]
    except (ValueError, TypeError, OverflowError) as error:
        raise LocalProtocolError(ErrorCode.BAD_MESSAGE, f"cannot encode: {error}") from None


def encode_trusted_body(data: Mapping[str, Any]) -> bytes:
    """The msgpack bytes of a map its sender built itself; raises LocalProtocolError.

    The walk of ``check_plain`` is left out: a busy server sends a few thousand of these
    a second. msgpack's exact-type mode still refuses what a slip would most likely put
    there (a Card, which is a tuple, an enum, any tuple at all) instead of sending it as
    something else. What such maps may hold is checked in full by the tests: the engine's
    state machine checks every view and event, and every frame a test client receives is
    decoded by ``decode_body``.
    """
    try:
        return _packers.strict.pack(data)  # type: ignore[no-any-return]
    except (ValueError, TypeError, OverflowError) as error:
        raise LocalProtocolError(ErrorCode.BAD_MESSAGE, f"cannot encode: {error}") from None


class _Packers(threading.local):
    """This thread's msgpack packers, made once: ``msgpack.packb`` makes one per frame,
    and with it a 256 KiB buffer. A packer that fails part-way starts afresh next time."""

    def __init__(self) -> None:
        self.loose = msgpack.Packer(use_bin_type=True)
        self.strict = msgpack.Packer(use_bin_type=True, strict_types=True)


_packers = _Packers()
