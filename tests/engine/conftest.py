"""Fixtures shared by the engine tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from server.engine import Match


def check_replays(match: Match) -> None:
    """Assert that seed + log and snapshot + restore both rebuild ``match`` exactly."""
    live = match.snapshot()
    replayed = Match.replay(match.config, match.seed, match.log, start_ms=match.start_ms)
    assert replayed.snapshot() == live, "seed + log does not replay to the live match"
    restored = Match.restore(live)
    assert restored.snapshot() == live, "restore(snapshot) differs from the live match"
    assert restored.state_digest() == match.state_digest()


@pytest.fixture
def assert_replays() -> Callable[[Match], None]:
    """``assert_replays(match)``: replay from seed + log and restore from the snapshot
    must both equal the live match (ruling 19)."""
    return check_replays
