"""The shared TXT vocabulary (protocol/discovery.py): encode, decode, validation."""

from __future__ import annotations

from typing import Any

import client.discovery
import server.advertise
from protocol.discovery import (
    SERVICE_TYPE,
    TXT_KEYS,
    Advert,
    TxtKey,
    decode_txt,
    encode_txt,
    proto_value,
    txt_size,
)

KITCHEN = Advert(
    name="Kitchen table",
    server_id="0123456789abcdef",
    version="0.1.0",
    protocols=("1.0", "1.1"),
    tables=3,
    open_tables=2,
    seats_free=5,
    password=True,
)


def test_the_server_and_the_browser_share_one_vocabulary() -> None:
    assert SERVICE_TYPE == "_uno._tcp.local."
    assert server.advertise.SERVICE_TYPE is SERVICE_TYPE
    assert client.discovery.SERVICE_TYPE is SERVICE_TYPE
    assert server.advertise.TXT_KEYS is TXT_KEYS


def test_encode_writes_every_key_in_order_and_decode_reads_it_back() -> None:
    record = encode_txt(KITCHEN)
    assert tuple(record) == TXT_KEYS
    assert record[TxtKey.PROTO] == "1.1"  # the highest minor speaks every lower one
    assert record[TxtKey.PASSWORD] == "1"
    assert decode_txt(record) == Advert(**{**_fields(KITCHEN), "protocols": ("1.1",)})


def test_encode_caps_counts_and_cuts_texts_on_character_boundaries() -> None:
    huge = Advert(name="ü" * 40, server_id="f" * 64, version="9" * 40, tables=10**9, seats_free=-3)
    record = encode_txt(huge)
    assert record[TxtKey.TABLES] == "9999" and record[TxtKey.SEATS] == "0"
    assert set(record[TxtKey.NAME]) == {"ü"} and len(record[TxtKey.NAME].encode()) <= 48
    assert len(record[TxtKey.ID]) == 16
    assert txt_size(record) < 200


def test_decode_validates_a_hostile_record_and_never_raises() -> None:
    advert = decode_txt(
        {
            "name": "\x1b[2JEvil\x07 host",
            "proto": "1.1, evil,01.0,2.0",
            "tables": "12",
            "open": "-1",
            "seats": "٣",  # a digit, but not an ASCII one
            "pw": "yes",
            "id": None,
            "extra": "ignored",
        }
    )
    assert advert.name == "Evil host"
    assert advert.protocols == ("1.1", "2.0")
    assert (advert.tables, advert.open_tables, advert.seats_free) == (12, 0, 0)
    assert not advert.password
    assert advert.server_id == ""
    assert decode_txt({}) == Advert(txt_version="")


def test_proto_value_keeps_whole_versions_within_20_bytes() -> None:
    versions = [f"{major}.{minor}" for major in range(10) for minor in range(10)]
    assert proto_value(versions) == "9.9,8.9,7.9,6.9,5.9"
    assert proto_value(["1.0", "junk", "1.2"]) == "1.2"


def _fields(advert: Advert) -> dict[str, Any]:
    return {name: getattr(advert, name) for name in Advert.__slots__}


def test_the_web_port_travels_and_a_bad_one_reads_as_none() -> None:
    record = encode_txt(Advert(name="k", web_port=7532))
    assert record[TxtKey.WEB] == "7532"
    assert decode_txt(record).web_port == 7532
    assert encode_txt(Advert(name="k", web_port=70000))[TxtKey.WEB] == "0"
    for hostile in ("70000", "-1", "7532x", "", "0x10"):
        assert decode_txt({**record, TxtKey.WEB: hostile}).web_port == 0, hostile
    assert decode_txt({k: v for k, v in record.items() if k != TxtKey.WEB}).web_port == 0
