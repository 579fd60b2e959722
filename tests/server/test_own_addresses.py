"""Which addresses are the server's own machine (``server.own_addresses``)."""

from __future__ import annotations

from server.own_addresses import OwnAddresses


def test_loopback_and_the_interfaces_are_own_and_other_loopbacks_are_guests() -> None:
    own = OwnAddresses(["192.0.2.2", "fd00::2", "fe80::1%eth0"])
    assert "127.0.0.1" in own and "::1" in own
    assert "192.0.2.2" in own and "fd00::2" in own and "fe80::1" in own
    assert "127.0.0.2" not in own and "192.0.2.3" not in own
    assert "::ffff:127.0.0.1" in own  # an IPv4 peer on a dual-stack socket
    assert "not an address" not in own and None not in own


def test_this_machine_has_at_least_its_loopback() -> None:
    own = OwnAddresses()
    assert "127.0.0.1" in own and "127.0.0.9" not in own
