"""The match: one table's game from the dealer's draw to the final scores.

``Match`` is mutable inside for speed and deterministic: everything random comes from one
``random.Random(seed)``, and the only notion of time is the ``now_ms`` stamp the table
passes with every command. Each command handler checks everything first and only then
changes state, so a ``Rejected`` leaves the match exactly as it was (RNG included).

How a move flows: ``apply`` checks who may send the command at all (seat or table, paused,
between rounds), dispatches on the command's type to one handler (``server.engine.
handlers``), and the handler emits events while it changes state. The commonest moves (a
plain play, a draw) are checked directly in ``apply`` instead. The rule details (what a
card does, who draws, who plays next) live in ``server.engine.rules`` and ``rounds``;
legal-move lists, views and snapshots live in their own modules and only read the state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from protocol.cards import Card, Rank
from protocol.commands import (
    CallUno,
    Catch,
    Command,
    Draw,
    Play,
    SeatCommand,
    TableCommand,
)
from protocol.options import ConfigError, TableConfig
from protocol.rejections import RejectCode
from server.engine.handlers import SEAT_HANDLERS, TABLE_HANDLERS, Handlers
from server.engine.legal import legal_seat_commands, legal_table_commands, playable_cards
from server.engine.outcome import Accepted, LogEntry, Outcome, Phase, Rejected, deferred_accepted
from server.engine.rules import PLAIN_RANKS, Rules
from server.engine.snapshot import SnapshotError, check_cards, dump_state, load_state
from server.engine.view import build_view, seat_view, shared_view

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
_SEAT_HANDLERS = SEAT_HANDLERS
_TABLE_HANDLERS = TABLE_HANDLERS


class Match(Handlers):
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
                rank = card.rank
                quick = (
                    card_color is not None
                    and (card_color is self.color or rank is self.discard[-1].rank)
                    and play.color is None
                    and play.target is None
                    and play.dance is None
                    and (not self.has_drawn or card is self.drawn)
                )
                if quick:
                    hand = self.hands[actor]
                    if rank in _PLAIN_RANKS and not play.uno and len(hand) > 2 and card in hand:
                        self._play_plain(actor, hand, card)
                        self._start_turn(self._following(actor), now_ms)
                    else:
                        quick = (
                            (rank is not _SKIP or not self.skip_any)
                            and card in hand
                            and (not play.uno or len(hand) == 2)
                        )
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
                self._log_flat += (actor, command, now_ms)
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
        self._log_flat += (actor, command, now_ms)
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

    def shared_view(self, now_ms: int) -> dict[str, Any]:
        """The part of every view that all seats see alike; see ``seat_view``."""
        return shared_view(self, now_ms)

    def seat_view(self, shared: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``view(seat, now_ms)``, from the ``shared_view(now_ms)`` of that moment: the
        views of every seat for the price of one shared part."""
        return seat_view(self, shared, seat)

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
