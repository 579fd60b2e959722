"""Where the client keeps the replay files it saves (docs/client.md, "Replays").

A replay goes to the client's data directory, beside its config: ``replays/`` under
``$XDG_DATA_HOME/uno-lan`` (``~/.local/share/uno-lan`` when unset; ``%APPDATA%\\uno-lan``
on Windows), named after the match and the day it was saved,
``uno-<match>-<YYYY-MM-DD>.jsonl``. A file is never written over: a second save of the
same match that day is ``uno-<match>-<YYYY-MM-DD>-2.jsonl``.
"""

from __future__ import annotations

import time
from pathlib import Path

from client.config import replays_dir

__all__ = ["replay_file_name", "save_replay", "shown_path"]


def replay_file_name(match_id: int, saved_at: float, copy: int = 1) -> str:
    """The file name of match ``match_id``'s replay saved at Unix time ``saved_at`` (local
    date); ``copy`` 2, 3, ... for later saves of it that day."""
    day = time.strftime("%Y-%m-%d", time.localtime(saved_at))
    suffix = "" if copy == 1 else f"-{copy}"
    return f"uno-{match_id}-{day}{suffix}.jsonl"


def save_replay(text: str, match_id: int, saved_at: float, folder: Path | None = None) -> Path:
    """Write ``text`` (a replay file's) as a new file in ``folder`` (``replays_dir()``
    when None); the path written. Raises OSError if the folder or file cannot be made."""
    folder = replays_dir() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    copy = 1
    while True:
        path = folder / replay_file_name(match_id, saved_at, copy)
        try:
            with path.open("x", encoding="utf-8", newline="\n") as file:
                file.write(text)
        except FileExistsError:
            copy += 1
            continue
        return path


def shown_path(path: Path) -> str:
    """``path`` as the screen shows it: under the home folder, as ``~/...``."""
    try:
        return f"~/{path.relative_to(Path.home()).as_posix()}"
    except ValueError:
        return str(path)
