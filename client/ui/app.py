"""The full-screen application: prompt-toolkit hosts, the Trio network runs as its guest.

asyncio (prompt-toolkit's loop) is the host; ``trio.lowlevel.start_guest_run`` runs the
network on the same thread. The screen is one ``FormattedTextControl`` rendering the
model; key bindings call the controller, whose intents reach Trio through
``TrioToken.run_sync_soon``; the network reduces what the server says into the model and
calls ``app.invalidate()``. The clock on screen is redrawn every second
(``refresh_interval``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable

import outcome
import trio
from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style

from client.config import remember
from client.i18n import _
from client.ui.controller import Controller
from client.ui.intents import Intent, Quit, RememberSetting
from client.ui.keys import build_key_bindings
from client.ui.model import Model
from client.ui.network import Network
from client.ui.render import render

__all__ = ["STYLE", "ClientApp"]

log = logging.getLogger(__name__)

QUIT_GRACE_SECONDS = 3.0

STYLE = Style.from_dict(
    {
        "title": "bold",
        "rule": "fg:ansibrightblack",
        "hint": "fg:ansibrightblack",
        "keys": "reverse",
        "message": "fg:ansicyan",
        "error": "fg:ansired bold",
        "input": "underline",
        "turn": "bold fg:ansibrightyellow",
        "myturn": "bold fg:ansibrightgreen",
        "me": "bold",
        "uno": "bold fg:ansibrightred",
        "exposed": "bold fg:ansibrightmagenta",
        "clock": "bold",
        "picked": "reverse bold",
        "mark": "bold",
        "log": "",
        "card-r": "bg:ansired fg:ansiwhite bold",
        "card-y": "bg:ansiyellow fg:ansiblack bold",
        "card-g": "bg:ansigreen fg:ansiblack bold",
        "card-b": "bg:ansiblue fg:ansiwhite bold",
        "card-w": "bg:ansiwhite fg:ansiblack bold",
        "card-r-off": "fg:ansired",
        "card-y-off": "fg:ansiyellow",
        "card-g-off": "fg:ansigreen",
        "card-b-off": "fg:ansiblue",
        "card-w-off": "",
        "selected": "reverse underline",
    }
)
"""Colours by class name; with NO_COLOR only bold, reverse and underline remain."""


class ClientApp:
    """One run of the client: the model, the controller, the screen and the network.

    ``intents`` records every intent the keys produced, in order (tests read it).
    """

    def __init__(
        self,
        model: Model,
        network_factory: Callable[[Model, Callable[[], None]], Network],
        *,
        around_network: Callable[[Callable[[], Awaitable[None]]], Awaitable[None]] | None = None,
        input: Input | None = None,
        output: Output | None = None,
        mouse: bool = True,
    ) -> None:
        self.model = model
        self.intents: list[Intent] = []
        self.controller = Controller(model, self._emit)
        self.network = network_factory(model, self.invalidate)
        self._around = around_network
        self._rung = model.bells
        self._token: trio.lowlevel.TrioToken | None = None
        self._trio_done = asyncio.Event()
        self._main_scope = trio.CancelScope()
        self.trio_outcome: outcome.Outcome[None] | None = None
        control = FormattedTextControl(self._render, focusable=True, show_cursor=False)
        no_color = bool(os.environ.get("NO_COLOR"))
        model.no_color = no_color
        self.app: Application[None] = Application(
            layout=Layout(Window(control)),
            key_bindings=build_key_bindings(model, self.controller),
            style=STYLE,
            full_screen=True,
            mouse_support=mouse,
            refresh_interval=1.0,
            color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
            input=input,
            output=output,
        )

    # -- the screen ------------------------------------------------------------------------

    def _render(self) -> StyleAndTextTuples:
        size = self.app.output.get_size()
        return render(self.model, size.columns, size.rows, time.monotonic(), self._clicked)

    def _clicked(self, index: int) -> None:
        if self.model.selected == index:
            self.controller.play_selected()
        else:
            self.controller.select_index(index)
        self.invalidate()

    def invalidate(self) -> None:
        """Ask for a redraw (the network calls this after every change); ring the bell
        when the model says the game now waits for you."""
        if self.model.bells != self._rung:
            self._rung = self.model.bells
            self.app.output.bell()
            self.app.output.flush()
        self.app.invalidate()

    # -- intents -----------------------------------------------------------------------------

    def _emit(self, intent: Intent) -> None:
        self.intents.append(intent)
        log.debug("intent %r", intent)
        if isinstance(intent, RememberSetting):
            remember(intent.key, intent.value)
            self.invalidate()
            return
        if self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self.network.submit, intent)
        if isinstance(intent, Quit):
            asyncio.get_running_loop().call_later(QUIT_GRACE_SECONDS, self._exit)
        self.invalidate()

    # -- running -------------------------------------------------------------------------------

    async def run(self) -> None:
        """Run until the person quits; the Trio guest ends before this returns."""
        loop = asyncio.get_running_loop()
        trio.lowlevel.start_guest_run(
            self._trio_main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=self._on_trio_done,
        )
        try:
            await self.app.run_async()
        finally:
            if not self._trio_done.is_set():
                # The person is gone: stop the network even if it is stuck connecting.
                self.model.finished = True
                if self._token is not None:
                    with contextlib.suppress(trio.RunFinishedError):
                        self._token.run_sync_soon(self._main_scope.cancel)
                try:
                    await asyncio.wait_for(self._trio_done.wait(), QUIT_GRACE_SECONDS)
                except TimeoutError:
                    log.warning("the network did not stop in time")

    async def _trio_main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        with self._main_scope:
            if self._around is not None:
                await self._around(self.network.run)
            else:
                await self.network.run()

    def _on_trio_done(self, result: outcome.Outcome[None]) -> None:
        self.trio_outcome = result
        self._trio_done.set()
        if isinstance(result, outcome.Error):
            log.error("the network side failed", exc_info=result.error)
            self.model.notify(_("network failure: {error}").format(error=result.error), error=True)
        self._exit()

    def _exit(self) -> None:
        if self.app.is_running and not self.app.is_done:
            self.app.exit()
