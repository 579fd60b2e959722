"""The bot levels and the hard level's search, on real engine positions."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest
from typed_views import play, view

from client.bots import search
from client.bots.cli import build_parser
from client.bots.memory import RoundMemory
from client.bots.strategies import LEVELS, STRATEGIES, Knobs, choose, table_knobs
from protocol.cards import Card, card_points
from protocol.commands import Draw
from protocol.messages import SeatInfo, TableState, TableStatus
from protocol.options import DeckName, Scoring, TableConfig, TableOptions, preset_options
from protocol.phase import Phase
from server.engine import Match, Rejected, build_deck


def codes(cards: Iterable[Card] | None) -> list[str]:
    return [card.code for card in cards or ()]


def advance(match: Match, rng: random.Random, moves: int) -> None:
    """Play ``moves`` commands of the normal level (fewer if the round ends)."""
    for _ in range(moves):
        seat = match.to_act()
        if seat is None or match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return
        command = choose(match.view(seat, 0), rng, "normal")
        assert command is not None
        match.apply(seat, command, 0)


def positions(count: int, decks: tuple[str, ...] = ("classic",)) -> list[tuple[Match, int]]:
    """Real mid-round positions of several sizes and decks, each with its seat to act."""
    found = []
    for index in range(count):
        config = TableConfig(deck=DeckName(decks[index % len(decks)]), seats=2 + index % 3)
        match = Match(config, seed=index)
        advance(match, random.Random(index), index % 25)
        seat = match.to_act()
        if seat is not None and match.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            found.append((match, seat))
    return found


def test_levels_and_aliases_are_known_names() -> None:
    assert {"random", "easy", "normal", "hard"} <= set(LEVELS)
    assert STRATEGIES["basic"] is STRATEGIES["normal"]
    assert table_knobs("basic") == table_knobs("normal")
    assert table_knobs("easy").forget_uno > table_knobs("normal").forget_uno
    assert table_knobs("easy").catch_delay_ms > table_knobs("hard").catch_delay_ms
    assert build_parser().parse_args(["--level", "hard"]).strategy == "hard"


def test_the_deck_is_inferred_from_the_view() -> None:
    for deck in ("classic", "bts", "minecraft"):
        match = Match(TableConfig(deck=DeckName(deck), seats=3), seed=4)
        config = search.infer_config(match.view(0, 0))
        assert config is not None and config.seats == 3
        assert len(build_deck(config)) == match.deck_size


def test_the_search_plays_out_the_house_rules_the_table_state_names() -> None:
    # A view shows no sign of jump-in or 7-0 until one is possible; the table-state says.
    rules = TableConfig.from_data({**preset_options("party"), "seats": 3})
    match = Match(rules, seed=4)
    view = match.view(0, 0)
    memory = RoundMemory()
    state = TableState(
        table_id="t1",
        name="Party",
        state=TableStatus.PLAYING,
        seats=tuple(SeatInfo(seat=n, name=f"P{n}") for n in range(3)),
        options=TableOptions.of(rules),
    )
    memory.know_table(state)
    assert search.infer_config(view, memory) == rules
    assert search.infer_config(view) != rules  # a guess from the view alone misses them
    odd_teams = TableOptions(scoring=Scoring.TEAMS, seats=3)
    memory.know_table(replace(state, options=odd_teams))
    assert memory.rules is None  # options this bot cannot make a table of: it guesses again


@pytest.mark.parametrize("decks", [("classic",), ("bts", "modern-swap", "minecraft")])
def test_sampled_deals_hide_only_unseen_cards_in_the_sizes_shown(decks: tuple[str, ...]) -> None:
    rng = random.Random(7)
    for match, seat in positions(30, decks):
        view = match.view(seat, 0)
        shared, mine = view.shared, codes(view.hand)
        assert shared.top is not None
        config = search.infer_config(view)
        assert config is not None
        for _ in range(5):
            deal = search.sample_deal(view, config, rng)
            assert deal is not None
            assert deal.hands[seat] == mine
            assert tuple(len(hand) for hand in deal.hands) == shared.counts
            assert len(deal.draw_pile) == shared.draw_count
            assert len(deal.discard) == shared.discard_count
            assert deal.discard[-1] == shared.top.code
            # The cards dealt to the others are the deck less what this seat sees.
            hidden = Counter(deal.draw_pile) + Counter(deal.discard[:-1])
            for other, hand in enumerate(deal.hands):
                if other != seat:
                    hidden.update(hand)
            unseen = Counter(card.code for card in build_deck(config))
            unseen.subtract([*mine, shared.top.code])
            assert hidden == +unseen


def test_a_deal_of_the_true_hands_rebuilds_the_position() -> None:
    for match, seat in positions(12):
        real = match.snapshot(with_history=False)
        view = match.view(seat, 0)
        config = search.infer_config(view)
        assert config is not None
        deal = search.Deal(real["hands"], real["draw_pile"], real["discard"])
        rebuilt = Match.restore(search.position(view, config, deal, None, guilty=False))
        assert rebuilt.cards_accounted_for()
        assert rebuilt.view(seat, 0).legal == view.legal


def test_hard_never_sends_an_illegal_command() -> None:
    rng = random.Random(3)
    knobs = Knobs(playouts=2)
    checked = 0
    for match, seat in positions(150, ("classic", "bts", "modern-swap", "minecraft")):
        view = match.view(seat, 0)
        command = choose(view, rng, "hard", knobs)
        assert command is not None and command in view.legal
        assert not isinstance(match.apply(seat, command, 0), Rejected)
        checked += 1
    assert checked >= 120


def test_hard_plays_whole_rounds_legally() -> None:
    for seed in range(3):
        match = Match(TableConfig(seats=3, deck=DeckName.MODERN_SWAP), seed=seed)
        rngs = [random.Random(seed * 10 + s) for s in range(3)]
        for _ in range(400):
            seat = match.to_act()
            if seat is None or match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                break
            strategy = "hard" if seat == 0 else "easy"
            view = match.view(seat, 0)
            command = choose(view, rngs[seat], strategy, Knobs(playouts=2))
            assert command is not None
            outcome = match.apply(seat, command, 0)
            assert not isinstance(outcome, Rejected), (command, outcome)
        assert match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


def test_hard_takes_the_last_card_out() -> None:
    # One red card left and a way to go out: any search keeps the winning play.
    legal = [play("R5"), Draw()]
    two_seats = view(["R5"], "R", legal, top="R1", counts=[1, 5], discard_count=1)
    command = choose(two_seats, random.Random(0), "hard", Knobs(playouts=5))
    assert command == play("R5")


def test_the_choice_does_not_depend_on_hidden_cards() -> None:
    # Same view, different hidden cards (another seed for the rest of the deck): with a
    # fixed seed and playout count the decision is the same, as it only reads the view.
    match = Match(TableConfig(seats=2), seed=11)
    advance(match, random.Random(2), 4)
    seat = match.to_act()
    assert seat is not None
    view = match.view(seat, 0)
    real = match.snapshot(with_history=False)
    other = search.Deal(real["hands"], real["draw_pile"][::-1], real["discard"])
    config = search.infer_config(view)
    assert config is not None
    rebuilt = Match.restore(search.position(view, config, other, None, guilty=False))
    assert rebuilt.hand(1 - seat) != match.hand(1 - seat) or rebuilt.snapshot(False) != real
    clockless: dict[str, Any] = {"last_seq": 0, "remaining_ms": None, "pending": None}
    twin = rebuilt.view(seat, 0)
    assert replace(twin, shared=replace(twin.shared, **clockless)) == replace(
        view, shared=replace(view.shared, **clockless)
    )
    first = choose(view, random.Random(5), "hard", Knobs(playouts=8))
    second = choose(twin, random.Random(5), "hard", Knobs(playouts=8))
    assert first == second


def test_the_search_does_not_depend_on_hidden_cards_it_cannot_see() -> None:
    # The search itself, in the middle of the round (no endgame wait), with the seat's
    # memory of the round: hidden cards changed, the same view and events, the same pick.
    limits = search.Limits(playouts=12, endgame=0, endgame_heads_up=0)
    checked = 0
    for match, seat in positions(40):
        view = match.view(seat, 0)
        memory = RoundMemory()
        memory.catch_up(event.seen_by(seat) for event in match.events)
        real = match.snapshot(with_history=False)
        opponents = [s for s in range(len(real["hands"])) if s != seat]
        other = random.Random(checked)
        hands = [list(hand) for hand in real["hands"]]
        hidden = [card for s in opponents for card in hands[s]] + real["draw_pile"]
        other.shuffle(hidden)
        for s in opponents:
            hands[s], hidden = hidden[: len(hands[s])], hidden[len(hands[s]) :]
        changed = search.Deal(hands, hidden, real["discard"])
        config = search.infer_config(view)
        assert config is not None
        twin = Match.restore(search.position(view, config, changed, None, guilty=False))
        twin_view = twin.view(seat, 0)
        assert twin_view.hand == view.hand and twin_view.legal == view.legal
        picks = [
            search.decide(v.legal, v, random.Random(9), limits, memory=memory)
            for v in (view, twin_view)
        ]
        assert picks[0] == picks[1]
        checked += picks[0] is not None and len(search.candidates(view.legal) or ()) > 1
    assert checked >= 10


def test_the_memory_knows_the_discards_and_holds_to_the_voids() -> None:
    # Rounds of normal players, one seat's memory fed its own events: the discard pile it
    # remembers is the real one, and no seat holds more cards it could have played when
    # it drew than it has drawn since.
    voids = 0
    for seed in range(12):
        config = TableConfig(deck=DeckName(("classic", "bts", "minecraft")[seed % 3]), seats=3)
        match, memory, rng = Match(config, seed), RoundMemory(), random.Random(seed)
        for _ in range(300):
            memory.catch_up(event.seen_by(0) for event in match.events)
            real = match.snapshot(with_history=False)
            assert memory.discard is not None and codes(memory.discard) == real["discard"]
            for seat, void in memory.voids.items():
                held = [Card.parse(code) for code in real["hands"][seat]]
                assert sum(not void.allows(card) for card in held) <= void.fresh
                # A void rules cards out: the colour it could not follow, and wilds.
                assert not void.allows(Card.parse("W")) and void.color is not None
                voids += 1
            if match.to_act() is None:
                break
            advance(match, rng, 1)
    assert voids > 100


def test_deals_from_memory_keep_the_discards_and_the_voids() -> None:
    rng = random.Random(4)
    for match, seat in positions(30):
        memory = RoundMemory()
        memory.catch_up(event.seen_by(seat) for event in match.events)
        view = match.view(seat, 0)
        config = search.infer_config(view)
        assert config is not None
        deal = search.sample_deal(view, config, rng, memory)
        assert deal is not None
        assert deal.discard == match.snapshot(with_history=False)["discard"]
        assert tuple(len(hand) for hand in deal.hands) == view.shared.counts
        for other, void in memory.voids.items():
            if other != seat:
                cards = [Card.parse(code) for code in deal.hands[other]]
                assert sum(not void.allows(card) for card in cards) <= void.fresh


def test_a_fork_plays_on_without_touching_the_match() -> None:
    for match, _seat in positions(10):
        before = match.snapshot(with_history=False)
        fork = match.fork()
        advance(fork, random.Random(1), 30)
        assert match.snapshot(with_history=False) == before
        assert fork.cards_accounted_for()
        # The same commands on a fork and on a restored snapshot: the same position.
        again, restored = match.fork(), Match.restore(before)
        advance(again, random.Random(2), 30)
        advance(restored, random.Random(2), 30)
        assert again.state_digest() == restored.state_digest()


def test_a_playout_on_a_budget_stops_once_its_deadline_has_passed() -> None:
    # The budget's clock reaches into the playout: a deadline already gone ends it before
    # a move (the deal then does not count), and the match it was given is left as it was.
    for match, seat in positions(5):
        fork = match.fork()
        before = fork.state_digest()
        assert search.playout(fork, seat, random.Random(1), stop_at=time.perf_counter() - 1) is None
        assert fork.state_digest() == before
        value = search.playout(match.fork(), seat, random.Random(1), stop_at=None)
        assert value is not None and -1.0 <= value <= 2.0


def test_a_playout_scores_a_win_above_every_loss_and_by_the_points_it_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Finished playouts from real positions, the points counting: every win is worth more
    # than every loss, and of two wins (or two losses) the one that leaves the others more
    # points (the bot fewer) is worth at least as much.
    monkeypatch.setattr(search, "_POINTS_WEIGHT", 0.25)
    wins: list[tuple[int, float]] = []
    losses: list[tuple[int, float]] = []
    for match, seat in positions(30):
        for seed in range(3):
            fork = match.fork()
            value = search.playout(fork, seat, random.Random(seed))
            if value is None or fork.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                continue
            held = [
                sum(card_points(card) for card in fork.hand(other))
                for other in range(fork.config.seats)
            ]
            if fork.hand_count(seat) == 0:
                wins.append((sum(held), value))
            else:
                losses.append((-held[seat], value))
    assert wins and losses
    assert min(value for _, value in wins) > max(value for _, value in losses)
    for finished in (wins, losses):
        finished.sort()
        values = [value for _, value in finished]
        assert values == sorted(values)
        assert values[0] < values[-1]  # the points do move the value


async def test_a_server_seated_hard_bot_searches_off_the_event_loop() -> None:
    from client.bots import hosted

    match, seat = positions(1)[0]
    view = match.view(seat, 0)
    command = await hosted.choose_off_loop(view, random.Random(1), "hard")
    assert command in match.view(seat, 0).legal
    # Every search slot taken: the decision is played as normal, at once.
    borrowers = [object() for _ in range(int(hosted.SEARCHES.total_tokens))]
    for borrower in borrowers:
        hosted.SEARCHES.acquire_on_behalf_of_nowait(borrower)
    try:
        normal = await hosted.choose_off_loop(view, random.Random(1), "hard")
        assert normal == choose(view, random.Random(1), "normal", table_knobs("hard"))
    finally:
        for borrower in borrowers:
            hosted.SEARCHES.release_on_behalf_of(borrower)
