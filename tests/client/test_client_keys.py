"""Keys through the real application (pipe input, dummy output), no server: the model
and the intents the key presses produced."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from client_builders import hand_view, model_with
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.config import bell_wanted
from client.ui.app import ClientApp
from client.ui.intents import GameIntent
from client.ui.model import Mode, Model, apply_view
from client.ui.network import Network
from protocol.cards import Card, Color
from protocol.commands import Play

SECONDS = 20


async def press_and_watch(
    model: Model, steps: list[tuple[str, Callable[[ClientApp], object]]]
) -> ClientApp:
    """Run the app over ``model``; for each (keys, condition) press the keys and wait
    until the condition holds; then quit with Ctrl-C."""

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic)  # no address: it waits for intents

    with create_pipe_input() as keys:
        client = ClientApp(model, network, input=keys, output=DummyOutput())
        changed = asyncio.Event()
        client.app.on_invalidate += lambda _app: changed.set()
        running = asyncio.create_task(client.run())
        async with asyncio.timeout(SECONDS):
            for text, condition in steps:
                keys.send_text(text)
                while not condition(client):
                    changed.clear()
                    await changed.wait()
            keys.send_text("\x03")
            await running
    return client


def game_intents(client: ClientApp) -> list[GameIntent]:
    return [intent for intent in client.intents if isinstance(intent, GameIntent)]


def test_a_seat_digit_selects_in_the_player_picker_and_enter_confirms() -> None:
    plays = [
        {"type": "play", "card": "WSWAP", "color": c, "target": t} for c in "RYGB" for t in (1, 2)
    ]
    model = model_with(hand_view(["WSWAP", "R3"], plays))
    seen: dict[str, object] = {}

    def after_digit(client: ClientApp) -> bool:
        picker = client.model.picker
        if picker is None or picker.value == 2:
            seen["mode"], seen["sent"] = client.model.mode, list(game_intents(client))
            return True
        return False

    client = asyncio.run(
        press_and_watch(
            model,
            [
                ("\r", lambda c: c.model.picker is not None and c.model.picker.purpose == "color"),
                ("g", lambda c: c.model.picker is not None and c.model.picker.purpose == "target"),
                ("3", after_digit),  # seat 2 shows as "3 Cy": seats count from 1 on screen
                ("\r", lambda c: bool(game_intents(c))),
            ],
        )
    )
    assert seen == {"mode": Mode.PICK, "sent": []}
    assert game_intents(client) == [
        GameIntent(Play(Card.parse("WSWAP"), color=Color.GREEN, target=2))
    ]
    assert model.mode is Mode.NORMAL and not model.message_is_error


class BellCounter(DummyOutput):
    """A dummy terminal that counts the bells rung on it."""

    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1


def test_the_bell_rings_when_the_game_waits_for_you() -> None:
    model = model_with(hand_view(["R1", "B2"], [], to_act=1))
    output = BellCounter()

    def network(model: Model, redraw: Callable[[], None]) -> Network:
        return Network(model, redraw, time.monotonic)

    with create_pipe_input() as keys:
        client = ClientApp(model, network, output=output, input=keys)
        mine = hand_view(["R1", "B2"], [{"type": "play", "card": "R1"}])
        apply_view(model, mine, 1.0)
        client.invalidate()
        apply_view(
            model, hand_view(["R1", "B2"], [{"type": "play", "card": "R1"}], exposed=[2]), 2.0
        )  # the same turn: no second bell
        client.invalidate()
        assert output.bells == 1
        challenged = hand_view(["R1", "B2"], [{"type": "challenge"}], phase="challenge")
        apply_view(model, hand_view(["R1", "B2"], [], to_act=2), 3.0)
        apply_view(model, challenged, 4.0)
        client.invalidate()
        assert output.bells == 2


def test_m_turns_the_bell_off_and_remembers_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    model = model_with(hand_view(["R1", "B2"], [], to_act=1))
    assert model.bell
    asyncio.run(press_and_watch(model, [("m", lambda c: not c.model.bell)]))
    assert not bell_wanted()
    apply_view(model, hand_view(["R1", "B2"], [{"type": "play", "card": "R1"}]), 1.0)
    assert model.bells == 0
