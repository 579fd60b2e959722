"""The strength bench (tests/bench/bots.py) measures the play alone: the human traits
that tell levels apart at a table (forgetting UNO, a slow catch) stay off for every seat
(issue 27)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from client.bots.strategies import Knobs, table_knobs

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bots.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    path = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = path  # the bench puts the repository root first; nothing else changes
    return module


def test_the_levels_have_human_traits_at_a_table() -> None:
    # What the bench must switch off exists: easy forgets UNO and catches late.
    easy, hard = table_knobs("easy"), table_knobs("hard")
    assert easy.forget_uno > 0 and easy.catch_delay_ms > 0 and hard.forget_uno > 0


def _plan(bench: ModuleType, **given: Any) -> list[Any]:
    args = argparse.Namespace(
        long=False, decks=False, rounds=0, seats=[2, 4], deck="classic", preset=None,
        playouts=40, budget_ms=150, timing_rounds=40,
    )  # fmt: skip
    return list(bench.plan(argparse.Namespace(**{**vars(args), **given})))


def test_every_series_of_the_long_bench_plays_without_human_traits() -> None:
    bench = load_bench()
    series = _plan(bench, long=True)
    # The acceptance: hard at 2 and 4 seats and easy at 4, 4,000 rounds each, the
    # party preset, then the decision time at the budget.
    assert [(s.level, s.seats, s.rounds, s.preset) for s in series] == [
        (None, 2, 4000, None),
        (None, 4, 4000, None),
        ("easy", 4, 4000, None),
        (None, 2, 500, "party"),
        (None, 2, 40, None),
    ]
    assert (series[-1].playouts, series[-1].budget_ms) == (0, 150)
    for one in series:
        knobs = one.knobs()
        assert (knobs.forget_uno, knobs.catch_delay_ms, knobs.think_ms) == (0.0, 0, (0, 0))
        assert knobs.playouts == one.playouts


def test_the_other_decks_run_on_their_own_or_after_the_acceptance() -> None:
    bench = load_bench()
    alone = _plan(bench, decks=True, timing_rounds=0)
    assert [s.deck for s in alone] == ["modern-swap", "modern-shuffle", "bts", "minecraft"]
    assert {(s.seats, s.rounds) for s in alone} == {(2, 500)}
    both = _plan(bench, long=True, decks=True, timing_rounds=0)
    assert [s.deck for s in both[-4:]] == [s.deck for s in alone] and len(both) == 8


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_bench_round_hands_every_seat_knobs_without_traits(level: str, monkeypatch: Any) -> None:
    bench = load_bench()
    handed: list[tuple[str, Knobs]] = []
    real = bench.choose

    def noting(view: Any, rng: Any, strategy: str, knobs: Knobs, *rest: Any) -> Any:
        handed.append((strategy, knobs))
        return real(view, rng, strategy, knobs, *rest)

    monkeypatch.setattr(bench, "choose", noting)
    config = bench.Series(4, 1, playouts=2).config()
    tally = bench.play_round(
        config, seed=3, strong=1, level=level, against="normal", knobs=bench.Series(4, 1).knobs()
    )
    assert tally.rounds == 1
    assert {strategy for strategy, _ in handed} == {level, "normal"}
    assert all(k.forget_uno == 0.0 and k.catch_delay_ms == 0 for _, k in handed)


def test_two_runs_are_compared_round_by_round() -> None:
    bench = load_bench()
    before = {"rounds": 10, "won_rounds": [0, 1, 2, 3]}
    after = {"rounds": 10, "won_rounds": [0, 1, 4, 5, 6, 7, 8, 9]}
    pair = bench.paired(before, after)
    # Rounds both won (0, 1) say nothing; 6 gained, 2 lost: p = 2 * P(X <= 2 | n=8) = 0.2891.
    assert (pair["gained"], pair["lost"]) == (6, 2)
    assert pair["p"] == 0.2891
    assert bench.paired(before, before) == {"rounds": 10, "gained": 0, "lost": 0, "p": 1.0}
