"""Fully expanded lists of the commands that are legal now.

Built only when asked (never on the path of ``apply``), from the same predicates the
checks use (``server.engine.checks``). Every listed command is accepted if sent next,
whatever the time: a catch is listed only while the watched seat has not yet acted (after
that the window depends on the clock), and ``Timeout`` is listed only once its deadline is
known to have passed when ``now_ms`` is given. The state machine test holds the lists and
the checks to agreeing both ways.
"""

from __future__ import annotations

from protocol.cards import COLORS, Card, Color, Rank, all_cards
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
from protocol.phase import Phase
from server.engine.checks import (
    bluff_barred,
    candidates,
    forced,
    jump_in_cards,
    matching,
    stack_answer,
    stacking,
    wants_target,
)
from server.engine.state import MatchState

__all__ = ["legal_seat_commands", "legal_table_commands", "playable_cards"]

# Enum members bound once: reading one from its class costs ten times a global's read.
_TURN = Phase.TURN
_CHOOSE_COLOR = Phase.CHOOSE_COLOR
_CHALLENGE = Phase.CHALLENGE
_DANCE = Phase.DANCE
_STACK = Phase.STACK
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_SWAP = Rank.SWAP_HANDS
_DANCING_WILD = Rank.DANCE

# Commands are values: those that are always the same are built once.
_DRAW, _PASS, _CALL_UNO = Draw(), Pass(), CallUno()
_ACCEPT_OR_CHALLENGE, _REFUSE_DANCE = (Accept(), Challenge()), RefuseDance()
_CHOOSE_EACH_COLOR = tuple(ChooseColor(color) for color in COLORS)
_NEXT_ROUND, _PAUSE, _RESUME, _TIMEOUT = NextRound(), Pause(), Resume(), Timeout()


def legal_seat_commands(state: MatchState, seat: int) -> list[SeatCommand]:  # noqa: C901 (one branch per phase)
    """Every command ``seat`` may send now, on turn and off turn."""
    phase = state.phase
    if phase is _TURN and seat == state.current and not state.paused:
        turn = _turn_commands(state, seat)
        if state.exposures:
            turn.extend(_exposure_commands(state, seat))
        return turn
    if (
        state.paused
        or phase is _ROUND_OVER
        or phase is _MATCH_OVER
        or not 0 <= seat < state.seats
        or state.eliminated[seat]
    ):
        return []
    legal: list[SeatCommand] = []
    if seat != state.current:
        if state.jump_in:
            legal.extend(_jump_in_commands(state, seat))
    elif phase is _TURN:
        legal.extend(_turn_commands(state, seat))
    elif phase is _STACK:
        legal.extend(_stack_commands(state, seat))
        legal.append(_DRAW)
    elif phase is _CHALLENGE:
        legal.extend(_ACCEPT_OR_CHALLENGE)
        if state.stack_wd4:
            legal.extend(_stack_commands(state, seat))
    elif phase is _DANCE:
        legal.append(Dance(state.dance_steps or ()))
        legal.append(_REFUSE_DANCE)
    elif phase is _CHOOSE_COLOR:
        if state.discard[-1].rank is _SWAP:
            targets = state.opponents(seat)
            legal.extend(ChooseColor(color, target) for color in COLORS for target in targets)
        else:
            legal.extend(_CHOOSE_EACH_COLOR)
    if state.exposures:
        legal.extend(_exposure_commands(state, seat))
    return legal


def _jump_in_commands(state: MatchState, seat: int) -> list[SeatCommand]:
    """Ruling 37: the jump-ins of a seat out of turn (UNO with it, never before it)."""
    hand = state.hands[seat]
    two = len(hand) == 2
    legal: list[SeatCommand] = []
    for card in jump_in_cards(state, seat):
        if wants_target(state, card, hand):
            legal.extend(_targeted(state, seat, card, two))
        else:
            plain, declaring = _VARIANTS_BY_ID.get(id(card)) or _variants(card)
            legal.extend(plain)
            if two:
                legal.extend(declaring)
    return legal


def _stack_commands(state: MatchState, seat: int) -> list[SeatCommand]:
    """Rulings 22, 25 and 33: the plays that answer a stack, and an early UNO call."""
    hand = state.hands[seat]
    two = len(hand) == 2
    legal: list[SeatCommand] = []
    for card in dict.fromkeys(hand):
        if stack_answer(state, card):
            plain, declaring = _VARIANTS_BY_ID.get(id(card)) or _variants(card)
            legal.extend(plain)
            if two:
                legal.extend(declaring)
    if legal and two and not state.early_uno:
        legal.append(_CALL_UNO)  # ruling 25: declared before the stacking play
    return legal


def _matching(state: MatchState, hand: list[Card]) -> list[Card]:
    """The distinct cards of ``hand`` that match the top card or the colour in force (only
    the drawn card after a draw), in hand order, before the Wild Draw Four rule."""
    cards = matching(state, candidates(state, hand))
    # A hand may hold two of a card: list each once (the engine's cards are the canonical
    # instances, so equal cards are the same object).
    if len(cards) > 1 and len(set(map(id, cards))) < len(cards):
        cards = list({id(card): card for card in cards}.values())
    return cards


def playable_cards(state: MatchState, seat: int) -> list[Card]:
    """The distinct cards ``seat`` may play now, in hand order (the engine's instances).

    Exactly the cards of the ``Play`` commands in ``legal_seat_commands(state, seat)``,
    without expanding colours, targets, dances and UNO: empty unless ``seat`` is to act
    in ``TURN`` (only the drawn card after a draw) or facing a stack (its answers), or
    may jump in out of turn (ruling 37: the card identical to the top card).
    """
    phase = state.phase
    if seat != state.current:
        return jump_in_cards(state, seat) if state.jump_in else []
    if state.paused:
        return []
    hand = state.hands[seat]
    if phase is not _TURN:
        if stacking(state):
            return list({id(card): card for card in hand if stack_answer(state, card)}.values())
        return []
    playable = _matching(state, hand)
    if bluff_barred(state, hand):
        playable = [card for card in playable if card.rank is not _WILD_DRAW_FOUR]
    return playable


def _exposure_commands(state: MatchState, seat: int) -> list[SeatCommand]:
    """Off-turn UNO business: call your own exposure, catch another's while it is open."""
    legal: list[SeatCommand] = []
    for target, record in state.exposures.items():
        if record.status != "open":
            continue
        if target == seat:
            legal.append(_CALL_UNO)
        elif not record.acted:
            legal.append(Catch(target))
    return legal


_Variants = tuple[tuple[Play, ...], tuple[Play, ...]]
_VARIANTS: dict[Card, _Variants] = {}
"""Per card, its untargeted plays without and with UNO (commands are values: shared)."""


def _variants(card: Card) -> _Variants:
    variants = _VARIANTS.get(card)
    if variants is None:
        if card.color is None:
            dances: tuple[str | None, ...] = DANCES if card.rank is _DANCING_WILD else (None,)
            plain = tuple(Play(card, color, None, dance) for color in COLORS for dance in dances)
        else:
            plain = (Play(card),)
        declaring = tuple(Play(p.card, p.color, p.target, p.dance, True) for p in plain)
        variants = _VARIANTS[card] = (plain, declaring)
    return variants


_VARIANTS_BY_ID: dict[int, _Variants] = {id(card): _variants(card) for card in all_cards()}


def _turn_commands(state: MatchState, seat: int) -> list[SeatCommand]:
    hand = state.hands[seat]
    legal: list[SeatCommand] = []
    two = len(hand) == 2
    has_drawn = state.has_drawn
    for card in _matching(state, hand):
        if card.rank is _WILD_DRAW_FOUR and bluff_barred(state, hand):
            continue
        if wants_target(state, card, hand):
            legal.extend(_targeted(state, seat, card, two))
            continue
        plain, declaring = _VARIANTS_BY_ID.get(id(card)) or _variants(card)
        legal.extend(plain)
        if two:
            legal.extend(declaring)
    can_play = bool(legal)
    can_draw = state.can_draw()
    if has_drawn:
        if not forced(state, seat):  # ruling 35
            legal.append(_PASS)
    elif can_draw:
        legal.append(_DRAW)
    elif not legal:  # nothing to play, nothing to draw (ruling 14)
        legal.append(_PASS)
    if two and can_play and not state.early_uno:
        legal.append(_CALL_UNO)
    return legal


def _targeted(state: MatchState, seat: int, card: Card, two: bool) -> list[Play]:
    colors: tuple[Color | None, ...] = COLORS if card.color is None else (None,)
    unos = (False, True) if two else (False,)
    return [
        Play(card, color, target, None, uno)
        for color in colors
        for target in state.opponents(seat)
        for uno in unos
    ]


def legal_table_commands(state: MatchState, now_ms: int | None = None) -> list[TableCommand]:
    """Every command the table may send now. Timeout is listed whenever a clock runs,
    unless ``now_ms`` is given and the deadline has not come yet."""
    phase = state.phase
    if phase is _MATCH_OVER:
        return []
    legal: list[TableCommand] = []
    if state.paused:
        legal.append(_RESUME)
    else:
        deadline = state.deadline
        if deadline is not None and (now_ms is None or now_ms >= deadline):
            legal.append(_TIMEOUT)
        if phase is _ROUND_OVER:
            legal.append(_NEXT_ROUND)
        legal.append(_PAUSE)
    legal.extend(SetAway(seat, not state.away[seat]) for seat in range(state.seats))
    return legal
