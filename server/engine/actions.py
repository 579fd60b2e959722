"""Every accepted command other than a play, and what the table does when a clock runs out.

Each ``act_*`` applies one command that its check in ``checks`` accepted: drawing,
passing, the first card's colour, answering a Wild Draw Four or a dance, UNO calls and
catches, and the table's own commands (Timeout, NextRound, Pause, Resume, SetAway).
Nothing here checks legality; ``now_ms`` arrives as an argument.
"""

from __future__ import annotations

from protocol.cards import COLORS, Color, Rank
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
    SetAway,
    Timeout,
)
from protocol.events import (
    Away,
    AwayReason,
    Back,
    Caught,
    Challenged,
    ColorChosen,
    Danced,
    DanceRefused,
    DanceRefusedReason,
    DrawFourAccepted,
    DrewReason,
    FalseCatch,
    FalseCatchReason,
    Passed,
    Paused,
    Resumed,
    RoundOverReason,
    SecretHand,
    Skipped,
    TimedOut,
    UnoCalled,
)
from protocol.phase import Phase
from server.engine.checks import catch_refusal, forced, matches, may_play, playable, wants_target
from server.engine.effects import play, swap_hands
from server.engine.rounds import blocked_winner, end_round, next_round
from server.engine.state import MatchState

__all__ = [
    "act_accept",
    "act_call_uno",
    "act_catch",
    "act_challenge",
    "act_choose_color",
    "act_dance",
    "act_draw",
    "act_next_round",
    "act_pass",
    "act_pause",
    "act_refuse_dance",
    "act_resume",
    "act_set_away",
    "act_timeout",
    "set_away",
]

# Enum members bound once: reading one from its class costs ten times a global's read.
_CHOOSE_COLOR = Phase.CHOOSE_COLOR
_CHALLENGE = Phase.CHALLENGE
_DANCE = Phase.DANCE
_STACK = Phase.STACK
_ROUND_OVER = Phase.ROUND_OVER
_SWAP = Rank.SWAP_HANDS
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_DANCING_WILD = Rank.DANCE

_AWAY_AFTER_EXPIRIES = 3

# ---------------------------------------------------------------------- draws and passes


def act_draw(state: MatchState, seat: int, command: Draw, now_ms: int) -> None:
    """In a Draw Two stack, take the total; else the voluntary draw of ruling 5."""
    if state.phase is _STACK:
        _take_stack(state, seat, now_ms)
    else:
        _draw_one(state, seat, now_ms)


def _draw_one(state: MatchState, seat: int, now_ms: int | None) -> None:
    """Ruling 5: draw one instead of playing. With ``now_ms``, a drawn card that cannot
    be played ends the turn at once (the seeds: "otherwise, your turn is over"); the
    player is asked only when there is a choice (play the drawn card, or pass)."""
    drawn = state.draw_cards(seat, 1, DrewReason.DRAW)[0]
    if state.config.draw_until_playable:  # ruling 34: on until a playable card comes
        hand = state.hands[seat]
        while not playable(state, drawn, hand) and state.can_draw():
            drawn = state.draw_cards(seat, 1, DrewReason.DRAW)[0]
    state.has_drawn = True
    state.drawn = drawn
    state.stuck_passes = 0
    state.early_uno = False  # ruling 25: a call made before drawing lapses
    if now_ms is not None and not matches(state, drawn):
        state.seq += 1
        if not state.quiet:
            state.emit(Passed.trusted(seat=seat, stuck=False))
        state.start_turn(state.next_seat(seat), now_ms)


def act_pass(state: MatchState, seat: int, command: Pass, now_ms: int) -> None:
    if state.has_drawn:
        state.seq += 1
        if not state.quiet:
            state.emit(Passed.trusted(seat=seat, stuck=False))
        state.start_turn(state.next_seat(seat), now_ms)
    else:
        _stuck_pass(state, seat, now_ms)


def _stuck_pass(state: MatchState, seat: int, now_ms: int) -> None:
    """Ruling 14: a seat that can neither play nor draw passes; a full cycle ends it."""
    state.stuck_passes += 1
    state.seq += 1
    if not state.quiet:
        state.emit(Passed.trusted(seat=seat, stuck=True))
    if state.stuck_passes >= len(state.seats_in_play()):
        end_round(
            state, blocked_winner(state, state.next_seat(seat)), RoundOverReason.BLOCKED, now_ms
        )
    else:
        state.start_turn(state.next_seat(seat), now_ms)


def _take_stack(state: MatchState, seat: int, now_ms: int) -> None:
    total, state.pending_draw = state.pending_draw, 0
    reason = (
        DrewReason.WILD_DRAW_FOUR
        if state.discard[-1].rank is _WILD_DRAW_FOUR
        else DrewReason.DRAW_TWO
    )
    state.draw_cards(seat, total, reason)
    state.seq += 1
    if not state.quiet:
        state.emit(Skipped.trusted(seat=seat))
    state.start_turn(state.next_seat(seat), now_ms)


# ---------------------------------------------------------------------- decisions


def act_choose_color(state: MatchState, seat: int, command: ChooseColor, now_ms: int) -> None:
    _choose_first_color(state, seat, command.color, command.target, now_ms)


def _choose_first_color(
    state: MatchState, seat: int, color: Color, target: int | None, now_ms: int
) -> None:
    state.color = color
    state.seq += 1
    if not state.quiet:
        state.emit(ColorChosen(seat, color))
    if target is not None:
        swap_hands(state, seat, target)
    state.start_turn(seat, now_ms)


def act_accept(state: MatchState, seat: int, command: Accept | None, now_ms: int) -> None:
    state.seq += 1
    if not state.quiet:
        state.emit(DrawFourAccepted(seat))
    total, state.pending_draw = state.pending_draw or 4, 0  # ruling 33: a stack's total
    state.draw_cards(seat, total, DrewReason.WILD_DRAW_FOUR)
    state.wd4_hand = ()
    state.seq += 1
    if not state.quiet:
        state.emit(Skipped.trusted(seat=seat))
    state.start_turn(state.next_seat(seat), now_ms)


def act_challenge(state: MatchState, seat: int, command: Challenge, now_ms: int) -> None:
    """Ruling 6: guilty, the bluffer draws 4 and the challenger plays; else draw 6."""
    player, guilty = state.wd4_player, state.wd4_guilty
    state.seq += 1
    if not state.quiet:
        state.emit(Challenged(seat, player, guilty), {seat: SecretHand(state.wd4_hand)})
    state.wd4_hand = ()
    state.pending_draw = 0
    if guilty:
        state.draw_cards(player, 4, DrewReason.CHALLENGE)
        state.start_turn(seat, now_ms)
    else:
        state.draw_cards(seat, 6, DrewReason.CHALLENGE)
        state.seq += 1
        if not state.quiet:
            state.emit(Skipped.trusted(seat=seat))
        state.start_turn(state.next_seat(seat), now_ms)


def act_dance(state: MatchState, seat: int, command: Dance, now_ms: int) -> None:
    """Ruling 9: the right steps (any, on honour) or a wrong sequence, which refuses."""
    if state.dance_steps is None or tuple(command.steps) == state.dance_steps:
        state.seq += 1
        if not state.quiet:
            state.emit(Danced(seat))
        state.start_turn(seat, now_ms)
    else:
        _refuse_dance(state, seat, DanceRefusedReason.WRONG_STEPS, now_ms)


def act_refuse_dance(state: MatchState, seat: int, command: RefuseDance, now_ms: int) -> None:
    _refuse_dance(state, seat, DanceRefusedReason.REFUSED, now_ms)


def _refuse_dance(state: MatchState, seat: int, reason: DanceRefusedReason, now_ms: int) -> None:
    state.seq += 1
    if not state.quiet:
        state.emit(DanceRefused(seat, reason))
    state.draw_cards(seat, 3, DrewReason.DANCE)
    state.start_turn(seat, now_ms)


# ---------------------------------------------------------------------- UNO


def act_call_uno(state: MatchState, seat: int, command: CallUno, now_ms: int) -> None:
    """Ruling 12: answer the seat's open exposure, or declare before the play."""
    record = state.exposures.get(seat)
    if record is not None and record.status == "open":
        record.status = "called"
        state.seq += 1
        if not state.quiet:
            state.emit(UnoCalled.trusted(seat=seat, early=False))
    else:
        state.early_uno = True
        state.seq += 1
        if not state.quiet:
            state.emit(UnoCalled.trusted(seat=seat, early=True))


def act_catch(state: MatchState, seat: int, command: Catch, now_ms: int) -> None:
    """Ruling 12: the exposed seat draws 2; a catch that misses costs the catcher the
    table's ``false_catch_penalty`` (the check let it through only with one)."""
    target = command.target
    missed = catch_refusal(state, seat, target, now_ms)
    if missed is None:
        state.seq += 1
        if not state.quiet:
            state.emit(Caught(target, by=seat, penalty=2))
        record = state.exposures[target]
        state.draw_cards(target, 2, DrewReason.CAUGHT)
        record.status = "caught"
        state.exposures[target] = record  # drawing removed it; it stays to answer races
        return
    penalty = state.config.false_catch_penalty
    state.seq += 1
    if not state.quiet:
        state.emit(FalseCatch(seat, target, penalty, FalseCatchReason(missed.code.value)))
    state.draw_cards(seat, penalty, DrewReason.FALSE_CATCH)


# ---------------------------------------------------------------------- the table


def set_away(state: MatchState, seat: int, away: bool, reason: AwayReason) -> None:
    state.away[seat] = away
    if away:
        state.seq += 1
        if not state.quiet:
            state.emit(Away(seat, reason))
    else:
        state.expiries[seat] = 0
        state.seq += 1
        if not state.quiet:
            state.emit(Back(seat))


def act_set_away(state: MatchState, command: SetAway, now_ms: int) -> None:
    set_away(state, command.seat, command.away, AwayReason.TABLE)


def act_pause(state: MatchState, command: Pause, now_ms: int) -> None:
    state.paused = True
    state.paused_remaining = None if state.deadline is None else state.deadline - now_ms
    state.deadline = None
    state.seq += 1
    if not state.quiet:
        state.emit(Paused())


def act_resume(state: MatchState, command: Resume, now_ms: int) -> None:
    state.paused = False
    remaining = state.paused_remaining
    state.deadline = None if remaining is None else now_ms + max(remaining, 0)
    state.paused_remaining = None
    state.seq += 1
    if not state.quiet:
        state.emit(Resumed())


def act_next_round(state: MatchState, command: NextRound, now_ms: int) -> None:
    next_round(state, now_ms)


def act_timeout(state: MatchState, command: Timeout, now_ms: int) -> None:
    """Ruling 17: the deadline passed; act for the seat waited on."""
    phase = state.phase
    if phase is _ROUND_OVER:
        next_round(state, now_ms)
        return
    seat = state.current
    state.seq += 1
    if not state.quiet:
        state.emit(TimedOut(seat, phase))
    start = state.event_count()
    if phase is _CHALLENGE:
        act_accept(state, seat, None, now_ms)
    elif phase is _DANCE:
        _refuse_dance(state, seat, DanceRefusedReason.TIMEOUT, now_ms)
    elif phase is _STACK:
        _take_stack(state, seat, now_ms)
    else:
        _expire_turn(state, seat, now_ms)
    if state.exposures:
        state.seat_acted(seat, start)
    state.expiries[seat] += 1
    if state.expiries[seat] >= _AWAY_AFTER_EXPIRIES and not state.away[seat]:
        set_away(state, seat, True, AwayReason.TIMEOUTS)


def _expire_turn(state: MatchState, seat: int, now_ms: int) -> None:
    """Ruling 17: draw and pass (after choosing a first wild's colour); ruling 35: a drawn
    card that must be played is played."""
    if state.phase is _CHOOSE_COLOR:
        target = None
        if state.discard[-1].rank is _SWAP:
            target = _fewest_cards_opponent(state, seat)
        _choose_first_color(state, seat, _most_held_color(state, seat), target, now_ms)
    if not state.has_drawn and state.can_draw():
        _draw_one(state, seat, None)
    if forced(state, seat):
        _play_drawn(state, seat, now_ms)
    elif state.has_drawn or may_play(state, seat):
        # Ruling 14 counts only passes of seats that could neither play nor draw:
        # a seat that could have played breaks the cycle.
        state.stuck_passes = 0
        state.seq += 1
        if not state.quiet:
            state.emit(Passed.trusted(seat=seat, stuck=False))
        state.start_turn(state.next_seat(seat), now_ms)
    else:
        _stuck_pass(state, seat, now_ms)


def _play_drawn(state: MatchState, seat: int, now_ms: int) -> None:
    """Ruling 35: the server plays the drawn card for the seat with ruling 17's choices
    (the colour held most, the opponent with the fewest cards, the first dance) and
    declares UNO for it when the play leaves one card."""
    card = state.drawn
    assert card is not None  # forced() holds
    hand = state.hands[seat]
    color = _most_held_color(state, seat) if card.color is None else None
    target = _fewest_cards_opponent(state, seat) if wants_target(state, card, hand) else None
    dance = DANCES[0] if card.rank is _DANCING_WILD else None
    play(state, seat, Play(card, color, target, dance, len(hand) == 2), now_ms)


def _most_held_color(state: MatchState, seat: int) -> Color:
    counts = dict.fromkeys(COLORS, 0)
    for card in state.hands[seat]:
        if card.color is not None:
            counts[card.color] += 1
    return max(COLORS, key=lambda color: (counts[color], -COLORS.index(color)))


def _fewest_cards_opponent(state: MatchState, seat: int) -> int:
    order = []
    other = state.next_seat(seat)
    while other != seat:
        order.append(other)
        other = state.next_seat(other)
    return min(order, key=lambda s: (len(state.hands[s]), order.index(s)))
