"""Bot strength: single rounds between levels on the engine directly (no network).

    python tests/bench/bots.py             # quick: classic, 2 and 4 seats, 100 rounds each
    python tests/bench/bots.py --long      # the acceptance: 4,000 rounds each, `easy`
                                           # at 4 seats too; the party rules 500, 2 seats
    python tests/bench/bots.py --decks     # the other decks, 500 rounds each, 2 seats

Each round is dealt from its own seed; one seat plays ``--level`` (hard), the others
``--against`` (normal), and the strong seat moves round by round so no seat is favoured.
Every seat declares UNO and catches at once (``STRENGTH_KNOBS``: no human trait), so
only the choices differ. The strong seat is
fed its own events (``RoundMemory``), as a bot at a table is. Strength is measured at a
fixed number of deals per decision (``--playouts``), so that it does not depend on the
machine; the decision time is measured separately, at the default think budget, over
``--timing-rounds`` rounds. It prints each series' win rate with a 95 % confidence
interval (Wilson) against parity (1 / seats), the decision time p50 / p95 / max, and the
playouts per second of the simulator. Rounds run in ``--jobs`` processes; each round's
seed fixes it, so the figures do not depend on the number of jobs. A measurement, not a
test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import multiprocessing
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

from client.bots import search  # noqa: E402
from client.bots.memory import RoundMemory  # noqa: E402
from client.bots.strategies import Knobs, choose  # noqa: E402
from protocol.commands import Timeout  # noqa: E402
from protocol.options import DeckName, TableConfig, preset_options  # noqa: E402
from protocol.phase import Phase  # noqa: E402
from server.engine import Match, Rejected  # noqa: E402

STRENGTH_KNOBS = Knobs(forget_uno=0.0, catch_delay_ms=0, think_ms=(0, 0))
"""Every seat's knobs in the bench: the human traits that tell levels apart at a table
(forgetting UNO, a slow catch: ``strategies.LEVELS``) stay off, so the edge measured is
the play alone (issue 27)."""


@dataclass(frozen=True)
class Series:
    """One series of rounds: the table, how many rounds, how the strong seat thinks."""

    seats: int
    rounds: int
    deck: str = "classic"
    preset: str | None = None
    playouts: int = 40
    budget_ms: int = 150
    level: str | None = None
    """A level that does not search, for the strong seat instead of the run's ``--level``
    (the acceptance's ``easy``)."""

    def config(self) -> TableConfig:
        options: dict[str, Any] = {"deck": self.deck, "seats": self.seats}
        if self.preset:
            options = preset_options(self.preset, options)
        return TableConfig.from_data(options)

    def knobs(self) -> Knobs:
        """The strong seat's knobs: the search's bound, and no human trait."""
        return dataclasses.replace(STRENGTH_KNOBS, playouts=self.playouts, budget_ms=self.budget_ms)

    def name(self) -> str:
        rules = f"+{self.preset}" if self.preset else ""
        if self.level:
            return f"{self.deck}{rules}, {self.seats} seats"  # a plain level: no deals
        think = f"{self.playouts} deals" if self.playouts else f"{self.budget_ms} ms"
        return f"{self.deck}{rules}, {self.seats} seats, {think}"


@dataclass
class Tally:
    """What one series of rounds came to. ``deals`` is, for each decision the search
    weighed, the number of deals it played out (at a budget: how many fit in it).
    ``reach`` is the same for the decisions the search did not stop early (the default
    leading at a look, ``search._LOOK``): at a budget, how many deals it can play.
    ``won`` is the index of every round the strong seat won: two variants of the search
    run on the same seed play the same deals, so their rounds can be compared pair by
    pair (``paired``). ``changed`` counts the strong seat's decisions that differ from
    what ``--against`` would have played in its place (from the same random state)."""

    seats: int
    rounds: int = 0
    wins: int = 0
    decision_ms: list[float] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    reach: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    changed: int = 0

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.wins += other.wins
        self.changed += other.changed
        self.won.extend(other.won)
        self.decision_ms.extend(other.decision_ms)
        self.deals.extend(other.deals)
        self.reach.extend(other.reach)

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the win rate."""
        n, z = self.rounds, 1.96
        if n == 0:
            return (0.0, 1.0)
        p = self.wins / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (centre - half, centre + half)


class DealCounter:
    """Counts the deals the search plays out to the end, by wrapping the search's one
    function that plays a deal's candidates, and notes whether it stopped early, by
    wrapping its test of the default's lead (measurement hooks, in this script only)."""

    def __init__(self) -> None:
        self.count = 0
        self.settled = False
        self._inner, self._leads = search._play_out_every, search._leads
        search._play_out_every, search._leads = self._counted, self._looked

    def _counted(self, *args: Any, **kwargs: Any) -> list[float] | None:
        outcome = self._inner(*args, **kwargs)
        self.count += outcome is not None
        return outcome

    def _looked(self, *args: Any, **kwargs: Any) -> bool:
        leads = self._leads(*args, **kwargs)
        self.settled |= leads
        return leads


@functools.cache
def deal_counter() -> DealCounter:
    """The process's one counter, installed on first use."""
    return DealCounter()


def play_round(
    config: TableConfig, *, seed: int, strong: int, level: str, against: str, knobs: Knobs
) -> Tally:
    """One round from ``seed``; ``strong`` is the seat that plays ``level``."""
    tally = Tally(config.seats, rounds=1)
    counter = deal_counter()
    match = Match(config, seed)
    rngs = [random.Random(seed * 31 + seat) for seat in range(config.seats)]
    memory = RoundMemory()
    for _ in range(5000):
        if match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            break
        seat = match.to_act()
        if seat is None:
            break
        view = match.view(seat, 0)
        started = time.perf_counter()
        if seat == strong:
            memory.catch_up(event.seen_by(strong) for event in match.events)
            counter.count, counter.settled = 0, False
            state = rngs[seat].getstate()
            command = choose(view, rngs[seat], level, knobs, memory)
            tally.decision_ms.append((time.perf_counter() - started) * 1000)
            plain = random.Random()
            plain.setstate(state)
            tally.changed += command != choose(view, plain, against, STRENGTH_KNOBS)
            if counter.count:
                tally.deals.append(counter.count)
                if not counter.settled:
                    tally.reach.append(counter.count)
        else:
            command = choose(view, rngs[seat], against, STRENGTH_KNOBS)
        if command is None or isinstance(match.apply(seat, command, 0), Rejected):
            match.apply(None, Timeout(), 0)
    result = match.view(None, 0).shared.round_result
    tally.wins = int(result is not None and result.winner == strong)
    return tally


def _rounds(job: tuple[Series, str, str, int, list[int]]) -> Tally:
    series, level, against, seed, indices = job
    config = series.config()
    knobs = series.knobs()
    tally = Tally(series.seats)
    for index in indices:
        one = play_round(
            config,
            seed=seed + index,
            strong=index % series.seats,
            level=level,
            against=against,
            knobs=knobs,
        )
        one.won = [index] * one.wins
        tally.add(one)
    return tally


def run_series(
    series: Series, *, level: str, against: str, seed: int, pool: Any | None
) -> tuple[Tally, float]:
    """Every round of ``series`` (the strong seat rotating), in the pool's processes."""
    started = time.perf_counter()
    chunk = 10
    jobs = [
        (series, level, against, seed, list(range(start, min(start + chunk, series.rounds))))
        for start in range(0, series.rounds, chunk)
    ]
    parts = pool.imap(_rounds, jobs) if pool is not None else map(_rounds, jobs)
    tally = Tally(series.seats)
    for part in parts:
        tally.add(part)
        # Progress on stderr, so that a run stopped early still says what it came to.
        print(f"{series.name()}: {tally.wins}/{tally.rounds}", file=sys.stderr, flush=True)
    return tally, time.perf_counter() - started


def playouts_per_second(seconds: float = 2.0) -> dict[str, float]:
    """How fast the simulator plays rounds out from sampled deals of real positions:
    restore one position per deal, fork it, play the fork out."""
    rng = random.Random(5)
    positions = []
    for seed in range(40):
        match = Match(TableConfig(seats=2 + seed % 3), seed)
        for _ in range(seed % 20):
            seat = match.to_act()
            if seat is None:
                break
            command = choose(match.view(seat, 0), rng, "normal")
            if command is not None:
                match.apply(seat, command, 0)
        seat = match.to_act()
        if seat is not None and match.phase is Phase.TURN:
            positions.append((match.view(seat, 0), seat))
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for view, seat in positions:
            config = search.infer_config(view)
            deal = search.sample_deal(view, config, rng) if config else None
            if config is None or deal is None:
                continue
            start = Match.restore(search.position(view, config, deal, None, guilty=False))
            search.playout(start.fork(), seat, rng)
            done += 1
    elapsed = time.perf_counter() - started
    return {"playouts_per_s": round(done / elapsed, 1), "playouts": done}


def report(series: Series, tally: Tally, elapsed: float) -> dict[str, Any]:
    low, high = tally.interval()
    times = sorted(tally.decision_ms)
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
    return {
        "series": series.name(),
        "level": series.level,  # None: the run's --level
        "deck": series.deck,
        "preset": series.preset,
        "seats": series.seats,
        "playouts": series.playouts,
        "budget_ms": series.budget_ms,
        "rounds": tally.rounds,
        "wins": tally.wins,
        "win_rate": round(tally.wins / max(tally.rounds, 1), 4),
        "ci95": [round(low, 4), round(high, 4)],
        "parity": 1 / series.seats,
        "decisions": len(times),
        "decision_ms_p50": round(statistics.median(times), 2) if times else 0.0,
        "decision_ms_p95": round(p95, 2),
        "decision_ms_max": round(times[-1], 2) if times else 0.0,
        "searched": len(tally.deals),
        "changed": tally.changed,
        "deals_p50": statistics.median(tally.deals) if tally.deals else 0,
        "reach_p50": statistics.median(tally.reach) if tally.reach else 0,
        "seconds": round(elapsed, 1),
        "won_rounds": sorted(tally.won),
    }


def paired(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Two reports of one series on the same seed compared round by round: the rounds only
    ``after`` won, the rounds only ``before`` won, and McNemar's two-sided p-value (exact,
    binomial over the rounds where they differ). Rounds both won or both lost say nothing
    about the difference, so this sees a change of two points in far fewer rounds than two
    intervals side by side."""
    rounds = min(before["rounds"], after["rounds"])
    old = {i for i in before["won_rounds"] if i < rounds}
    new = {i for i in after["won_rounds"] if i < rounds}
    gained, lost = len(new - old), len(old - new)
    n, k = gained + lost, min(gained, lost)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n if n else 1.0
    return {"rounds": rounds, "gained": gained, "lost": lost, "p": round(min(1.0, 2 * tail), 4)}


def plan(args: argparse.Namespace) -> list[Series]:
    """The series to run: the quick form, ``--long`` (the acceptance), or one by hand."""
    fixed = {"playouts": args.playouts, "budget_ms": args.budget_ms}
    big = 4000 if args.long else 100
    series = [Series(2, big, **fixed), Series(4, big, **fixed)]
    if args.long:
        series += [Series(4, big, level="easy"), Series(2, 500, preset="party", **fixed)]
    elif args.decks:
        series = []
    if args.rounds:
        series = [Series(s, args.rounds, args.deck, args.preset, **fixed) for s in args.seats]
    if args.decks:
        # Outside the acceptance: the other decks' rules are tested; their strength is told.
        decks = [deck.value for deck in DeckName if deck is not DeckName.CLASSIC]
        series += [Series(2, 500, deck, **fixed) for deck in decks]
    timing = Series(2, args.timing_rounds, playouts=0, budget_ms=args.budget_ms)
    return [*series, timing] if args.timing_rounds else series


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="the acceptance-size runs")
    parser.add_argument("--decks", action="store_true", help="the other decks, 2 seats")
    parser.add_argument("--rounds", type=int, default=0, help="one series per --seats")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--deck", default="classic")
    parser.add_argument("--preset", default=None, help="house rules, e.g. party")
    parser.add_argument("--playouts", type=int, default=40, help="deals per decision")
    parser.add_argument("--budget-ms", type=int, default=150, help="the think budget timed")
    parser.add_argument("--timing-rounds", type=int, default=40, help="0: no timing series")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--against", default="normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="two --json outputs of the same series and seed: compare them round by round",
    )
    args = parser.parse_args()
    if args.compare:
        _compare(*args.compare)
        return
    results = []
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for series in plan(args):
            # The timing series runs in this process alone: other jobs would slow it.
            alone = series.playouts == 0
            tally, elapsed = run_series(
                series,
                level=series.level or args.level,
                against=args.against,
                seed=args.seed,
                pool=None if alone else pool,
            )
            results.append(report(series, tally, elapsed))
            if not args.json:
                _print(results[-1], series.level or args.level, args.against)
    finally:
        if pool is not None:
            pool.close()
    rate = playouts_per_second()
    if args.json:
        print(json.dumps({"level": args.level, "against": args.against, "series": results, **rate}))
    else:
        print(f"simulator: {rate['playouts_per_s']} playouts/s (restore, fork, play out)")


def _compare(before_path: str, after_path: str) -> None:
    """Print ``paired`` for every series the two --json files both ran."""
    before, after = (json.loads(Path(p).read_text())["series"] for p in (before_path, after_path))
    theirs = {r["series"]: r for r in after}
    for mine in before:
        other = theirs.get(mine["series"])
        if other is None:
            continue
        pair = paired(mine, other)
        print(
            f"{mine['series']}: {mine['wins']} -> {other['wins']} of {pair['rounds']}; "
            f"won only after {pair['gained']}, only before {pair['lost']}; p {pair['p']}"
        )


def _print(r: dict[str, Any], level: str, against: str) -> None:
    low, high = r["ci95"]
    print(
        f"{level} vs {against}, {r['series']}: won {r['wins']}/{r['rounds']} = "
        f"{r['win_rate']:.1%} (95% CI {low:.1%}-{high:.1%}; parity {r['parity']:.0%}); "
        f"decision p50 {r['decision_ms_p50']} ms, p95 {r['decision_ms_p95']} ms, "
        f"max {r['decision_ms_max']} ms; {r['searched']} searched, deals p50 "
        f"{r['deals_p50']} ({r['reach_p50']} not stopped early), {r['changed']} changed; "
        f"{r['seconds']} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
