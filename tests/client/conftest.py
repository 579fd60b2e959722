"""Fixtures for the client's tests (builders live in client_builders.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from client.ui.controller import Controller
from client.ui.intents import Intent
from client.ui.model import Model


@pytest.fixture
def drive() -> Callable[[Model], tuple[Controller, list[Intent]]]:
    """A controller over ``model`` that records the intents it emits."""

    def build(model: Model) -> tuple[Controller, list[Intent]]:
        sent: list[Intent] = []
        return Controller(model, sent.append), sent

    return build
