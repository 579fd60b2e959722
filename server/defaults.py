"""The server's defaults that its command line shows, in a module light enough for
``uno-server --help`` (no Trio, no SQLite)."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from protocol.startup import DEFAULT_PORT

__all__ = ["DEFAULT_PORT", "DEFAULT_WEB_PORT", "default_state_path"]

DEFAULT_WEB_PORT = 7532
"""The port of the browser page and its WebSocket unless told otherwise."""


def default_state_path() -> Path:
    """Where the journal lives unless ``--state`` says otherwise: the platform's state
    directory (on Linux ``$XDG_STATE_HOME/uno-lan``, by default ``~/.local/state``)."""
    return Path(platformdirs.user_state_dir("uno-lan")) / "server.sqlite3"
