"""Builders for the client's tests: real engine views, table states and models."""

from __future__ import annotations

from typing import Any

from client.discovery import FoundServer
from client.ui.model import Model, apply_table_state, apply_view
from protocol.events import SeenEvent
from protocol.messages import SeatInfo, TableState, TableStatus
from protocol.options import TableConfig, TableOptions
from protocol.views import View
from server.engine import Match

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


def table_state(
    seats: int = 3,
    status: TableStatus = TableStatus.PLAYING,
    host: int = 0,
    bots: tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
) -> TableState:
    """A table-state message with named seats (seats in ``bots`` are bots)."""
    infos = tuple(SeatInfo(seat=seat, name=NAMES[seat], bot=seat in bots) for seat in range(seats))
    return TableState(
        table_id="t1",
        name="Friday",
        state=status,
        seats=infos,
        options=TableOptions.parse(options or {"deck": "classic", "seats": seats}),
        host_seat=host,
    )


def engine_view(seats: int = 3, seed: int = 4, seat: int | None = 0, **options: Any) -> View:
    """A real view from the engine (a fresh match), as the server would send it."""
    match = Match(TableConfig.from_data({"seats": seats, **options}), seed=seed)
    return match.view(seat, 0)


def model_with(view: View, seats: int = 3, seat: int = 0, **kw: Any) -> Model:
    """A model seated at ``seat`` of a playing table showing ``view``."""
    model = Model(name=NAMES[seat], connected=True, address="127.0.0.1:7531", **kw)
    apply_table_state(model, table_state(seats), seat)
    apply_view(model, view, 0.0)
    return model


def hand_view(hand: list[str], legal: list[Any], **extra: Any) -> View:
    """A hand-made view for seat 0 of three, on turn, with the given hand and legal list
    (plain wire maps, as the server sends them; ``extra`` replaces keys)."""
    view: dict[str, Any] = {
        "seat": 0,
        "phase": "turn",
        "round": 1,
        "dealer": 2,
        "direction": 1,
        "to_act": 0,
        "top": "R5",
        "color": "R",
        "counts": [len(hand), 5, 6],
        "draw_count": 50,
        "discard_count": 1,
        "scores": [0, 0, 0],
        "eliminated": [],
        "away": [],
        "exposed": [],
        "pending": {"kind": "turn", "seat": 0, "remaining_ms": 30_000},
        "remaining_ms": 30_000,
        "pending_draw": 0,
        "skip_marks": [0, 0, 0],
        "round_result": None,
        "match_result": None,
        "last_seq": 1,
        "hand": hand,
        "drawn": None,
        "legal": legal,
    }
    view.update(extra)
    return View.from_data(view)


def event(data: dict[str, Any]) -> SeenEvent:
    """An event as a client decodes it, from its wire map (``seq`` 1 unless given)."""
    return SeenEvent.from_data({"seq": 1, **data})


def found_server(
    name: str = "Kitchen",
    host: str = "192.168.1.20",
    port: int = 7531,
    *,
    protocols: tuple[str, ...] = ("1.1",),
    compatible: bool = True,
    password: bool = False,
    tables: int = 2,
    seats_free: int = 3,
) -> FoundServer:
    """A server as the LAN browser lists it (keyed by its name)."""
    return FoundServer(
        key=f"{name}._uno._tcp.local.",
        name=name,
        host=host,
        port=port,
        addresses=(host,),
        server_id=name.lower(),
        version="0.1.0",
        protocols=protocols,
        compatible=compatible,
        tables=tables,
        open_tables=1,
        seats_free=seats_free,
        password=password,
    )
