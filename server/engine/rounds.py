"""A round from the deal to the scores: the dealer, the deal, the first card, the end.

The round's frame (rulings 3, 4, 13-15, 18, 21, 29, 30) as functions over a
``MatchState``: choosing the dealer, dealing, what the first card turned up does, scoring
a round that ended (gone out or blocked) and passing the deal on.
"""

from __future__ import annotations

from protocol.cards import Card, Rank, hand_points
from protocol.events import (
    DealerChosen,
    DealerDraw,
    DirectionChanged,
    DrewReason,
    FirstCard,
    FirstCardReturned,
    MatchOver,
    RoundOver,
    RoundOverReason,
    RoundStarted,
    SecretHand,
    Skipped,
    Turn,
)
from protocol.phase import Phase
from server.engine.deck import build_deck
from server.engine.scoring import score_round
from server.engine.state import MatchState

__all__ = ["blocked_winner", "choose_dealer", "end_round", "next_round", "start_round"]


def choose_dealer(state: MatchState) -> None:
    """Ruling 3: everyone draws, the highest number deals, symbols 0, ties redraw."""
    deck = build_deck(state.config)
    state.shuffle(deck)
    contenders = list(range(state.seats))
    draws: list[tuple[DealerDraw, ...]] = []
    while True:
        if len(deck) < len(contenders):
            deck = build_deck(state.config)
            state.shuffle(deck)
        drawn = [(seat, deck.pop()) for seat in contenders]
        if not state.quiet:
            draws.append(tuple(DealerDraw(seat, card) for seat, card in drawn))
        values = [(card.rank.number or 0, seat) for seat, card in drawn]
        best = max(value for value, _ in values)
        contenders = [seat for value, seat in values if value == best]
        if len(contenders) == 1:
            break
    state.dealer = contenders[0]
    state.seq += 1
    if not state.quiet:
        state.emit(DealerChosen(state.dealer, tuple(draws)))


def start_round(state: MatchState, now_ms: int) -> None:
    """Deal a new round and turn up its first card."""
    state.round_no += 1
    state.phase = Phase.TURN
    state.direction = 1
    state.round_result = None
    state.exposures = {}
    state.skip_marks = [0] * state.seats
    state.pending_draw = 0
    state.stuck_passes = 0
    state.dance_name = None
    state.dance_steps = None
    state.wd4_hand = ()
    state.top_played = False
    state.jump_tops = []
    in_play = state.seats_in_play()
    state.two_player = len(in_play) == 2
    deck = build_deck(state.config)
    state.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    order = [state.left_of(state.dealer)]
    while len(order) < len(in_play):
        order.append(state.left_of(order[-1]))
    # One card at a time round the table from the dealer's left, off the top of the
    # deck (its end): the k-th card from the top goes to order[k % len(order)].
    dealt = deck[len(deck) - state.config.hand_size * len(order) :]
    del deck[len(deck) - len(dealt) :]
    dealt.reverse()
    for index, seat in enumerate(order):
        hands[seat] = dealt[index :: len(order)]
    state.hands = hands
    state.draw_pile = deck
    state.discard = []
    # Trusted, as for the round's end below: checking every dealt card and every counted
    # hand costs 50 us a round of four against 5 us unchecked (timeit), about 0.8 us of
    # the 12 us a command takes in tests/bench/engine.py (57 commands a round), 6 %;
    # tests/engine/test_event_codec.py holds them equal to their checked records.
    state.seq += 1
    if not state.quiet:
        state.emit(
            RoundStarted.trusted(
                round=state.round_no, dealer=state.dealer, counts=tuple(map(len, hands))
            ),
            {seat: SecretHand.trusted(hand=tuple(hands[seat])) for seat in in_play},
        )
    first = deck.pop()
    while first.rank is Rank.WILD_DRAW_FOUR:  # ruling 4: back in, reshuffle, again
        state.seq += 1
        if not state.quiet:
            state.emit(FirstCardReturned(first))
        deck.append(first)
        state.shuffle(deck)
        first = deck.pop()
    state.discard.append(first)
    state.color = first.color
    state.seq += 1
    if not state.quiet:
        state.emit(FirstCard(first, first.color))
    _first_card_effect(state, first, now_ms)


def _first_card_effect(state: MatchState, card: Card, now_ms: int) -> None:
    """Ruling 4: what the card turned up to start a round does."""
    first = state.left_of(state.dealer)
    rank = card.rank
    if card.color is None:
        state.current = first
        state.phase = Phase.CHOOSE_COLOR
        state.drawn, state.has_drawn, state.early_uno = None, False, False
        state.seq += 1
        if not state.quiet:
            state.emit(Turn(first, state.direction, state.phase))
        state.deadline = now_ms + state.turn_ms if state.turn_ms else None
    elif rank is Rank.SKIP or (rank is Rank.REVERSE and state.two_player):
        state.seq += 1
        if not state.quiet:
            state.emit(Skipped.trusted(seat=first))
        state.start_turn(state.next_seat(first), now_ms)
    elif rank is Rank.REVERSE:
        state.direction = -1
        state.seq += 1
        if not state.quiet:
            state.emit(DirectionChanged(-1))
        state.start_turn(state.dealer, now_ms)
    elif rank is Rank.DRAW_TWO:
        state.draw_cards(first, 2, DrewReason.DRAW_TWO)
        state.seq += 1
        if not state.quiet:
            state.emit(Skipped.trusted(seat=first))
        state.start_turn(state.next_seat(first), now_ms)
    else:
        state.start_turn(first, now_ms)


def blocked_winner(state: MatchState, to_act: int) -> int:
    """Fewest points, then fewest cards, then first in turn order from the seat to act."""
    order = [to_act]
    while len(order) < len(state.seats_in_play()):
        order.append(state.next_seat(order[-1]))
    hands = state.hands
    return min(order, key=lambda s: (hand_points(hands[s]), len(hands[s]), order.index(s)))


def end_round(state: MatchState, winner: int, reason: RoundOverReason, now_ms: int) -> None:
    """Score the round ``winner`` won (``reason``: out or blocked); maybe end the match."""
    config = state.config
    hands = state.hands
    points = [hand_points(hand) for hand in hands]
    outcome = score_round(
        config.scoring,
        target=config.target_score,
        winner=winner,
        points=points,
        scores=state.scores,
        eliminated=state.eliminated,
    )
    state.scores = [score + gain for score, gain in zip(state.scores, outcome.gained, strict=True)]
    for seat in outcome.newly_eliminated:
        state.eliminated[seat] = True
    state.exposures = {}
    state.pending_draw = 0
    state.wd4_hand = ()
    state.dance_steps = None
    state.dance_name = None
    summary = RoundOver.trusted(
        round=state.round_no,
        winner=winner,
        reason=reason,
        hands=tuple(map(tuple, hands)),
        points=tuple(points),
        gained=tuple(outcome.gained),
        scores=tuple(state.scores),
        eliminated=tuple(outcome.newly_eliminated),
    )
    state.seq += 1
    if not state.quiet:
        state.emit(summary)
    state.round_result = summary
    if outcome.winners is not None:
        state.phase = Phase.MATCH_OVER
        state.deadline = None
        state.result = MatchOver.trusted(winners=tuple(outcome.winners), scores=tuple(state.scores))
        state.seq += 1
        if not state.quiet:
            state.emit(state.result)
    else:
        state.phase = Phase.ROUND_OVER
        state.deadline = now_ms + config.round_pause_seconds * 1000


def next_round(state: MatchState, now_ms: int) -> None:
    """Ruling 3: the deal passes to the left."""
    state.dealer = state.left_of(state.dealer)
    start_round(state, now_ms)
