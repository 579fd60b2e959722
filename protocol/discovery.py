"""The LAN discovery vocabulary: the DNS-SD service type and the TXT record's layout.

Servers advertise ``_uno._tcp.local.`` with a TXT record of short ``key=value`` pairs
(``TXT_KEYS``); clients and bots browse for it. Both sides use this module, so the names
are written once. It is pure: ``encode_txt`` turns an ``Advert`` into the TXT properties
(every value cut to a fixed number of UTF-8 bytes and every count capped, so the record
stays well under 200 bytes), ``decode_txt`` reads properties back into an ``Advert``.

Decoding never trusts the record (any host on the LAN can advertise anything): unknown
keys are ignored, texts are stripped of control characters and cut, counts that are not
small non-negative decimal numbers read as 0, and protocol versions that do not parse are
dropped. It never raises for a hostile record; the caller decides what is joinable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from protocol.limits import clean_text
from protocol.version import parse_version

__all__ = [
    "SERVICE_TYPE",
    "TXT_COUNT_MAX",
    "TXT_KEYS",
    "TXT_VERSION",
    "Advert",
    "TxtKey",
    "cut_utf8",
    "decode_txt",
    "encode_txt",
    "proto_value",
    "txt_size",
]

SERVICE_TYPE = "_uno._tcp.local."
"""The DNS-SD service type every uno-lan server registers."""

TXT_VERSION = "1"
"""The version of the TXT layout (``txtvers``); new keys do not change it."""


class TxtKey:
    """The TXT key names, written once for the server and the browsers."""

    TXTVERS = "txtvers"
    PROTO = "proto"
    """The protocol versions spoken: the highest minor of each major, highest first."""
    VERSION = "ver"
    """The server's package version."""
    NAME = "name"
    """The display name."""
    ID = "id"
    """A stable server id (the same across restarts on one machine and port)."""
    TABLES = "tables"
    OPEN = "open"
    """Tables not yet started with a free seat."""
    SEATS = "seats"
    """Free seats at those tables."""
    PASSWORD = "pw"
    """``1`` when every open table needs a password, else ``0``."""
    WEB = "web"
    """The port of the server's browser page (docs/web.md); ``0`` when it serves none."""


TXT_KEYS = (
    TxtKey.TXTVERS,
    TxtKey.PROTO,
    TxtKey.VERSION,
    TxtKey.NAME,
    TxtKey.ID,
    TxtKey.TABLES,
    TxtKey.OPEN,
    TxtKey.SEATS,
    TxtKey.PASSWORD,
    TxtKey.WEB,
)
"""Every TXT key, in the order the server writes them."""

TXT_COUNT_MAX = 9999
"""Counts above it are written as it."""

NAME_BYTES = 48  # the display name in UTF-8; 32 characters of plain text always fit
FIELD_BYTES = 16  # the package version and the server id
PROTO_BYTES = 20  # the protocol versions, whole ones only
_COUNT_DIGITS = 6  # a count with more digits than this is not a count
_MAX_PROTOCOLS = 16
_MAX_PORT = 65535


@dataclass(frozen=True, slots=True)
class Advert:
    """What one server's TXT record says."""

    name: str = ""
    """The display name (empty when the record had none)."""
    server_id: str = ""
    version: str = ""
    """The server's package version."""
    protocols: tuple[str, ...] = ()
    """Protocol versions, each ``major.minor``."""
    tables: int = 0
    open_tables: int = 0
    seats_free: int = 0
    password: bool = False
    txt_version: str = TXT_VERSION
    web_port: int = 0
    """The browser page's port; 0 for none (or a record from before it)."""


def encode_txt(advert: Advert) -> dict[str, str]:
    """The TXT properties for ``advert``, in ``TXT_KEYS`` order.

    ``protocols`` is written as the highest minor of each major (a peer that speaks 1.3
    speaks 1.0 to 1.2 as well). The record is about 170 bytes at worst, about 100 usually.
    """
    return {
        TxtKey.TXTVERS: advert.txt_version,
        TxtKey.PROTO: proto_value(advert.protocols),
        TxtKey.VERSION: cut_utf8(advert.version, FIELD_BYTES),
        TxtKey.NAME: cut_utf8(advert.name, NAME_BYTES),
        TxtKey.ID: cut_utf8(advert.server_id, FIELD_BYTES),
        TxtKey.TABLES: _write_count(advert.tables),
        TxtKey.OPEN: _write_count(advert.open_tables),
        TxtKey.SEATS: _write_count(advert.seats_free),
        TxtKey.PASSWORD: "1" if advert.password else "0",
        TxtKey.WEB: str(advert.web_port if 0 < advert.web_port <= _MAX_PORT else 0),
    }


def decode_txt(properties: Mapping[str, str | None]) -> Advert:
    """What a TXT record says, validated (see the module docstring); never raises."""

    def text(key: str, limit: int) -> str:
        return cut_utf8(clean_text(_get(properties, key)), limit)

    protocols = [
        item.strip()
        for item in _get(properties, TxtKey.PROTO).split(",")[:_MAX_PROTOCOLS]
        if parse_version(item.strip()) is not None
    ]
    return Advert(
        name=text(TxtKey.NAME, NAME_BYTES),
        server_id=text(TxtKey.ID, FIELD_BYTES),
        version=text(TxtKey.VERSION, FIELD_BYTES),
        protocols=tuple(protocols),
        tables=_read_count(_get(properties, TxtKey.TABLES)),
        open_tables=_read_count(_get(properties, TxtKey.OPEN)),
        seats_free=_read_count(_get(properties, TxtKey.SEATS)),
        password=_get(properties, TxtKey.PASSWORD) == "1",
        txt_version=text(TxtKey.TXTVERS, FIELD_BYTES),
        web_port=_read_port(_get(properties, TxtKey.WEB)),
    )


def proto_value(versions: Iterable[str]) -> str:
    """The ``proto`` value: the highest minor of each major, highest first, whole
    versions only, at most 20 bytes."""
    highest: dict[int, int] = {}
    for text in versions:
        parsed = parse_version(text)
        if parsed is not None:
            highest[parsed[0]] = max(parsed[1], highest.get(parsed[0], parsed[1]))
    kept: list[str] = []
    for major in sorted(highest, reverse=True):
        item = f"{major}.{highest[major]}"
        if len(",".join([*kept, item])) > PROTO_BYTES:
            break
        kept.append(item)
    return ",".join(kept)


def txt_size(properties: Mapping[str, str]) -> int:
    """Bytes the TXT record takes on the wire: one length byte plus ``key=value`` each."""
    return sum(1 + len(f"{key}={value}".encode()) for key, value in properties.items())


def cut_utf8(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes, on a character boundary."""
    encoded = text.encode()
    if len(encoded) <= limit:
        return text
    return encoded[:limit].decode(errors="ignore")


def _get(properties: Mapping[str, str | None], key: str) -> str:
    value = properties.get(key)
    return value if isinstance(value, str) else ""


def _write_count(number: int) -> str:
    return str(max(0, min(number, TXT_COUNT_MAX)))


def _read_port(value: str) -> int:
    port = _read_count(value)
    return port if port <= _MAX_PORT else 0


def _read_count(value: str) -> int:
    if not (value.isascii() and value.isdigit()) or len(value) > _COUNT_DIGITS:
        return 0
    return int(value)
