"""The client's remembered settings (the player's name, the bell) and where its log goes.

The config file is ``$XDG_CONFIG_HOME/uno-lan/config.json`` (``~/.config`` when the
variable is unset; ``%APPDATA%`` on Windows); the log is ``$XDG_STATE_HOME/uno-lan/
client.log`` (``~/.local/state``); saved replays go to ``$XDG_DATA_HOME/uno-lan/replays``
(``~/.local/share``). A missing or broken config file is treated as empty.
"""

from __future__ import annotations

import getpass
import json
import os
from pathlib import Path
from typing import Any

from protocol.limits import MAX_NAME_LEN, clean_text

__all__ = [
    "bell_wanted",
    "config_path",
    "default_name",
    "load_config",
    "log_path",
    "remember",
    "remember_name",
    "replays_dir",
]

APP_DIR = "uno-lan"


def _base(variable: str, fallback: str) -> Path:
    value = os.environ.get(variable)
    if value:
        return Path(value)
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"])
    return Path.home() / fallback


def config_path() -> Path:
    """Where the config file lives."""
    return _base("XDG_CONFIG_HOME", ".config") / APP_DIR / "config.json"


def log_path() -> Path:
    """Where the client writes its log (never to the screen)."""
    return _base("XDG_STATE_HOME", ".local/state") / APP_DIR / "client.log"


def replays_dir() -> Path:
    """Where the client saves replay files (``client.replay_save``)."""
    return _base("XDG_DATA_HOME", ".local/share") / APP_DIR / "replays"


def load_config() -> dict[str, Any]:
    """The saved settings; empty when there are none or the file is unreadable."""
    try:
        data = json.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remember_name(name: str) -> None:
    """Save the player's name for next time (errors writing it are ignored)."""
    remember("name", name)


def bell_wanted() -> bool:
    """Whether the terminal bell rings when the game waits for you (``"bell": false`` in
    the config file turns it off; on by default)."""
    return load_config().get("bell", True) is not False


def remember(key: str, value: Any) -> None:
    """Save one setting for next time (errors writing it are ignored)."""
    data = load_config()
    data[key] = value
    path = config_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError:
        pass


def default_name() -> str:
    """The remembered name, else the login name, else ``player``; cleaned and cut to 24."""
    remembered = load_config().get("name")
    if isinstance(remembered, str) and clean_text(remembered):
        return clean_text(remembered)[:MAX_NAME_LEN]
    try:
        login = getpass.getuser()
    except (OSError, KeyError, ImportError):
        login = ""
    return clean_text(login)[:MAX_NAME_LEN] or "player"
