"""The whole application, headless: pipe input, dummy output, a real server process.

The test plays a full round against a server bot by sending key presses only, waiting
for the model to change (the app's invalidations) rather than for time to pass, then
leaves the table and quits. It asserts on the model and on the intents the keys sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial

import pytest
from client_server import running_server
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.ui.app import ClientApp
from client.ui.intents import GameIntent, LeaveTable, Quit, TableRequest
from client.ui.model import Mode, Model, Screen
from client.ui.network import Network, Plan
from client.ui.table_form import form_rows
from protocol.commands import Play
from protocol.options import TableOptions

pytestmark = pytest.mark.e2e

RIGHT = "\x1b[C"
ARROW_KEYS = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D"}
ROUND_SECONDS = 120


class Driver:
    """Presses keys and waits for the model to change, through the app's invalidations."""

    def __init__(self, client: ClientApp, keys: PipeInput) -> None:
        self.client = client
        self.model = client.model
        self.keys = keys
        self._changed = asyncio.Event()
        client.app.on_invalidate += lambda _app: self._changed.set()

    async def until(self, condition: Callable[[], object]) -> None:
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    def press(self, *keys: str) -> None:
        for key in keys:
            self.keys.send_text(key)

    async def take_turn(self) -> None:
        """One decision by keys, chosen from what the screen offers."""
        model = self.model
        legal = model.legal
        kinds = {command.TYPE for command in legal}
        if model.mode is Mode.DANCE:
            dance = None if model.view is None else model.view.shared.dance
            wanted = () if dance is None else dance.steps or ()
            self.press(*(ARROW_KEYS[step] for step in wanted), "\r")
        elif "choose-color" in kinds:
            self.press("\r")
            await self.confirm_pickers()
        elif "challenge" in kinds:
            self.press("n")
        elif "play" in kinds:
            playable = {command.card.code for command in legal if isinstance(command, Play)}
            target = next(i for i, code in enumerate(model.hand) if code in playable)
            steps = (target - model.selected) % len(model.hand)
            code = model.hand[target]
            if any(c.uno for c in model.plays_of(code)) and not model.uno_armed:
                self.press("u")
            self.press(*([RIGHT] * steps), "\r")
            await self.confirm_pickers()
        elif "draw" in kinds:
            self.press("d")
        elif "pass" in kinds:
            self.press("p")
        elif "call-uno" in kinds:
            self.press("u")

    def game_intents(self) -> int:
        return sum(isinstance(intent, GameIntent) for intent in self.client.intents)

    async def take_turn_and_wait_for_replies(self) -> None:
        """Act, then wait for the server's answer to every command the keys sent.

        Several views may follow one move of the bot (its play, then its UNO call); acting
        again on a later one before our own command is answered would send a second move
        on a turn that the first one already ended.
        """
        session = self.client.network.session
        assert session is not None
        intents, replies = self.game_intents(), session.reply_count
        await self.take_turn()
        await self.until(
            lambda: (
                self.game_intents() > intents
                and session.reply_count - replies >= self.game_intents() - intents
            )
        )

    async def confirm_pickers(self) -> None:
        acted = self.model.view
        await self.until(lambda: self.model.mode is Mode.PICK or self.model.view is not acted)
        while self.model.mode is Mode.PICK:
            self.press("\r")
            await self.until(lambda: self.model.mode is not Mode.PICK)


def ready_to_act(model: Model, acted: object) -> bool:
    """The round ended, a rejection came, or a fresh view waits for my decision."""
    if model.phase in ("round-over", "match-over") or model.message_is_error:
        return True
    return model.my_turn and model.view is not acted and bool(model.legal)


async def play_one_round(host: str, port: int) -> tuple[ClientApp, list[str], list[str]]:
    """Play a round by keys, leave, quit: the client, the screens seen, the table's log."""
    model = Model(name="Tester")
    logged: list[str] = []
    plan = Plan(
        create=True,
        table_name="headless",
        options=TableOptions.parse({"seats": 2, "hand_size": 3, "turn_seconds": 0}),
        bots=1,
        start=True,
    )

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic, address=(host, port), plan=plan)

    screens: list[str] = []
    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        driver = Driver(client, keys)
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(ROUND_SECONDS):
            await driver.until(lambda: model.view is not None)
            screens.append(str(model.screen))
            done = ("round-over", "match-over")
            acted: object = None
            while model.phase not in done:
                await driver.until(partial(ready_to_act, model, acted))
                if model.message_is_error:
                    pytest.fail(f"the server refused a key's command: {model.message}")
                if model.phase in done:
                    break
                acted = model.view
                await driver.take_turn_and_wait_for_replies()
            logged.extend(model.log)  # leaving forgets the table's log
            driver.press("q", "y")
            await driver.until(lambda: model.screen is Screen.LOBBY)
            screens.append(str(model.screen))
            driver.press("q")
            await running
    return client, screens, logged


def test_a_whole_round_by_keys_against_a_bot() -> None:
    with running_server(["--bot-think-ms", "20", "--seed", "11"]) as (host, port):
        client, screens, logged = asyncio.run(play_one_round(host, port))
    model = client.model
    assert screens == ["table", "lobby"]
    assert model.finished
    games = [intent for intent in client.intents if isinstance(intent, GameIntent)]
    assert any(intent.kind == "play" for intent in games)
    assert {intent.kind for intent in games} <= {
        "play",
        "draw",
        "pass",
        "call-uno",
        "choose-color",
        "accept",
        "dance",
    }
    assert any(line.startswith("round over") for line in logged)
    assert any(line.startswith("you played") for line in logged)
    assert not model.log  # the lobby keeps nothing of the table left
    assert LeaveTable() in client.intents and client.intents[-1] == Quit()
    assert not any(isinstance(i, TableRequest) for i in client.intents)
    assert client.trio_outcome is not None and client.trio_outcome.unwrap() is None


async def lobby_to_match(host: str, port: int) -> ClientApp:
    model = Model(name="Host")

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic)

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        driver = Driver(client, keys)
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(ROUND_SECONDS):
            assert model.screen is Screen.FIND
            driver.press("a", f"{host}:{port}", "\r")
            await driver.until(lambda: model.screen is Screen.LOBBY)
            driver.press("n")
            await driver.until(lambda: model.mode is Mode.CREATE)
            # past the name, password and bot rows to the deck: the next one after classic
            driver.press(*["\x1b[B"] * form_rows().index("deck"), "\x1b[C", "\r")
            await driver.until(lambda: model.screen is Screen.TABLE and model.is_host)
            driver.press("b", "\r")  # a bot of the level first offered: normal
            await driver.until(
                lambda: (
                    model.table is not None and sum(bool(s.name) for s in model.table.seats) == 2
                )
            )
            driver.press("s")
            await driver.until(lambda: model.view is not None)
            driver.press("\x03")
            await running
    return client


def test_find_lobby_new_table_bot_and_start_by_keys() -> None:
    with running_server(["--bot-think-ms", "20"]) as (host, port):
        client = asyncio.run(lobby_to_match(host, port))
    model = client.model
    assert model.table is not None and model.table.options.deck == "modern-swap"
    kinds = [type(i).__name__ + ":" + getattr(i, "type", "") for i in client.intents]
    assert kinds == [
        "Connect:",
        "TableRequest:create-table",
        "TableRequest:add-bot",
        "TableRequest:start",
        "Quit:",
    ]
    assert model.view is not None and len(model.hand) >= 7  # 9 after a first Draw Two


def test_an_unreachable_server_returns_to_the_find_screen() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def attempt() -> Model:
        model = Model(name="Ann")

        def network(model: Model, redraw: Callable[[], None]) -> Network:
            return Network(model, redraw, time.monotonic, address=("127.0.0.1", port))

        with create_pipe_input() as keys:
            client = ClientApp(model, network, input=keys, output=DummyOutput())
            driver = Driver(client, keys)
            running = asyncio.create_task(client.run())
            async with asyncio.timeout(30):
                await driver.until(lambda: model.status.startswith("cannot connect"))
                driver.press("q")
                await running
        return model

    model = asyncio.run(attempt())
    assert model.screen is Screen.FIND and "cannot reach" in model.message
