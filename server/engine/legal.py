"""Fully expanded lists of the commands that are legal now.

Built only when asked (never on the hot path of ``apply``). Every listed command is
accepted if sent next, whatever the time: a catch is listed only while the watched seat
has not yet acted (after that the window depends on the clock), and ``Timeout`` is listed
only once its deadline is known to have passed when ``now_ms`` is given.
"""

from __future__ import annotations

from protocol.cards import COLORS, Card, Rank
from protocol.commands import (
    DANCES,
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
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
from server.engine.outcome import Phase
from server.engine.rules import Rules

__all__ = ["legal_seat_commands", "legal_table_commands"]


def legal_seat_commands(state: Rules, seat: int) -> list[SeatCommand]:
    """Every command ``seat`` may send now, on turn and off turn."""
    phase = state.phase_
    if (
        state.paused
        or phase is Phase.ROUND_OVER
        or phase is Phase.MATCH_OVER
        or not 0 <= seat < state.seats
        or state.eliminated[seat]
    ):
        return []
    legal: list[SeatCommand] = []
    if seat == state.current:
        if phase is Phase.TURN:
            legal.extend(_turn_commands(state, seat))
        elif phase is Phase.STACK:
            hand = state.hands[seat]
            for card in dict.fromkeys(hand):
                if card.rank is Rank.DRAW_TWO:
                    legal.append(Play(card))
                    if len(hand) == 2:
                        legal.append(Play(card, uno=True))
            legal.append(Draw())
        elif phase is Phase.CHALLENGE:
            legal.extend((Accept(), Challenge()))
        elif phase is Phase.DANCE:
            legal.append(Dance(state.dance_steps or ()))
            legal.append(RefuseDance())
        elif phase is Phase.CHOOSE_COLOR:
            if state.discard[-1].rank is Rank.SWAP_HANDS:
                targets = _opponents(state, seat)
                legal.extend(ChooseColor(color, target) for color in COLORS for target in targets)
            else:
                legal.extend(ChooseColor(color) for color in COLORS)
    for target, record in state.exposures.items():
        if record.status != "open":
            continue
        if target == seat:
            legal.append(CallUno())
        elif not record.acted:
            legal.append(Catch(target))
    return legal


def _turn_commands(state: Rules, seat: int) -> list[SeatCommand]:
    hand = state.hands[seat]
    legal: list[SeatCommand] = []
    if state.has_drawn:
        candidates: list[Card] = [state.drawn] if state.drawn is not None else []
    else:
        candidates = list(dict.fromkeys(hand))
    uno_options = (False, True) if len(hand) == 2 else (False,)
    last = len(hand) == 1
    skip_any = state.config.skip_any
    bluff = state.config.wd4_bluff
    for card in candidates:
        if not state.playable(card):
            continue
        rank = card.rank
        if card.color is None:
            if rank is Rank.WILD_DRAW_FOUR and not bluff and state._holds_color(hand, state.color):
                continue
            targets: tuple[int | None, ...] = (None,)
            if rank is Rank.SWAP_HANDS and not last:
                targets = tuple(_opponents(state, seat))
            dances: tuple[str | None, ...] = DANCES if rank is Rank.DANCE else (None,)
            for color in COLORS:
                for target in targets:
                    for dance in dances:
                        for uno in uno_options:
                            legal.append(Play(card, color, target, dance, uno))
        elif rank is Rank.SKIP and skip_any:
            for target in _opponents(state, seat):
                for uno in uno_options:
                    legal.append(Play(card, target=target, uno=uno))
        else:
            for uno in uno_options:
                legal.append(Play(card, uno=uno))
    can_draw = state.can_draw()
    if not state.has_drawn and can_draw:
        legal.append(Draw())
    if state.has_drawn or (not can_draw and not state.has_playable(seat)):
        legal.append(Pass())
    if len(hand) == 2 and not state.early_uno:
        legal.append(CallUno())
    return legal


def _opponents(state: Rules, seat: int) -> list[int]:
    return [other for other in state.seats_in_play() if other != seat]


def legal_table_commands(state: Rules, now_ms: int | None = None) -> list[TableCommand]:
    """Every command the table may send now. Timeout is listed whenever a clock runs,
    unless ``now_ms`` is given and the deadline has not come yet."""
    phase = state.phase_
    if phase is Phase.MATCH_OVER:
        return []
    legal: list[TableCommand] = []
    if state.paused:
        legal.append(Resume())
    else:
        deadline = state.deadline
        if deadline is not None and (now_ms is None or now_ms >= deadline):
            legal.append(Timeout())
        if phase is Phase.ROUND_OVER:
            legal.append(NextRound())
        legal.append(Pause())
    legal.extend(SetAway(seat, not state.away[seat]) for seat in range(state.seats))
    return legal
