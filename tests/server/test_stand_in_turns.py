"""Counting the turns a stand-in played for a person, from a real match's events."""

from __future__ import annotations

from protocol.commands import SetAway
from protocol.options import TableConfig
from server.engine import Accepted, Match
from server.table.stand_in_turns import StandInTurns


def step(match: Match, tally: StandInTurns, actor: int | None, command: object) -> None:
    outcome = match.apply(actor, command, 0)  # type: ignore[arg-type]
    assert isinstance(outcome, Accepted), outcome
    tally.feed(outcome.events)


def play_until_turn_of(match: Match, tally: StandInTurns, seat: int) -> None:
    """Everyone plays their first legal command until ``seat`` is to act (a new turn)."""
    while True:
        actor = match.to_act()
        assert actor is not None
        step(match, tally, actor, match.legal_commands(actor)[0])
        if match.to_act() == seat:
            return


def test_a_turn_counts_once_when_it_begins_away_or_the_seat_goes_away_in_it() -> None:
    match = Match(TableConfig(seats=3, turn_seconds=0), seed=11)
    tally = StandInTurns(3)
    tally.feed(match.events)
    first = match.to_act()
    assert first is not None
    step(match, tally, None, SetAway(first, True))  # away in the middle of its turn
    step(match, tally, None, SetAway(first, False))
    step(match, tally, None, SetAway(first, True))  # the same turn is not counted twice
    assert tally.counts[first] == 1
    play_until_turn_of(match, tally, first)  # its next turn begins while it is away
    assert tally.counts[first] == 2
    step(match, tally, None, SetAway(first, False))
    play_until_turn_of(match, tally, first)  # back: its own turns are not counted
    assert tally.counts == [2 if seat == first else 0 for seat in range(3)]


def test_a_replayed_match_gives_the_same_count_from_its_events_in_one_batch() -> None:
    match = Match(TableConfig(seats=2, turn_seconds=0), seed=5)
    live = StandInTurns(2)
    live.feed(match.events)
    step(match, live, None, SetAway(1, True))
    for _ in range(6):
        actor = match.to_act()
        assert actor is not None
        step(match, live, actor, match.legal_commands(actor)[0])
    replayed = Match.replay(match.config, match.seed, match.log, match.start_ms)
    again = StandInTurns(2)
    again.feed(replayed.events)
    assert again.counts == live.counts and live.counts[1] > 0
