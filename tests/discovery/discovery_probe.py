"""A helper process for the namespace tests: run inside a namespace with ``ip netns exec``.

    python discovery_probe.py changes IFACE         # one JSON line per change of the list
    python discovery_probe.py listed IFACE          # one JSON list per change (keep_listed)
    python discovery_probe.py table HOST PORT NAME  # hold a table open until killed
    python discovery_probe.py find IFACE            # the client's find screen, headless:
                                                    # join the first server listed by Enter

Each mode prints ``ready`` (with what it knows) once it is running. It never ends by
itself: the test terminates it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from client.discovery import FoundServer, browse, describe, keep_listed
from client.session import connect
from client.ui.controller import Controller
from client.ui.model import Model, Screen, apply_discovered
from client.ui.network import Network
from protocol.messages import CreateTable


def say(data: Any) -> None:
    print(json.dumps(data), flush=True)


def as_data(server: FoundServer) -> dict[str, Any]:
    return {
        "key": server.key,
        "name": server.name,
        "host": server.host,
        "port": server.port,
        "id": server.server_id,
        "protocols": list(server.protocols),
        "compatible": server.compatible,
        "tables": server.tables,
        "open": server.open_tables,
        "seats": server.seats_free,
        "password": server.password,
        "line": describe(server),
    }


async def changes(interface: str) -> None:
    async with browse([interface]) as browser:
        say({"ready": True})
        async for change in browser:
            say({"kind": change.kind.value, **as_data(change.server)})


async def listed(interface: str) -> None:
    say({"ready": True})
    await keep_listed([interface], lambda servers: say([as_data(s) for s in servers]))


async def table(host: str, port: str, name: str) -> None:
    async with connect(host, int(port), "prober") as session:
        await session.request(CreateTable(id=session.next_id(), name=name))
        welcome = session.welcome
        say({"ready": True, "server_id": welcome.server_id if welcome else None})
        await trio.sleep_forever()


async def find(interface: str) -> None:
    """What the find screen does: list live (keep_listed -> the model), then Enter on the
    chosen server through the controller, and the network side connects to the lobby."""
    model = Model(name="finder")
    changed = trio.Event()

    def redraw() -> None:
        changed.set()

    async def until(condition: Any) -> None:
        nonlocal changed
        while not condition():
            changed = trio.Event()
            await changed.wait()

    def show(servers: list[FoundServer]) -> None:
        apply_discovered(model, servers)
        redraw()

    network = Network(model, redraw, trio.current_time)
    keys = Controller(model, network.submit)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(keep_listed, [interface], show)
        nursery.start_soon(network.run)
        say({"ready": True})
        await until(lambda: model.discovered)
        keys.lobby.join_discovered()
        await until(lambda: model.screen is Screen.LOBBY and model.server_name)
        say({"joined": model.address, "server_name": model.server_name})
        await trio.sleep_forever()


def main() -> None:
    mode, *args = sys.argv[1:]
    modes: dict[str, Callable[..., Awaitable[None]]] = {
        "changes": changes,
        "listed": listed,
        "table": table,
        "find": find,
    }
    trio.run(modes[mode], *args)


if __name__ == "__main__":
    main()
