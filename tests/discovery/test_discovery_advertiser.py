"""The advertiser's life on the Trio side, with a recording publisher instead of the network.

Clocks are virtual (``autojump_clock``); the real zeroconf runs in test_discovery_netns.py.
"""

from __future__ import annotations

import itertools
import logging
import threading
from dataclasses import dataclass, field

import pytest
import trio
import trio.testing
import zeroconf

from server.advertise import Advertiser, AdvertiseSettings
from server.identity import ServerIdentity
from server.settings import LobbySummary

IDENTITY = ServerIdentity(name="Den", server_id="00aa11bb22cc33dd", version="0.1.0")
QUIET = LobbySummary(tables=0, open_tables=0, seats_free=0, open_tables_with_password=0)
ONE_OPEN = LobbySummary(tables=1, open_tables=1, seats_free=3, open_tables_with_password=0)
TWO_OPEN = LobbySummary(tables=2, open_tables=2, seats_free=6, open_tables_with_password=1)


@dataclass
class FakePublisher:
    """Records every call (from worker threads) with the Trio clock's reading."""

    rename_to: str | None = None
    register_error: Exception | None = None
    calls: list[tuple[str, float, dict[str, str]]] = field(default_factory=list)
    closed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def _record(self, what: str, properties: dict[str, str]) -> None:
        now = trio.from_thread.run_sync(trio.current_time)
        with self.lock:
            self.calls.append((what, now, dict(properties)))

    def register(self, instance: str, properties: dict[str, str]) -> str:
        if self.register_error is not None:
            raise self.register_error
        self._record("register", properties)
        return self.rename_to or instance

    def update(self, properties: dict[str, str]) -> None:
        self._record("update", properties)

    def close(self) -> None:
        self.closed = True

    def updates(self) -> list[tuple[float, dict[str, str]]]:
        return [(when, props) for what, when, props in self.calls if what == "update"]


class Lobby:
    def __init__(self) -> None:
        self.now = QUIET

    def summary(self) -> LobbySummary:
        return self.now


def advertiser_for(
    publisher: FakePublisher, lobby: Lobby, addresses: tuple[str, ...] = ("10.0.0.2",)
) -> Advertiser:
    return Advertiser(
        IDENTITY,
        lobby.summary,
        7531,
        addresses,
        settings=AdvertiseSettings(poll_seconds=0.5, min_update_seconds=2.0),
        publisher=lambda: publisher,
    )


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    """A virtual clock that jumps only once the loop has been idle for 10 ms of real time.
    The publisher runs in worker threads, which a clock that jumps at once cannot see: on a
    loaded machine it ran the 60 virtual seconds of a wait out while a thread still ran."""
    return trio.testing.MockClock(autojump_threshold=0.01)


async def wait_for_updates(advertiser: Advertiser, count: int) -> None:
    with trio.fail_after(60):  # virtual seconds: fails at once instead of hanging
        while advertiser.updates < count:
            await trio.sleep(0.1)


async def test_registers_the_lobby_then_withdraws_on_stop(autojump_clock: trio.abc.Clock) -> None:
    publisher, lobby = FakePublisher(), Lobby()
    advertiser = advertiser_for(publisher, lobby)
    async with trio.open_nursery() as nursery:
        await nursery.start(advertiser.run)
        await advertiser.registered.wait()
        assert advertiser.instance == "Den"
        assert [what for what, _, _ in publisher.calls] == ["register"]
        assert publisher.calls[0][2]["name"] == "Den"
        assert publisher.calls[0][2]["tables"] == "0"
        assert not publisher.closed
        advertiser.stop()
    assert publisher.closed


async def test_a_taken_name_is_renamed_not_fatal(
    autojump_clock: trio.abc.Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "uno.server.mdns")
    publisher = FakePublisher(rename_to="Den-2")
    advertiser = advertiser_for(publisher, Lobby())
    async with trio.open_nursery() as nursery:
        await nursery.start(advertiser.run)
        await advertiser.registered.wait()
        advertiser.stop()
    assert advertiser.instance == "Den-2"
    assert "renamed to 'Den-2'" in caplog.text


async def test_a_new_table_updates_the_txt_and_nothing_else_does(
    autojump_clock: trio.abc.Clock,
) -> None:
    publisher, lobby = FakePublisher(), Lobby()
    advertiser = advertiser_for(publisher, lobby)
    async with trio.open_nursery() as nursery:
        await nursery.start(advertiser.run)
        await advertiser.registered.wait()
        await trio.sleep(30)  # many polls of an unchanged lobby
        assert publisher.updates() == []
        lobby.now = ONE_OPEN
        await wait_for_updates(advertiser, 1)
        (_, published), *_ = publisher.updates()
        assert (published["tables"], published["open"], published["seats"]) == ("1", "1", "3")
        advertiser.stop()


async def test_updates_are_rate_limited_and_coalesced_to_the_latest_lobby(
    autojump_clock: trio.abc.Clock,
) -> None:
    publisher, lobby = FakePublisher(), Lobby()
    advertiser = advertiser_for(publisher, lobby)
    async with trio.open_nursery() as nursery:
        await nursery.start(advertiser.run)
        await advertiser.registered.wait()
        lobby.now = ONE_OPEN
        await wait_for_updates(advertiser, 1)
        lobby.now = TWO_OPEN
        await wait_for_updates(advertiser, 2)
        for summary in (ONE_OPEN, TWO_OPEN, QUIET, ONE_OPEN):  # a burst inside one window
            lobby.now = summary
            await trio.sleep(0.1)
        await wait_for_updates(advertiser, 3)
        await trio.sleep(30)
        advertiser.stop()
    updates = publisher.updates()
    assert [props["tables"] for _, props in updates] == ["1", "2", "1"]
    times = [when for when, _ in updates]
    # The advertiser waits until exactly two seconds after the last update ended, and the
    # virtual clock lands on that deadline: the float difference of the two readings may
    # come out a rounding error under 2.0 (the flake of an earlier CI run).
    assert all(later - earlier >= 2.0 - 1e-9 for earlier, later in itertools.pairwise(times))


async def test_no_mdns_here_is_one_warning_and_the_server_carries_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The real clock: the publisher's calls run in worker threads, and an autojump clock
    # would jump to the safety deadline while one of them is still running.
    def broken() -> FakePublisher:
        raise OSError(19, "No such device")

    advertiser = Advertiser(IDENTITY, Lobby().summary, 7531, ["10.0.0.2"], publisher=broken)
    with trio.fail_after(5):
        await advertiser.run()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "mDNS is unavailable" in warnings[0].getMessage()
    assert "connect by address" in warnings[0].getMessage()
    assert not advertiser.registered.is_set()


async def test_a_failed_registration_is_logged_and_the_sockets_closed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The real clock: the publisher's calls run in worker threads, and an autojump clock
    # would jump to the safety deadline while one of them is still running.
    publisher = FakePublisher(register_error=zeroconf.EventLoopBlocked())
    advertiser = advertiser_for(publisher, Lobby())
    with trio.fail_after(5):
        await advertiser.run()
    assert publisher.closed
    assert "stopped advertising" in caplog.text


async def test_nothing_to_publish_is_said_and_nothing_opened(
    autojump_clock: trio.abc.Clock, caplog: pytest.LogCaptureFixture
) -> None:
    publisher = FakePublisher()
    advertiser = advertiser_for(publisher, Lobby(), addresses=())
    await advertiser.run()
    assert publisher.calls == []
    assert "--advertise-ip" in caplog.text
