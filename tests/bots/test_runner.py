"""The runner and the uno-bot command line, against real server processes."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
import trio
from typed_views import play, view

from client.bots.cli import build_parser, main
from client.bots.command import parse_address, settings_from_args, spawn_server
from client.bots.runner import Pacer, RunSettings, _think_seconds, run_bots
from client.bots.strategies import Knobs


def test_addresses_parse_with_and_without_brackets() -> None:
    assert parse_address("127.0.0.1:7531") == ("127.0.0.1", 7531)
    assert parse_address("[::1]:80") == ("::1", 80)
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address("localhost")


def test_table_flags_become_options_and_unset_flags_stay_out() -> None:
    args = build_parser().parse_args(
        ["--spawn-server", "--deck", "bts", "--stack-draw-two", "--target-score", "200"]
    )
    settings = settings_from_args(args, "127.0.0.1", 1)
    assert settings.options == {"deck": "bts", "stack_draw_two": True, "target_score": 200}
    assert settings.create and settings.rate is None


def test_knob_flags_reach_the_knobs() -> None:
    args = build_parser().parse_args(
        [
            "--server",
            "127.0.0.1:9",
            "--table",
            "t",
            "--no-catch",
            "--forget-uno",
            "0.5",
            "--think-ms",
            "10",
            "20",
            "--challenge",
            "never",
            "--dance",
            "wrong",
            "--catch-delay-ms",
            "300",
        ]
    )
    settings = settings_from_args(args, "127.0.0.1", 9)
    assert settings.knobs == Knobs(
        think_ms=(10, 20),
        forget_uno=0.5,
        catch=False,
        catch_delay_ms=300,
        challenge="never",
        dance="wrong",
    )
    assert not settings.create and settings.rate == 15.0


def test_impossible_table_options_are_refused_before_connecting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--server", "127.0.0.1:9", "--hand-size", "99"]) == 2
    assert "hand_size" in capsys.readouterr().err


async def test_the_pacer_spaces_out_messages_over_the_rate(autojump_clock: object) -> None:
    pacer = Pacer(10.0, 2.0)
    start = trio.current_time()
    for _ in range(12):
        await pacer.take()
    # Two at once, then ten more at ten a second.
    assert trio.current_time() - start >= 0.99


@pytest.mark.e2e
@pytest.mark.parametrize("strategy", ["basic", "random"])
async def test_run_bots_plays_whole_matches_without_rejections(strategy: str) -> None:
    with trio.fail_after(120):
        async with spawn_server(["--round-pause-seconds", "0"], seed=3) as (host, port):
            settings = RunSettings(
                host=host,
                port=port,
                bots=3,
                strategy=strategy,
                games=2,
                seed=3,
                options={"target_score": 100},
                rate=None,
            )
            stats = await run_bots(settings)
    summary = stats.summary()
    assert summary["matches"] == 2 and len(summary["results"]) == 2
    assert summary["rejections"] == 0 and summary["protocol_errors"] == 0
    assert summary["gaps"] == 0 and summary["rounds"] >= 2
    for result in summary["results"]:
        assert set(result["scores"]) == {"bot1", "bot2", "bot3"}
        assert result["scores"][result["winner"]] >= 100
    assert summary["latency_ms"]["p50"] <= summary["latency_ms"]["p99"]


@pytest.mark.e2e
async def test_uno_bot_prints_one_json_summary() -> None:
    command = [sys.executable, "-m", "client.bots", "--spawn-server", "--bots", "2"]
    command += ["--games", "1", "--target-score", "60", "--seed", "2", "--json"]
    with trio.fail_after(120):
        done = await trio.run_process(command, capture_stdout=True, check=False)
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["matches"] == 1 and summary["protocol_errors"] == 0
    keys = {"matches", "rounds", "results", "commands", "rejections", "races", "latency_ms"}
    assert keys <= set(summary)


def test_spawned_server_is_not_left_behind() -> None:
    async def scenario() -> int:
        async with spawn_server() as (_, port):
            return port

    port = trio.run(scenario)
    assert port > 0
    # Nothing listens there any more once the block ended.
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import socket; socket.create_connection(('127.0.0.1', {port}), 2)",
        ],
        capture_output=True,
        check=False,
    )
    assert probe.returncode != 0


def test_a_preset_sets_the_house_rules_and_a_flag_given_wins() -> None:
    args = build_parser().parse_args(["--spawn-server", "--preset", "party", "--no-seven-o"])
    options = settings_from_args(args, "127.0.0.1", 1).options
    assert options["jump_in"] and options["stack"] == "progressive"
    assert options["seven_o"] is False and options["force_play"] is False


def test_a_jump_in_waits_a_human_reaction_drawn_from_its_knob() -> None:
    args = build_parser().parse_args(["--spawn-server", "--jump-in-ms", "700", "900"])
    knobs = settings_from_args(args, "127.0.0.1", 1).knobs
    assert knobs.jump_in_ms == (700, 900)
    assert Knobs().jump_in_ms == (600, 1200)  # the default: about 600-1,200 ms
    jump = play("R5")
    out_of_turn = view(["R5"], "R", [jump], seat=2, to_act=1)
    rng = random.Random(1)
    waits = {_think_seconds(jump, out_of_turn, 2, rng, knobs) for _ in range(50)}
    assert all(0.7 <= wait <= 0.9 for wait in waits) and len(waits) > 1
    # On its own turn the same play waits the think time (none here).
    own_turn = view(["R5"], "R", [jump], seat=2, to_act=2)
    assert _think_seconds(jump, own_turn, 2, rng, knobs) == 0.0
