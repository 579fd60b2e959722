"""Scripted protocol bots: strategies, a small async bot API, and the ``uno-bot`` runner.

A strategy is a pure function from the view the server sent to one of the legal commands
listed in it (``choose``); the server's own bot seats use the same function. ``Bot`` and
``connect_bot`` script a player or a scenario over the real protocol; ``run_bots`` plays
whole matches with N bots, as ``uno-bot`` does. See docs/bots.md.

Names are imported on first use, so that ``uno-bot --help`` stays free of Trio.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "STRATEGIES",
    "Bot",
    "Knobs",
    "RefusedError",
    "RunSettings",
    "Stats",
    "TableNotFoundError",
    "UnknownStrategyError",
    "choose",
    "connect_bot",
    "open_bot",
    "play_bot",
    "run_bots",
]

_HOMES = {
    "STRATEGIES": "client.bots.strategies",
    "Bot": "client.bots.api",
    "Knobs": "client.bots.strategies",
    "RefusedError": "client.bots.api",
    "RunSettings": "client.bots.runner",
    "Stats": "client.bots.runner",
    "TableNotFoundError": "client.bots.api",
    "UnknownStrategyError": "client.bots.strategies",
    "choose": "client.bots.strategies",
    "connect_bot": "client.bots.api",
    "open_bot": "client.bots.api",
    "play_bot": "client.bots.runner",
    "run_bots": "client.bots.runner",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
