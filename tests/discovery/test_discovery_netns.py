"""Real zeroconf between real processes, inside network namespaces these tests create.

(a) One namespace, multicast on loopback: a browser process sees the server appear with its
TXT, change when a table opens, and go when it stops; two servers of one name both appear.
(b) Two namespaces joined by a veth pair: a bot on one host finds the server on the other
without being given an address, and plays a match.
Nothing here sends mDNS outside these namespaces; every process names its interface.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import trio
from discovery_netns import (
    WAIT_SECONDS,
    bare_namespace,
    child_env,
    listening_port,
    loopback_namespace,
    probe_command,
    run_in,
    server_command,
    skip_reason,
    stopped,
    two_hosts,
)

from protocol.version import SUPPORTED_VERSIONS, parse_version

_REASON = skip_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=_REASON or "")

LO = "127.0.0.1"
SPOKEN = max(
    SUPPORTED_VERSIONS, key=lambda text: parse_version(text) or (0, 0)
)  # one major version so far


async def test_a_server_is_found_updated_and_removed(tmp_path: Path) -> None:
    env, log = child_env(tmp_path), tmp_path / "processes.log"
    with loopback_namespace() as ns:
        async with run_in(ns, probe_command("changes", LO), env, log) as browser:
            await browser.json_until(lambda m: m.get("ready"))
            flags = ("--host", LO, "--mdns-interface", LO, "--name", "Den")
            async with run_in(ns, server_command(*flags), env, log) as server:
                port = await listening_port(server)
                added = await browser.json_until(lambda m: m.get("kind") == "added")
                assert (added["name"], added["host"], added["port"]) == ("Den", LO, port)
                assert added["compatible"] and added["protocols"] == [SPOKEN]
                assert (added["tables"], added["open"], added["seats"]) == (0, 0, 0)
                assert not added["password"]

                table = probe_command("table", LO, str(port), "Friday")
                async with run_in(ns, table, env, log) as creator:
                    ready = await creator.json_until(lambda m: m.get("ready"))
                    assert ready["server_id"] == added["id"]  # the welcome's id is the TXT's
                    updated = await browser.json_until(
                        lambda m: m.get("kind") == "updated" and m["open"] == 1
                    )
                    assert updated["key"] == added["key"]
                    assert (updated["tables"], updated["seats"]) == (1, 3)

                assert await stopped(server) == 0
                removed = await browser.json_until(lambda m: m.get("kind") == "removed")
                assert removed["key"] == added["key"]
    assert "withdrew the mDNS advertisement 'Den'" in log.read_text()


async def test_the_client_find_screen_lists_the_server_and_joins_it(tmp_path: Path) -> None:
    env, log = child_env(tmp_path), tmp_path / "processes.log"
    with loopback_namespace() as ns:
        flags = ("--host", LO, "--mdns-interface", LO, "--name", "Den")
        async with run_in(ns, server_command(*flags), env, log) as server:
            port = await listening_port(server)
            async with run_in(ns, probe_command("find", LO), env, log) as finder:
                joined = await finder.json_until(lambda m: "joined" in m)
    assert joined == {"joined": f"{LO}:{port}", "server_name": "Den"}


async def test_two_servers_of_one_name_are_both_found(tmp_path: Path) -> None:
    env, log = child_env(tmp_path), tmp_path / "processes.log"
    flags = ("--host", LO, "--mdns-interface", LO, "--name", "Twin")
    with loopback_namespace() as ns:
        async with run_in(ns, probe_command("listed", LO), env, log) as browser:
            await browser.json_until(lambda m: isinstance(m, dict) and bool(m.get("ready")))
            async with (
                run_in(ns, server_command(*flags), env, log) as first,
                run_in(ns, server_command(*flags), env, log) as second,
            ):
                ports = {await listening_port(first), await listening_port(second)}
                listed = await browser.json_until(lambda m: isinstance(m, list) and len(m) == 2)
    assert {server["port"] for server in listed} == ports
    assert {server["name"] for server in listed} == {"Twin"}
    assert len({server["key"] for server in listed}) == 2
    assert "renamed to 'Twin-2'" in log.read_text()


async def test_without_mdns_the_server_still_serves_and_says_why(tmp_path: Path) -> None:
    env = child_env(tmp_path)
    with bare_namespace() as ns:
        # 10.99.0.1 is on no interface of this namespace: mDNS cannot start there.
        flags = ("--host", LO, "--mdns-interface", "10.99.0.1", "--advertise-ip", LO)
        async with run_in(ns, server_command(*flags), env, stderr=None) as server:
            port = await listening_port(server)
            with trio.fail_after(WAIT_SECONDS):
                warning = await server.line()
                while "uno.server.mdns" not in warning:
                    warning = await server.line()
            assert "WARNING" in warning and "mDNS is unavailable on 10.99.0.1" in warning
            assert "connect by address" in warning
            table = probe_command("table", LO, str(port), "still-serving")
            async with run_in(ns, table, env, tmp_path / "probe.log") as creator:
                ready = await creator.json_until(lambda m: m.get("ready"))
            assert ready["server_id"]
            assert await stopped(server) == 0
    assert not [line for line in server.seen if "Traceback" in line]


async def test_a_bot_on_another_host_finds_the_server_and_plays(tmp_path: Path) -> None:
    env, log = child_env(tmp_path), tmp_path / "processes.log"
    with two_hosts("10.77.0.1", "10.77.0.2") as (host_a, host_b):
        flags = (
            "--mdns-interface",
            "10.77.0.1",
            "--name",
            "Upstairs",
            "--round-pause-seconds",
            "1",
            # The bots below send up to 200 messages a second; the default allowance is 50.
            "--allowance",
            "1000",
            "1000",
        )
        async with run_in(host_a, server_command(*flags), env, log) as server:
            await listening_port(server)
            bot = [
                sys.executable,
                "-m",
                "client.bots",
                "--mdns-interface",
                "10.77.0.2",
                "--discover-seconds",
                "20",
                "--create",
                "--table",
                "across",
                "--bots",
                "2",
                "--games",
                "1",
                "--target-score",
                "60",
                "--seed",
                "5",
                "--rate",
                "200",
                "--timeout",
                "240",
                "--json",
            ]
            async with run_in(host_b, bot, env, log) as bots:
                with trio.fail_after(300):
                    summary = json.loads(await bots.line())
                    status = await bots.process.wait()
    assert status == 0, log.read_text()[-3000:]
    assert summary["matches"] == 1 and not summary["protocol_errors"]
    assert "uno-bot: joining Upstairs  10.77.0.1:" in log.read_text()
