"""``python -m server``: the same as ``uno-server``."""

from __future__ import annotations

import sys

from server.cli import main

if __name__ == "__main__":
    sys.exit(main())
