"""A Hypothesis state machine that plays random legal and illegal commands on a Match.

Every deck and option combination is in play, the house rules of rulings 32-35 too (the
table is drawn in the initialize rule).
The rules play commands the engine itself lists as legal (the seat to act, off-turn UNO
calls and catches from any seat, the table's own commands), move the clock on (applying
``Timeout`` when a deadline passes, as the server does), and throw random commands at it
that it has not listed, which must be rejected without changing anything. After every step
the invariants check what must always hold; at teardown, and now and then in between, the
match is replayed from seed and log and restored from its snapshot, and both must equal the
live match.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from protocol.cards import COLORS, Card, InvalidCardError, all_cards
from protocol.codec import check_plain, encode_trusted_body
from protocol.commands import (
    DANCES,
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Dance,
    Draw,
    NextRound,
    Pass,
    Play,
    RefuseDance,
    Resume,
    Timeout,
)
from protocol.events import Event, EventKind
from protocol.options import CustomRule, DanceCheck, DeckName, Scoring, Stack, TableConfig
from server.engine import Accepted, Match, Phase, Rejected

# Event kinds whose public part may name cards: everyone sees these cards.
PUBLIC_CARD_EVENTS = frozenset(
    {
        EventKind.DEALER_CHOSEN,
        EventKind.FIRST_CARD,
        EventKind.FIRST_CARD_RETURNED,
        EventKind.PLAYED,
        EventKind.CREEPER_REVEALED,
        EventKind.ROUND_OVER,
    }
)
# Events that deal a seat a whole new hand, privately.
HAND_DEALING_EVENTS = frozenset(
    {
        EventKind.ROUND_STARTED,
        EventKind.HANDS_SWAPPED,
        EventKind.HANDS_SHUFFLED,
        EventKind.HANDS_PASSED,
    }
)
# View keys that may name cards: the seat's own hand, drawn card and legal moves, the top
# card, and the hands shown at a round's end.
VIEW_CARD_KEYS = frozenset({"hand", "drawn", "legal", "top", "round_result"})
BETWEEN_ROUNDS = frozenset({Phase.ROUND_OVER, Phase.MATCH_OVER})
# Commands the engine may accept without listing them, and the event that must answer them.
UNLISTED_BUT_ANSWERED: dict[type[Command], tuple[EventKind, ...]] = {
    Catch: (EventKind.CAUGHT, EventKind.FALSE_CATCH),
    Dance: (EventKind.DANCED, EventKind.DANCE_REFUSED),
}


@st.composite
def table_configs(draw: st.DrawFn) -> TableConfig:
    """Any playable table: every deck, 2-10 seats, every house rule, short clocks."""
    seats = draw(st.integers(2, 10))
    scorings = [Scoring.STANDARD, Scoring.LOWEST, Scoring.ELIMINATION]
    if seats >= 4 and seats % 2 == 0:
        scorings.append(Scoring.TEAMS)
    return TableConfig(
        deck=draw(st.sampled_from(DeckName)),
        seats=seats,
        target_score=draw(st.sampled_from([1, 40, 150, 500])),
        scoring=draw(st.sampled_from(scorings)),
        hand_size=draw(st.integers(1, min(10, 100 // seats))),
        stack=draw(st.sampled_from(Stack)),
        skip_any=draw(st.booleans()),
        seven_o=draw(st.booleans()),
        jump_in=draw(st.booleans()),
        draw_until_playable=draw(st.booleans()),
        force_play=draw(st.booleans()),
        wd4_bluff=draw(st.booleans()),
        custom_wilds=draw(st.integers(1, 3)),
        custom_rule=draw(st.sampled_from(CustomRule)),
        dance_check=draw(st.sampled_from(DanceCheck)),
        catch_grace_ms=draw(st.sampled_from([0, 500, 1500])),
        false_catch_penalty=draw(st.sampled_from([0, 2])),
        turn_seconds=draw(st.sampled_from([0, 1, 5, 60])),
        decision_seconds=draw(st.sampled_from([1, 15])),
        dance_seconds=draw(st.sampled_from([1, 15])),
        round_pause_seconds=draw(st.sampled_from([0, 1, 10])),
    )


def any_seat_command(seats: int, hand: tuple[str, ...]) -> st.SearchStrategy[Command]:
    """Well-formed seat commands with no regard for the game: most are illegal right now.

    Plays use any card or one from ``hand`` (the actor's own codes), with random colours,
    targets (including seats that do not exist), dances and UNO flags.
    """
    seat = st.integers(-1, seats)
    color = st.sampled_from(COLORS)
    cards = st.sampled_from(all_cards())
    if hand:
        cards = cards | st.sampled_from(sorted(set(hand))).map(Card.parse)
    return st.one_of(
        st.builds(
            Play,
            card=cards,
            color=st.none() | color,
            target=st.none() | seat,
            dance=st.none() | st.sampled_from(DANCES),
            uno=st.booleans(),
        ),
        st.builds(ChooseColor, color=color, target=st.none() | seat),
        st.builds(Catch, target=seat),
        st.builds(Dance, steps=st.lists(st.sampled_from(Arrow), max_size=9).map(tuple)),
        st.sampled_from([Draw(), Pass(), CallUno(), Accept(), Challenge(), RefuseDance()]),
    )


def assert_wire_ready(body: dict[str, object]) -> None:
    """The server sends views and event bodies without the plain-data walk
    (``encode_trusted_body``), so here every one of them must pass it, and encode."""
    check_plain(body)
    encode_trusted_body(body)


def card_codes_in(value: object) -> list[str]:
    """Every string inside a plain value (maps, lists, tuples) that is a card's code."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                Card.parse(item)
            except InvalidCardError:
                continue
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


class EngineMachine(RuleBasedStateMachine):
    """Drives one Match through random legal and illegal commands, checking it throughout."""

    match: Match
    config: TableConfig
    seed: int
    now_ms: int
    events_checked: int

    @initialize(config=table_configs(), seed=st.integers(0, 2**64 - 1))
    def start(self, config: TableConfig, seed: int) -> None:
        note(f"config {config.to_data()} seed {seed}")
        self.config = config
        self.seed = seed
        self.now_ms = 0
        self.events_checked = 0
        self.match = Match(config, seed=seed, now_ms=0)

    # ---------------------------------------------------------------- legal commands

    def _apply_legal(self, actor: int | None, command: Command) -> None:
        note(f"legal: {actor} {command} at {self.now_ms}")
        result = self.match.apply(actor, command, self.now_ms)
        assert isinstance(result, Accepted), f"listed {command} by {actor} was {result}"

    @precondition(lambda self: self.match.to_act() is not None)
    @rule(data=st.data())
    def seat_to_act_plays(self, data: st.DataObject) -> None:
        seat = self.match.to_act()
        assert seat is not None
        self._apply_legal(seat, data.draw(st.sampled_from(self.match.legal_commands(seat))))

    @precondition(lambda self: self.match.to_act() is not None)
    @rule(moves=st.integers(1, 40), rng=st.randoms(use_true_random=False))
    def seat_to_act_plays_a_while(self, moves: int, rng: random.Random) -> None:
        """Several legal moves in one step, so that rounds reach their late stages."""
        for _ in range(moves):
            seat = self.match.to_act()
            if seat is None:
                return
            if self.config.jump_in and rng.random() < 0.3 and self._someone_jumps_in(rng):
                continue
            legal = self.match.legal_commands(seat)
            plays = [command for command in legal if type(command) is Play]
            # Favour playing a card, as people do, so that hands shrink and rounds end.
            self._apply_legal(seat, rng.choice(plays if plays and rng.random() < 0.7 else legal))

    def _someone_jumps_in(self, rng: random.Random) -> bool:
        """Ruling 37: a seat out of turn jumps in, if one can; whether one did."""
        to_act = self.match.to_act()
        jumps = [
            (seat, command)
            for seat in range(self.config.seats)
            if seat != to_act
            for command in self.match.legal_commands(seat)
            if type(command) is Play
        ]
        if jumps:
            self._apply_legal(*rng.choice(jumps))
        return bool(jumps)

    @rule(data=st.data())
    def another_seat_acts(self, data: st.DataObject) -> None:
        """An off-turn command: an UNO call, a catch or a jump-in, from any seat that has one."""
        to_act = self.match.to_act()
        offers = {
            seat: legal
            for seat in range(self.config.seats)
            if seat != to_act and (legal := self.match.legal_commands(seat))
        }
        if offers:
            seat = data.draw(st.sampled_from(sorted(offers)))
            self._apply_legal(seat, data.draw(st.sampled_from(offers[seat])))

    @rule(data=st.data())
    def table_acts(self, data: st.DataObject) -> None:
        """Next round, pause and resume, a seat away or back (timeouts have their own rule)."""
        legal = [c for c in self.match.legal_table_commands(self.now_ms) if type(c) is not Timeout]
        # Half the time move the match on (next round, resume) when that is possible, so
        # that pauses and away seats do not eat the run.
        onward = [c for c in legal if type(c) in (NextRound, Resume)]
        move_on = data.draw(st.booleans())
        if onward and move_on:
            legal = onward
        if legal:
            self._apply_legal(None, data.draw(st.sampled_from(legal)))

    @rule(elapsed=st.integers(0, 20_000), late=st.integers(0, 300))
    def clock_moves_on(self, elapsed: int, late: int) -> None:
        """Time passes; if a deadline falls inside, the table applies Timeout, a little late."""
        deadline = self.match.deadline_ms()
        target = self.now_ms + elapsed
        if deadline is not None and deadline <= target:
            self.now_ms = max(self.now_ms, deadline + late)
            assert Timeout() in self.match.legal_table_commands(self.now_ms)
            self._apply_legal(None, Timeout())
        else:
            self.now_ms = target

    # ---------------------------------------------------------------- illegal commands

    @rule(data=st.data())
    def random_seat_command(self, data: st.DataObject) -> None:
        seats = self.config.seats
        actor = data.draw(st.none() | st.integers(-1, seats))
        own = self.match.hand(actor) if actor is not None and 0 <= actor < seats else ()
        command = data.draw(any_seat_command(seats, tuple(card.code for card in own)))
        self._expect_rejected_unless_listed(actor, command)

    @rule(data=st.data())
    def seat_out_of_turn_plays_a_card_it_holds(self, data: st.DataObject) -> None:
        """Ruling 37: a plain play out of turn, accepted only as a listed jump-in."""
        to_act = self.match.to_act()
        seats = [s for s in range(self.config.seats) if s != to_act and self.match.hand(s)]
        if seats:
            seat = data.draw(st.sampled_from(seats))
            card = data.draw(st.sampled_from(sorted(set(self.match.hand(seat)), key=str)))
            self._expect_rejected_unless_listed(
                seat, Play(card, uno=len(self.match.hand(seat)) == 2)
            )

    @rule(data=st.data())
    def table_command_out_of_place(self, data: st.DataObject) -> None:
        actor = data.draw(st.none() | st.integers(0, self.config.seats - 1))
        command = data.draw(st.sampled_from([NextRound(), Timeout()]))
        self._expect_rejected_unless_listed(actor, command)

    def _expect_rejected_unless_listed(self, actor: int | None, command: Command) -> None:
        match = self.match
        if actor is None:
            listed = command in match.legal_table_commands(self.now_ms)
        elif 0 <= actor < self.config.seats:
            listed = command in match.legal_commands(actor)
        else:
            listed = False
        if listed:
            self._apply_legal(actor, command)
            return
        note(f"unlisted: {actor} {command} at {self.now_ms}")
        before = match.snapshot()
        result = match.apply(actor, command, self.now_ms)
        if isinstance(result, Accepted) and type(command) in UNLISTED_BUT_ANSWERED:
            # A catch is listed only while the watched seat has not yet moved; after that
            # it still lands within catch_grace_ms, and a false catch costs the catcher
            # its penalty when the table sets one. Any step sequence answers a dance (a
            # wrong one counts as refusing). Each must say what it did.
            kinds = [event.kind for event in result.events]
            assert kinds and kinds[0] in UNLISTED_BUT_ANSWERED[type(command)], kinds
            return
        assert isinstance(result, Rejected), f"unlisted {command} by {actor} was accepted"
        assert match.snapshot() == before, f"rejected {command} changed the match"

    # ---------------------------------------------------------------- replay and restore

    @rule()
    def replay_and_restore_equal_the_live_match(self) -> None:
        self._check_replay_and_restore()

    def _check_replay_and_restore(self) -> None:
        live = self.match.snapshot()
        replayed = Match.replay(self.config, self.seed, self.match.log)
        assert replayed.snapshot() == live, "seed + log does not replay to the live match"
        restored = Match.restore(live)
        assert restored.snapshot() == live, "restore(snapshot) differs from the live match"
        assert restored.state_digest() == self.match.state_digest()
        # Go on with the restored copy, so that later steps exercise a restored match too.
        self.match = restored

    def teardown(self) -> None:
        if hasattr(self, "match"):
            self._check_replay_and_restore()

    # ---------------------------------------------------------------- invariants

    @invariant()
    def the_position_survives_snapshot_and_restore(self) -> None:
        position = self.match.snapshot(with_history=False)
        restored = Match.restore(position).snapshot(with_history=False)
        # A position-only snapshot carries no events, so the restored copy counts none.
        assert restored.pop("event_count") == 0
        position.pop("event_count")
        assert restored == position, "the position does not survive snapshot and restore"

    @invariant()
    def every_card_is_accounted_for(self) -> None:
        match = self.match
        view = match.view(None, self.now_ms).to_data()
        counted = sum(view["counts"]) + view["draw_count"] + view["discard_count"]
        assert counted == match.deck_size == match.card_count_total()
        assert match.cards_accounted_for(), "hands and piles are not exactly the deck"

    @invariant()
    def one_seat_to_act_or_only_the_table(self) -> None:
        match = self.match
        seat = match.to_act()
        offers = [s for s in range(self.config.seats) if match.legal_commands(s)]
        if seat is None:
            assert match.phase in BETWEEN_ROUNDS or match.phase is Phase.PAUSED, match.phase
            assert not offers, f"seats {offers} have commands in phase {match.phase}"
            if not match.is_over:
                assert match.legal_table_commands(), "nothing can move the match on"
        else:
            assert match.phase not in BETWEEN_ROUNDS and match.phase is not Phase.PAUSED
            assert 0 <= seat < self.config.seats
            assert seat in offers, f"seat {seat} is to act with no legal command"
            # Only the seat to act moves the game; others may only call UNO or catch, or
            # (ruling 37) jump in with the card identical to the top card.
            for other in offers:
                if other != seat:
                    legal = match.legal_commands(other)
                    kinds = {type(c) for c in legal}
                    off_turn = {CallUno, Catch, Play} if self.config.jump_in else {CallUno, Catch}
                    assert kinds <= off_turn, f"seat {other} may send {kinds}"
                    jumps = {c.card for c in legal if type(c) is Play}
                    assert jumps <= {match.top_card()}, f"seat {other} may jump in with {jumps}"
                    assert not jumps or match.top_card().color is not None

    @invariant()
    def cheap_queries_agree_with_the_legal_list(self) -> None:
        match = self.match
        for seat in range(self.config.seats):
            legal = match.legal_commands(seat)
            plays = {command.card for command in legal if type(command) is Play}
            playable = match.playable_cards(seat)
            assert len(set(playable)) == len(playable) and set(playable) == plays, seat
            assert match.may_draw(seat) == (Draw() in legal), f"may_draw({seat})"
            assert match.hand_count(seat) == len(match.hand(seat))

    @invariant()
    def views_show_only_what_each_seat_may_see(self) -> None:
        match = self.match
        shared = match.shared_view(self.now_ms)
        for seat in [None, *range(self.config.seats)]:
            view = match.view(seat, self.now_ms).to_data()
            assert match.seat_view(shared, seat).to_data() == view, "built from the shared part"
            if seat is None:
                assert "hand" not in view and view["legal"] == []
            else:
                own = [card.code for card in match.hand(seat)]
                assert Counter(view["hand"]) == Counter(own)
                assert view["drawn"] is None or view["drawn"] in own
                legal = [command.to_data() for command in match.legal_commands(seat)]
                assert view["legal"] == legal
                assert set(card_codes_in(legal)) <= set(own), "a legal move names others' cards"
            if view["round_result"] is not None:
                assert match.phase in BETWEEN_ROUNDS or match.phase is Phase.PAUSED
            assert_wire_ready(view)
            hidden = {key: value for key, value in view.items() if key not in VIEW_CARD_KEYS}
            assert not card_codes_in(hidden), f"view of {seat} names cards: {hidden}"
            assert view["top"] == match.top_card().code

    @invariant()
    def events_are_numbered_and_redacted(self) -> None:
        match = self.match
        events = match.events
        new = events[self.events_checked :]
        for index, event in enumerate(new, start=self.events_checked + 1):
            assert event.seq == index, f"event {event.seq} where {index} was due"
            self._check_event(event)
        self._check_dealt_hands(new)
        self.events_checked = len(events)

    def _check_event(self, event: Event) -> None:
        public = event.public
        private = {seat: secret.to_data() for seat, secret in event.private.items()}
        if event.kind not in PUBLIC_CARD_EVENTS:
            assert not card_codes_in(dict(public)), f"{event.kind} shows cards to all"
        seats = range(self.config.seats)
        if event.kind is EventKind.DREW:
            assert set(private) <= {public["seat"]}
            cards = private.get(public["seat"], {}).get("cards", [])
            assert len(cards) == public["count"]
        elif event.kind is EventKind.CHALLENGED:
            assert set(private) <= {public["seat"]}, "the challenged hand goes to the challenger"
        elif event.kind is EventKind.HANDS_SWAPPED:
            assert set(private) <= {public["seat"], public["target"]}
        elif event.kind in HAND_DEALING_EVENTS:
            assert set(private) <= set(seats)
        else:
            assert not private, f"{event.kind} has secrets: {private}"
        spectator = event.for_seat(None)
        assert spectator == {"seq": event.seq, "kind": event.kind.value, **public}
        assert_wire_ready(spectator)
        for seat in seats:
            seen = event.for_seat(seat)
            assert seen == {**spectator, **private.get(seat, {})}
            assert_wire_ready(seen)

    def _check_dealt_hands(self, new: list[Event]) -> None:
        """A hand dealt privately is the seat's own hand: compare it with the live hand
        when nothing changed that hand afterwards in the same batch of events."""
        changed_later: set[int] = set()
        for event in reversed(new):
            kind, public = event.kind, event.public
            secrets = {seat: secret.to_data() for seat, secret in event.private.items()}
            if kind in HAND_DEALING_EVENTS:
                for seat, secret in secrets.items():
                    if seat not in changed_later:
                        live = [card.code for card in self.match.hand(seat)]
                        assert Counter(secret["hand"]) == Counter(live), f"{kind} to {seat}"
                counts = public.get("counts")
                if counts is not None:
                    for seat, secret in secrets.items():
                        assert len(secret["hand"]) == counts[seat]
                changed_later.update(event.private)
            elif kind in (EventKind.DREW, EventKind.PLAYED):
                changed_later.add(public["seat"])

    @invariant()
    def scores_are_consistent(self) -> None:
        match = self.match
        config = self.config
        scores = match.scores
        assert len(scores) == config.seats and all(score >= 0 for score in scores)
        target = config.target_score
        view = match.view(None, self.now_ms).to_data()
        eliminated = set(view["eliminated"])
        if config.scoring is Scoring.ELIMINATION:
            for seat in range(config.seats):
                assert (seat in eliminated) == (scores[seat] >= target), (seat, scores)
            over = len(eliminated) >= config.seats - 1
        else:
            assert not eliminated
            over = any(score >= target for score in scores)
        if config.scoring is Scoring.TEAMS:
            half = config.seats // 2
            assert all(scores[seat] == scores[seat + half] for seat in range(half))
        assert match.is_over == over, f"over={match.is_over} with scores {scores}"
        if match.is_over:
            assert match.result is not None and match.result.winners
            assert list(match.result.scores) == scores


TestEngineStateMachine = EngineMachine.TestCase
