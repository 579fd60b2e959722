"""Golden transcripts of the house rules: a position, the commands sent, every event.

Each scenario starts from a position rigged on a real match (``engine_rig.rig``, seed 0),
applies its commands in order and records, per command, whether it was accepted (or the
rejection code) and the full events it produced (``Event.to_data``: public and private
parts). ``golden/house-<name>.jsonl`` holds a first line with the setup, then one line per
command. A changed rule shows up as a changed line; after an intended change, regenerate
and review the diff::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_engine_golden_house_rules.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from engine_rig import rig

from protocol.cards import Card, Color
from protocol.commands import Command, Draw, Play
from protocol.options import DeckName, Stack, TableConfig
from server.engine import Accepted, Match

GOLDEN = Path(__file__).parent / "golden"


def card(code: str) -> Card:
    return Card.parse(code)


@dataclass(frozen=True)
class Scenario:
    """A rigged position and the commands sent to it (``saw`` marks the views sent)."""

    config: TableConfig
    hands: list[list[str]]
    top: str
    commands: list[tuple[int, Command]]
    draw: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)
    saw_before: int | None = None
    """Before this command's index, every seat is sent a view (ruling 37's races)."""


def _config(**options: Any) -> TableConfig:
    return TableConfig(seats=4, turn_seconds=0, **options)


SCENARIOS: dict[str, Scenario] = {
    # Ruling 32: a 7 names seat 2, the two hands are exchanged.
    "seven": Scenario(
        _config(seven_o=True),
        [["R7", "G5", "G6"], ["Y1", "Y2"], ["B1", "B2", "B3"], ["Y3"]],
        "R4",
        [(0, Play(card("R7"), target=2))],
    ),
    # Ruling 32: a 0 passes every hand on in the direction of play.
    "zero": Scenario(
        _config(seven_o=True),
        [["R0", "G5", "G6"], ["Y1", "Y2"], ["B1", "B2", "B3"], ["Y3"]],
        "R4",
        [(0, Play(card("R0")))],
    ),
    # Ruling 37: seat 0 plays a red 5, seat 2 jumps in on it ahead of seat 1.
    "jump-in": Scenario(
        _config(jump_in=True),
        [["R5", "G5", "G6"], ["Y1", "R8"], ["R5", "B2", "B3"], ["Y3", "Y4"]],
        "R4",
        [(0, Play(card("R5"))), (2, Play(card("R5"))), (1, Play(card("R8")))],
    ),
    # Ruling 37: seat 1's red 8 arrives first; seat 3's jump-in, sent on the view with
    # the red 5 on top, lost the race.
    "lost-jump-in-race": Scenario(
        _config(jump_in=True),
        [["R5", "G5", "G6"], ["Y1", "R8"], ["B1", "B2", "B3"], ["R5", "Y4"]],
        "R4",
        [(0, Play(card("R5"))), (1, Play(card("R8"))), (3, Play(card("R5")))],
        saw_before=1,
    ),
    # Ruling 33: progressive: Draw Two, Draw Two, then a Wild Draw Four ends it; the
    # next seat takes all eight.
    "progressive-stack": Scenario(
        _config(stack=Stack.PROGRESSIVE),
        [["R+2", "G5", "G6"], ["R+2", "Y2"], ["W+4", "B2", "B3"], ["Y3", "Y4"]],
        "R4",
        [
            (0, Play(card("R+2"))),
            (1, Play(card("R+2"))),
            (2, Play(card("W+4"), Color.BLUE)),
            (3, Draw()),
        ],
    ),
    # Ruling 34: the draw goes on past two cards that do not play to a Creeper, which
    # shows itself and brings three more; it is the drawn card and is played.
    "draw-until-creeper": Scenario(
        _config(deck=DeckName.MINECRAFT, draw_until_playable=True),
        [["G5", "G6"], ["Y1", "Y2"], ["B1", "B2"], ["Y3", "Y4"]],
        "R4",
        [(0, Draw()), (0, Play(card("WCREEP"), Color.GREEN))],
        draw=["B7", "Y8", "WCREEP", "G1", "G2", "G3"],
    ),
}


def transcript(name: str) -> list[dict[str, Any]]:
    scenario = SCENARIOS[name]
    match = rig(
        scenario.config,
        hands=scenario.hands,
        top=scenario.top,
        draw=scenario.draw,
        **({"top_played": True} | scenario.fields),
    )
    lines: list[dict[str, Any]] = [
        {
            "scenario": name,
            "config": scenario.config.to_data(),
            "hands": scenario.hands,
            "top": scenario.top,
            "draw": scenario.draw,
        }
    ]
    for index, (actor, command) in enumerate(scenario.commands):
        if index == scenario.saw_before:
            _every_seat_saw(match)
        outcome = match.apply(actor, command, 1_000 * (index + 1))
        line: dict[str, Any] = {"actor": actor, "command": command.to_data()}
        if isinstance(outcome, Accepted):
            line["events"] = [event.to_data() for event in outcome.events]
        else:
            line["rejected"] = outcome.code.value
        lines.append(line)
    return lines


def _every_seat_saw(match: Match) -> None:
    for seat in range(match.config.seats):
        match.saw(seat)


def _path(name: str) -> Path:
    return GOLDEN / f"house-{name}.jsonl"


def write_golden(names: Callable[[], list[str]] = lambda: list(SCENARIOS)) -> None:
    for name in names():
        lines = transcript(name)
        _path(name).write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines))


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_house_rule_golden_transcript_reproduces(name: str) -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        write_golden(lambda: [name])
    recorded = [json.loads(line) for line in _path(name).read_text().splitlines()]
    assert transcript(name) == recorded


if __name__ == "__main__":
    write_golden()
