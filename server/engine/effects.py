"""A card played, and what it does (rulings 5-13, 16, 22-24, 32-34, 37).

``play`` applies a ``Play`` that ``checks.check_play`` accepted: the card goes on the
discards, the colour changes, UNO is declared or the seat exposed, then the card acts
(skip, reverse, draw, decide, dance, swap, shuffle) and the next turn starts. A last card
ends the round instead. Nothing here checks legality; ``now_ms`` arrives as an argument.
"""

from __future__ import annotations

from protocol.cards import Card, Color, Rank
from protocol.commands import DANCES, Arrow, Play
from protocol.events import (
    DanceCalled,
    DirectionChanged,
    DrewReason,
    Exposed,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    JumpedIn,
    Played,
    RoundOverReason,
    SecretHand,
    SkipMarked,
    Skipped,
    UnoCalled,
)
from protocol.options import CustomRule, DanceCheck
from protocol.phase import Phase
from server.engine.checks import holds_color
from server.engine.rounds import end_round
from server.engine.state import Exposure, MatchState

__all__ = ["PLAIN_RANKS", "play", "swap_hands"]

# Enum members bound once: reading one from its class costs ten times a global's read.
_CHALLENGE = Phase.CHALLENGE
_DANCE = Phase.DANCE
_STACK = Phase.STACK
_SKIP = Rank.SKIP
_REVERSE = Rank.REVERSE
_DRAW_TWO = Rank.DRAW_TWO
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_SWAP = Rank.SWAP_HANDS
_SHUFFLE = Rank.SHUFFLE_HANDS
_CUSTOM = Rank.CUSTOM
_DANCING_WILD = Rank.DANCE
_SEVEN = Rank.SEVEN
_ZERO = Rank.ZERO

PLAIN_RANKS = frozenset(
    rank for rank in Rank if rank.number is not None or rank in (Rank.WILD, Rank.CREEPER)
)
"""Ranks whose play only passes the turn on (numbers, Wild, Creeper)."""

_ARROWS: tuple[Arrow, ...] = tuple(Arrow)


def play(state: MatchState, seat: int, command: Play, now_ms: int) -> None:
    """Apply a checked play (ruling 37: out of turn, a jump-in)."""
    if seat != state.current:
        _jump_in(state, seat, command, now_ms)
        return
    _play(state, seat, command, now_ms)


def _jump_in(state: MatchState, seat: int, command: Play, now_ms: int) -> None:
    """Ruling 37: the jump-in is the jumper's play in turn. The seat it overtakes loses
    its drawn card and early UNO call, and the jump-in counts as that seat's first
    command for the catch window (ruling 12); the seats in between simply lose their turn.
    """
    overtaken = state.current
    if state.exposures:
        state.seat_acted(overtaken, state.event_count())
    state.early_uno = False
    state.seq += 1
    if not state.quiet:
        state.emit(JumpedIn(seat, overtaken))
    _play(state, seat, command, now_ms)
    state.overtaken = overtaken  # also when the turn came straight back to it


def _play(state: MatchState, seat: int, command: Play, now_ms: int) -> None:
    hand = state.hands[seat]
    card = hand.pop(hand.index(command.card))  # the engine's own instance of the card
    rank = card.rank
    before = state.color
    state.discard.append(card)
    color = state.color = command.color if card.color is None else card.color
    state.drawn = None
    state.has_drawn = False
    state.stuck_passes = 0
    state.top_played = True
    if state.exposures:
        state.exposures.pop(seat, None)
    left = len(hand)
    uno = command.uno
    state.seq += 1
    if not state.quiet:
        # Trusted: every value comes from the checked command or the state (as for the
        # other common events; tests/engine/test_event_codec.py checks them all).
        body = Played.trusted(
            seat=seat,
            card=card,
            color=color,
            count=left,
            target=command.target,
            dance=command.dance,
            uno=uno,
        )
        state.emit(body)
    if left == 0:
        _went_out(state, seat, card, now_ms)
        return
    # Ruling 32: under seven_o a 7 or a 0 moves hands, and UNO is judged on the hand
    # held after the move, which nobody has to call for (as after a Swap or a Shuffle).
    seven_o = state.seven_o and (rank is _SEVEN or rank is _ZERO)
    exposure: Exposure | None = None
    if left == 1 and rank is not _SWAP and rank is not _SHUFFLE and not seven_o:
        exposure = _declare_or_expose(state, seat, uno, now_ms)
    if seven_o:
        if rank is _SEVEN and command.target is not None:
            swap_hands(state, seat, command.target)
        elif rank is _ZERO:
            _pass_hands(state, seat)
        state.start_turn(state.next_seat(seat), now_ms)
    elif rank in PLAIN_RANKS:
        state.start_turn(state.next_seat(seat), now_ms)
    else:
        _card_effect(state, seat, command, before, now_ms)
    if exposure is not None:
        exposure.watch = state.current


def _declare_or_expose(state: MatchState, seat: int, uno: bool, now_ms: int) -> Exposure | None:
    """Ruling 12: a play that leaves one card declares UNO with it, or was declared
    before it, or exposes the seat (the exposure is returned: its watch is set later)."""
    if uno:
        state.seq += 1
        if not state.quiet:
            state.emit(UnoCalled.trusted(seat=seat, early=False))
        return None
    if state.early_uno:
        return None
    state.seq += 1
    exposure = state.exposures[seat] = Exposure(now_ms, state.seq)
    if not state.quiet:
        state.emit(Exposed(seat))
    return exposure


def _card_effect(  # noqa: C901 (one branch per kind of card, as the rules list them)
    state: MatchState, seat: int, command: Play, before: Color | None, now_ms: int
) -> None:
    rank = command.card.rank
    config = state.config
    if rank is _SKIP:
        if config.skip_any and command.target is not None:
            state.skip_marks[command.target] += 1
            state.seq += 1
            if not state.quiet:
                state.emit(SkipMarked(seat, command.target))
            state.start_turn(state.next_seat(seat), now_ms)
        else:
            _skip_next(state, seat, now_ms)
    elif rank is _REVERSE:
        if state.two_player:
            _skip_next(state, seat, now_ms)
        else:
            state.direction = -state.direction
            state.seq += 1
            if not state.quiet:
                state.emit(DirectionChanged(state.direction))
            state.start_turn(state.next_seat(seat), now_ms)
    elif rank is _DRAW_TWO:
        victim = state.next_seat(seat)
        if state.stack_d2:
            _stack_on(state, victim, 2, now_ms)
        else:
            state.draw_cards(victim, 2, DrewReason.DRAW_TWO)
            _skip_next(state, seat, now_ms)
    elif rank is _WILD_DRAW_FOUR:
        _wild_draw_four(state, seat, before, now_ms)
    elif rank is _DANCING_WILD:
        _call_dance(state, seat, command.dance or DANCES[0], now_ms)
    elif rank is _SWAP and command.target is not None:
        swap_hands(state, seat, command.target)
        state.start_turn(state.next_seat(seat), now_ms)
    elif rank is _SHUFFLE:
        _shuffle_hands(state, seat)
        state.start_turn(state.next_seat(seat), now_ms)
    elif rank is _CUSTOM and config.custom_rule is CustomRule.EXTRA_TURN:
        state.start_turn(seat, now_ms)
    elif rank is _CUSTOM and config.custom_rule is CustomRule.OTHERS_DRAW_TWO:
        other = state.next_seat(seat)
        while other != seat:
            state.draw_cards(other, 2, DrewReason.CUSTOM)
            other = state.next_seat(other)
        state.start_turn(state.next_seat(seat), now_ms)
    else:
        state.start_turn(state.next_seat(seat), now_ms)


def _stack_on(state: MatchState, victim: int, count: int, now_ms: int) -> None:
    """Rulings 22 and 33: the total grows and the victim answers it on the turn clock."""
    state.pending_draw += count
    deadline = now_ms + state.turn_ms if state.turn_ms else None
    state.wait_on(victim, _STACK, deadline)


def _wild_draw_four(state: MatchState, seat: int, before: Color | None, now_ms: int) -> None:
    """Rulings 6, 23 and 33: the victim decides (challenge, accept, or stack on it), or
    answers a stack; with nothing to decide, draws four at once."""
    victim = state.next_seat(seat)
    config = state.config
    if state.stack_wd4 and (state.pending_draw or not config.wd4_bluff):
        # Onto a stack (never challenged), or starting one with bluffing off.
        state.wd4_hand = ()
        _stack_on(state, victim, 4, now_ms)
        return
    if not config.wd4_bluff:  # ruling 23: already checked, nothing to decide
        state.draw_cards(victim, 4, DrewReason.WILD_DRAW_FOUR)
        _skip_next(state, seat, now_ms)
        return
    hand = state.hands[seat]
    state.wd4_player = seat
    state.wd4_guilty = holds_color(hand, before)
    state.wd4_hand = tuple(hand)
    if state.stack_wd4:
        state.pending_draw = 4  # ruling 33: the decision also offers the stacking plays
    deadline = now_ms + config.decision_seconds * 1000
    state.wait_on(victim, _CHALLENGE, deadline)


def _skip_next(state: MatchState, seat: int, now_ms: int) -> None:
    victim = state.next_seat(seat)
    state.seq += 1
    if not state.quiet:
        state.emit(Skipped.trusted(seat=victim))
    state.start_turn(state.next_seat(victim), now_ms)


def _went_out(state: MatchState, seat: int, card: Card, now_ms: int) -> None:
    """Ruling 13: a last Draw Two or Wild Draw Four still makes the next seat draw."""
    if card.rank is _DRAW_TWO:
        state.draw_cards(state.next_seat(seat), state.pending_draw + 2, DrewReason.DRAW_TWO)
        state.pending_draw = 0
    elif card.rank is _WILD_DRAW_FOUR:
        state.draw_cards(state.next_seat(seat), state.pending_draw + 4, DrewReason.WILD_DRAW_FOUR)
        state.pending_draw = 0
    end_round(state, seat, RoundOverReason.OUT, now_ms)


def _call_dance(state: MatchState, seat: int, dance: str, now_ms: int) -> None:
    """Ruling 9: the server draws the steps (unless on honour) and shows everyone."""
    dancer = state.next_seat(seat)
    if state.config.dance_check is DanceCheck.STEPS:
        length = state.rng.randint(4, 8)
        state.dance_steps = tuple(state.rng.choice(_ARROWS) for _ in range(length))
    else:
        state.dance_steps = None
    state.dance_name = dance
    state.seq += 1
    if not state.quiet:
        state.emit(DanceCalled(dancer, seat, dance, state.dance_steps))
    deadline = now_ms + state.config.dance_seconds * 1000
    state.wait_on(dancer, _DANCE, deadline)


def swap_hands(state: MatchState, seat: int, target: int) -> None:
    """Ruling 11: ``seat`` and ``target`` exchange hands; each sees its new hand."""
    hands = state.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    state.exposures.pop(seat, None)
    state.exposures.pop(target, None)
    state.seq += 1
    if not state.quiet:
        state.emit(
            HandsSwapped(seat, target, tuple(map(len, hands))),
            {s: SecretHand(tuple(hands[s])) for s in (seat, target)},
        )


def _shuffle_hands(state: MatchState, seat: int) -> None:
    """Ruling 11: gather, shuffle, deal one at a time from the player's left."""
    in_play = state.seats_in_play()
    gathered = [card for s in in_play for card in state.hands[s]]
    state.shuffle(gathered)
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    receiver = seat
    for card in gathered:
        receiver = state.left_of(receiver)
        hands[receiver].append(card)
    state.hands = hands
    state.exposures = {}
    state.seq += 1
    if not state.quiet:
        state.emit(
            HandsShuffled(seat, tuple(map(len, hands))),
            {s: SecretHand(tuple(hands[s])) for s in in_play},
        )


def _pass_hands(state: MatchState, seat: int) -> None:
    """Ruling 32: a 0 passes every hand to the next seat in play in the direction of play."""
    in_play = state.seats_in_play()
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    for giver in in_play:
        hands[state.next_seat(giver)] = state.hands[giver]
    state.hands = hands
    state.exposures = {}
    state.seq += 1
    if not state.quiet:
        state.emit(
            HandsPassed(seat, state.direction, tuple(map(len, hands))),
            {s: SecretHand(tuple(hands[s])) for s in in_play},
        )
