"""What the rules do to a match in play: each card's effect, draws, passes, decisions,
clocks.

``Rules`` adds to ``Rounds`` (the deal, the first card, a round's end) the mechanics the
command handlers in ``server.engine.handlers`` call once a command has been checked: what
each card does, who draws, whose turn comes next, what the table does when a clock runs
out. Nothing here checks legality; nothing here reads a clock (``now_ms`` arrives as an
argument).
"""

from __future__ import annotations

from typing import Any

from protocol.cards import COLORS, Card, Color, Rank
from protocol.commands import DANCES, Arrow, Play
from protocol.events import EventKind
from protocol.options import CustomRule, DanceCheck
from server.engine.deck import CODE_BY_ID, codes
from server.engine.outcome import Phase
from server.engine.rounds import Rounds
from server.engine.state import (
    DREW_RECORD,
    NO_SECRETS,
    PASSED_RECORD,
    PLAYED_RECORD,
    Exposure,
)

__all__ = ["PLAIN_RANKS", "Rules"]

_ARROWS: tuple[Arrow, ...] = tuple(Arrow)
# Enum members bound once: attribute access on an enum class costs more than a global.
_SKIP, _REVERSE, _DRAW_TWO = Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO
_WILD_DRAW_FOUR, _DANCE = Rank.WILD_DRAW_FOUR, Rank.DANCE
_SWAP, _SHUFFLE, _CUSTOM = Rank.SWAP_HANDS, Rank.SHUFFLE_HANDS, Rank.CUSTOM
_TURN = Phase.TURN
PLAIN_RANKS = frozenset(
    rank for rank in Rank if rank.number is not None or rank in (Rank.WILD, Rank.CREEPER)
)
"""Ranks whose play only passes the turn on (numbers, Wild, Creeper)."""
_PLAYED = EventKind.PLAYED
_AWAY_AFTER_EXPIRIES = 3


class Rules(Rounds):
    """Rule mechanics on the match state; ``Match`` adds the command handlers and API."""

    # ------------------------------------------------------------------ playing a card

    def _play_card(self, seat: int, command: Play, now_ms: int) -> None:
        """Apply a checked play (rulings 5-13, 16)."""
        hand = self.hands[seat]
        card = hand.pop(hand.index(command.card))  # the engine's own instance of the card
        rank = card.rank
        before = self.color
        self.discard.append(card)
        self.color = command.color if card.color is None else card.color
        self.drawn = None
        self.has_drawn = False
        self.stuck_passes = 0
        if self.exposures:
            self.exposures.pop(seat, None)
        left = len(hand)
        color = self.color
        if command.target is None and command.dance is None:
            self._records.append((PLAYED_RECORD, seat, card, color, left, command.uno))
        else:
            public: dict[str, Any] = {
                "seat": seat,
                "card": CODE_BY_ID.get(id(card)) or card.code,
                "color": None if color is None else color._value_,
                "count": left,
            }
            if command.target is not None:
                public["target"] = command.target
            if command.dance is not None:
                public["dance"] = command.dance
            if command.uno:
                public["uno"] = True
            self._records.append((_PLAYED, public, NO_SECRETS))
        if left == 0:
            self._went_out(seat, card, now_ms)
            return
        exposure: Exposure | None = None
        if left == 1 and rank is not _SWAP and rank is not _SHUFFLE:
            if command.uno:
                self._emit(EventKind.UNO_CALLED, {"seat": seat, "early": False})
            elif not self.early_uno:
                exposure = Exposure(now_ms, self.event_count() + 1)
                self.exposures[seat] = exposure
                self._emit(EventKind.EXPOSED, {"seat": seat})
        if rank in PLAIN_RANKS:
            self._start_turn(self._following(seat), now_ms)
        else:
            self._card_effect(seat, command, before, now_ms)
        if exposure is not None:
            exposure.watch = self.current

    def _play_plain(self, seat: int, hand: list[Card], card: Card) -> None:
        """The plainest play (checked by the caller): a coloured number card that leaves
        two cards or more, with no call. The caller starts the next turn."""
        card = hand.pop(hand.index(card))  # the engine's own instance of the card
        self.discard.append(card)
        color = self.color = card.color
        self.stuck_passes = 0
        if self.exposures:
            self.exposures.pop(seat, None)
        self._records.append((PLAYED_RECORD, seat, card, color, len(hand), False))

    def _card_effect(self, seat: int, command: Play, before: Color | None, now_ms: int) -> None:
        rank = command.card.rank
        if rank is _SKIP:
            if self.config.skip_any and command.target is not None:
                self.skip_marks[command.target] += 1
                self._emit(EventKind.SKIP_MARKED, {"seat": seat, "target": command.target})
                self._start_turn(self.next_seat(seat), now_ms)
            else:
                self._skip_next(seat, now_ms)
        elif rank is _REVERSE:
            if self.two_player:
                self._skip_next(seat, now_ms)
            else:
                self.direction = -self.direction
                self._emit(EventKind.DIRECTION, {"direction": self.direction})
                self._start_turn(self.next_seat(seat), now_ms)
        elif rank is _DRAW_TWO:
            victim = self.next_seat(seat)
            if self.config.stack_draw_two:
                self.pending_draw += 2
                deadline = now_ms + self.turn_ms if self.turn_ms else None
                self._wait_on(victim, Phase.STACK, deadline)
            else:
                self.draw_cards(victim, 2, "draw-two")
                self._skip_next(seat, now_ms)
        elif rank is _WILD_DRAW_FOUR:
            if not self.config.wd4_bluff:  # ruling 23: already checked, nothing to decide
                self.draw_cards(self.next_seat(seat), 4, "wild-draw-four")
                self._skip_next(seat, now_ms)
                return
            hand = self.hands[seat]
            self.wd4_player = seat
            self.wd4_guilty = self._holds_color(hand, before)
            self.wd4_hand = tuple(hand)
            deadline = now_ms + self.config.decision_seconds * 1000
            self._wait_on(self.next_seat(seat), Phase.CHALLENGE, deadline)
        elif rank is _DANCE:
            self._call_dance(seat, command.dance or DANCES[0], now_ms)
        elif rank is _SWAP and command.target is not None:
            self._swap_hands(seat, command.target)
            self._start_turn(self.next_seat(seat), now_ms)
        elif rank is _SHUFFLE:
            self._shuffle_hands(seat)
            self._start_turn(self.next_seat(seat), now_ms)
        elif rank is _CUSTOM and self.config.custom_rule is not CustomRule.PLAIN:
            if self.config.custom_rule is CustomRule.EXTRA_TURN:
                self._start_turn(seat, now_ms)
            else:
                other = self.next_seat(seat)
                while other != seat:
                    self.draw_cards(other, 2, "custom")
                    other = self.next_seat(other)
                self._start_turn(self.next_seat(seat), now_ms)
        else:
            self._start_turn(self.next_seat(seat), now_ms)

    def _skip_next(self, seat: int, now_ms: int) -> None:
        victim = self.next_seat(seat)
        self._emit(EventKind.SKIPPED, {"seat": victim})
        self._start_turn(self.next_seat(victim), now_ms)

    def _went_out(self, seat: int, card: Card, now_ms: int) -> None:
        """Ruling 13: a last Draw Two or Wild Draw Four still makes the next seat draw."""
        if card.rank is Rank.DRAW_TWO:
            self.draw_cards(self.next_seat(seat), self.pending_draw + 2, "draw-two")
            self.pending_draw = 0
        elif card.rank is Rank.WILD_DRAW_FOUR:
            self.draw_cards(self.next_seat(seat), 4, "wild-draw-four")
        self._end_round(seat, "out", now_ms)

    def _call_dance(self, seat: int, dance: str, now_ms: int) -> None:
        """Ruling 9: the server draws the steps (unless on honour) and shows everyone."""
        dancer = self.next_seat(seat)
        if self.config.dance_check is DanceCheck.STEPS:
            length = self.rng.randint(4, 8)
            self.dance_steps = tuple(self.rng.choice(_ARROWS) for _ in range(length))
        else:
            self.dance_steps = None
        self.dance_name = dance
        steps = None if self.dance_steps is None else [step.value for step in self.dance_steps]
        self._emit(
            EventKind.DANCE_CALLED, {"seat": dancer, "by": seat, "dance": dance, "steps": steps}
        )
        deadline = now_ms + self.config.dance_seconds * 1000
        self._wait_on(dancer, Phase.DANCE, deadline)

    def _refuse_dance(self, seat: int, reason: str, now_ms: int) -> None:
        self._emit(EventKind.DANCE_REFUSED, {"seat": seat, "reason": reason})
        self.draw_cards(seat, 3, "dance")
        self._start_turn(seat, now_ms)

    def _swap_hands(self, seat: int, target: int) -> None:
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self.exposures.pop(seat, None)
        self.exposures.pop(target, None)
        self._emit(
            EventKind.HANDS_SWAPPED,
            {"seat": seat, "target": target, "counts": [len(hand) for hand in hands]},
            {s: {"hand": codes(hands[s])} for s in (seat, target)},
        )

    def _shuffle_hands(self, seat: int) -> None:
        """Ruling 11: gather, shuffle, deal one at a time from the player's left."""
        in_play = self.seats_in_play()
        gathered = [card for s in in_play for card in self.hands[s]]
        self._shuffle(gathered)
        hands: list[list[Card]] = [[] for _ in range(self.seats)]
        receiver = seat
        for card in gathered:
            receiver = self.left_of(receiver)
            hands[receiver].append(card)
        self.hands = hands
        self.exposures = {}
        self._emit(
            EventKind.HANDS_SHUFFLED,
            {"seat": seat, "counts": [len(hand) for hand in hands]},
            {s: {"hand": codes(hands[s])} for s in in_play},
        )

    def _voluntary_draw(self, seat: int, now_ms: int | None = None) -> None:
        """Ruling 5: draw one instead of playing. With ``now_ms``, a drawn card that cannot
        be played ends the turn at once (the seeds: "otherwise, your turn is over"); the
        player is asked only when there is a choice (play the drawn card, or pass)."""
        pile = self.draw_pile
        if pile and not self.creepers:  # draw_cards for one card, inlined
            drawn = pile.pop()
            self.hands[seat].append(drawn)
            if self.exposures:
                self.exposures.pop(seat, None)
            self._records.append((DREW_RECORD, seat, (drawn,), "draw"))
        else:
            drawn = self.draw_cards(seat, 1, "draw")[0]
        self.has_drawn = True
        self.drawn = drawn
        self.stuck_passes = 0
        self.early_uno = False  # ruling 25: a call made before drawing lapses
        if (
            now_ms is not None
            and drawn.color is not None
            and drawn.color is not self.color
            and drawn.rank is not self.discard[-1].rank
        ):
            self._records.append((PASSED_RECORD, seat, False))
            self._start_turn(self._following(seat), now_ms)

    def _stuck_pass(self, seat: int, now_ms: int) -> None:
        """Ruling 14: a seat that can neither play nor draw passes; a full cycle ends it."""
        self.stuck_passes += 1
        self._emit(EventKind.PASSED, {"seat": seat, "stuck": True})
        if self.stuck_passes >= len(self.seats_in_play()):
            self._end_round(self._blocked_winner(self.next_seat(seat)), "blocked", now_ms)
        else:
            self._start_turn(self.next_seat(seat), now_ms)

    def _take_stack(self, seat: int, now_ms: int) -> None:
        total, self.pending_draw = self.pending_draw, 0
        self.draw_cards(seat, total, "draw-two")
        self._emit(EventKind.SKIPPED, {"seat": seat})
        self._start_turn(self.next_seat(seat), now_ms)

    def _choose_first_color(self, seat: int, color: Color, target: int | None, now_ms: int) -> None:
        self.color = color
        self._emit(EventKind.COLOR_CHOSEN, {"seat": seat, "color": color.value})
        if target is not None:
            self._swap_hands(seat, target)
        self._start_turn(seat, now_ms)

    def _accept_draw_four(self, seat: int, now_ms: int) -> None:
        self._emit(EventKind.DRAW_FOUR_ACCEPTED, {"seat": seat})
        self.draw_cards(seat, 4, "wild-draw-four")
        self.wd4_hand = ()
        self._emit(EventKind.SKIPPED, {"seat": seat})
        self._start_turn(self.next_seat(seat), now_ms)

    def _resolve_challenge(self, seat: int, now_ms: int) -> None:
        """Ruling 6: guilty, the bluffer draws 4 and the challenger plays; else draw 6."""
        player, guilty = self.wd4_player, self.wd4_guilty
        self._emit(
            EventKind.CHALLENGED,
            {"seat": seat, "target": player, "guilty": guilty},
            {seat: {"hand": codes(self.wd4_hand)}},
        )
        self.wd4_hand = ()
        if guilty:
            self.draw_cards(player, 4, "challenge")
            self._start_turn(seat, now_ms)
        else:
            self.draw_cards(seat, 6, "challenge")
            self._emit(EventKind.SKIPPED, {"seat": seat})
            self._start_turn(self.next_seat(seat), now_ms)

    def set_away(self, seat: int, away: bool, reason: str) -> None:
        self.away[seat] = away
        if away:
            self._emit(EventKind.AWAY, {"seat": seat, "reason": reason})
        else:
            self.expiries[seat] = 0
            self._emit(EventKind.BACK, {"seat": seat})

    def _expire(self, now_ms: int) -> None:
        """Ruling 17: the deadline passed; act for the seat waited on."""
        phase = self.phase_
        if phase is Phase.ROUND_OVER:
            self._next_round(now_ms)
            return
        seat = self.current
        self._emit(EventKind.TIMED_OUT, {"seat": seat, "phase": phase.value})
        start = self.event_count()
        if phase is Phase.CHALLENGE:
            self._accept_draw_four(seat, now_ms)
        elif phase is Phase.DANCE:
            self._refuse_dance(seat, "timeout", now_ms)
        elif phase is Phase.STACK:
            self._take_stack(seat, now_ms)
        else:
            if phase is Phase.CHOOSE_COLOR:
                target = None
                if self.discard[-1].rank is Rank.SWAP_HANDS:
                    target = self._fewest_cards_opponent(seat)
                self._choose_first_color(seat, self._most_held_color(seat), target, now_ms)
            if not self.has_drawn and self.can_draw():
                self._voluntary_draw(seat)
            if self.has_drawn or self.may_play(seat):
                # Ruling 14 counts only passes of seats that could neither play nor draw:
                # a seat that could have played breaks the cycle.
                self.stuck_passes = 0
                self._emit(EventKind.PASSED, {"seat": seat, "stuck": False})
                self._start_turn(self.next_seat(seat), now_ms)
            else:
                self._stuck_pass(seat, now_ms)
        if self.exposures:
            self._seat_acted(seat, start)
        self.expiries[seat] += 1
        if self.expiries[seat] >= _AWAY_AFTER_EXPIRIES and not self.away[seat]:
            self.set_away(seat, True, "timeouts")

    def _most_held_color(self, seat: int) -> Color:
        counts = dict.fromkeys(COLORS, 0)
        for card in self.hands[seat]:
            if card.color is not None:
                counts[card.color] += 1
        return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))

    def _fewest_cards_opponent(self, seat: int) -> int:
        order = []
        other = self.next_seat(seat)
        while other != seat:
            order.append(other)
            other = self.next_seat(other)
        return min(order, key=lambda s: (len(self.hands[s]), order.index(s)))
