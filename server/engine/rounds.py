"""A round from the deal to the scores: the dealer, the deal, the first card, the end.

``Rounds`` adds to ``MatchState`` the round's frame (rulings 3, 4, 13-15, 18, 21, 29, 30):
choosing the dealer, dealing, what the first card turned up does, scoring a round that
ended (gone out or blocked) and passing the deal on. ``server.engine.rules`` builds the
card rules on it.
"""

from __future__ import annotations

from typing import Any

from protocol.cards import Card, Color, Rank, hand_points
from protocol.events import EventKind
from server.engine.deck import CODE, build_deck, codes
from server.engine.outcome import Phase
from server.engine.scoring import score_round
from server.engine.state import MatchState

__all__ = ["Rounds"]


class Rounds(MatchState):
    """The round's frame on the match state; ``Rules`` adds what happens in between."""

    def _choose_dealer(self) -> None:
        """Ruling 3: everyone draws, the highest number deals, symbols 0, ties redraw."""
        deck = build_deck(self.config)
        self._shuffle(deck)
        contenders = list(range(self.seats))
        draws: list[list[list[Any]]] = []
        while True:
            if len(deck) < len(contenders):
                deck = build_deck(self.config)
                self._shuffle(deck)
            drawn = [(seat, deck.pop()) for seat in contenders]
            draws.append([[seat, CODE[card]] for seat, card in drawn])
            values = [(card.rank.number or 0, seat) for seat, card in drawn]
            best = max(value for value, _ in values)
            contenders = [seat for value, seat in values if value == best]
            if len(contenders) == 1:
                break
        self.dealer = contenders[0]
        self._emit(EventKind.DEALER_CHOSEN, {"dealer": self.dealer, "draws": draws})

    def _start_round(self, now_ms: int) -> None:
        self.round_no += 1
        self.phase_ = Phase.TURN
        self.direction = 1
        self.round_result = None
        self.exposures = {}
        self.skip_marks = [0] * self.seats
        self.pending_draw = 0
        self.stuck_passes = 0
        self.dance_name = None
        self.dance_steps = None
        self.wd4_hand = ()
        in_play = self.seats_in_play()
        self.two_player = len(in_play) == 2
        deck = build_deck(self.config)
        self._shuffle(deck)
        hands: list[list[Card]] = [[] for _ in range(self.seats)]
        order = [self.left_of(self.dealer)]
        while len(order) < len(in_play):
            order.append(self.left_of(order[-1]))
        # One card at a time round the table from the dealer's left, off the top of the
        # deck (its end): the k-th card from the top goes to order[k % len(order)].
        dealt = deck[len(deck) - self.config.hand_size * len(order) :]
        del deck[len(deck) - len(dealt) :]
        dealt.reverse()
        for index, seat in enumerate(order):
            hands[seat] = dealt[index :: len(order)]
        self.hands = hands
        self.draw_pile = deck
        self.discard = []
        self._emit(
            EventKind.ROUND_STARTED,
            {
                "round": self.round_no,
                "dealer": self.dealer,
                "counts": [len(hand) for hand in hands],
            },
            {seat: {"hand": codes(hands[seat])} for seat in in_play},
        )
        first = deck.pop()
        while first.rank is Rank.WILD_DRAW_FOUR:  # ruling 4: back in, reshuffle, again
            self._emit(EventKind.FIRST_CARD_RETURNED, {"card": CODE[first]})
            deck.append(first)
            self._shuffle(deck)
            first = deck.pop()
        self.discard.append(first)
        self.color = first.color
        self._emit(EventKind.FIRST_CARD, {"card": CODE[first], "color": _code(first.color)})
        self._first_card_effect(first, now_ms)

    def _first_card_effect(self, card: Card, now_ms: int) -> None:
        """Ruling 4: what the card turned up to start a round does."""
        first = self.left_of(self.dealer)
        rank = card.rank
        if card.color is None:
            self.current = first
            self.phase_ = Phase.CHOOSE_COLOR
            self.drawn, self.has_drawn, self.early_uno = None, False, False
            self._emit(
                EventKind.TURN,
                {"seat": first, "direction": self.direction, "phase": self.phase_.value},
            )
            self.deadline = now_ms + self.turn_ms if self.turn_ms else None
        elif rank is Rank.SKIP or (rank is Rank.REVERSE and self.two_player):
            self._emit(EventKind.SKIPPED, {"seat": first})
            self._start_turn(self.next_seat(first), now_ms)
        elif rank is Rank.REVERSE:
            self.direction = -1
            self._emit(EventKind.DIRECTION, {"direction": -1})
            self._start_turn(self.dealer, now_ms)
        elif rank is Rank.DRAW_TWO:
            self.draw_cards(first, 2, "draw-two")
            self._emit(EventKind.SKIPPED, {"seat": first})
            self._start_turn(self.next_seat(first), now_ms)
        else:
            self._start_turn(first, now_ms)

    def _blocked_winner(self, to_act: int) -> int:
        """Fewest points, then fewest cards, then first in turn order from the seat to act."""
        order = [to_act]
        while len(order) < len(self.seats_in_play()):
            order.append(self.next_seat(order[-1]))
        hands = self.hands
        return min(order, key=lambda s: (hand_points(hands[s]), len(hands[s]), order.index(s)))

    def _end_round(self, winner: int, reason: str, now_ms: int) -> None:
        config = self.config
        hands = self.hands
        points = [hand_points(hand) for hand in hands]
        outcome = score_round(
            config.scoring,
            target=config.target_score,
            winner=winner,
            points=points,
            scores=self.scores,
            eliminated=self.eliminated,
        )
        self.scores = [
            score + gain for score, gain in zip(self.scores, outcome.gained, strict=True)
        ]
        for seat in outcome.newly_eliminated:
            self.eliminated[seat] = True
        self.exposures = {}
        self.pending_draw = 0
        self.wd4_hand = ()
        self.dance_steps = None
        self.dance_name = None
        summary: dict[str, Any] = {
            "round": self.round_no,
            "winner": winner,
            "reason": reason,
            "hands": [codes(hand) for hand in hands],
            "points": points,
            "gained": list(outcome.gained),
            "scores": list(self.scores),
            "eliminated": list(outcome.newly_eliminated),
        }
        self._emit(EventKind.ROUND_OVER, summary)
        self.round_result = summary
        if outcome.winners is not None:
            self.phase_ = Phase.MATCH_OVER
            self.deadline = None
            self.result = {"winners": list(outcome.winners), "scores": list(self.scores)}
            self._emit(EventKind.MATCH_OVER, dict(self.result))
        else:
            self.phase_ = Phase.ROUND_OVER
            self.deadline = now_ms + config.round_pause_seconds * 1000

    def _next_round(self, now_ms: int) -> None:
        """Ruling 3: the deal passes to the left."""
        self.dealer = self.left_of(self.dealer)
        self._start_round(now_ms)


def _code(color: Color | None) -> str | None:
    return None if color is None else color.value
