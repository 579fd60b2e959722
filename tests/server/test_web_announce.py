"""What ``uno-server`` prints so that guests find the page: its URL, and a QR code."""

from __future__ import annotations

import pytest

from server.cli import build_parser
from server.command import config_from_args
from server.web_address import announce_page, print_qr_code


def test_a_lan_address_is_printed_as_the_pages_url(capsys: pytest.CaptureFixture[str]) -> None:
    announce_page([("192.168.1.20", 7532), ("fe80::1", 7532)])
    lines = capsys.readouterr().out.splitlines()
    assert "browser page: http://192.168.1.20:7532/" in lines
    assert "browser page: http://[fe80::1]:7532/" in lines
    assert not any("only from this machine" in line for line in lines)


def test_a_loopback_server_says_its_page_is_for_this_machine_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    announce_page([("127.0.0.1", 7532)])
    out = capsys.readouterr().out
    assert out == "browser page: http://127.0.0.1:7532/ (reachable only from this machine)\n"


def test_no_page_is_said_too(capsys: pytest.CaptureFixture[str]) -> None:
    announce_page([])
    assert capsys.readouterr().out.startswith("no browser page")


def test_the_qr_code_is_drawn_in_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    print_qr_code("http://192.168.1.20:7532/")
    first, *code = capsys.readouterr().out.splitlines()
    assert first == "scan to open http://192.168.1.20:7532/:"
    assert len(code) >= 12
    assert len({len(line) for line in code}) == 1  # a square of one width
    assert set("".join(code)) <= set(" █▀▄")


@pytest.mark.parametrize(
    ("flags", "web_port"),
    [
        ([], 7532),
        (["--port", "0"], 0),
        (["--port", "0", "--web-port", "8080"], 8080),
        (["--web-port", "9000"], 9000),
        (["--no-web"], None),
        (["--no-web", "--web-port", "9000"], None),
    ],
)
def test_the_web_port_follows_the_flags(flags: list[str], web_port: int | None) -> None:
    config = config_from_args(build_parser().parse_args(["--no-state", *flags]))
    assert config.server.web_port == web_port
