"""The command handlers: each checks one kind of command, then applies it.

A handler checks everything first and only then changes state through the rules, so a
``Rejected`` leaves the match exactly as it was (RNG included). ``SEAT_HANDLERS`` and
``TABLE_HANDLERS`` map each command type to its handler; ``Match.apply`` dispatches on
them after its own checks of who may send what.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.cards import Rank
from protocol.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Dance,
    Draw,
    NextRound,
    Pass,
    Pause,
    Play,
    RefuseDance,
    Resume,
    SetAway,
    Timeout,
)
from protocol.events import EventKind
from protocol.rejections import RejectCode
from server.engine.outcome import Phase, Rejected
from server.engine.rules import Rules

__all__ = ["SEAT_HANDLERS", "TABLE_HANDLERS", "Handlers"]

_TURN, _STACK = Phase.TURN, Phase.STACK
_DRAW_TWO, _SWAP, _SKIP, _DANCE = Rank.DRAW_TWO, Rank.SWAP_HANDS, Rank.SKIP, Rank.DANCE
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR


class Handlers(Rules):
    """The seat and table command handlers on the rules; ``Match`` adds ``apply``."""

    # ------------------------------------------------------------------ seat commands

    def _on_play(self, seat: int, command: Play, now_ms: int) -> Rejected | None:
        phase = self.phase_
        card = command.card
        if phase is not _TURN and phase is not _STACK:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        hand = self.hands[seat]
        if card not in hand:
            return Rejected(RejectCode.CARD_NOT_IN_HAND, f"{card.code} is not in your hand")
        rank = card.rank
        if phase is _STACK:
            if rank is not _DRAW_TWO:
                return Rejected(
                    RejectCode.MUST_ANSWER_DRAW_TWO,
                    "answer the Draw Two with a Draw Two, or draw the total",
                )
        elif self.has_drawn and card != self.drawn:
            return Rejected(
                RejectCode.ONLY_DRAWN_CARD, "after drawing, only the drawn card may be played"
            )
        if (
            card.color is not None
            and card.color is not self.color
            and rank is not self.discard[-1].rank
        ):
            return Rejected(
                RejectCode.CARD_DOES_NOT_MATCH,
                f"{card.code} matches neither the colour in force nor the top card",
            )
        if card.color is None:
            if command.color is None:
                return Rejected(RejectCode.COLOUR_REQUIRED, "a wild needs a colour")
        elif command.color is not None:
            return Rejected(RejectCode.COLOUR_NOT_ALLOWED, "only a wild takes a colour")
        # A Swap Hands as the last card ends the round and swaps nothing (ruling 11).
        last_swap = rank is _SWAP and len(hand) == 1
        wants_target = (rank is _SWAP and not last_swap) or (rank is _SKIP and self.config.skip_any)
        if command.target is not None:
            if not wants_target:
                reason = "a last Swap Hands swaps nothing" if last_swap else "takes no target"
                return Rejected(RejectCode.INVALID_TARGET, f"{card.code}: {reason}")
            refusal = self._check_target(seat, command.target)
            if refusal is not None:
                return refusal
        elif wants_target:
            return Rejected(RejectCode.TARGET_REQUIRED, f"{card.code} needs a target seat")
        if rank is _DANCE:
            if command.dance is None:
                return Rejected(RejectCode.DANCE_REQUIRED, "name a dance for the Dancing Wild")
        elif command.dance is not None:
            return Rejected(RejectCode.DANCE_NOT_ALLOWED, "only a Dancing Wild names a dance")
        if command.uno and len(hand) != 2:
            return Rejected(
                RejectCode.UNO_NOT_ALLOWED, "UNO is declared with a play that leaves one card"
            )
        if (
            rank is _WILD_DRAW_FOUR
            and not self.config.wd4_bluff
            and self._holds_color(hand, self.color)
        ):
            return Rejected(
                RejectCode.WILD_DRAW_FOUR_NOT_ALLOWED,
                "you hold a card of the colour in force; this table does not allow bluffing",
            )
        self._play_card(seat, command, now_ms)
        return None

    def _on_draw(self, seat: int, command: Draw, now_ms: int) -> Rejected | None:
        if seat != self.current:
            return _not_your_turn()
        if self.phase_ is Phase.STACK:
            self._take_stack(seat, now_ms)
            return None
        if self.phase_ is not Phase.TURN:
            return self._wrong_moment(seat)
        if self.has_drawn:
            return Rejected(RejectCode.ALREADY_DREW, "you already drew this turn")
        if not self.can_draw():
            return Rejected(RejectCode.NOTHING_TO_DRAW, "both piles are empty; pass instead")
        self._voluntary_draw(seat, now_ms)
        return None

    def _on_pass(self, seat: int, command: Pass, now_ms: int) -> Rejected | None:
        if self.phase_ is not Phase.TURN:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        if self.has_drawn:
            self._emit(EventKind.PASSED, {"seat": seat, "stuck": False})
            self._start_turn(self.next_seat(seat), now_ms)
            return None
        if self.can_draw() or self.has_playable(seat):
            return Rejected(RejectCode.CANNOT_PASS, "draw or play first")
        self._stuck_pass(seat, now_ms)
        return None

    def _on_choose_color(self, seat: int, command: ChooseColor, now_ms: int) -> Rejected | None:
        if self.phase_ is not Phase.CHOOSE_COLOR:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        swap = self.discard[-1].rank is Rank.SWAP_HANDS
        if command.target is not None:
            if not swap:
                return Rejected(RejectCode.INVALID_TARGET, "this first card takes no target")
            refusal = self._check_target(seat, command.target)
            if refusal is not None:
                return refusal
        elif swap:
            return Rejected(RejectCode.TARGET_REQUIRED, "name the seat to swap hands with")
        self._choose_first_color(seat, command.color, command.target, now_ms)
        return None

    def _on_call_uno(self, seat: int, command: CallUno, now_ms: int) -> Rejected | None:
        record = self.exposures.get(seat)
        if record is not None:
            if record.status == "open":
                record.status = "called"
                self._emit(EventKind.UNO_CALLED, {"seat": seat, "early": False})
                return None
            if record.status == "caught" and self.window_open(record, now_ms):
                return Rejected(RejectCode.LOST_RACE, "you were caught before your call arrived")
        if (
            seat == self.current
            and len(self.hands[seat]) == 2
            and not self.early_uno
            and self.may_play(seat)
        ):
            self.early_uno = True
            self._emit(EventKind.UNO_CALLED, {"seat": seat, "early": True})
            return None
        return Rejected(RejectCode.NOT_NOW, "there is no UNO to declare now")

    def _on_catch(self, seat: int, command: Catch, now_ms: int) -> Rejected | None:
        target = command.target
        if target == seat or not 0 <= target < self.seats or self.eliminated[target]:
            return Rejected(RejectCode.INVALID_TARGET, f"seat {target} cannot be caught by you")
        record = self.exposures.get(target)
        if record is not None and self.window_open(record, now_ms):
            if record.status != "open":
                return Rejected(RejectCode.LOST_RACE, "the call or another catch came first")
            self._emit(EventKind.CAUGHT, {"seat": target, "by": seat, "penalty": 2})
            self.draw_cards(target, 2, "caught")
            record.status = "caught"
            self.exposures[target] = record
            return None
        if record is not None and record.status == "open":
            code, message = RejectCode.CATCH_TOO_LATE, "the catch window has closed"
        else:
            code, message = RejectCode.NOT_EXPOSED, f"seat {target} owes no UNO"
        penalty = self.config.false_catch_penalty
        if not penalty:
            return Rejected(code, message)
        self._emit(
            EventKind.FALSE_CATCH,
            {"seat": seat, "target": target, "penalty": penalty, "reason": code.value},
        )
        self.draw_cards(seat, penalty, "false-catch")
        return None

    def _on_accept(self, seat: int, command: Accept, now_ms: int) -> Rejected | None:
        if self.phase_ is not Phase.CHALLENGE:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        self._accept_draw_four(seat, now_ms)
        return None

    def _on_challenge(self, seat: int, command: Challenge, now_ms: int) -> Rejected | None:
        if self.phase_ is not Phase.CHALLENGE:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        self._resolve_challenge(seat, now_ms)
        return None

    def _on_dance(self, seat: int, command: Dance, now_ms: int) -> Rejected | None:
        if self.phase_ is not Phase.DANCE:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        if self.dance_steps is None or tuple(command.steps) == self.dance_steps:
            self._emit(EventKind.DANCED, {"seat": seat})
            self._start_turn(seat, now_ms)
        else:
            self._refuse_dance(seat, "wrong-steps", now_ms)
        return None

    def _on_refuse_dance(self, seat: int, command: RefuseDance, now_ms: int) -> Rejected | None:
        if self.phase_ is not Phase.DANCE:
            return self._wrong_moment(seat)
        if seat != self.current:
            return _not_your_turn()
        self._refuse_dance(seat, "refused", now_ms)
        return None

    def _wrong_moment(self, seat: int) -> Rejected:
        if seat != self.current:
            return _not_your_turn()
        return Rejected(
            RejectCode.NOT_NOW, f"that command does not answer the {self.phase_.value} phase"
        )

    def _check_target(self, seat: int, target: int) -> Rejected | None:
        if target == seat or not 0 <= target < self.seats or self.eliminated[target]:
            return Rejected(RejectCode.INVALID_TARGET, f"seat {target} is not an opponent in play")
        return None

    # ------------------------------------------------------------------ table commands

    def _on_timeout(self, command: Timeout, now_ms: int) -> Rejected | None:
        if self.paused:
            return Rejected(RejectCode.PAUSED, "the table is paused; no clock runs")
        deadline = self.deadline
        if deadline is None:
            return Rejected(RejectCode.NOT_NOW, "no clock is running")
        if now_ms < deadline:
            return Rejected(RejectCode.NOT_DUE, f"the deadline is {deadline - now_ms} ms away")
        self._expire(now_ms)
        return None

    def _on_next_round(self, command: NextRound, now_ms: int) -> Rejected | None:
        if self.paused:
            return Rejected(RejectCode.PAUSED, "the table is paused")
        if self.phase_ is not Phase.ROUND_OVER:
            return Rejected(RejectCode.NOT_NOW, "the round is still being played")
        self._next_round(now_ms)
        return None

    def _on_pause(self, command: Pause, now_ms: int) -> Rejected | None:
        if self.paused:
            return Rejected(RejectCode.PAUSED, "the table is already paused")
        self.paused = True
        self.paused_remaining = None if self.deadline is None else self.deadline - now_ms
        self.deadline = None
        self._emit(EventKind.PAUSED, {})
        return None

    def _on_resume(self, command: Resume, now_ms: int) -> Rejected | None:
        if not self.paused:
            return Rejected(RejectCode.NOT_PAUSED, "the table is not paused")
        self.paused = False
        remaining = self.paused_remaining
        self.deadline = None if remaining is None else now_ms + max(remaining, 0)
        self.paused_remaining = None
        self._emit(EventKind.RESUMED, {})
        return None

    def _on_set_away(self, command: SetAway, now_ms: int) -> Rejected | None:
        seat = command.seat
        if not 0 <= seat < self.seats:
            return Rejected(RejectCode.INVALID_SEAT, f"there is no seat {seat}")
        if self.away[seat] == command.away:
            state = "away" if command.away else "present"
            return Rejected(RejectCode.NOT_NOW, f"seat {seat} is already {state}")
        self.set_away(seat, command.away, "table")
        return None


def _not_your_turn() -> Rejected:
    return Rejected(RejectCode.NOT_YOUR_TURN, "it is not your move")


_SeatHandler = Callable[[Handlers, int, Any, int], Rejected | None]
_TableHandler = Callable[[Handlers, Any, int], Rejected | None]

SEAT_HANDLERS: dict[type[Command], _SeatHandler] = {
    Play: Handlers._on_play,
    Draw: Handlers._on_draw,
    Pass: Handlers._on_pass,
    ChooseColor: Handlers._on_choose_color,
    CallUno: Handlers._on_call_uno,
    Catch: Handlers._on_catch,
    Accept: Handlers._on_accept,
    Challenge: Handlers._on_challenge,
    Dance: Handlers._on_dance,
    RefuseDance: Handlers._on_refuse_dance,
}
TABLE_HANDLERS: dict[type[Command], _TableHandler] = {
    Timeout: Handlers._on_timeout,
    NextRound: Handlers._on_next_round,
    Pause: Handlers._on_pause,
    Resume: Handlers._on_resume,
    SetAway: Handlers._on_set_away,
}
