"""Golden transcripts: for each deck, one whole match from a fixed seed, driven by a simple
deterministic policy, must produce exactly the recorded event stream.

Each ``golden/<deck>.jsonl`` holds one line per round (its number, winner, scores and the
SHA-256 of that round's events) and a last line with the match's totals. A changed rule
shows up as a changed digest. After an intended change, regenerate and review the diff::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_engine_golden.py
    # or: .venv/bin/python tests/engine/test_engine_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from protocol.commands import Accept, Dance, NextRound, Play, SeatCommand
from protocol.events import Event
from protocol.options import DeckName, TableConfig
from server.engine import Accepted, Match

GOLDEN = Path(__file__).parent / "golden"
SEED = 2024
STEP_MS = 1_000


def simple_policy(legal: list[SeatCommand]) -> SeatCommand:
    """Play the first listed card (declaring UNO when the play allows it); otherwise
    dance the steps, accept a Draw Four, or take the first command listed."""
    plays = [command for command in legal if isinstance(command, Play)]
    if plays:
        first = plays[0].card
        same = [play for play in plays if play.card == first]
        return next((play for play in same if play.uno), same[0])
    for kind in (Dance, Accept):
        for command in legal:
            if isinstance(command, kind):
                return command
    return legal[0]


def transcript(deck: DeckName) -> list[dict[str, Any]]:
    """Play the deck's golden match and summarise it, one line per round plus a total."""
    config = TableConfig(deck=deck, seats=4, target_score=300)
    match = Match(config, SEED)
    now = 0
    lines: list[dict[str, Any]] = []
    round_start = 0
    for _ in range(100_000):
        seat = match.to_act()
        if seat is None:
            round_events = match.events[round_start:]
            lines.append(_round_line(round_events, match))
            round_start = len(match.events)
            if match.is_over:
                break
            outcome = match.apply(None, NextRound(), now)
        else:
            outcome = match.apply(seat, simple_policy(match.legal_commands(seat)), now)
        assert isinstance(outcome, Accepted), outcome
        now += STEP_MS
    assert match.is_over
    lines.append(
        {
            "deck": deck.value,
            "seed": SEED,
            "commands": len(match.log),
            "events": len(match.events),
            "winners": list(match.result.winners) if match.result else None,
            "scores": list(match.scores),
            "digest": _digest(match.events),
        }
    )
    return lines


def _round_line(events: list[Event], match: Match) -> dict[str, Any]:
    over = next(event for event in reversed(events) if event.kind.value == "round-over")
    return {
        "round": over.public["round"],
        "winner": over.public["winner"],
        "reason": over.public["reason"],
        "scores": over.public["scores"],
        "digest": _digest(events),
    }


def _digest(events: list[Event]) -> str:
    text = json.dumps([event.to_data() for event in events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _path(deck: DeckName) -> Path:
    return GOLDEN / f"{deck.value}.jsonl"


def write_golden() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for deck in DeckName:
        lines = transcript(deck)
        _path(deck).write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.mark.parametrize("deck", list(DeckName))
def test_golden_match_reproduces_its_recorded_transcript(deck: DeckName) -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        write_golden()
    recorded = [json.loads(line) for line in _path(deck).read_text().splitlines()]
    assert transcript(deck) == recorded


if __name__ == "__main__":
    write_golden()
