"""The quiet mode: a match that keeps no events and no log plays exactly as one that does.

Both are driven side by side with the same commands: random legal ones from the seat to
act and from any seat (UNO calls, catches, jump-ins), random catches that mostly miss,
pauses, seats away and back, clocks run out, and the table saying which events each seat
has seen (ruling 37). After every command the two must agree on the outcome (a rejection's
code included), on the whole position (``state_digest`` holds the event count and the
exposures' event numbers) and on the event count, while the quiet one holds nothing.
"""

from __future__ import annotations

import random

import pytest
from engine_rig import random_command

from protocol.commands import Timeout
from protocol.options import CustomRule, DanceCheck, DeckName, Scoring, Stack, TableConfig
from server.engine import Accepted, Match, Rejected

CONFIGS = (
    TableConfig(seats=2, target_score=200, turn_seconds=5),
    TableConfig(seats=4, target_score=200, false_catch_penalty=2, catch_grace_ms=0),
    TableConfig(deck=DeckName.BTS, seats=3, target_score=200, stack=Stack.PROGRESSIVE),
    TableConfig(deck=DeckName.BTS, seats=3, target_score=200, dance_check=DanceCheck.HONOUR),
    TableConfig(deck=DeckName.MODERN_SWAP, seats=4, target_score=200, seven_o=True, skip_any=True),
    TableConfig(
        deck=DeckName.MODERN_SHUFFLE, seats=3, target_score=200, jump_in=True, catch_grace_ms=0
    ),
    TableConfig(deck=DeckName.MINECRAFT, seats=2, target_score=200, draw_until_playable=True),
    TableConfig(
        deck=DeckName.MODERN_SWAP,
        seats=5,
        target_score=150,
        custom_rule=CustomRule.OTHERS_DRAW_TWO,
        scoring=Scoring.ELIMINATION,
        wd4_bluff=False,
    ),
)


def _same_outcome(loud: Accepted | Rejected, quiet: Accepted | Rejected) -> bool:
    if isinstance(loud, Rejected):
        return quiet == loud
    return isinstance(quiet, Accepted) and quiet.events == () and loud.events != ()


@pytest.mark.parametrize("number", range(len(CONFIGS)))
def test_a_quiet_match_plays_exactly_as_one_that_records(number: int) -> None:
    config = CONFIGS[number]
    rng = random.Random(number)
    loud = Match(config, seed=40 + number)
    quiet = Match(config, seed=40 + number, quiet=True)
    assert quiet.quiet and not loud.quiet
    assert quiet.state_digest() == loud.state_digest()
    now_ms, rejected = 0, 0
    for _ in range(1500):
        if loud.is_over:
            break
        actor, command = random_command(loud, rng, now_ms, catches=0.06, off_turn=0.15)
        if isinstance(command, Timeout):
            now_ms = max(now_ms, loud.deadline_ms() or now_ms)
        elif command.TYPE == "next-round":
            now_ms += 60_000
        if rng.random() < 0.3:  # the table sent a seat a view (ruling 37's races)
            seat = rng.randrange(config.seats)
            loud.saw(seat)
            quiet.saw(seat)
        loud_outcome = loud.apply(actor, command, now_ms)
        quiet_outcome = quiet.apply(actor, command, now_ms)
        assert _same_outcome(loud_outcome, quiet_outcome), (command, loud_outcome)
        rejected += isinstance(loud_outcome, Rejected)
        assert quiet.event_count() == loud.event_count() == loud.events[-1].seq
        assert quiet.state_digest() == loud.state_digest(), command
        now_ms += 400
    assert quiet.events == [] and quiet.log == []
    assert len(loud.log) > 100 and rejected > 10  # both kinds of outcome were compared
    assert quiet.view(0, now_ms) == loud.view(0, now_ms)


def test_a_fork_is_quiet_and_its_match_keeps_recording() -> None:
    match = Match(TableConfig(seats=3), seed=9)
    events, log = list(match.events), list(match.log)
    fork = match.fork()
    assert fork.quiet and not match.quiet
    rng = random.Random(3)
    for _ in range(200):
        seat = fork.to_act()
        if seat is None:
            break
        outcome = fork.apply(seat, rng.choice(fork.legal_commands(seat)), 0)
        assert outcome == Accepted()
    assert fork.events == [] and fork.log == [] and fork.event_count() > 200
    assert match.events == events and match.log == log
    seat = match.to_act()
    assert seat is not None
    outcome = match.apply(seat, match.legal_commands(seat)[0], 0)
    assert isinstance(outcome, Accepted) and outcome.events == tuple(match.events[len(events) :])
