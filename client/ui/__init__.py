"""The terminal client's UI: model, render, keys, controller, network, app.

Names are imported on first use, so that a light module of ``client.ui`` loads no
prompt-toolkit.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ClientApp",
    "Connect",
    "Controller",
    "GameIntent",
    "Intent",
    "LeaveTable",
    "Mode",
    "Model",
    "Network",
    "Plan",
    "Quit",
    "Screen",
    "TableRequest",
    "render",
]

_HOMES = {
    "ClientApp": "client.ui.app",
    "Connect": "client.ui.intents",
    "Controller": "client.ui.controller",
    "GameIntent": "client.ui.intents",
    "Intent": "client.ui.intents",
    "LeaveTable": "client.ui.intents",
    "Mode": "client.ui.model",
    "Model": "client.ui.model",
    "Network": "client.ui.network",
    "Plan": "client.ui.network",
    "Quit": "client.ui.intents",
    "Screen": "client.ui.model",
    "TableRequest": "client.ui.intents",
    "render": "client.ui.render",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
