"""The match: one table's game from the dealer's draw to the final scores.

``Match`` is mutable inside for speed and deterministic: everything random comes from one
``random.Random(seed)``, and the only notion of time is the ``now_ms`` stamp the table
passes with every command. Each command handler checks everything first and only then
changes state, so a ``Rejected`` leaves the match exactly as it was (RNG included).

How a move flows: ``apply`` checks who may send the command at all (seat or table, paused,
between rounds), dispatches on the command's type to one handler, and the handler emits
events through ``_emit`` while it changes state. The rule details (what a card does, who
draws, who plays next) live in ``server.engine.rules``; legal-move lists, views and
snapshots live in their own modules and only read the state kept here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from protocol.cards import Card, Rank
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
    SeatCommand,
    SetAway,
    TableCommand,
    Timeout,
)
from protocol.events import EventKind
from protocol.options import ConfigError, TableConfig
from protocol.rejections import RejectCode
from server.engine.legal import legal_seat_commands, legal_table_commands, playable_cards
from server.engine.outcome import Accepted, LogEntry, Outcome, Phase, Rejected, deferred_accepted
from server.engine.rules import PLAIN_RANKS, Rules
from server.engine.snapshot import SnapshotError, check_cards, dump_state, load_state
from server.engine.view import build_view

__all__ = ["Match"]

_SEAT_ONLY_MESSAGE = "only a seated player may send this command"
_deferred = deferred_accepted
_new_object = object.__new__
_set_span = vars(Accepted)["_span"].__set__
_ROUND_OVER, _MATCH_OVER = Phase.ROUND_OVER, Phase.MATCH_OVER
_TURN, _STACK = Phase.TURN, Phase.STACK
_DRAW_TWO, _SWAP, _SKIP, _DANCE = Rank.DRAW_TWO, Rank.SWAP_HANDS, Rank.SKIP, Rank.DANCE
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_PLAIN_RANKS = PLAIN_RANKS


class Match(Rules):
    """One match at one table. See ``server.engine`` for the full API reference."""

    def __init__(self, config: TableConfig, seed: int, now_ms: int = 0) -> None:
        super().__init__(config, seed, now_ms)
        self._choose_dealer()
        self._start_round(now_ms)

    # ------------------------------------------------------------------ the one entry point

    def apply(self, actor: int | None, command: Command, now_ms: int) -> Outcome:
        """Apply one command stamped with the server's clock; see the package docstring."""
        start = len(self._records)
        kind = type(command)
        if (
            actor == self.current
            and self.phase_ is _TURN
            and type(actor) is int
            and not self.paused
            and (kind is Play or kind is Draw)
        ):
            # The common moves of a turn, checked directly instead of by the handlers:
            # a coloured card that matches, with no colour, target or dance (not a Skip
            # that must name someone; after a draw only the drawn card), or a draw from a
            # pile that is not empty. Whatever this accepts the handlers accept too, and
            # anything else goes on to them.
            if kind is Play:
                play: Play = command  # type: ignore[assignment]
                card = play.card
                card_color = card.color
                quick = (
                    card_color is not None
                    and (card_color is self.color or card.rank is self.discard[-1].rank)
                    and play.color is None
                    and play.target is None
                    and play.dance is None
                    and (not self.has_drawn or card is self.drawn)
                    and (card.rank is not _SKIP or not self.skip_any)
                )
                if quick:
                    hand = self.hands[actor]
                    if (
                        card.rank in _PLAIN_RANKS
                        and len(hand) > 2
                        and not play.uno
                        and card in hand
                    ):
                        self._play_plain(actor, hand, card)
                        self._start_turn(self._following(actor), now_ms)
                    else:
                        quick = card in hand and (not play.uno or len(hand) == 2)
                        if quick:
                            self._play_card(actor, play, now_ms)
            else:
                quick = not self.has_drawn and bool(self.draw_pile)
                if quick:
                    self._voluntary_draw(actor, now_ms)
            if quick:  # the same bookkeeping as the general path below
                self.expiries[actor] = 0
                if self.exposures:
                    self._seat_acted(actor, start)
                self._log.append((actor, command, now_ms))
                accepted = _new_object(Accepted)  # deferred_accepted, inlined
                _set_span(accepted, (self, start, len(self._records)))
                return accepted
        seat_handler = _SEAT_HANDLERS.get(kind)
        if seat_handler is not None:
            phase = self.phase_
            if (
                type(actor) is not int
                or self.paused
                or phase is _ROUND_OVER
                or phase is _MATCH_OVER
                or not 0 <= actor < self.seats
                or self.eliminated[actor]
            ):
                return self._refuse_seat(actor)
            rejected = seat_handler(self, actor, command, now_ms)
            if rejected is not None:
                return rejected
            self.expiries[actor] = 0
            if self.exposures and kind is not Catch and kind is not CallUno:
                self._seat_acted(actor, start)
        else:
            table_handler = _TABLE_HANDLERS.get(kind)
            if table_handler is None:
                return Rejected(RejectCode.NOT_NOW, f"{kind.__name__} is not a match command")
            if actor is not None:
                return Rejected(RejectCode.TABLE_ONLY, "only the table may send this command")
            if self.phase_ is Phase.MATCH_OVER:
                return Rejected(RejectCode.MATCH_OVER, "the match is over")
            rejected = table_handler(self, command, now_ms)
            if rejected is not None:
                return rejected
        self._log.append((actor, command, now_ms))
        return _deferred(self, start, len(self._records))

    def _refuse_seat(self, actor: int | None) -> Rejected:
        if actor is None:
            return Rejected(RejectCode.SEAT_ONLY, _SEAT_ONLY_MESSAGE)
        if type(actor) is not int or not 0 <= actor < self.seats:
            return Rejected(RejectCode.INVALID_SEAT, f"there is no seat {actor!r}")
        if self.phase_ is Phase.MATCH_OVER:
            return Rejected(RejectCode.MATCH_OVER, "the match is over")
        if self.paused:
            return Rejected(RejectCode.PAUSED, "the table is paused")
        if self.eliminated[actor]:
            return Rejected(RejectCode.ELIMINATED, "this seat is out of the match")
        return Rejected(RejectCode.ROUND_OVER, "the round is over; wait for the next one")

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
        wants_target = rank is _SWAP or (rank is _SKIP and self.config.skip_any)
        if command.target is not None:
            if not wants_target:
                return Rejected(RejectCode.INVALID_TARGET, f"{card.code} takes no target")
            refusal = self._check_target(seat, command.target)
            if refusal is not None:
                return refusal
        elif wants_target and not (rank is _SWAP and len(hand) == 1):
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

    # ------------------------------------------------------------------ reading the match

    @property
    def phase(self) -> Phase:
        """What the match waits for; ``Phase.PAUSED`` while the host has paused it."""
        return Phase.PAUSED if self.paused else self.phase_

    @property
    def is_over(self) -> bool:
        return self.phase_ is Phase.MATCH_OVER

    def to_act(self) -> int | None:
        """The one seat whose move the match waits for; None between rounds, at the end
        and while paused (then only table commands are legal)."""
        phase = self.phase_
        if self.paused or phase is _ROUND_OVER or phase is _MATCH_OVER:
            return None
        return self.current

    def deadline_ms(self) -> int | None:
        """When (server ms, the clock of ``now_ms``) the table must send Timeout, or None."""
        return self.deadline

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.hands[seat])

    def top_card(self) -> Card:
        return self.discard[-1]

    def card_count_total(self) -> int:
        """Cards in hands and both piles; always equals ``deck_size``."""
        return sum(map(len, self.hands)) + len(self.draw_pile) + len(self.discard)

    def cards_accounted_for(self) -> bool:
        """Whether hands and piles hold exactly the table's deck, card by card."""
        return check_cards(self)

    def legal_commands(self, seat: int) -> list[SeatCommand]:
        """Every command ``seat`` may send now, fully expanded (see ``server.engine.legal``)."""
        return legal_seat_commands(self, seat)

    playable_cards = playable_cards
    """``m.playable_cards(seat) -> list[Card]``: the distinct cards ``seat`` may play now,
    the cards of the ``Play`` commands in ``legal_commands(seat)`` unexpanded (a cheap
    query for bots and simulations; see ``server.engine.legal.playable_cards``)."""

    def may_draw(self, seat: int) -> bool:
        """Whether ``Draw()`` is legal for ``seat`` now (its turn before drawing, with a
        card to draw; or a Draw Two stack to take)."""
        if seat != self.current or self.paused:
            return False
        phase = self.phase_
        if phase is _TURN:
            return not self.has_drawn and (bool(self.draw_pile) or len(self.discard) > 1)
        return phase is _STACK

    def hand_count(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        return len(self.hands[seat])

    def legal_table_commands(self, now_ms: int | None = None) -> list[TableCommand]:
        return legal_table_commands(self, now_ms)

    def view(self, seat: int | None, now_ms: int) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, as plain data, with its legal moves."""
        return build_view(self, seat, now_ms)

    # ------------------------------------------------------------------ snapshots

    def snapshot(self, with_history: bool = True) -> dict[str, Any]:
        """The whole match as plain data; ``Match.restore`` rebuilds it."""
        return dump_state(self, with_history)

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Match:
        """The match a snapshot describes (also the test seam for rigged positions)."""
        try:
            config = TableConfig.from_data(data["config"])
        except (KeyError, TypeError, ConfigError) as error:
            raise SnapshotError(f"snapshot has no valid config: {error}") from None
        match = cls.__new__(cls)
        Rules.__init__(match, config, 0, 0)
        load_state(match, data)
        return match

    def state_digest(self) -> str:
        """A hash of the position (history excluded): equal digests, equal matches."""
        text = json.dumps(self.snapshot(with_history=False), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    # ------------------------------------------------------------------ replay

    @classmethod
    def replay(
        cls,
        config: TableConfig,
        seed: int,
        log: Iterable[LogEntry | tuple[int | None, Command, int]],
        start_ms: int = 0,
    ) -> Match:
        """Rebuild a match from its seed and accepted-command log (ruling 19)."""
        match = cls(config, seed, start_ms)
        for actor, command, now_ms in log:
            outcome = match.apply(actor, command, now_ms)
            if isinstance(outcome, Rejected):
                raise ValueError(f"log entry {command!r} by {actor} was rejected: {outcome}")
        return match


def _not_your_turn() -> Rejected:
    return Rejected(RejectCode.NOT_YOUR_TURN, "it is not your move")


_SeatHandler = Callable[[Match, int, Any, int], Rejected | None]
_TableHandler = Callable[[Match, Any, int], Rejected | None]

_SEAT_HANDLERS: dict[type[Command], _SeatHandler] = {
    Play: Match._on_play,
    Draw: Match._on_draw,
    Pass: Match._on_pass,
    ChooseColor: Match._on_choose_color,
    CallUno: Match._on_call_uno,
    Catch: Match._on_catch,
    Accept: Match._on_accept,
    Challenge: Match._on_challenge,
    Dance: Match._on_dance,
    RefuseDance: Match._on_refuse_dance,
}
_TABLE_HANDLERS: dict[type[Command], _TableHandler] = {
    Timeout: Match._on_timeout,
    NextRound: Match._on_next_round,
    Pause: Match._on_pause,
    Resume: Match._on_resume,
    SetAway: Match._on_set_away,
}
