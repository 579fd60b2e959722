"""The msgpack codec refuses everything that is not plain, bounded data."""

from __future__ import annotations

from enum import StrEnum

import msgpack
import pytest

from protocol.cards import Card
from protocol.codec import check_plain, decode_body, encode_body
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_ARRAY_ITEMS, MAX_DEPTH, MAX_MAP_ITEMS


def _refused(body: bytes) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as caught:
        decode_body(body)
    assert caught.value.code is ErrorCode.MALFORMED_FRAME
    return caught.value


def test_plain_map_round_trips() -> None:
    data = {"type": "x", "n": -5, "big": 2**64 - 1, "s": "é", "ok": True, "l": [None, {"a": []}]}
    assert decode_body(encode_body(data)) == data


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\xc1", id="reserved-byte"),
        pytest.param(b"\x82\xa1a\x01", id="truncated-map"),
        pytest.param(msgpack.packb({"a": 1}) + b"\x00", id="trailing-bytes"),
        pytest.param(b"\x81\xa2\xff\xfe\x01", id="invalid-utf8-key"),
        pytest.param(msgpack.packb([1, 2]), id="top-level-array"),
        pytest.param(msgpack.packb("text"), id="top-level-string"),
    ],
)
def test_garbage_and_truncated_bodies_are_malformed(body: bytes) -> None:
    _refused(body)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(msgpack.ExtType(5, b"abc"), id="ext"),
        pytest.param(msgpack.ExtType(7, b""), id="empty-ext"),
        pytest.param(msgpack.Timestamp(1, 0), id="timestamp32"),
        pytest.param(msgpack.Timestamp(2**33, 5), id="timestamp64"),
        pytest.param(msgpack.Timestamp(-1, 5), id="timestamp96"),
    ],
)
def test_extension_types_and_timestamps_are_refused(value: object) -> None:
    error = _refused(msgpack.packb({"type": "x", "value": value}))
    assert "ext" in error.message


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"\x81\x01\xa1x", id="int-key"),
        pytest.param(b"\x81\xc4\x01kx\x01", id="binary-key"),
        pytest.param(b"\x81\xc4\x00\x01", id="empty-binary-key"),
        pytest.param(b"\x81\xa1a\x81\xc3\x01", id="nested-bool-key"),
    ],
)
def test_non_string_map_keys_are_refused(body: bytes) -> None:
    _refused(body)


@pytest.mark.parametrize("value", [1.5, b"bytes", b""], ids=["float", "binary", "empty-bin"])
def test_values_outside_the_plain_model_are_refused(value: object) -> None:
    _refused(msgpack.packb({"type": "x", "value": value}, use_bin_type=True))


def _nested_body(depth: int) -> bytes:
    # A map at depth 1 holding arrays nested to ``depth`` levels in total.
    return b"\x81\xa1a" + b"\x91" * (depth - 1) + b"\xc0"


def test_nesting_up_to_the_limit_is_accepted() -> None:
    data = decode_body(_nested_body(MAX_DEPTH))
    inner = data["a"]
    for _ in range(MAX_DEPTH - 2):
        inner = inner[0]
    assert inner == [None]


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 60_000])
def test_deeper_nesting_is_refused_without_recursion(depth: int) -> None:
    _refused(_nested_body(depth))


@pytest.mark.parametrize(
    "header",
    [
        pytest.param(b"\xdd\xff\xff\xff\xff", id="array32-4G"),
        pytest.param(b"\xdf\xff\xff\xff\xff", id="map32-4G"),
        pytest.param(b"\xdc\xff\xff", id="array16-65535"),
        pytest.param(b"\xdb\xff\xff\xff\xff", id="str32-4G"),
    ],
)
def test_huge_counts_in_headers_are_refused(header: bytes) -> None:
    _refused(b"\x81\xa1a" + header)


def test_counts_just_over_the_limits_are_refused() -> None:
    _refused(msgpack.packb({"a": [None] * (MAX_ARRAY_ITEMS + 1)}))
    _refused(msgpack.packb({"a": {str(i): 0 for i in range(MAX_MAP_ITEMS + 1)}}))
    assert len(decode_body(msgpack.packb({"a": [None] * MAX_ARRAY_ITEMS}))["a"]) == (
        MAX_ARRAY_ITEMS
    )


@pytest.mark.parametrize(
    "data",
    [
        pytest.param({"a": 1.0}, id="float"),
        pytest.param({"a": {1, 2}}, id="set"),
        pytest.param({"a": Card.parse("R7")}, id="namedtuple"),
        pytest.param({"a": {3: "x"}}, id="int-key"),
        pytest.param({"a": 2**64}, id="int-too-big"),
        pytest.param({"a": [1, -(2**63) - 1]}, id="int-too-small-in-a-list"),
        pytest.param({"a": ["x", Card.parse("R7")]}, id="namedtuple-in-a-list"),
        pytest.param({"a": [True, 2.5]}, id="float-in-a-list"),
    ],
)
def test_encoding_non_plain_data_is_a_local_error(data: dict[str, object]) -> None:
    with pytest.raises(LocalProtocolError) as caught:
        encode_body(data)
    assert caught.value.code is ErrorCode.BAD_MESSAGE


def test_check_plain_counts_depth_from_where_the_value_sits() -> None:
    check_plain([[None]], depth=MAX_DEPTH - 1)
    with pytest.raises(ValueError, match="nest deeper"):
        check_plain([[None]], depth=MAX_DEPTH)


def test_subclasses_of_plain_leaves_stay_plain() -> None:
    class Shade(StrEnum):
        RED = "red"

    check_plain({"a": [Shade.RED, ErrorCode.BAD_MESSAGE], "b": Shade.RED})
    assert decode_body(encode_body({"a": [Shade.RED]})) == {"a": ["red"]}
