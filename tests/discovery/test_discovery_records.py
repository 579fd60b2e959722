"""The advertisement's contents, without a network: TXT, names, addresses, ids, the list."""

from __future__ import annotations

import dataclasses
from typing import Any

import trio
import zeroconf

from client.discovery import (
    RESOLVE_TRIES,
    ChangeKind,
    FoundServer,
    ServerBrowser,
    _Listener,
    describe,
    server_from_record,
)
from protocol.discovery import SERVICE_TYPE, TXT_KEYS
from protocol.version import SUPPORTED_VERSIONS, parse_version
from server.advertise import (
    advertised_addresses,
    instance_label,
    txt_properties,
    txt_size,
)
from server.identity import ServerIdentity
from server.settings import LobbySummary

IDENTITY = ServerIdentity(name="Kitchen table", server_id="0123456789abcdef", version="0.1.0")
BUSY = LobbySummary(tables=3, open_tables=2, seats_free=5, open_tables_with_password=2)
EMPTY = LobbySummary(tables=0, open_tables=0, seats_free=0, open_tables_with_password=0)
KEY = f"Kitchen table.{SERVICE_TYPE}"
SPOKEN = max(
    SUPPORTED_VERSIONS, key=lambda text: parse_version(text) or (0, 0)
)  # one major version so far


def found(**changes: object) -> FoundServer:
    record = txt_properties(IDENTITY, BUSY)
    server = server_from_record(KEY, record, ["192.168.1.20"], 7531)
    assert server is not None
    fields: dict[str, Any] = {name: getattr(server, name) for name in FoundServer.__slots__}
    fields.update(changes)
    return FoundServer(**fields)


def test_txt_has_every_key_in_order_with_the_lobby_numbers() -> None:
    record = txt_properties(IDENTITY, BUSY)
    assert tuple(record) == TXT_KEYS
    assert record == {
        "txtvers": "1",
        "proto": SPOKEN,
        "ver": "0.1.0",
        "name": "Kitchen table",
        "id": "0123456789abcdef",
        "tables": "3",
        "open": "2",
        "seats": "5",
        "pw": "1",
        "web": "0",
    }
    assert txt_properties(IDENTITY, EMPTY)["pw"] == "0"
    with_page = dataclasses.replace(IDENTITY, web_port=7532)
    assert txt_properties(with_page, BUSY)["web"] == "7532"


def test_txt_stays_well_under_200_bytes_whatever_the_strings_hold() -> None:
    identity = ServerIdentity(name="🂠" * 32, server_id="f" * 64, version="9" * 100)
    huge = LobbySummary(
        tables=999999, open_tables=999999, seats_free=9999999, open_tables_with_password=0
    )
    versions = [f"{major}.{minor}" for major in range(10) for minor in range(10)]
    record = txt_properties(identity, huge, versions)
    assert txt_size(record) < 200
    assert record["name"].startswith("🂠")  # cut on a character boundary, not mid-way
    assert record["proto"] == "9.9,8.9,7.9,6.9,5.9"  # whole versions, highest first
    assert record["seats"] == "9999"


def test_the_client_reads_back_what_the_server_writes() -> None:
    server = server_from_record(KEY, txt_properties(IDENTITY, BUSY), ["192.168.1.20"], 7531)
    assert server == FoundServer(
        key=KEY,
        name="Kitchen table",
        host="192.168.1.20",
        port=7531,
        addresses=("192.168.1.20",),
        server_id="0123456789abcdef",
        version="0.1.0",
        protocols=(SPOKEN,),
        compatible=True,
        tables=3,
        open_tables=2,
        seats_free=5,
        password=True,
    )
    assert server.address == ("192.168.1.20", 7531)


def test_a_server_of_another_protocol_is_listed_as_incompatible() -> None:
    record = {**txt_properties(IDENTITY, BUSY), "proto": "2.0,2.1"}
    server = server_from_record(KEY, record, ["10.0.0.5"], 7531)
    assert server is not None
    assert not server.compatible
    assert server.protocols == ("2.0", "2.1")
    assert "incompatible (speaks protocol 2.0, 2.1)" in describe(server)
    assert server_from_record(KEY, record, ["10.0.0.5"], 7531, versions=["2.0"]) is not None


def test_hostile_or_broken_records_are_cleaned_not_trusted() -> None:
    record: dict[str, str | None] = {
        "name": "\x1b]0;owned\x07Evil\x1b[2J server",
        "tables": "²",
        "open": "-1",
        "seats": "12345678901",
        "pw": None,
        "proto": None,
    }
    server = server_from_record(KEY, record, ["10.0.0.9"], 9000)
    assert server is not None
    assert server.name == "Evil server"
    assert (server.tables, server.open_tables, server.seats_free) == (0, 0, 0)
    assert not server.password
    assert not server.compatible
    assert server_from_record(KEY, record, [], 9000) is None
    assert server_from_record(KEY, record, ["10.0.0.9"], 0) is None
    nameless = server_from_record(KEY, {}, ["10.0.0.9"], 9000)
    assert nameless is not None and nameless.name == "Kitchen table"


def test_the_host_is_ipv4_first_then_a_routable_ipv6() -> None:
    both = server_from_record(KEY, {}, ["fe80::1", "2001:db8::5", "10.0.0.2"], 1)
    assert both is not None and both.host == "10.0.0.2"
    v6 = server_from_record(KEY, {}, ["fe80::1", "2001:db8::5"], 1)
    assert v6 is not None and v6.host == "2001:db8::5"
    assert "[2001:db8::5]:1" in describe(v6)


def test_describe_says_load_and_password() -> None:
    line = describe(found())
    assert line == "Kitchen table  192.168.1.20:7531 · 3 tables, 5 seats free · password"
    single = describe(found(tables=1, seats_free=1, password=False))
    assert single == "Kitchen table  192.168.1.20:7531 · 1 table, 1 seat free"


def test_instance_names_have_no_dots_and_fit_a_dns_label() -> None:
    assert instance_label("uno-lan on box.example.org") == "uno-lan on box example org"
    long = instance_label("ü" * 40)
    assert len(long.encode()) <= 48 and set(long) == {"ü"}
    assert instance_label("  ...  ") == "uno-lan"


def test_advertised_addresses() -> None:
    assert advertised_addresses(["0.0.0.0"], ["10.77.0.1"], ["192.168.1.5"]) == ["192.168.1.5"]
    assert advertised_addresses(["0.0.0.0", "::"], ["10.77.0.1"]) == ["10.77.0.1"]
    assert advertised_addresses(["127.0.0.1"], ["127.0.0.1"]) == ["127.0.0.1"]
    assert advertised_addresses(["10.77.0.1"], ["10.77.0.2"]) == []
    assert advertised_addresses(["127.0.0.1"]) == ["127.0.0.1"]
    assert advertised_addresses(["10.1.2.3", "127.0.0.1"]) == ["10.1.2.3"]


async def test_the_browser_reports_added_updated_removed_and_keeps_a_snapshot() -> None:
    browser = ServerBrowser()
    first = found()
    added = browser.apply(KEY, first)
    assert added is not None and added.kind is ChangeKind.ADDED
    assert browser.apply(KEY, first) is None
    busier = found(seats_free=1)
    updated = browser.apply(KEY, busier)
    assert updated is not None and updated.kind is ChangeKind.UPDATED
    assert browser.snapshot() == [busier]
    removed = browser.apply(KEY, None)
    assert removed is not None and removed.kind is ChangeKind.REMOVED
    assert removed.server == busier
    assert browser.apply(KEY, None) is None
    assert browser.snapshot() == []
    browser.close()
    kinds = [change.kind async for change in browser]
    assert kinds == [ChangeKind.ADDED, ChangeKind.UPDATED, ChangeKind.REMOVED]


async def test_incompatible_servers_are_listed_last_not_hidden() -> None:
    browser = ServerBrowser()
    old = found(key="b", name="Attic", compatible=False)
    new = found(key="a", name="Zoo")
    browser.apply("b", old)
    browser.apply("a", new)
    assert browser.snapshot() == [new, old]


async def test_a_full_channel_drops_changes_but_never_the_snapshot() -> None:
    browser = ServerBrowser(buffer=1)
    browser.apply("a", found(key="a"))
    browser.apply("b", found(key="b"))
    assert browser.dropped == 1
    assert [server.key for server in browser.snapshot()] == ["a", "b"]
    with trio.move_on_after(1):
        change = await browser.next_change()
    assert change.server.key == "a"


class SlowToAnswer:
    """Stands in for ``zeroconf.Zeroconf.get_service_info``: no details for the first
    ``silent`` look-ups, then the server's."""

    def __init__(self, silent: int) -> None:
        self.silent = silent
        self.asked = 0

    def get_service_info(self, type_: str, name: str, timeout: int) -> Any:
        self.asked += 1
        if self.asked <= self.silent:
            return None
        return zeroconf.ServiceInfo(
            type_,
            name,
            port=7531,
            properties=txt_properties(IDENTITY, BUSY),
            server="uno-den.local.",
            addresses=[bytes([192, 168, 1, 20])],
        )


def test_a_server_slow_to_answer_once_is_still_listed() -> None:
    delivered: list[FoundServer | None] = []
    listener = _Listener(lambda _key, server: delivered.append(server), SUPPORTED_VERSIONS)
    zc = SlowToAnswer(silent=RESOLVE_TRIES - 1)
    listener.add_service(zc, SERVICE_TYPE, KEY)  # type: ignore[arg-type]
    assert zc.asked == RESOLVE_TRIES
    (server,) = delivered
    assert server is not None and (server.name, server.port) == ("Kitchen table", 7531)


def test_a_server_that_never_answers_is_skipped_after_its_tries() -> None:
    delivered: list[FoundServer | None] = []
    listener = _Listener(lambda _key, server: delivered.append(server), SUPPORTED_VERSIONS)
    zc = SlowToAnswer(silent=RESOLVE_TRIES)
    listener.add_service(zc, SERVICE_TYPE, KEY)  # type: ignore[arg-type]
    assert zc.asked == RESOLVE_TRIES
    assert delivered == []
