"""``uno-client``'s command line: what it says about bad arguments, before any screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.cli import main


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def test_a_port_out_of_range_is_called_that(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--server", "127.0.0.1:99999"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "99999 is out of range" in error and "1 to 65535" in error
    assert "HOST:PORT" not in error


def test_typed_addresses_say_what_is_wrong() -> None:
    from client.ui.lobby_controller import address_problem, parse_address

    assert address_problem("192.168.1.20:7531") is None
    assert parse_address("[::1]:7531") == ("::1", 7531)
    assert "no port" in str(address_problem("kitchen"))
    assert "must be a number" in str(address_problem("kitchen:x1"))
    assert "out of range" in str(address_problem("kitchen:0"))
    assert "brackets" in str(address_problem("::1:7531"))


def test_solo_and_serve_seat_bots_of_the_level_asked_for() -> None:
    from client.cli import build_parser
    from client.command import start_plan

    assert start_plan(build_parser().parse_args(["--solo"]), "Ann").level == "normal"
    solo = start_plan(build_parser().parse_args(["--solo", "--level", "hard"]), "Ann")
    assert solo.level == "hard" and solo.bots == 3
    serve = build_parser().parse_args(["--serve", "--bots", "1", "--level", "easy"])
    assert start_plan(serve, "Ann").level == "easy"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--solo", "--level", "genius"])
