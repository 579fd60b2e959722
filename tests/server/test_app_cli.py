"""The ``uno-server`` command line: flags become settings, nonsense is refused."""

from __future__ import annotations

import dataclasses
import errno
import os
import socket
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from protocol.options import TableConfig
from server.app import DEFAULT_PORT
from server.cli import build_parser, main
from server.command import (
    Config,
    announce,
    config_from_args,
)


def configure(*argv: str) -> Config:
    return config_from_args(build_parser().parse_args(list(argv)))


def test_defaults_listen_everywhere_on_the_fixed_port() -> None:
    config = configure()
    assert config.server.hosts == ()
    assert config.server.port == DEFAULT_PORT
    assert config.server.max_connections == 256
    assert config.lobby.seed is None
    assert config.mdns
    assert config.identity.name.startswith("uno-lan on ")


def test_flags_reach_every_setting() -> None:
    config = configure(
        "--host", "127.0.0.1", "--host", "::1", "--port", "0", "--name", "Kitchen\x1b[31m",
        "--max-connections", "10", "--max-per-address", "50", "--allowance", "5", "8",
        "--turn-seconds", "3", "--decision-seconds", "4", "--dance-seconds", "6",
        "--round-pause-seconds", "0", "--catch-grace-ms", "250", "--seed", "42",
        "--no-mdns", "--mdns-interface", "192.0.2.1", "--idle-seconds", "60",
        "--empty-table-seconds", "5",
    )  # fmt: skip
    assert config.server.hosts == ("127.0.0.1", "::1")
    assert config.server.port == 0
    assert config.identity.name == "Kitchen"
    assert config.lobby.server_name == "Kitchen"
    # A share larger than the cap is capped.
    assert (config.server.max_connections, config.server.max_per_address) == (10, 10)
    assert (config.server.session.allowance_rate, config.server.session.allowance_burst) == (5, 8)
    assert config.server.session.idle_timeout_seconds == 60
    defaults = config.lobby.table_defaults
    assert (defaults.turn_seconds, defaults.decision_seconds, defaults.dance_seconds) == (3, 4, 6)
    assert (defaults.round_pause_seconds, defaults.catch_grace_ms) == (0, 250)
    assert config.lobby.seed == 42
    assert config.lobby.empty_table_seconds == 5
    assert not config.mdns
    assert config.mdns_interfaces == ("192.0.2.1",)


@pytest.mark.parametrize(
    "argv",
    [
        ["--turn-seconds", "-1"],
        ["--port", "70000"],
        ["--max-connections", "0"],
        ["--allowance", "0", "5"],
        ["--name", "\x1b[2J"],
        ["--ping-seconds", "50", "--idle-seconds", "40"],
        ["--log-level", "chatty"],
        ["--empty-table-seconds", "0"],
        ["--deck", "uno-flip"],
        ["--scoring", "teams", "--seats", "3"],
    ],
)
def test_nonsense_is_refused_with_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "uno-server" in capsys.readouterr().err


TABLE_OPTIONS = dataclasses.fields(TableConfig)


def _flag(option: dataclasses.Field[Any]) -> str:
    return "--" + option.name.replace("_", "-")


def _other_value(option: dataclasses.Field[Any]) -> tuple[list[str], Any]:
    """Command-line words that set ``option`` to a value other than its default, and that
    value as TableConfig holds it."""
    default = option.default
    if isinstance(default, bool):
        return (
            [_flag(option).replace("--", "--no-", 1) if default else _flag(option)],
            not default,
        )
    if isinstance(default, StrEnum):
        other = list(type(default))[-1]
        assert other != default
        return [_flag(option), other.value], other
    assert isinstance(default, int)
    other_int = default + 1 if default == 0 else default - 1
    return [_flag(option), str(other_int)], other_int


@pytest.mark.parametrize("option", TABLE_OPTIONS, ids=[o.name for o in TABLE_OPTIONS])
def test_every_table_option_has_a_flag_that_sets_the_default_for_new_tables(
    option: dataclasses.Field[Any],
) -> None:
    argv, expected = _other_value(option)
    defaults = configure(*argv).lobby.table_defaults
    assert getattr(defaults, option.name) == expected
    assert defaults == dataclasses.replace(TableConfig(), **{option.name: expected})


def test_without_table_flags_new_tables_get_table_configs_defaults() -> None:
    assert configure().lobby.table_defaults == TableConfig()


def test_the_help_and_the_hosting_guide_name_every_table_flag() -> None:
    help_text = " ".join(build_parser().format_help().split())
    guide = (Path(__file__).parents[2] / "docs" / "hosting.md").read_text(encoding="utf-8")
    for option in TABLE_OPTIONS:
        assert f"{_flag(option)} " in help_text
        assert option.metadata["doc"] in help_text
        assert f"`{_flag(option)}" in guide, f"docs/hosting.md does not list {_flag(option)}"


def test_announce_says_where_and_warns_about_open_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    announce([("0.0.0.0", 7531), ("::", 7531)], ())
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "uno-server listening on 0.0.0.0:7531"
    assert "127.0.0.1:7531" in lines[1]
    assert "[::1]:7531" in lines[1]
    assert "password" in lines[2]


def test_announce_on_loopback_only_has_no_network_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    announce([("127.0.0.1", 40000)], ("127.0.0.1",))
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "uno-server listening on 127.0.0.1:40000"
    assert "password" not in out


def test_a_preset_sets_the_house_rules_of_new_tables_and_a_flag_given_wins() -> None:
    party = configure("--preset", "party").lobby.table_defaults
    assert party.seven_o and party.jump_in and party.stack.value == "progressive"
    assert party.turn_seconds == TableConfig().turn_seconds  # the rest as it was
    mixed = configure("--preset", "party", "--no-jump-in", "--turn-seconds", "9")
    defaults = mixed.lobby.table_defaults
    assert defaults.seven_o and not defaults.jump_in and defaults.turn_seconds == 9
    assert configure("--preset", "official").lobby.table_defaults == TableConfig()


def test_a_port_in_use_names_its_errno_once() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port)]
        command += ["--no-mdns", "--no-state", "--no-web"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"uno-server: [Errno {errno.EADDRINUSE}] cannot listen on 127.0.0.1:")
    assert last.count("Errno") == 1 and last.endswith(os.strerror(errno.EADDRINUSE))
