"""Scripted protocol bots: strategies, a small async bot API, and the ``uno-bot`` runner.

A strategy is a pure function from the view the server sent to one of the legal commands
listed in it (``choose``); the server's own bot seats use the same function. ``Bot`` and
``connect_bot`` script a player or a scenario over the real protocol; ``run_bots`` plays
whole matches with N bots, as ``uno-bot`` does. See docs/bots.md.
"""

from client.bots.api import Bot, RefusedError, TableNotFoundError, connect_bot, open_bot
from client.bots.runner import RunSettings, Stats, play_bot, run_bots
from client.bots.strategies import STRATEGIES, Knobs, UnknownStrategyError, choose

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
