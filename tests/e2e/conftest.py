"""End-to-end tests: the real ``uno-server`` process on 127.0.0.1, clients from protocol/.

Every test here is marked ``e2e``; deselect them with ``-m "not e2e"``. Each server
process is stopped (and killed if it must be) when its test ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_server import ServerProcess

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def uno_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fresh server with test defaults (seed 7, bots that do not wait)."""
    server = ServerProcess.start(tmp_path)
    try:
        yield server
    finally:
        server.stop()
