"""The reliability suite: hostile input, cut connections and abuse against a live server.

Every test here starts a real ``uno-server`` process on 127.0.0.1 and is marked ``e2e``
(deselect with ``-m "not e2e"``). The helpers of ``tests/e2e`` (the server process, the
protocol-only client, the secrecy checks) and the message strategies of ``tests/protocol``
are imported, not copied: their folders are put on the import path here.

``UNO_SOAK=1`` turns the suite into its long form (a million fuzzed frames, many more
chaos tables); ``UNO_RELIABILITY_REPORT=<file>`` appends every figure the tests measure to
that file as one JSON object per line (docs/reliability.md is written from it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).parent
for _helpers in ("e2e", "protocol"):
    _folder = str(_HERE.parent / _helpers)
    if _folder not in sys.path:
        sys.path.insert(0, _folder)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
