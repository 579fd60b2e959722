"""The bookkeeping behind the server's limits: allowance, connection gate, session numbers."""

from __future__ import annotations

import pytest

from server.limits import ConnectionGate, LimitsError, MessageAllowance, SessionLimits


def test_allowance_lets_a_burst_through_then_refuses() -> None:
    allowance = MessageAllowance(rate=2.0, burst=5.0, now=0.0)
    assert [allowance.take(0.0) for _ in range(6)] == [True] * 5 + [False]


def test_allowance_refills_at_its_rate() -> None:
    allowance = MessageAllowance(rate=2.0, burst=5.0, now=0.0)
    for _ in range(5):
        allowance.take(0.0)
    assert not allowance.take(0.1)
    # Half a second at 2 per second mints one message.
    assert allowance.take(0.5)
    assert not allowance.take(0.5)


def test_allowance_never_holds_more_than_its_burst() -> None:
    allowance = MessageAllowance(rate=100.0, burst=3.0, now=0.0)
    assert [allowance.take(1000.0) for _ in range(4)] == [True, True, True, False]


def test_a_steady_client_under_the_rate_is_never_refused() -> None:
    # Steps of 1/8 s are exact in binary floating point, so the test says what it means.
    allowance = MessageAllowance(rate=8.0, burst=1.0, now=0.0)
    assert all(allowance.take(step / 8) for step in range(1, 200))


def test_allowance_ignores_a_clock_going_backwards() -> None:
    allowance = MessageAllowance(rate=1.0, burst=1.0, now=10.0)
    assert allowance.take(10.0)
    assert not allowance.take(5.0)
    assert not allowance.take(10.5)
    assert allowance.take(11.0)


def test_gate_caps_the_total() -> None:
    gate = ConnectionGate(max_connections=2, max_per_address=2)
    assert gate.admit("10.0.0.1") is None
    assert gate.admit("10.0.0.2") is None
    refusal = gate.admit("10.0.0.3")
    assert refusal is not None
    assert "full" in refusal.reason
    gate.release("10.0.0.1")
    assert gate.admit("10.0.0.3") is None
    assert gate.open_connections == 2


def test_gate_gives_each_address_a_share() -> None:
    gate = ConnectionGate(max_connections=10, max_per_address=2)
    assert gate.admit("10.0.0.1") is None
    assert gate.admit("10.0.0.1") is None
    refusal = gate.admit("10.0.0.1")
    assert refusal is not None
    assert "10.0.0.1" in refusal.reason
    assert gate.admit("10.0.0.2") is None
    assert gate.count_for("10.0.0.1") == 2


def test_gate_release_of_an_unknown_address_is_a_bug() -> None:
    gate = ConnectionGate(max_connections=1, max_per_address=1)
    with pytest.raises(RuntimeError):
        gate.release("10.0.0.9")


def test_gate_forgets_addresses_with_no_connection() -> None:
    gate = ConnectionGate(max_connections=4, max_per_address=4)
    gate.admit("10.0.0.1")
    gate.release("10.0.0.1")
    assert gate.count_for("10.0.0.1") == 0
    assert gate.open_connections == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"handshake_seconds": 0},
        {"outbox_size": 0},
        {"allowance_burst": 0.5},
        {"allowance_rate": -1},
        {"ping_interval_seconds": 30, "idle_timeout_seconds": 30},
    ],
)
def test_session_limits_refuse_nonsense(kwargs: dict[str, float]) -> None:
    with pytest.raises(LimitsError):
        SessionLimits(**kwargs)  # type: ignore[arg-type]


def test_session_limits_defaults_are_sane() -> None:
    limits = SessionLimits()
    assert limits.idle_timeout_seconds > limits.ping_interval_seconds
    assert limits.outbox_size >= 1
