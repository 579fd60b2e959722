"""Redraw cost of the client's table screen: render() calls per second.

A 10-seat table, a 30-card hand with a dozen playable cards, a full log, at 160x50 (and
100x30). It measures and prints; it asserts nothing (design.md section 7).

    .venv/bin/python tests/bench/client_render.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time

from client.ui.model import Model, apply_event, apply_table_state, apply_view
from client.ui.render import render
from protocol.cards import all_cards
from protocol.events import SeenEvent
from protocol.messages import SeatInfo, TableState, TableStatus
from protocol.options import DeckName, TableOptions
from protocol.views import View

SEATS = 10
HAND = 30


def build_model(seed: int = 1) -> Model:
    rng = random.Random(seed)
    codes = [card.code for card in all_cards()]
    hand = [rng.choice(codes) for _ in range(HAND)]
    legal = [{"type": "play", "card": code} for code in hand[:12] if not code.startswith("W")]
    legal += [{"type": "draw"}]
    seats = tuple(
        SeatInfo(seat=seat, name=f"Player {seat}", bot=seat % 3 == 1) for seat in range(SEATS)
    )
    state = TableState(
        table_id="t1",
        name="Benchmark",
        state=TableStatus.PLAYING,
        seats=seats,
        options=TableOptions(deck=DeckName.CLASSIC, seats=SEATS),
        host_seat=0,
    )
    model = Model(name="Player 0", connected=True, address="127.0.0.1:7531")
    apply_table_state(model, state, 0)
    view = {
        "seat": 0,
        "phase": "turn",
        "round": 3,
        "direction": 1,
        "to_act": 0,
        "top": "R5",
        "color": "R",
        "counts": [HAND] + [rng.randint(1, 12) for _ in range(SEATS - 1)],
        "draw_count": 20,
        "discard_count": 40,
        "dealer": 1,
        "scores": [rng.randint(0, 400) for _ in range(SEATS)],
        "eliminated": [],
        "away": [3],
        "exposed": [4],
        "pending": {"kind": "turn", "seat": 0, "remaining_ms": 45_000},
        "remaining_ms": 45_000,
        "pending_draw": 0,
        "skip_marks": [0] * SEATS,
        "last_seq": 200,
        "hand": hand,
        "legal": legal,
    }
    apply_view(model, View.from_data(view), 0.0)
    for seq in range(1, 201):
        played = {"kind": "played", "seat": seq % SEATS, "card": "G7", "color": "G", "count": 5}
        apply_event(model, SeenEvent.from_data({"seq": seq, **played}))
    return model


def measure(model: Model, width: int, height: int, seconds: float) -> float:
    calls = 0
    start = time.perf_counter()
    now = 0.0
    while time.perf_counter() - start < seconds:
        render(model, width, height, now)
        calls += 1
        now += 0.25
    return calls / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    model = build_model()
    for width, height in ((160, 50), (100, 30)):
        rate = measure(model, width, height, args.seconds)
        print(
            f"client render, {SEATS} seats, {HAND}-card hand, {width}x{height}: "
            f"{rate:,.0f} renders/s ({1000 / rate:.2f} ms each)"
        )


if __name__ == "__main__":
    main()
