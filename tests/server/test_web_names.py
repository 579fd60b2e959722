"""Which Host and Origin the web port accepts, and which files it serves (no sockets)."""

from __future__ import annotations

import subprocess
import sys

from server.web_files import ShippedFiles, content_security_policy
from server.web_names import WebNames, host_literal

NAMES = WebNames.of(7532, ["192.168.1.20", "fe80::1%eth0", "127.0.0.1"], "kitchen")


def test_the_servers_own_names_with_its_port_are_accepted() -> None:
    for host in (
        "192.168.1.20:7532",
        "[fe80::1]:7532",
        "127.0.0.1:7532",
        "localhost:7532",
        "kitchen:7532",
        "kitchen.local:7532",
        "KITCHEN.Local:7532",
    ):
        assert NAMES.accepts_host(host), host


def test_other_names_ports_and_malformed_hosts_are_refused() -> None:
    for host in (
        None,
        "",
        "192.168.1.21:7532",
        "192.168.1.20:7531",
        "192.168.1.20",
        "evil.example:7532",
        "kitchen.evil.example:7532",
        "[fe80::1:7532",
        "[fe80::1]7532",
        "localhost:x",
        "localhost:075320",
    ):
        assert not NAMES.accepts_host(host), host


def test_port_80_may_be_left_out() -> None:
    names = WebNames.of(80, ["10.0.0.2"], "box")
    assert names.accepts_host("10.0.0.2")
    assert names.accepts_host("10.0.0.2:80")


def test_the_origin_must_be_the_page_the_host_names() -> None:
    host = "192.168.1.20:7532"
    assert NAMES.accepts_origin("http://192.168.1.20:7532", host)
    for origin in (
        None,
        "null",
        "https://192.168.1.20:7532",
        "http://192.168.1.20:7531",
        "http://localhost:7532",
        "http://evil.example",
    ):
        assert not NAMES.accepts_origin(origin, host), origin
    # The origin of a foreign host is refused even when it matches that host.
    assert not NAMES.accepts_origin("http://evil.example:7532", "evil.example:7532")


def test_an_ipv6_literal_is_written_in_brackets() -> None:
    assert host_literal("fe80::1%eth0") == "[fe80::1]"
    assert host_literal("10.0.0.1") == "10.0.0.1"
    assert host_literal("Box") == "box"


def test_only_the_shipped_files_answer() -> None:
    files = ShippedFiles.load()
    assert "/" in files.paths and "/index.html" in files.paths
    index = files.get("/?table=1")
    assert index is not None and index.content_type.startswith("text/html")
    for target in ("/../pyproject.toml", "/web/index.html", "/app.py", "", "index.html"):
        assert files.get(target) is None, target
    assert all(path.startswith("/") and ".." not in path for path in files.paths)


def test_the_policy_names_the_websocket_origin() -> None:
    policy = content_security_policy("10.0.0.2:7532")
    assert "connect-src ws://10.0.0.2:7532;" in policy
    assert "default-src 'none'" in policy
    assert "script-src 'self'" in policy


def test_the_command_line_does_not_load_the_websocket_library() -> None:
    code = (
        "import sys\n"
        "from server import cli\n"
        "cli.build_parser().format_help()\n"
        "from server import app\n"
        "print('websockets' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_page_is_small_and_loads_nothing_from_elsewhere() -> None:
    files = ShippedFiles.load()
    assert files.total_bytes < 200_000
    for path in files.paths:
        shipped = files.get(path)
        assert shipped is not None
        text = shipped.body.decode()
        assert "https://" not in text and "http://" not in text, path
        assert 'src="//' not in text and 'href="//' not in text, path
