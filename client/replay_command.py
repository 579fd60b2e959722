"""``uno-client --replay FILE``: read the replay file, then play it in the viewer."""

from __future__ import annotations

import sys
from pathlib import Path

from client.ui.replay_app import run_viewer
from client.ui.replay_words import cannot_open
from protocol.replay_file import Replay, ReplayFileError, read_replay

__all__ = ["load_replay", "watch"]


def load_replay(path: Path) -> Replay:
    """The replay in the file at ``path``; a file that cannot be read or is no replay
    raises ReplayFileError, in words."""
    try:
        with path.open(encoding="utf-8") as file:
            return read_replay(file)
    except OSError as error:
        raise ReplayFileError(error.strerror or str(error)) from None
    except UnicodeDecodeError:
        raise ReplayFileError("not UTF-8 text, not a replay") from None


def watch(path: Path) -> int:
    """Play the replay at ``path``; the exit status: 0, 2 for a file that does not read,
    130 for Ctrl-C."""
    try:
        replay = load_replay(path)
    except ReplayFileError as error:
        print(cannot_open(str(path), str(error)), file=sys.stderr)
        return 2
    try:
        run_viewer(replay)
    except KeyboardInterrupt:
        return 130
    return 0
