"""The draw pile's count a replay viewer folds from public events (``protocol.draw_pile``)
is the engine's own count after every command, in matches of every deck with the house
rules that draw most (stacking, Creepers, dances refused, false catches), reshuffles
included."""

from __future__ import annotations

import random

from engine_rig import random_play
from test_event_codec import CONFIGS

from protocol.draw_pile import DrawPile
from protocol.events import EventKind
from protocol.options import DeckName, Stack, TableConfig
from server.engine import Match, build_deck

LONG_DRAWS = TableConfig(
    seats=5, target_score=500, draw_until_playable=True, stack=Stack.PROGRESSIVE, turn_seconds=5
)
"""A table that empties its draw pile often (a reshuffle in the middle of a draw)."""


def test_the_fold_counts_the_draw_pile_as_the_engine_does_after_every_command() -> None:
    kinds: set[EventKind] = set()
    decks: set[DeckName] = set()
    compared = 0
    for number, config in enumerate((*CONFIGS, LONG_DRAWS)):
        rng = random.Random(number)
        match = Match(config, seed=300 + number)
        pile = DrawPile(len(build_deck(config)))
        dealt = False
        for now_ms, events in random_play(match, rng, steps=3000, catches=0.05, off_turn=0.1):
            for event in events:
                pile.take(event.seen_by(None).body)
                kinds.add(event.kind)
                dealt = dealt or event.kind is EventKind.ROUND_STARTED
            if dealt:
                assert pile.count == match.shared_view(now_ms).draw_count, (config, now_ms)
                compared += 1
        decks.add(config.deck)
    assert compared > 1000
    assert {EventKind.RESHUFFLED, EventKind.CREEPER_REVEALED} <= kinds
    assert decks == set(DeckName)


def test_a_wild_draw_four_turned_up_and_put_back_leaves_the_count_as_the_engine_has_it() -> None:
    config = TableConfig(seats=3)
    returned = 0
    for seed in range(400):
        match = Match(config, seed)
        pile = DrawPile(len(build_deck(config)))
        for event in match.events:
            pile.take(event.seen_by(None).body)
        assert pile.count == match.shared_view(0).draw_count, seed
        returned += any(e.kind is EventKind.FIRST_CARD_RETURNED for e in match.events)
    assert returned > 0
