"""Bot strength: single rounds between levels on the engine directly (no network).

    python tests/bench/bots.py                      # quick: 2 x 100 rounds, 20 deals
    python tests/bench/bots.py --rounds 2000 --playouts 20 --json

Each round is dealt from its own seed; one seat plays ``--level`` (hard), the others
``--against`` (normal), and the strong seat moves round by round so no seat is favoured.
Every seat declares UNO (no forgetting), so only the choices differ. It prints the
strong level's win rate with a 95 % confidence interval (Wilson), the parity it is
measured against (1 / seats), the decision time p50 / p95 / max and the playouts per
second. A measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# The repository root goes first: run as a script, this file's own folder leads sys.path,
# and its server.py would shadow the server package.
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if entry != str(ROOT))]

from client.bots.memory import RoundMemory  # noqa: E402
from client.bots.strategies import Knobs, choose  # noqa: E402
from protocol.commands import Timeout, command_from_data  # noqa: E402
from protocol.options import DeckName, TableConfig  # noqa: E402
from protocol.phase import Phase  # noqa: E402
from server.engine import Match, Rejected  # noqa: E402


@dataclass
class Tally:
    """What one series of rounds came to."""

    seats: int
    rounds: int = 0
    wins: int = 0
    decision_ms: list[float] = field(default_factory=list)

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the win rate."""
        n, z = self.rounds, 1.96
        if n == 0:
            return (0.0, 1.0)
        p = self.wins / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (centre - half, centre + half)


def play_round(
    config: TableConfig,
    *,
    seed: int,
    strong: int,
    level: str,
    against: str,
    knobs: Knobs,
    tally: Tally,
    remember: bool = True,
) -> None:
    """One round from ``seed``; ``strong`` is the seat that plays ``level``."""
    match = Match(config, seed)
    rngs = [random.Random(seed * 31 + seat) for seat in range(config.seats)]
    memory = RoundMemory() if remember else None
    seen = 0
    for _ in range(5000):
        if match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            break
        seat = match.to_act()
        if seat is None:
            break
        if memory is not None:
            events = match.events
            for event in events[seen:]:
                memory.observe(event.for_seat(strong))
            seen = len(events)
        view = match.view(seat, 0)
        started = time.perf_counter()
        if seat == strong:
            command = choose(view, rngs[seat], level, knobs, memory)
        else:
            command = choose(view, rngs[seat], against, Knobs())
        if seat == strong:
            tally.decision_ms.append((time.perf_counter() - started) * 1000)
        if command is None or isinstance(
            match.apply(seat, command_from_data(command), 0), Rejected
        ):
            match.apply(None, Timeout(), 0)
    result = match.view(None, 0).get("round_result") or {}
    tally.rounds += 1
    tally.wins += result.get("winner") == strong


def series(
    seats: int, rounds: int, *, level: str, against: str, knobs: Knobs, deck: str, seed: int
) -> Tally:
    """``rounds`` rounds at ``seats`` seats, the strong seat rotating."""
    config = TableConfig(deck=DeckName(deck), seats=seats)
    tally = Tally(seats)
    for index in range(rounds):
        play_round(
            config,
            seed=seed + index,
            strong=index % seats,
            level=level,
            against=against,
            knobs=knobs,
            tally=tally,
        )
    return tally


def report(tally: Tally, elapsed: float, playouts: int) -> dict[str, Any]:
    low, high = tally.interval()
    times = sorted(tally.decision_ms)
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
    return {
        "seats": tally.seats,
        "rounds": tally.rounds,
        "wins": tally.wins,
        "win_rate": tally.wins / max(tally.rounds, 1),
        "ci95": [round(low, 4), round(high, 4)],
        "parity": 1 / tally.seats,
        "decisions": len(times),
        "decision_ms_p50": round(statistics.median(times), 2) if times else 0.0,
        "decision_ms_p95": round(p95, 2),
        "decision_ms_max": round(times[-1], 2) if times else 0.0,
        "seconds": round(elapsed, 1),
        "deals_per_decision": playouts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100, help="rounds per seat count")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--playouts", type=int, default=20, help="deals per decision (0: budget)")
    parser.add_argument("--budget-ms", type=int, default=150, help="think budget with --playouts 0")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--against", default="normal")
    parser.add_argument("--deck", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    knobs = Knobs(playouts=args.playouts, budget_ms=args.budget_ms)
    results = []
    for seats in args.seats:
        started = time.perf_counter()
        tally = series(
            seats,
            args.rounds,
            level=args.level,
            against=args.against,
            knobs=knobs,
            deck=args.deck,
            seed=args.seed,
        )
        results.append(report(tally, time.perf_counter() - started, args.playouts))
    if args.json:
        print(json.dumps({"level": args.level, "against": args.against, "series": results}))
        return
    for r in results:
        low, high = r["ci95"]
        print(
            f"{args.level} vs {args.against}, {r['seats']} seats, {args.deck}: "
            f"won {r['wins']}/{r['rounds']} = {r['win_rate']:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}; parity {r['parity']:.0%}); "
            f"decision p50 {r['decision_ms_p50']} ms, p95 {r['decision_ms_p95']} ms, "
            f"max {r['decision_ms_max']} ms; {r['seconds']} s"
        )


if __name__ == "__main__":
    main()
