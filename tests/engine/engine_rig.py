"""Test seam for the engine: build a match in a chosen position from a real snapshot.

``rig`` starts a real match (so every field is valid), then rewrites its snapshot: the
hands, the top card, the cards to be drawn next, whose turn it is. Every card not placed
goes to the bottom of the draw pile (or under the top card), so the position still holds
exactly the table's deck; ``cards_accounted_for`` is asserted before the match is returned.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from protocol.cards import Card
from protocol.commands import Catch, Command, Pause, Resume, SetAway, Timeout
from protocol.options import TableConfig
from server.engine import Accepted, Event, Match, Rejected, build_deck


def rig(
    config: TableConfig | None = None,
    *,
    hands: list[list[str]],
    top: str,
    color: str | None = None,
    draw: list[str] = (),  # type: ignore[assignment]
    rest: str = "pile",
    current: int = 0,
    direction: int = 1,
    dealer: int | None = None,
    phase: str = "turn",
    seed: int = 0,
    **fields: Any,
) -> Match:
    """A match of ``config`` in the given position.

    ``draw`` lists the next cards drawn, first first. ``rest`` says where every other card
    goes: ``"pile"`` (under ``draw``), ``"discard"`` (under the top card, draw pile = only
    ``draw``), a seat number as a string (into that hand: both piles otherwise empty), or
    ``"nowhere"`` (left out: a deliberately partial deck, for positions a whole deck
    cannot reach, such as a round where nobody can play or draw).
    Extra keyword arguments overwrite snapshot fields directly.
    """
    config = config or TableConfig(seats=len(hands), turn_seconds=0)
    match = Match(config, seed)
    data = match.snapshot(with_history=False)
    placed = Counter(Card.parse(code) for hand in hands for code in hand)
    placed[Card.parse(top)] += 1
    placed.update(Card.parse(code) for code in draw)
    remaining = Counter(build_deck(config))
    remaining.subtract(placed)
    if any(count < 0 for count in remaining.values()):
        raise ValueError(f"more cards placed than the deck holds: {-remaining}")
    rest_cards = sorted(remaining.elements(), key=lambda card: card.code)
    rest_codes = [card.code for card in rest_cards]
    hand_codes = [list(hand) for hand in hands]
    pile = list(reversed(draw))
    discard = [top]
    if rest == "pile":
        pile = rest_codes + pile
    elif rest == "discard":
        discard = rest_codes + discard
    elif rest != "nowhere":
        hand_codes[int(rest)] += rest_codes
    top_card = Card.parse(top)
    data.update(
        hands=hand_codes,
        draw_pile=pile,
        discard=discard,
        color=color if color is not None else (top_card.color.value if top_card.color else None),
        current=current,
        direction=direction,
        phase=phase,
        dealer=dealer if dealer is not None else (current - 1) % config.seats,
        drawn=None,
        has_drawn=False,
        early_uno=False,
        exposures=[],
        deadline=None if not config.turn_seconds else config.turn_seconds * 1000,
    )
    data.update(fields)
    rigged = Match.restore(data)
    assert rigged.cards_accounted_for() or rest == "nowhere"
    return rigged


def ok(outcome: Accepted | Rejected) -> tuple[Event, ...]:
    """The events of an outcome that must be accepted."""
    assert isinstance(outcome, Accepted), outcome
    return outcome.events


def kinds(events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [event.kind.value for event in events]


def of_kind(events: tuple[Event, ...] | list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind.value == kind]


def codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card.code for card in cards]


def first_card_match(config: TableConfig, wanted: Callable[[Card], bool]) -> Match:
    """The first seed whose first card turned up satisfies ``wanted`` (the deal is the
    thing under test there, so the position cannot be rigged)."""
    for seed in range(20_000):
        match = Match(config, seed)
        first = Card.parse(of_kind(match.events, "first-card")[0].public["card"])
        if wanted(first):
            return match
    raise AssertionError("no seed found")


def random_command(
    match: Match, rng: random.Random, now_ms: int, *, catches: float, off_turn: float
) -> tuple[int | None, Command]:
    """A random command a table could send now, with its actor: now and then a pause
    (resumed next), a seat marked away or back, a catch (mostly false) with probability
    ``catches``, a legal command of any seat (calls, jump-ins) with ``off_turn``, a
    clock run out; otherwise a legal move of the seat to act, or a table command."""
    seats = match.config.seats
    roll = rng.random()
    if match.paused:
        return None, Resume()
    if roll < 0.02:
        return None, Pause()
    if roll < 0.04:
        return None, SetAway(seat=rng.randrange(seats), away=rng.random() < 0.5)
    if roll < 0.04 + catches:
        return rng.randrange(seats), Catch(target=rng.randrange(seats))
    if roll < 0.04 + catches + off_turn:
        seat = rng.randrange(seats)
        offered = match.legal_commands(seat)
        if offered:
            return seat, rng.choice(offered)
    if roll < 0.09 + catches + off_turn and match.deadline_ms() is not None:
        return None, Timeout()
    to_act = match.to_act()
    if to_act is not None:
        return to_act, rng.choice(match.legal_commands(to_act))
    return None, rng.choice(match.legal_table_commands(now_ms + 60_000))


def random_play(
    match: Match, rng: random.Random, *, steps: int, catches: float, off_turn: float
) -> Iterator[tuple[int, list[Event]]]:
    """Up to ``steps`` commands of ``random_command`` applied to ``match`` until it is
    over, 700 ms apart (a run-out clock waits for its deadline, a next round a minute):
    after each, the time and the events it made."""
    now_ms = 0
    for _ in range(steps):
        if match.is_over:
            return
        actor, command = random_command(match, rng, now_ms, catches=catches, off_turn=off_turn)
        if isinstance(command, Timeout):
            now_ms = max(now_ms, match.deadline_ms() or now_ms)
        elif command.TYPE == "next-round":
            now_ms += 60_000
        taken = len(match.events)
        match.apply(actor, command, now_ms)
        now_ms += 700
        yield now_ms, match.events[taken:]
