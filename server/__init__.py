"""The authoritative UNO server: the rules engine (``server.engine``) and its Trio shell.

The shell: ``Server`` (listeners, the connection gate, shutdown; server/app.py), one
``Session`` per connection (server/session.py), the ``Lobby`` and its tables
(server/lobby.py, server/table.py), and ``uno-server`` (server/cli.py).

Names are imported on first use, so that ``import server.engine`` stays free of Trio.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "Lobby",
    "LobbySettings",
    "Peer",
    "Server",
    "ServerIdentity",
    "ServerSettings",
    "Session",
    "SessionLimits",
]

_HOMES = {
    "Lobby": "server.lobby",
    "LobbySettings": "server.settings",
    "Peer": "server.peer",
    "Server": "server.app",
    "ServerIdentity": "server.session",
    "ServerSettings": "server.app",
    "Session": "server.session",
    "SessionLimits": "server.limits",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'server' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
