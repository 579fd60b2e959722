"""House rules on ``uno-client``'s command line (issue 26 items 4 and 14): ``--solo`` and
``--serve`` pass ``--preset`` and the option flags to the server they start, as its
defaults for new tables, and ``--solo`` plays without a turn clock unless asked for."""

from __future__ import annotations

import pytest
import trio

from client.cli import build_parser
from client.command import server_args
from client.session import connect
from client.solo import solo_server
from protocol.messages import CreateTable


def args_of(*argv: str):
    return build_parser().parse_args(list(argv))


def test_solo_has_no_turn_clock_unless_asked_for() -> None:
    assert server_args(args_of("--solo")) == ["--turn-seconds", "0"]
    assert server_args(args_of("--solo", "--turn-seconds", "30")) == ["--turn-seconds", "30"]
    assert server_args(args_of("--serve")) == []


def test_a_preset_and_flags_become_the_servers_table_flags() -> None:
    words = server_args(args_of("--serve", "--preset", "party", "--no-jump-in"))
    assert "--seven-o" in words and "--no-jump-in" in words
    assert words[words.index("--stack") + 1] == "progressive"
    assert "--jump-in" not in words  # the flag given wins over the preset
    # --server-arg comes last, so it still has the last word
    last = server_args(args_of("--solo", "--server-arg=--turn-seconds=9"))
    assert last == ["--turn-seconds", "0", "--turn-seconds=9"]


def test_bad_house_rules_are_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        args_of("--solo", "--stack", "sideways")
    assert "invalid choice" in capsys.readouterr().err


async def connect_table(host: str, port: int):
    """A session at a new table of the server's defaults."""
    async with connect(host, port, "Ann") as session:
        await session.request(CreateTable(id=session.next_id(), name="Party"))
        await session.wait_for(lambda s: s.table is not None)
        assert session.table is not None
        return session


@pytest.mark.e2e
async def test_a_solo_party_server_makes_party_tables_without_a_clock() -> None:
    args = args_of("--solo", "--preset", "party")
    with trio.fail_after(60):
        async with solo_server(server_args(args)) as (host, port):
            session = await connect_table(host, port)
            options = session.table.options
    assert options.seven_o is True and options.jump_in is True
    assert options.stack is not None and options.stack.value == "progressive"
    assert options.turn_seconds == 0
