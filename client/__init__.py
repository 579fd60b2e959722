"""The client side of uno-lan: the network session, finding servers, and the bots.

``client.session`` is the Trio network session every client uses (``connect``,
``open_session``); ``client.discovery`` finds servers on the LAN over mDNS
(``find_server``, ``browse``, ``keep_listed``); ``client.bots`` holds the strategies, the
bot API and ``uno-bot`` (``connect_bot``, ``choose``, ``run_bots``). Their public names are
re-exported here, imported on first use, so that a ``--help`` loads none of them.
``client.ui`` is the prompt-toolkit program behind ``uno-client``; it is not
re-exported, so importing ``client`` never loads prompt-toolkit.
The client never imports the server: it learns legal moves from the views it is sent.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "SERVICE_TYPE",
    "STRATEGIES",
    "Bot",
    "ClientSession",
    "ConnectionLostError",
    "DiscoveryUnavailableError",
    "FoundServer",
    "InvalidLocalCommandError",
    "Knobs",
    "NoServerFoundError",
    "RefusedError",
    "Reply",
    "ResumeState",
    "RunSettings",
    "ServerClosedError",
    "ServerProtocolError",
    "SessionError",
    "Stats",
    "TableNotFoundError",
    "UnknownStrategyError",
    "browse",
    "choose",
    "connect",
    "connect_bot",
    "describe",
    "find_server",
    "keep_listed",
    "open_bot",
    "open_session",
    "play_bot",
    "run_bots",
]

_HOMES = {
    "SERVICE_TYPE": "client.discovery",
    "STRATEGIES": "client.bots",
    "Bot": "client.bots",
    "ClientSession": "client.session",
    "ConnectionLostError": "client.session",
    "DiscoveryUnavailableError": "client.discovery",
    "FoundServer": "client.discovery",
    "InvalidLocalCommandError": "client.session",
    "Knobs": "client.bots",
    "NoServerFoundError": "client.discovery",
    "RefusedError": "client.bots",
    "Reply": "client.session",
    "ResumeState": "client.session",
    "RunSettings": "client.bots",
    "ServerClosedError": "client.session",
    "ServerProtocolError": "client.session",
    "SessionError": "client.session",
    "Stats": "client.bots",
    "TableNotFoundError": "client.bots",
    "UnknownStrategyError": "client.bots",
    "browse": "client.discovery",
    "choose": "client.bots",
    "connect": "client.session",
    "connect_bot": "client.bots",
    "describe": "client.discovery",
    "find_server": "client.discovery",
    "keep_listed": "client.discovery",
    "open_bot": "client.bots",
    "open_session": "client.session",
    "play_bot": "client.bots",
    "run_bots": "client.bots",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
