"""Server bots: who plays the seats that no connected person plays, and when.

Two kinds of seat are played by the server: bot seats the host added, and people's seats
marked away (their connection is gone, or the engine saw three turn expiries in a row).
Both use the shared strategies of ``client.bots.strategies``, fed the same per-seat view a
remote client would get, so a server bot never knows more than its seat may see.

A bot acts after a short think delay, so people can follow the game, and through the same
path as a person's command. When no bot seat has anything to do, or every bot passed on
what it could do, the pilot stays idle until the match changes (a new event), so a bot
that keeps choosing a refused command can never spin.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from dataclasses import dataclass

from client.bots.strategies import STRATEGIES, UnknownStrategyError, choose
from protocol.commands import Command, InvalidCommandError, SeatCommand, command_from_data
from server.engine import Match

__all__ = ["BotChoice", "Pilot", "known_strategy"]

log = logging.getLogger("uno.server.bots")


def known_strategy(name: str) -> bool:
    """Whether a bot strategy of that name exists."""
    return name in STRATEGIES


@dataclass(frozen=True, slots=True)
class BotChoice:
    """A command a server bot wants to send for a seat."""

    seat: int
    command: SeatCommand


class Pilot:
    """Decides when the server's bots act and what they send.

    The table asks ``wake_at`` for the next time the pilot needs it (None: not until the
    match changes) and calls ``choices`` when that time has come; it applies the first
    choice the engine accepts and tells the pilot with ``changed`` whenever the match moved.
    """

    def __init__(self, rng: random.Random, think_seconds: float) -> None:
        self._rng = rng
        self._think = think_seconds
        self._due: float | None = None
        self._idle_at: int | None = None

    def changed(self, match: Match | None, seats: Iterable[int], last_seq: int, now: float) -> None:
        """The match or the seats changed: plan the bots' next move, if they have one."""
        if self._due is not None or self._idle_at == last_seq:
            return
        if match is None or match.is_over or match.paused:
            return
        if any(match.legal_commands(seat) for seat in seats):
            self._due = now + self._think

    def wake_at(self) -> float | None:
        """When the table must call ``choices`` (Trio time), or None."""
        return self._due

    def cancel(self) -> None:
        """Forget the planned move (the match ended or was replaced)."""
        self._due = None
        self._idle_at = None

    def choices(
        self,
        match: Match,
        seats: Iterable[tuple[int, str]],
        now_ms: int,
        last_seq: int,
    ) -> list[BotChoice]:
        """What each bot-played seat would send now, the seat to act first.

        ``seats`` pairs each bot-played seat with its strategy. An empty answer makes the
        pilot idle until the match changes.
        """
        self._due = None
        to_act = match.to_act()
        ordered = sorted(seats, key=lambda pair: pair[0] != to_act)
        picked: list[BotChoice] = []
        for seat, strategy in ordered:
            command = self._choose(match, seat, strategy, now_ms)
            if command is not None:
                picked.append(BotChoice(seat, command))
        if not picked:
            self._idle_at = last_seq
        return picked

    def gave_up(self, last_seq: int) -> None:
        """Every choice was refused: stay idle until the match changes."""
        self._idle_at = last_seq

    def _choose(self, match: Match, seat: int, strategy: str, now_ms: int) -> SeatCommand | None:
        view = match.view(seat, now_ms)
        if not view.get("legal"):
            return None
        try:
            data = choose(view, self._rng, strategy)
        except UnknownStrategyError:
            log.warning("seat %d names an unknown bot strategy %r; using basic", seat, strategy)
            data = choose(view, self._rng, "basic")
        if data is None:
            return None
        try:
            command: Command = command_from_data(data)
        except InvalidCommandError as error:
            log.warning(
                "the %s bot for seat %d chose a malformed command: %s", strategy, seat, error
            )
            return None
        return command if isinstance(command, SeatCommand) else None
