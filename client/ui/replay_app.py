"""The replay viewer: ``uno-client --replay FILE`` plays a replay file in the table screen.

One prompt-toolkit application, no network: the keys move a ``ReplayCursor``, a
``ReplayTable`` turns its position into the model a spectator's client held then, and the
live client's ``render`` draws it, with the cursor's status on the message line and the
viewer's keys on the keys line. While it plays, an asyncio task steps one event at the
cursor's speed.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth, Output

from client.i18n import pgettext
from client.ui.app import STYLE
from client.ui.layout import Line, assemble, text_line, wrap_keys
from client.ui.model import Model
from client.ui.render import screen_lines
from client.ui.replay_cursor import ReplayCursor
from client.ui.replay_state import ReplayTable
from client.ui.replay_words import help_lines as help_sentences
from client.ui.replay_words import help_title, keys, no_such_round, status, typing_round
from protocol.replay_file import Replay

__all__ = ["ReplayViewer", "help_lines", "run_viewer"]


class ReplayViewer:
    """The viewer's state: the cursor, the model it shows, the help page, a typed round."""

    def __init__(self, replay: Replay) -> None:
        self.cursor = ReplayCursor(replay)
        self.table = ReplayTable(replay)
        self.help = False
        self.typed = ""
        """The round number being typed ("" when none is)."""
        self.note = ""
        """A line for the message bar instead of the status, until the next key."""
        self.model = self.table.model
        self.refresh()

    def refresh(self) -> Model:
        """Bring the model to the cursor and put the status and keys on it."""
        cursor = self.cursor
        model = self.table.show(cursor.position)
        model.replay_keys = typing_round(self.typed) if self.typed else keys()
        line = self.note or status(
            round_no=cursor.round,
            rounds=cursor.rounds,
            event=cursor.position,
            events=cursor.end,
            playing=cursor.playing,
            per_second=cursor.per_second,
        )
        model.notify(line, error=bool(self.note))
        self.model = model
        return model

    def press(self, key: str) -> bool:
        """One key (a prompt-toolkit key name or a character); False once it quits."""
        self.note = ""
        if key in {"q", "c-c"}:
            return False
        if self.help:
            self.help = key not in ("?", "escape")
        elif self.typed or key.isdigit():
            self._type_round(key)
        elif key == "?":
            self.help = True
        else:
            action = self._moves().get(key)
            if action is not None:
                action()
        self.refresh()
        return True

    def _moves(self) -> dict[str, Callable[[], None]]:
        cursor = self.cursor
        return {
            "right": lambda: cursor.step(1),
            "l": lambda: cursor.step(1),
            "left": lambda: cursor.step(-1),
            "h": lambda: cursor.step(-1),
            ".": cursor.next_turn,
            "down": cursor.next_turn,
            ",": cursor.previous_turn,
            "up": cursor.previous_turn,
            "pagedown": cursor.next_round,
            "]": cursor.next_round,
            "pageup": cursor.previous_round,
            "[": cursor.previous_round,
            "home": cursor.go_to_start,
            "end": cursor.go_to_end,
            " ": cursor.toggle_play,
            "p": cursor.toggle_play,
            "-": cursor.slower,
            "+": cursor.faster,
            "=": cursor.faster,
        }

    def _type_round(self, key: str) -> None:
        if key.isdigit() and len(key) == 1 and len(self.typed) < 4:
            self.typed += key
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "escape":
            self.typed = ""
        elif key == "enter":
            number, self.typed = int(self.typed), ""
            if not self.cursor.go_to_round(number):
                self.note = no_such_round(number, self.cursor.rounds)

    def tick(self) -> None:
        """One beat of play."""
        if self.cursor.playing:
            self.cursor.tick()
            self.refresh()

    def lines(self, width: int, height: int) -> list[Line]:
        """The screen: the help page, or the table as the model holds it."""
        if self.help:
            return help_lines(width, height)
        return screen_lines(self.model, width, height, 0.0)


def help_lines(width: int, height: int) -> list[Line]:
    """The viewer's help page: every key, one a line, cut to the screen's height."""
    body = [text_line(f" {line}") for line in help_sentences()]
    keys = [
        text_line(line, "class:keys")
        for line in wrap_keys(pgettext("replay", "? or Esc back · q quit"), width)
    ]
    room = max(0, height - 1 - len(keys))
    return [text_line(help_title(), "class:title"), *body[:room], *keys]


_KEY_NAMES = {
    "right": "right",
    "left": "left",
    "up": "up",
    "down": "down",
    "pageup": "pageup",
    "pagedown": "pagedown",
    "home": "home",
    "end": "end",
    "escape": "escape",
    "enter": "c-m",
    "backspace": "c-h",
    "c-c": "c-c",
}
"""The viewer's names of the special keys, and prompt-toolkit's."""


def run_viewer(replay: Replay, *, input: Input | None = None, output: Output | None = None) -> None:
    """Show the replay full screen until the person quits."""
    viewer = ReplayViewer(replay)
    bindings = KeyBindings()

    def bind(name: str, pt_key: str) -> None:
        @bindings.add(pt_key)
        def _(event: KeyPressEvent) -> None:
            if not viewer.press(name):
                event.app.exit()

    for name, pt_key in _KEY_NAMES.items():
        bind(name, pt_key)
    for char in "0123456789hlq.,[]p-+=? ":
        bind(char, char)

    def draw() -> StyleAndTextTuples:
        size = app.output.get_size()
        return assemble(viewer.lines(size.columns, size.rows), size.columns, size.rows)

    no_color = bool(os.environ.get("NO_COLOR"))
    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(draw, focusable=True, show_cursor=False))),
        key_bindings=bindings,
        style=STYLE,
        full_screen=True,
        color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
        input=input,
        output=output,
    )

    async def play() -> None:
        while True:
            await asyncio.sleep(1 / viewer.cursor.per_second)
            if viewer.cursor.playing:
                viewer.tick()
                app.invalidate()

    async def main() -> None:
        beat = asyncio.ensure_future(play())
        try:
            await app.run_async()
        finally:
            beat.cancel()

    asyncio.run(main())
