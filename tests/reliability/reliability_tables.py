"""Tables for the reliability tests: one behind a password (fuzzers cannot walk in), and
the card count every view must add up to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import trio
from e2e_client import FAST_OPTIONS, Hub, Player

from protocol.messages import AddBot, CreateTable, Join, Start
from protocol.options import TableConfig, TableOptions
from protocol.views import View
from server.engine.deck import build_deck

__all__ = ["cards_in_view", "deck_size", "seat_locked_table"]


async def seat_locked_table(
    port: int,
    nursery: trio.Nursery,
    names: Sequence[str],
    *,
    password: str,
    bots: int = 0,
    options: dict[str, Any] | None = None,
    hub: Hub | None = None,
) -> list[Player]:
    """Like ``e2e_client.seat_table``, for a table with a password: connect the people
    (the first hosts), seat them and ``bots`` server bots, start, and wait for every view."""
    hub = hub or Hub()
    people = [await Player.connect(port, name, hub) for name in names]
    for player in people:
        nursery.start_soon(player.read_forever)
    host = people[0]
    table_options = {**FAST_OPTIONS, "seats": len(people) + bots, **(options or {})}
    created = await host.ok(
        lambda id_: CreateTable(
            id=id_,
            name=f"locked {names[0]}",
            options=TableOptions.parse(table_options),
            password=password,
        )
    )
    table_id = created["table_id"]
    for player in people[1:]:
        await player.ok(lambda id_: Join(id=id_, table_id=table_id, password=password))
    for _ in range(bots):
        await host.ok(lambda id_: AddBot(id=id_, strategy="basic"))
    await host.ok(lambda id_: Start(id=id_))
    await hub.until(lambda: all(player.view is not None for player in people))
    return people


def deck_size(options: dict[str, Any]) -> int:
    """How many cards a match with these table options plays with."""
    return len(build_deck(TableConfig.from_data(options)))


def cards_in_view(view: View) -> int:
    """Every card a view accounts for: the hands' counts, the draw pile, the discards."""
    shared = view.shared
    return sum(shared.counts) + shared.draw_count + shared.discard_count
