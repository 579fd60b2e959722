"""The one home of legality: may this command be applied now?

Every check reads the match and changes nothing; it returns the ``Rejected`` to answer
with, or None when the command is legal. ``Match.apply`` runs ``check_sender`` and the
command's check (the table of checks and actions is in ``match``), and only then the
command's action (``effects``, ``actions``), so a rejection leaves the match exactly as it
was, RNG included. The predicates at the top (does a card match, may a seat play at all,
which cards name a seat) are the rules' vocabulary; ``legal`` lists the legal commands
with the same predicates.

Which code wins when a command breaks several rules is the order of the checks, and
docs/protocol.md section 10 states it as one list: ``check_sender`` (who sends) before the
command's check, and each check top to bottom, returning the first refusal. For a play:
the turn and the phase, then the card (``_check_card``), then what the play names, field
by field (``_check_what_it_names``: colour, seat, dance, UNO), the Wild Draw Four's own
rule last. A new check goes where the page says, and ``test_engine_protocol_page`` holds
the two to agreeing.

Why this module is long: legality is one idea, and its home is meant to be one place; the
checks share the predicates at the top, which ``legal`` uses too.
"""

from __future__ import annotations

from protocol.cards import Card, Color, Rank
from protocol.commands import (
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
from protocol.phase import Phase
from protocol.rejections import RejectCode
from server.engine.outcome import Rejected
from server.engine.state import MatchState

__all__ = [
    "bluff_barred",
    "candidates",
    "catch_refusal",
    "check_call_uno",
    "check_catch",
    "check_choose_color",
    "check_dance",
    "check_decision",
    "check_draw",
    "check_jump_in",
    "check_next_round",
    "check_pass",
    "check_pause",
    "check_play",
    "check_resume",
    "check_sender",
    "check_set_away",
    "check_table_sender",
    "check_timeout",
    "forced",
    "holds_color",
    "jump_in_cards",
    "jump_open",
    "matches",
    "matching",
    "may_play",
    "playable",
    "stack_answer",
    "stacking",
    "turned_back_refusal",
    "wants_target",
]

# Enum members bound once: reading one from its class costs ten times a global's read.
_TURN = Phase.TURN
_CHOOSE_COLOR = Phase.CHOOSE_COLOR
_CHALLENGE = Phase.CHALLENGE
_DANCE = Phase.DANCE
_STACK = Phase.STACK
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER
_SKIP = Rank.SKIP
_DRAW_TWO = Rank.DRAW_TWO
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_SWAP = Rank.SWAP_HANDS
_DANCING_WILD = Rank.DANCE
_SEVEN = Rank.SEVEN


# ---------------------------------------------------------------------- the predicates


def matches(state: MatchState, card: Card) -> bool:
    """Whether ``card`` matches the colour in force or the top card (wilds always do)."""
    return card.color is None or card.color is state.color or card.rank is state.discard[-1].rank


def matching(state: MatchState, cards: list[Card]) -> list[Card]:
    """The cards of ``cards`` that ``matches``, in order: the same test, spelled out in one
    pass instead of a call per card (the cheap queries of bots run this most)."""
    color, rank = state.color, state.discard[-1].rank
    return [
        card for card in cards if card.color is None or card.color is color or card.rank is rank
    ]


def holds_color(hand: list[Card], color: Color | None) -> bool:
    return color is not None and any(card.color is color for card in hand)


def bluff_barred(state: MatchState, hand: list[Card]) -> bool:
    """Ruling 23: a Wild Draw Four from ``hand`` is illegal now (bluffing is off and the
    hand holds the colour in force)."""
    return not state.config.wd4_bluff and holds_color(hand, state.color)


def wants_target(state: MatchState, card: Card, hand: list[Card]) -> bool:
    """Whether playing ``card`` from ``hand`` names a seat: a Swap Hands, or a 7 under
    ``seven_o``, that is not the last card (rulings 11 and 32: the last one just ends the
    round), a Skip under ``skip_any``."""
    rank = card.rank
    return (
        (rank is _SWAP and len(hand) > 1)
        or (rank is _SKIP and state.skip_any)
        or (rank is _SEVEN and state.seven_o and len(hand) > 1)
    )


def stack_answer(state: MatchState, card: Card) -> bool:
    """Ruling 33: whether ``card`` answers the draw card waiting (in ``STACK``, or the
    victim's decision on a Wild Draw Four): a Draw Two on a Draw Two, a Wild Draw Four
    when the table stacks them (``draw-four``: only ever on a Wild Draw Four)."""
    rank = card.rank
    if rank is _WILD_DRAW_FOUR:
        return state.stack_wd4
    return rank is _DRAW_TWO and state.discard[-1].rank is _DRAW_TWO


def stacking(state: MatchState) -> bool:
    """Whether the seat to act faces a stack it may answer (``STACK``, or the decision
    on a Wild Draw Four when Wild Draw Fours stack)."""
    phase = state.phase
    return phase is _STACK or (phase is _CHALLENGE and state.stack_wd4)


def playable(state: MatchState, card: Card, hand: list[Card]) -> bool:
    """Whether ``card`` of ``hand`` may be played in a turn (it matches; ruling 23: not a
    barred Wild Draw Four)."""
    return matches(state, card) and (
        card.rank is not _WILD_DRAW_FOUR or not bluff_barred(state, hand)
    )


def candidates(state: MatchState, hand: list[Card]) -> list[Card]:
    """The cards of ``hand`` its seat may try to play in its turn: only the drawn card
    after a draw (ruling 5)."""
    if state.has_drawn:
        return [] if state.drawn is None else [state.drawn]
    return hand


def jump_open(state: MatchState) -> bool:
    """Ruling 37: whether a jump-in is possible now (a player's card on top, in a turn:
    no decision, dance or stack waiting, not paused, not between rounds)."""
    return (
        state.jump_in
        and state.top_played
        and state.phase is _TURN
        and not state.paused
        and state.discard[-1].color is not None
    )


def jump_in_cards(state: MatchState, seat: int) -> list[Card]:
    """Ruling 37: the distinct cards ``seat``, out of turn, may jump in with now: those
    identical to the top card (never a wild). Empty for the seat to act, whose plays are
    ordinary, and for a seat out of play."""
    if seat == state.current or not jump_open(state) or state.eliminated[seat]:
        return []
    top = state.discard[-1]
    return [top] if top in state.hands[seat] else []


def may_play(state: MatchState, seat: int) -> bool:
    """Whether ``seat``, to act now, has a card it may play (ruling 5: after a draw only
    the drawn card; in a stack only an answer to it; ruling 23: no barred Draw Four)."""
    hand = state.hands[seat]
    if stacking(state):
        return any(stack_answer(state, card) for card in hand)
    if state.phase is not _TURN:
        return False
    return any(playable(state, card, hand) for card in candidates(state, hand))


# ---------------------------------------------------------------------- who may send


def check_sender(state: MatchState, actor: int | None) -> Rejected | None:
    """Whether ``actor`` may send a seat command at all now (a seat in play, in a round
    being played, not paused)."""
    phase = state.phase
    if (
        type(actor) is int
        and not state.paused
        and phase is not _ROUND_OVER
        and phase is not _MATCH_OVER
        and 0 <= actor < state.seats
        and not state.eliminated[actor]
    ):
        return None
    if actor is None:
        return Rejected(RejectCode.SEAT_ONLY, "only a seated player may send this command")
    if type(actor) is not int or not 0 <= actor < state.seats:
        return Rejected(RejectCode.INVALID_SEAT, f"there is no seat {actor!r}")
    if phase is _MATCH_OVER:
        return Rejected(RejectCode.MATCH_OVER, "the match is over")
    if state.paused:
        return Rejected(RejectCode.PAUSED, "the table is paused")
    if state.eliminated[actor]:
        return Rejected(RejectCode.ELIMINATED, "this seat is out of the match")
    return Rejected(RejectCode.ROUND_OVER, "the round is over; wait for the next one")


def check_table_sender(state: MatchState, actor: int | None) -> Rejected | None:
    """Whether ``actor`` may send a table command now (only the table, before the end)."""
    if actor is not None:
        return Rejected(RejectCode.TABLE_ONLY, "only the table may send this command")
    if state.phase is _MATCH_OVER:
        return Rejected(RejectCode.MATCH_OVER, "the match is over")
    return None


def _not_your_turn(state: MatchState, seat: int) -> Rejected:
    """Ruling 37: the seat a jump-in overtook lost the race, until the next turn starts;
    anyone else waits their turn."""
    if seat == state.overtaken:
        return Rejected(RejectCode.LOST_RACE, "another player jumped in before your move")
    return Rejected(RejectCode.NOT_YOUR_TURN, "it is not your move")


def turned_back_refusal(state: MatchState, seat: int, refusal: Rejected) -> Rejected:
    """Ruling 37: a jump-in handed the turn straight back to the seat it overtook, whose
    turn then starts afresh. Until that seat's first move of the new turn is accepted, a
    move the new position refuses lost the race (it may have been sent for the old turn);
    whatever the new position allows is its move."""
    if seat == state.current and refusal.code is not RejectCode.LOST_RACE:
        return Rejected(
            RejectCode.LOST_RACE,
            "another player jumped in and the turn came back to you before your move",
        )
    return refusal


def _answers(state: MatchState, seat: int, phase: Phase) -> Rejected | None:
    """Whether ``seat`` is the one the match waits on in ``phase``."""
    if seat != state.current:
        return _not_your_turn(state, seat)
    if state.phase is not phase:
        return Rejected(
            RejectCode.NOT_NOW, f"that command does not answer the {state.phase.value} phase"
        )
    return None


def _check_target(state: MatchState, seat: int, target: int) -> Rejected | None:
    if target == seat or not 0 <= target < state.seats or state.eliminated[target]:
        return Rejected(RejectCode.INVALID_TARGET, f"seat {target} is not an opponent in play")
    return None


# ---------------------------------------------------------------------- seat commands


def check_play(state: MatchState, seat: int, play: Play, now_ms: int) -> Rejected | None:
    """Rulings 5-13, 16, 23: the card is in hand and matches, and the command names what
    the card needs (a colour for a wild, a seat, a dance) and nothing else."""
    phase = state.phase
    if seat != state.current:
        if state.jump_in:
            return check_jump_in(state, seat, play)
        return _not_your_turn(state, seat)
    if phase is not _TURN and not stacking(state):
        return _answers(state, seat, _TURN)
    return _check_card(state, seat, play) or _check_what_it_names(state, seat, play)


def check_jump_in(state: MatchState, seat: int, play: Play) -> Rejected | None:
    """Ruling 37: a play out of turn is a jump-in: a card identical to the top card while
    a jump-in is possible. The server's arrival order settles races: the seat overtaken
    by a jump-in lost the race, and so did a jump-in whose card was identical to the top
    card in the last view sent to its seat; any other is refused."""
    card = play.card
    if card in jump_in_cards(state, seat):
        return _check_what_it_names(state, seat, play)
    if seat == state.overtaken:  # whatever it sent: its hand may have moved since
        return _not_your_turn(state, seat)
    if card not in state.hands[seat]:
        return Rejected(RejectCode.CARD_NOT_IN_HAND, f"{card.code} is not in your hand", card)
    if card.color is not None and card == state.jump_top_seen(seat):
        return Rejected(RejectCode.LOST_RACE, "the top card changed before your jump-in arrived")
    if not jump_open(state):
        return _not_your_turn(state, seat)
    return Rejected(
        RejectCode.CARD_DOES_NOT_MATCH,
        f"{card.code} is not identical to the top card: only such a card jumps in",
        card,
    )


def _check_card(state: MatchState, seat: int, play: Play) -> Rejected | None:
    """The card itself: in hand, allowed in this moment, matching."""
    card = play.card
    if card not in state.hands[seat]:
        return Rejected(RejectCode.CARD_NOT_IN_HAND, f"{card.code} is not in your hand", card)
    if state.phase is not _TURN:  # a stack (ruling 33: no colour test on it)
        if not stack_answer(state, card):
            return Rejected(
                RejectCode.MUST_ANSWER_DRAW_TWO,
                "answer the draw card with one that stacks on it, or draw the total",
            )
        return None
    if state.has_drawn and card != state.drawn:
        return Rejected(
            RejectCode.ONLY_DRAWN_CARD, "after drawing, only the drawn card may be played", card
        )
    if not matches(state, card):
        return Rejected(
            RejectCode.CARD_DOES_NOT_MATCH,
            f"{card.code} matches neither the colour in force nor the top card",
            card,
        )
    return None


def _check_what_it_names(state: MatchState, seat: int, play: Play) -> Rejected | None:
    """What the play names beside the card: a colour, a seat, a dance, UNO; and the Wild
    Draw Four's own rule."""
    card, rank, hand = play.card, play.card.rank, state.hands[seat]
    if card.color is None:
        if play.color is None:
            return Rejected(RejectCode.COLOUR_REQUIRED, "a wild needs a colour")
    elif play.color is not None:
        return Rejected(RejectCode.COLOUR_NOT_ALLOWED, "only a wild takes a colour")
    refusal = _check_named_seat(state, seat, play)
    if refusal is not None:
        return refusal
    if rank is _DANCING_WILD:
        if play.dance is None:
            return Rejected(RejectCode.DANCE_REQUIRED, "name a dance for the Dancing Wild")
    elif play.dance is not None:
        return Rejected(RejectCode.DANCE_NOT_ALLOWED, "only a Dancing Wild names a dance")
    if play.uno and len(hand) != 2:
        return Rejected(
            RejectCode.UNO_NOT_ALLOWED, "UNO is declared with a play that leaves one card"
        )
    if rank is _WILD_DRAW_FOUR and state.phase is _TURN and bluff_barred(state, hand):
        return Rejected(
            RejectCode.WILD_DRAW_FOUR_NOT_ALLOWED,
            "you hold a card of the colour in force; this table does not allow bluffing",
        )
    return None


def _check_named_seat(state: MatchState, seat: int, play: Play) -> Rejected | None:
    """A seat named exactly when the card wants one (Swap Hands, a ``skip_any`` Skip)."""
    card, hand = play.card, state.hands[seat]
    if play.target is not None:
        if not wants_target(state, card, hand):
            last_swap = card.rank is _SWAP
            reason = "a last Swap Hands swaps nothing" if last_swap else "takes no target"
            return Rejected(RejectCode.INVALID_TARGET, f"{card.code}: {reason}")
        return _check_target(state, seat, play.target)
    if wants_target(state, card, hand):
        return Rejected(RejectCode.TARGET_REQUIRED, f"{card.code} needs a target seat")
    return None


def check_draw(state: MatchState, seat: int, command: Draw, now_ms: int) -> Rejected | None:
    """Ruling 5: one draw per turn instead of playing; in a stack, take the total."""
    if seat != state.current:
        return _not_your_turn(state, seat)
    phase = state.phase
    if phase is _STACK:
        return None
    if phase is not _TURN:
        return _answers(state, seat, _TURN)
    if state.has_drawn:
        return Rejected(RejectCode.ALREADY_DREW, "you already drew this turn")
    if not state.can_draw():
        return Rejected(RejectCode.NOTHING_TO_DRAW, "both piles are empty; pass instead")
    return None


def check_pass(state: MatchState, seat: int, command: Pass, now_ms: int) -> Rejected | None:
    """Rulings 5 and 14: pass after a draw, or when there is nothing to play or draw;
    ruling 35: under ``force_play`` not while the drawn card may be played."""
    refusal = _answers(state, seat, _TURN)
    if refusal is not None:
        return refusal
    if state.has_drawn and forced(state, seat):
        return Rejected(RejectCode.CANNOT_PASS, "this table plays force play: play the drawn card")
    if not state.has_drawn and (state.can_draw() or matching(state, state.hands[seat])):
        return Rejected(RejectCode.CANNOT_PASS, "draw or play first")
    return None


def forced(state: MatchState, seat: int) -> bool:
    """Ruling 35: under ``force_play``, whether ``seat``'s drawn card must be played."""
    drawn = state.drawn
    return (
        state.config.force_play and drawn is not None and playable(state, drawn, state.hands[seat])
    )


def check_choose_color(
    state: MatchState, seat: int, command: ChooseColor, now_ms: int
) -> Rejected | None:
    """Ruling 4: a first card that is wild; Swap Hands also names the seat to swap with."""
    refusal = _answers(state, seat, _CHOOSE_COLOR)
    if refusal is not None:
        return refusal
    swap = state.discard[-1].rank is _SWAP
    if command.target is not None:
        if not swap:
            return Rejected(RejectCode.INVALID_TARGET, "this first card takes no target")
        return _check_target(state, seat, command.target)
    if swap:
        return Rejected(RejectCode.TARGET_REQUIRED, "name the seat to swap hands with")
    return None


def check_call_uno(state: MatchState, seat: int, command: CallUno, now_ms: int) -> Rejected | None:
    """Ruling 12: a call after the play that exposed the seat, or before it (on its move,
    holding two, with a play possible); a call that a catch overtook lost the race."""
    record = state.exposures.get(seat)
    if record is not None:
        if record.status == "open":
            return None
        if record.status == "caught" and state.window_open(record, now_ms):
            return Rejected(RejectCode.LOST_RACE, "you were caught before your call arrived")
    if (
        seat == state.current
        and len(state.hands[seat]) == 2
        and not state.early_uno
        and may_play(state, seat)
    ):
        return None
    return Rejected(RejectCode.NOT_NOW, "there is no UNO to declare now")


def catch_refusal(state: MatchState, seat: int, target: int, now_ms: int) -> Rejected | None:
    """Ruling 12: why catching ``target`` now would not catch it, or None if it would."""
    if target == seat or not 0 <= target < state.seats or state.eliminated[target]:
        return Rejected(RejectCode.INVALID_TARGET, f"seat {target} cannot be caught by you")
    record = state.exposures.get(target)
    if record is not None and state.window_open(record, now_ms):
        if record.status == "open":
            return None
        return Rejected(RejectCode.LOST_RACE, "the call or another catch came first")
    if record is not None and record.status == "open":
        return Rejected(RejectCode.CATCH_TOO_LATE, "the catch window has closed")
    return Rejected(RejectCode.NOT_EXPOSED, f"seat {target} owes no UNO")


def check_catch(state: MatchState, seat: int, command: Catch, now_ms: int) -> Rejected | None:
    """A catch that misses is refused, unless the table sets ``false_catch_penalty``: then
    it is accepted and costs the catcher (not for a bad target or a lost race)."""
    refusal = catch_refusal(state, seat, command.target, now_ms)
    if refusal is None or (
        state.config.false_catch_penalty
        and refusal.code in (RejectCode.CATCH_TOO_LATE, RejectCode.NOT_EXPOSED)
    ):
        return None
    return refusal


def check_decision(
    state: MatchState, seat: int, command: Accept | Challenge, now_ms: int
) -> Rejected | None:
    """Ruling 6: only the victim of a Wild Draw Four answers it."""
    return _answers(state, seat, _CHALLENGE)


def check_dance(
    state: MatchState, seat: int, command: Dance | RefuseDance, now_ms: int
) -> Rejected | None:
    """Ruling 9: only the dancer answers; any steps are accepted, wrong ones refuse."""
    return _answers(state, seat, _DANCE)


# ---------------------------------------------------------------------- table commands


def check_timeout(state: MatchState, command: Timeout, now_ms: int) -> Rejected | None:
    """A clock runs and its deadline has come."""
    if state.paused:
        return Rejected(RejectCode.PAUSED, "the table is paused; no clock runs")
    deadline = state.deadline
    if deadline is None:
        return Rejected(RejectCode.NOT_NOW, "no clock is running")
    if now_ms < deadline:
        return Rejected(RejectCode.NOT_DUE, f"the deadline is {deadline - now_ms} ms away")
    return None


def check_next_round(state: MatchState, command: NextRound, now_ms: int) -> Rejected | None:
    if state.paused:
        return Rejected(RejectCode.PAUSED, "the table is paused")
    if state.phase is not _ROUND_OVER:
        return Rejected(RejectCode.NOT_NOW, "the round is still being played")
    return None


def check_pause(state: MatchState, command: Pause, now_ms: int) -> Rejected | None:
    if state.paused:
        return Rejected(RejectCode.PAUSED, "the table is already paused")
    return None


def check_resume(state: MatchState, command: Resume, now_ms: int) -> Rejected | None:
    if not state.paused:
        return Rejected(RejectCode.NOT_PAUSED, "the table is not paused")
    return None


def check_set_away(state: MatchState, command: SetAway, now_ms: int) -> Rejected | None:
    seat = command.seat
    if not 0 <= seat < state.seats:
        return Rejected(RejectCode.INVALID_SEAT, f"there is no seat {seat}")
    if state.away[seat] == command.away:
        return Rejected(
            RejectCode.NOT_NOW, f"seat {seat} is already {'away' if command.away else 'present'}"
        )
    return None
