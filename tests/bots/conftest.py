"""The bots' tests import the real server process helper of ``tests/e2e`` (not a copy):
its folder is put on the import path here."""

from __future__ import annotations

import sys
from pathlib import Path

_E2E = str(Path(__file__).parent.parent / "e2e")
if _E2E not in sys.path:
    sys.path.insert(0, _E2E)
