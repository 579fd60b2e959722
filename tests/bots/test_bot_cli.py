"""``uno-bot`` as a person meets it: its help, and Ctrl-C in the middle of play."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest
import trio

from client.bots.cli import build_parser


def test_help_says_each_default_once_and_explains_every_flag() -> None:
    parser = build_parser()
    text = parser.format_help()
    assert "(default: None)" not in text and "(default: )" not in text
    flags = re.split(r"\n  (?=-)", text)
    for flag in flags:
        assert flag.count("default") <= 1, flag
    unexplained = [
        action.option_strings[0]
        for action in parser._actions
        if action.option_strings and not action.help
    ]
    assert unexplained == []


@pytest.mark.e2e
async def test_ctrl_c_in_play_ends_quietly_with_a_summary_and_130() -> None:
    command = [sys.executable, "-m", "client.bots", "--spawn-server", "--bots", "2"]
    command += ["--games", "50", "--think-ms", "20", "20", "--seed", "3"]
    # A terminal's Ctrl-C reaches the whole foreground process group: the bots and the
    # server they spawned.
    process = await trio.lowlevel.open_process(
        command, stderr=subprocess.PIPE, start_new_session=True
    )
    assert process.stderr is not None
    err = b""
    with trio.fail_after(60):
        while b"bots playing at" not in err:
            chunk = await process.stderr.receive_some(4096)
            assert chunk, err
            err += chunk
        os.killpg(process.pid, signal.SIGINT)
        async for chunk in process.stderr:
            err += chunk
        await process.wait()
    lines = err.decode().strip().splitlines()
    assert process.returncode == 130, lines
    assert lines[0].startswith("uno-bot: 2 bots playing at 127.0.0.1:")
    assert len(lines) == 2 and lines[1].startswith("uno-bot: interrupted after 0 of 50 matches")


@pytest.mark.e2e
async def test_ctrl_c_with_json_still_prints_the_json_summary() -> None:
    command = [sys.executable, "-m", "client.bots", "--spawn-server", "--bots", "2", "--json"]
    command += ["--games", "50", "--think-ms", "20", "20", "--seed", "3"]
    process = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    assert process.stderr is not None and process.stdout is not None
    err = b""
    with trio.fail_after(60):
        while b"bots playing at" not in err:
            chunk = await process.stderr.receive_some(4096)
            assert chunk, err
            err += chunk
        os.killpg(process.pid, signal.SIGINT)
        out = b""
        async for chunk in process.stdout:
            out += chunk
        await process.wait()
    assert process.returncode == 130
    summary = json.loads(out.decode())
    assert summary["interrupted"] is True
    assert summary["matches"] == 0 and "latency_ms" in summary
