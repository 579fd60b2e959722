"""Bans that hold (issue 23), against a real ``uno-server`` from several loopback addresses.

Ann (127.0.0.100) hosts a table with Bob (127.0.0.101). Guests from attacker addresses
and one from the server's own machine (127.0.0.1) sit down; Ann bans some of them, among
them a guest who has already hung up (an away seat). The banned come back under other
names, from their own address and from others; look-alikes of Ann's name try to sit next
to her. Then the server is stopped with SIGTERM and started again on the same journal, and
the same comebacks are tried again, with one more ban of a seat whose owner never came
back after the restart. An honest pair (ann and bob, at a table of their own) plays
40 moves on the restarted server. Figures go to ``reliability_figures.record``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import trio
from e2e_client import FAST_OPTIONS, Hub
from e2e_server import ServerProcess
from reliability_figures import record
from reliability_guests import (
    HONEST,
    TimedPlayer,
    attacker,
    connect_from,
    honest_table,
    latency_ms,
    play,
)

from protocol.messages import CreateTable, Join, Kick, Leave, Ok
from protocol.options import TableOptions

SERVERS_OWN = "127.0.0.1"
"""The server's own machine: never banned by address (other 127.0.0.x are guests)."""

HONEST_MOVES = 40

LOOK_ALIKES_OF_ANN = {
    "An\u0144": "n with an acute accent",
    "\u00c1nn": "A with an acute accent",
    "An\u200dn": "a zero-width joiner inside",
    "An\u034fn": "a combining grapheme joiner inside",
    "Ann\ufe0f": "a variation selector after it",
    "Ann.": "a full stop after it",
}


class Den:
    """Ann's table on one server: who sits there, and guests trying to."""

    def __init__(self, port: int, nursery: trio.Nursery, table_id: str) -> None:
        self.port = port
        self.nursery = nursery
        self.table_id = table_id
        self.outcomes: dict[str, str] = {}

    async def guest(self, source: str, name: str, hub: Hub | None = None) -> TimedPlayer:
        """A guest from ``source`` says hello with ``name`` exactly as given, and reads."""
        guest = await connect_from(self.port, source, name, hub, raw_name=True)
        assert guest.welcome is not None, guest.error
        self.nursery.start_soon(guest.read_forever)
        return guest

    async def try_join(
        self, label: str, source: str, name: str, *, stay: bool = False
    ) -> TimedPlayer:
        """``name`` from ``source`` asks for a seat; the answer is kept under ``label``
        (``seated`` or the rejection code). A refused guest hangs up; a seated one leaves
        again unless it is to ``stay`` (so that a server letting too many in does not
        fill the table, and every answer below stays its own)."""
        guest = await self.guest(source, name)
        reply = await guest.request(lambda id_: Join(id=id_, table_id=self.table_id))
        self.outcomes[label] = "seated" if isinstance(reply, Ok) else reply.code
        if isinstance(reply, Ok) and not stay:
            await guest.ok(lambda id_: Leave(id=id_))
        if not stay:
            await guest.close()
        return guest


async def _away(host: TimedPlayer, name: str) -> None:
    """Until the host's table state shows ``name``'s seat as away (its owner hung up)."""
    await host.hub.until(
        lambda: (
            host.state is not None
            and any(seat.name == name and seat.away for seat in host.state.seats)
        )
    )


async def _ban(host: TimedPlayer, name: str) -> str:
    """The host kicks ``name``'s seat with ``ban``: ``banned``, or ``no such seat`` (where
    a server that lets too many in has filled the table before ``name`` came). The host
    hears of a seat taken a moment after its taker does: it waits for that, a while."""

    def named() -> list[int]:
        state = host.state
        return [] if state is None else [seat.seat for seat in state.seats if seat.name == name]

    with trio.move_on_after(5):
        await host.hub.until(lambda: bool(named()))
    seats = named()
    if not seats:
        return "no such seat"
    await host.ok(lambda id_: Kick(id=id_, seat=seats[0], ban=True))
    return "banned"


async def test_bans_hold_for_away_seats_look_alikes_and_across_a_restart(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path)
    state = server.state
    assert state is not None
    before: dict[str, str] = {}
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                ann = await connect_from(server.port, HONEST[0], "Ann", hub)
                bob = await connect_from(server.port, HONEST[1], "Bob", hub)
                for person in (ann, bob):
                    nursery.start_soon(person.read_forever)
                options = {**FAST_OPTIONS, "seats": 10, "target_score": 1000}
                created = await ann.ok(
                    lambda id_: CreateTable(id=id_, name="den", options=TableOptions.parse(options))
                )
                den = Den(server.port, nursery, created["table_id"])
                await bob.ok(lambda id_: Join(id=id_, table_id=den.table_id))

                # mallory sits down and hangs up; Ann bans the away seat.
                mallory = await den.try_join("mallory", attacker(0), "mallory", stay=True)
                await mallory.close()
                await _away(ann, "mallory")
                den.outcomes["ban the away mallory"] = await _ban(ann, "mallory")
                await den.try_join("friendly (mallory's address)", attacker(0), "friendly")
                for number, name in enumerate(["rnallory", "mallory.", "MALLORY", "m\u00e1llory"]):
                    await den.try_join(name, attacker(1 + number), name)
                # Look-alikes of Ann; honest names that only resemble the seated ones.
                for number, name in enumerate(LOOK_ALIKES_OF_ANN):
                    await den.try_join(LOOK_ALIKES_OF_ANN[name], attacker(10 + number), name)
                await den.try_join("Anna", HONEST[2], "Anna")
                await den.try_join("Bo", HONEST[3], "Bo")
                # A guest on the server's own machine, banned while connected: by name only.
                await den.try_join("eve (server's machine)", SERVERS_OWN, "eve", stay=True)
                den.outcomes["ban eve"] = await _ban(ann, "eve")
                await den.try_join("cat (server's machine)", SERVERS_OWN, "cat")
                await den.try_join("Eve. (another address)", attacker(20), "Eve.")
                # zed is seated when the server stops, and never comes back.
                await den.try_join("zed", attacker(30), "zed", stay=True)
                tokens = {"Ann": ann.token, "Bob": bob.token}
                before = dict(den.outcomes)
                nursery.cancel_scope.cancel()
    finally:
        stopped = server.terminate()
        server.stop()
    assert stopped == 0

    server = ServerProcess.start(tmp_path, state=state)
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                back = []
                for source, name in ((HONEST[0], "Ann"), (HONEST[1], "Bob")):
                    person = await connect_from(
                        server.port, source, name, hub, resume_token=tokens[name], last_seq=0
                    )
                    assert person.welcome is not None and person.welcome.resumed, person.error
                    nursery.start_soon(person.read_forever)
                    back.append(person)
                ann = back[0]
                await hub.until(lambda: ann.state is not None)
                assert ann.state is not None
                den = Den(server.port, nursery, ann.state.table_id)
                await den.try_join("friendly2 (mallory's address)", attacker(0), "friendly2")
                await den.try_join("rnallory (another address)", attacker(40), "rnallory")
                await den.try_join("eve (server's machine)", SERVERS_OWN, "eve")
                await den.try_join("kim (server's machine)", SERVERS_OWN, "kim")
                await den.try_join("An\u0144", attacker(41), "An\u0144")
                # zed's seat was rebuilt from the journal (shown away: its owner is not
                # back); Ann bans it.
                den.outcomes["ban the away zed"] = await _ban(ann, "zed")
                await den.try_join("zed2 (zed's address)", attacker(30), "zed2")
                after = dict(den.outcomes)
                people = await honest_table(server.port, nursery)
                await play(people, HONEST_MOVES)
                for person in back:
                    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await person.close()
                nursery.cancel_scope.cancel()
    finally:
        server.stop()

    record(
        "bans",
        before_the_restart=before,
        after_the_restart=after,
        honest=latency_ms(people),
    )
    assert before == {
        "mallory": "seated",
        "ban the away mallory": "banned",
        "friendly (mallory's address)": "banned",
        "rnallory": "banned",
        "mallory.": "banned",
        "MALLORY": "banned",
        "m\u00e1llory": "banned",
        **dict.fromkeys(LOOK_ALIKES_OF_ANN.values(), "name-taken"),
        "Anna": "seated",
        "Bo": "seated",
        "eve (server's machine)": "seated",
        "ban eve": "banned",
        "cat (server's machine)": "seated",
        "Eve. (another address)": "banned",
        "zed": "seated",
    }, before
    assert after == {
        "friendly2 (mallory's address)": "banned",
        "rnallory (another address)": "banned",
        "eve (server's machine)": "banned",
        "kim (server's machine)": "seated",
        "An\u0144": "name-taken",
        "ban the away zed": "banned",
        "zed2 (zed's address)": "banned",
    }, after
