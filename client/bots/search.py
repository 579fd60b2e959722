"""The ``hard`` level's search: determinized Monte Carlo through the rules engine.

At a decision worth thinking about (which card, which colour, whom to swap with, whether
to challenge a Wild Draw Four or take a Draw Two stack), once some hand is down to
``Limits.endgame`` cards (``Limits.endgame_heads_up`` with two seats in play), the bot:

1. samples a *deal*: the cards it has not seen dealt at random into every opponent's
   hand and the draw pile, each of the size the view says (:func:`sample_deal`). With the
   round's memory (``client.bots.memory``) the discards are the cards it saw played, and
   a seat's old cards avoid what its draws and plays say it held none of, and one that
   named a colour with a wild holds that colour most;
2. builds that position in the real engine once (``Match.restore`` of a plain snapshot),
   forks it for each candidate (``Match.fork``: no snapshot on the hot path), applies the
   candidate, and plays the round out with ``normal``'s heuristic, made cheap, for every
   opponent and as ``hard`` plays without a search for its own seat (:func:`playout`),
   scored by the win and, a little, by the round's points: the search asks which move
   does best against ``normal``;
3. repeats with new deals until the think budget is spent (never more than half the turn
   clock left) or the fixed number of deals is reached, or, looking every ``_LOOK``
   deals, no candidate is ahead of the default, and keeps ``normal``'s choice unless
   another candidate won more often on the same deals by ``_MARGIN`` standard errors of
   the paired difference (``_MARGIN_MANY`` with more than one opponent).

Every candidate is played on the same deals and with the same playout choices (common
random numbers), so their difference is measured with less noise. The bot also plays a
few moves otherwise than ``normal`` with no search at all (:func:`steer`): at any number
of seats it keeps a wild while every hand is big, drawing instead, and turns the colour
by rank to one the next player is read to lack; head to head it follows the colour with
the card whose rank it holds least in other colours; at three seats or more it plays the
card the fewest unseen cards follow and names such a colour with a wild, stops a next
player about to go out, keeps its stoppers till then, plays an honest Wild Draw Four where
``normal`` plays a plain wild, and names a colour that player left. In the endgame that
move is the one the search keeps unless another beats it.

The bot never sees more than its seat's view and events: only those are read, and
the hidden cards come from the sampler. This module is the one part of ``client`` allowed
to import ``server.engine`` (pyproject's import-linter contracts), as its simulator.

What neither says is guessed: the table's deck from the number of cards in play and the
cards seen, house rules only when a legal command shows them, and whether a Wild Draw
Four was a bluff from a prior the caller passes (``guilt``).

Why this module is long: the sampler, the position it builds, the playout policy and the
search that weighs candidates are one pipeline, read best top to bottom in one place.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from client.bots.memory import Favourite, Lack, RoundMemory, Void
from protocol.cards import COLORS, Card, Color, Rank, card_points
from protocol.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Dance,
    Draw,
    Pass,
    Play,
    RefuseDance,
    SeatCommand,
)
from protocol.options import ConfigError, DeckName, TableConfig
from protocol.views import View
from server.engine import Match, Phase, Rejected, build_deck

__all__ = [
    "Deal",
    "Limits",
    "decide",
    "favourite_colour",
    "infer_config",
    "playout",
    "sample_deal",
    "steer",
    "wild_draw_four_player",
]

_SEARCHED = (Play, Draw, Pass, ChooseColor, Challenge, Accept)
"""Command types the search weighs; any other decision is left to the caller."""

_NOW = 0
"""Playouts run on no clock: every command is stamped 0 and no timeout is ever sent."""

_OVER = (Phase.ROUND_OVER, Phase.MATCH_OVER)


@dataclass(frozen=True, slots=True)
class Limits:
    """How long the search may think: ``playouts`` deals (each plays every candidate once)
    when above 0, otherwise as many as fit in ``budget_ms``. ``max_steps`` cuts a playout
    that runs too long; the position is then scored by the hand sizes. Before the
    ``endgame`` the search leaves the decision to the caller: early in a round a move
    changes the outcome too little for a few hundred playouts to tell moves apart."""

    playouts: int = 0
    budget_ms: int = 150
    max_steps: int = 400
    endgame: int = 5
    """Search only once some hand in play holds at most this many cards (0: always): from
    five, measured at four seats on two seeds, won more than from three."""
    endgame_heads_up: int = 5
    """The same with two seats in play, where one move decides more and the one hidden
    hand is read better: measured, searching from five cards won more than from three."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Hidden cards as the sampler dealt them: every hand (the bot's own as the view
    shows it), the draw pile, and the discard pile (its last card is the top card)."""

    hands: list[list[str]]
    draw_pile: list[str]
    discard: list[str]


# -- what the view tells ---------------------------------------------------------------------


def infer_config(view: View, memory: RoundMemory | None = None) -> TableConfig | None:
    """The table configuration the view is from: the table's own (``memory.rules``, from
    its table-state) when the bot knows it, else the likeliest guess, or None if no deck fits.

    The deck is the one whose size is the number of cards in play and which holds the
    cards seen (a Dancing Wild means ``bts``, a Creeper ``minecraft``...): in the view, in
    the discards the memory holds, and in every card it saw played in earlier rounds. House
    rules show in the view only when they are in use: a Draw Two stack, a Skip with a target.
    """
    shared = view.shared
    counts = shared.counts
    if len(counts) < 2:
        return None
    rules = memory.rules if memory is not None else None
    if rules is not None and rules.seats == len(counts):
        return rules  # the table said its options: nothing to guess
    total = sum(counts) + shared.draw_count + shared.discard_count
    seen = Counter(_seen(view))
    if memory is not None and memory.discard is not None:
        seen = Counter([*(view.hand or ()), *memory.discard])
    ever = set(seen) | (memory.seen if memory is not None else set())
    options: dict[str, Any] = {
        "seats": len(counts),
        "stack_draw_two": shared.phase == Phase.STACK,
        "skip_any": _targets_with(view, Rank.SKIP),
    }
    if "seven_o" in _CONFIG_FIELDS:  # the 7-0 house rule: a 7 names whom to swap with
        options["seven_o"] = _targets_with(view, Rank.SEVEN)
    best: TableConfig | None = None
    for deck in DeckName:
        for custom in (3, 2, 1):
            try:
                config = TableConfig(deck=deck, custom_wilds=custom, **options)
            except (ConfigError, TypeError, ValueError):
                continue
            cards = Counter(build_deck(config))
            if cards.total() != total or seen - cards or ever - set(cards):
                continue
            special = set(cards) - _CLASSIC_CARDS
            if special & ever:
                return config  # a card only this deck has: it is this one
            best = best or config
    return best


_CONFIG_FIELDS = frozenset(field.name for field in dataclasses.fields(TableConfig))
_CLASSIC_CARDS = frozenset(build_deck(TableConfig()))


def _targets_with(view: View, rank: Rank) -> bool:
    """Whether a legal play of a ``rank`` card names a seat (a house rule in use)."""
    return any(
        isinstance(c, Play) and c.target is not None and c.card.rank == rank for c in view.legal
    )


def _seen(view: View) -> list[Card]:
    seen = list(view.hand or ())
    if view.shared.top is not None:
        seen.append(view.shared.top)
    return seen


def sample_deal(
    view: View,
    config: TableConfig,
    rng: random.Random,
    memory: RoundMemory | None = None,
) -> Deal | None:
    """Deal the cards the view does not show, at random, into the sizes it shows.

    The hidden cards are the deck less this seat's hand and the top card; every other
    hand gets its count, the draw pile ``draw_count``, the discards under the top card
    the rest. With a ``memory`` of the round, the discards are the cards seen played
    (when it saw them all) and a seat's old cards avoid what it could not play when it
    drew. None when the view and the deck disagree (then there is nothing to sample).
    """
    seat, shared = view.seat, view.shared
    counts, top = shared.counts, shared.top
    if seat is None or top is None:
        return None
    # The deal is a snapshot's, and a snapshot names cards by their codes.
    hand = [card.code for card in view.hand or ()]
    draw_count = shared.draw_count
    under_top = shared.discard_count - 1
    seen_discard = _known_discard(view, memory)
    known = None if seen_discard is None else [card.code for card in seen_discard]
    hidden = _hidden(view, config, seen_discard)
    if hidden is None:
        return None
    pool = [card.code for card in hidden.elements()]
    others = sum(n for s, n in enumerate(counts) if s != seat)
    if len(hand) != counts[seat] or len(pool) != others + draw_count + under_top * (not known):
        return None
    for _ in range(_DEAL_TRIES):
        rng.shuffle(pool)
        hands, rest, kept = _deal_hands(pool, hand, seat, counts, memory=memory, rng=rng)
        if kept:
            break
    pool = rest
    discard = [*known] if known is not None else [*pool[draw_count:], top.code]
    return Deal(hands, pool[:draw_count], discard)


def _known_discard(view: View, memory: RoundMemory | None) -> list[Card] | None:
    """The discard pile, its top card last, when the memory saw every card of it."""
    seen = memory.discard if memory is not None else None
    shared = view.shared
    if seen and len(seen) == shared.discard_count and seen[-1] == shared.top:
        return list(seen)
    return None


def _hidden(view: View, config: TableConfig, known: list[Card] | None) -> Counter[Card] | None:
    """The cards this seat cannot place: the deck less its hand and the ``known``
    discards (the top card alone without them), in the deck's order; None when the view
    holds a card the deck does not."""
    top = view.shared.top
    hidden = Counter(build_deck(config))
    hidden.subtract([*(view.hand or ()), *(known or ([top] if top is not None else []))])
    return None if any(n < 0 for n in hidden.values()) else hidden


_DEAL_TRIES = 4
"""Whole deals tried before one that breaks a seat's rules is kept (the seats dealt first
can take the only cards a later one may hold)."""


def _deal_hands(
    shuffled: list[str],
    hand: list[str],
    seat: int,
    counts: Sequence[int],
    *,
    memory: RoundMemory | None,
    rng: random.Random,
) -> tuple[list[list[str]], list[str], bool]:
    """Every hand dealt from ``shuffled`` (seats with rules first, by them), the cards
    left, and whether every seat's rules were kept."""
    pool = list(shuffled)
    hands: list[list[str]] = [hand if s == seat else [] for s in range(len(counts))]
    kept = True
    if memory is not None:
        for other in set(memory.voids) | set(memory.lacks) | set(memory.favourites):
            if other != seat and 0 <= other < len(counts):
                rules = memory.readings(other)
                favourite = memory.favourites.get(other)
                kept &= _deal_hand(
                    pool, hands[other], counts[other], rules, favourite=favourite, rng=rng
                )
    for s, n in enumerate(counts):
        if s != seat:
            need = n - len(hands[s])
            hands[s].extend(pool[:need])
            del pool[:need]
    return hands, pool, kept


def _deal_hand(
    pool: list[str],
    hand: list[str],
    count: int,
    rules: list[Void | Lack],
    *,
    favourite: Favourite | None,
    rng: random.Random,
) -> bool:
    """Deal ``hand`` its ``count`` cards from the (shuffled) pool, keeping to ``rules``
    (:func:`_deal_old_cards`) and, when it named a colour with its last wild, dealt again
    (up to ``_FAVOURITE_TRIES`` times) until that colour is the one it holds most.
    Whether the rules were kept (the favourite is only a preference)."""
    for _ in range(_FAVOURITE_TRIES):
        kept = _deal_old_cards(pool, hand, count, rules)
        if favourite is None or favourite.holds([Card.parse(code) for code in hand]):
            return kept
        pool.extend(hand)
        hand.clear()
        rng.shuffle(pool)
    return _deal_old_cards(pool, hand, count, rules)


_FAVOURITE_TRIES = 8
"""Deals tried before a hand that breaks its favourite colour is kept anyway."""


def _deal_old_cards(pool: list[str], hand: list[str], count: int, rules: list[Void | Lack]) -> bool:
    """Deal ``hand`` its ``count`` cards from the (shuffled) pool, card by card: its k-th
    card is an old one for every rule with fewer than ``count - k`` fresh cards, and is
    the first card of the pool all those rules allow (any card when none does: then
    False)."""
    parsed = {code: Card.parse(code) for code in set(pool)}
    kept = True
    for slot in range(count):
        if not pool:
            return kept
        binding = [rule for rule in rules if slot < count - rule.fresh]
        pick = -1
        for index, code in enumerate(pool):
            if all(rule.allows(parsed[code]) for rule in binding):
                pick = index
                break
        kept &= pick >= 0
        hand.append(pool.pop(max(pick, 0)))
    return kept


# -- building a position ---------------------------------------------------------------------

_TEMPLATES: dict[TableConfig, dict[str, Any]] = {}


def _template(config: TableConfig) -> dict[str, Any]:
    """A real snapshot of a fresh match of ``config``, the base every position edits."""
    template = _TEMPLATES.get(config)
    if template is None:
        template = _TEMPLATES[config] = Match(config, seed=0).snapshot(with_history=False)
    return template


def position(
    view: View, config: TableConfig, deal: Deal, bluffer: int | None, guilty: bool
) -> dict[str, Any]:
    """The snapshot of the position the view shows, with the hidden cards of ``deal``."""
    seats = len(deal.hands)
    shared = view.shared
    drawn = view.drawn
    out = set(shared.eliminated)
    data = dict(_template(config))
    data.update(
        phase=shared.phase.value,
        paused=False,
        paused_remaining=None,
        deadline=None,
        round=shared.round,
        dealer=shared.dealer,
        direction=-1 if shared.direction == -1 else 1,
        current=shared.to_act,
        color=None if shared.color is None else shared.color.value,
        hands=deal.hands,
        draw_pile=deal.draw_pile,
        discard=deal.discard,
        scores=list(shared.scores or [0] * seats),
        eliminated=[s in out for s in range(seats)],
        away=[False] * seats,
        expiries=[0] * seats,
        drawn=None if drawn is None else drawn.code,
        has_drawn=drawn is not None,
        early_uno=False,
        stuck_passes=0,
        pending_draw=shared.pending_draw,
        wd4=[-1, False, []],
        dance=[None, None],
        skip_marks=list(shared.skip_marks or [0] * seats),
        exposures=[],
        round_result=None,
        result=None,
        event_count=0,
    )
    if shared.phase == Phase.CHALLENGE and bluffer is not None:
        data["wd4"] = [bluffer, guilty, list(deal.hands[bluffer])]
    dance = shared.dance
    if shared.phase == Phase.DANCE and dance is not None:
        steps = None if dance.steps is None else [step.value for step in dance.steps]
        data["dance"] = [dance.dance, steps]
    return data


# -- the default policy of a playout ---------------------------------------------------------


def playout(
    match: Match,
    me: int,
    rng: random.Random,
    max_steps: int = 400,
    *,
    stop_at: float | None = None,
) -> float | None:
    """Play the round out with the default policy (:func:`_default_move`: ``normal``'s,
    and ``hard``'s without a search for ``me``); about 1.0 if ``me`` went out and 0.0 if
    another did, moved by the round's points (:func:`_score`), a share by hand sizes if
    ``max_steps`` ran out first; None when the clock passed ``stop_at``
    (``time.perf_counter``) first."""
    for step in range(max_steps):
        if stop_at is not None and step % _CLOCK_STEPS == 0 and time.perf_counter() > stop_at:
            return None
        if match.phase in _OVER:
            return _score(match, me)
        seat = match.to_act()
        if seat is None:
            break
        _default_move(match, seat, rng, me)
    sizes = [match.hand_count(s) or 1 for s in range(match.config.seats)]
    return (1.0 / sizes[me]) / sum(1.0 / n for n in sizes)


def _score(match: Match, me: int) -> float:
    """A finished playout's value to ``me``: 1.0 for a win, 0.0 for a loss, moved by up
    to ``_POINTS_WEIGHT`` by the round's points (a win by many points is worth more, a loss
    by many less). Two moves after which the same seat goes out on most deals still
    differ by how far, so the paired difference the search weighs is less noisy."""
    if match.hand_count(me) == 0:
        points = sum(_points(match, s) for s in range(match.config.seats) if s != me)
        return 1.0 + _POINTS_WEIGHT * min(points, _POINTS_SCALE) / _POINTS_SCALE
    return -_POINTS_WEIGHT * min(_points(match, me), _POINTS_SCALE) / _POINTS_SCALE


def _points(match: Match, seat: int) -> int:
    return sum(card_points(card) for card in match.hand(seat))


_POINTS_WEIGHT = 0.5
"""How much the round's points move a playout's value beside the win itself (measured
head to head, docs/performance.md, "A stronger `hard`, fourth pass")."""

_POINTS_SCALE = 100
"""The points at which that move is full (a hand worth more counts as this)."""


_CLOCK_STEPS = 16
"""A playout on a budget looks at the clock every this many moves: a long one (a busy
machine, a round that circulates) stops near the deadline instead of far past it."""


def _default_move(match: Match, seat: int, rng: random.Random, me: int) -> None:
    """The ``normal`` level's move, made cheap: the colour in force before a change of
    colour (its card worth most), else the colour held most; a plain wild before an honest
    Wild Draw Four, naming the colour held most; a draw when nothing plays; a challenge as
    ``normal`` decides it. The opponents play it, so a playout is a game against
    ``normal``; the bot's own seat ``me`` plays as ``hard`` does when it does not search
    (:func:`_own_card`, and it never challenges: no one in a playout bluffs)."""
    phase = match.phase
    if phase is Phase.TURN or phase is Phase.STACK:
        cards = match.playable_cards(seat)
        if cards:
            hand = match.hand(seat)
            card = _normal_card(cards, hand, match.color, rng)
            if seat == me:
                card = _own_card(match, me, cards, hand, card)
            uno = len(hand) == 2
            color = None if card.color is not None else favourite_colour(hand, card)
            if isinstance(match.apply(seat, _play(card, color, uno), _NOW), Rejected):
                _apply_one(match, seat, rng, card)  # a target or a dance to name
            return
        if match.may_draw(seat):
            match.apply(seat, _DRAW, _NOW)
            return
    elif phase is Phase.CHALLENGE:
        bluffer = _seat_after(match, seat, -match.direction)
        answer = _CHALLENGE if match.hand_count(bluffer) >= _CHALLENGE_FROM else _ACCEPT
        if seat == me:
            answer = _ACCEPT  # as hard answers a seat never caught bluffing
        if not isinstance(match.apply(seat, answer, _NOW), Rejected):
            return
    _apply_one(match, seat, rng, None)


@functools.cache
def _play(card: Card, color: Color | None, uno: bool) -> Play:
    """The playouts' one ``Play`` record of each card, colour and call: a record checks
    its fields when built, and playouts send the same few hundred over and over (what
    this saves: docs/performance.md, "A faster search")."""
    return Play(card, color=color, uno=uno)


_DRAW, _CHALLENGE, _ACCEPT = Draw(), Challenge(), Accept()


_CHALLENGE_FROM = 2
"""``normal`` challenges a Wild Draw Four when the guilt it estimates from the player's
hand size beats the break-even: from two cards left on (``strategies.guilt_probability``)."""


def _normal_card(
    cards: Sequence[Card], hand: Sequence[Card], in_force: Color | None, rng: random.Random
) -> Card:
    """The card ``normal`` plays of ``cards`` (``strategies._best_play``)."""
    same = [card for card in cards if card.color is not None and card.color is in_force]
    if same:
        best = max(card_points(card) for card in same)
        return rng.choice([card for card in same if card_points(card) == best])
    coloured = [card for card in cards if card.color is not None]
    if coloured:
        held: dict[Color | None, int] = dict.fromkeys(COLORS, 0)
        for card in hand:
            if card.color is not None:
                held[card.color] += 1
        most = max(held[card.color] for card in coloured)
        return rng.choice([card for card in coloured if held[card.color] == most])
    if in_force is not None and any(card.color is in_force for card in hand):
        honest = [card for card in cards if card.rank is not Rank.WILD_DRAW_FOUR]
        cards = honest or cards
    plain = [card for card in cards if card.rank is not Rank.WILD_DRAW_FOUR]
    return (plain or cards)[0]


def _own_card(
    match: Match, me: int, cards: Sequence[Card], hand: Sequence[Card], normal: Card
) -> Card:
    """The card the bot's own seat plays in a playout: ``normal``'s, but with three seats
    or more in play as :func:`steer` plays without a search: a stopper against a next
    player about to go out, a number of the colour in force that keeps the stopper
    otherwise, and an honest Wild Draw Four for a plain wild. Each reads only the hand
    sizes and its own hand, as the bot at the table does (what it bought:
    docs/performance.md, "The bot's own seat in its playouts")."""
    seats, in_force = match.config.seats, match.color
    if sum(1 for seat in range(seats) if match.hand_count(seat)) < 3:
        return normal
    after = _seat_after(match, me, match.direction)
    if match.hand_count(after) <= _DANGER:
        before = _seat_after(match, me, -match.direction)
        coloured = [card for card in cards if card.color is not None]
        return _stopper(coloured, match.hand_count(after), match.hand_count(before)) or normal
    if normal.rank in _STOPPERS:
        return _number_to_hold_with(cards, in_force) or normal
    if normal.rank is not Rank.WILD or in_force is None:
        return normal
    if any(card.color is in_force for card in hand):
        return normal  # a Wild Draw Four would be a bluff
    return next((c for c in cards if c.rank is Rank.WILD_DRAW_FOUR), normal)


def _seat_after(match: Match, seat: int, step: int) -> int:
    """The seat holding cards next after ``seat`` going ``step`` (1 or -1): an eliminated
    seat holds none, and a seat that just went out has ended the playout."""
    seats = match.config.seats
    other = seat
    for _ in range(seats):
        other = (other + step) % seats
        if match.hand_count(other):
            return other
    return seat


def _apply_one(match: Match, seat: int, rng: random.Random, card: Card | None) -> None:
    """One of the engine's legal commands for ``seat`` (plays of ``card`` if given): the
    favourite colour, the smallest hand as a target, the right dance, accept, pass."""
    legal = [c for c in match.legal_commands(seat) if c.TYPE != "catch"]
    if card is not None:
        legal = [c for c in legal if isinstance(c, Play) and c.card == card] or legal
    if not legal:
        return
    hand = match.hand(seat)
    colour = favourite_colour(hand, card)

    def rank(command: Command) -> tuple[int, int, int]:
        named = getattr(command, "color", None)
        target = getattr(command, "target", None)
        return (
            0 if named in (None, colour) else 1,
            match.hand_count(target) if isinstance(target, int) else 0,
            0 if getattr(command, "uno", False) or isinstance(command, Dance | Accept) else 1,
        )

    best = min(rank(command) for command in legal)
    match.apply(seat, rng.choice([c for c in legal if rank(c) == best]), _NOW)


def favourite_colour(hand: Sequence[Card], without: Card | None) -> Color:
    """The colour ``normal`` names: the one ``hand`` holds most once one ``without`` has
    left it (ties go to the first in ``COLORS``). One function for the level and for its
    playouts, which call it at every wild."""
    held = dict.fromkeys(COLORS, 0)
    for card in hand:
        if card == without:
            without = None  # only the one copy played leaves the hand
        elif card.color is not None:
            held[card.color] += 1
    return max(COLORS, key=held.__getitem__)


# -- the search ------------------------------------------------------------------------------


def candidates(legal: Sequence[SeatCommand]) -> list[SeatCommand] | None:
    """The commands worth searching, or None when the caller should decide (a catch, a
    lone UNO call, a dance). A play that may declare UNO is kept only with the call."""
    if any(isinstance(command, Catch | Dance | RefuseDance) for command in legal):
        return None
    plays = any(isinstance(command, Play) for command in legal)
    if not plays and any(isinstance(command, CallUno) for command in legal):
        return None
    chosen: list[SeatCommand] = [c for c in legal if isinstance(c, _SEARCHED)]
    if plays and not any(isinstance(command, Pass) for command in legal):
        # Drawing instead of playing: legal, and in playouts noise that looks like a plan.
        chosen = [c for c in chosen if not isinstance(c, Draw)]
    if any(isinstance(c, Play) and c.uno for c in chosen):
        chosen = [c for c in chosen if not isinstance(c, Play) or c.uno]
    return chosen or None


def decide(
    legal: Sequence[SeatCommand],
    view: View,
    rng: random.Random,
    limits: Limits,
    *,
    guilt: float = 0.2,
    default: SeatCommand | None = None,
    memory: RoundMemory | None = None,
) -> SeatCommand | None:
    """The candidate that won most playouts on sampled deals, or None when the search has
    nothing to weigh or the round is not yet at its endgame (one candidate is returned at
    once). ``memory`` is the round as this seat's events told it. ``guilt`` is the prior that a
    Wild Draw Four awaiting this seat's answer was a bluff. ``default`` (a plain player's
    choice) is kept unless another candidate beats it clearly on the same deals."""
    options = candidates(legal)
    me = view.seat
    if options is None or me is None or view.shared.to_act != me:
        return None
    if len(options) == 1:
        return options[0]
    steered = steer(options, view, memory, default)
    if steered is not None:
        default = steered
        if steered not in options:
            options = [*options, steered]  # a draw that keeps a wild: weighed as well
    if not _in_endgame(view, limits):
        return steered
    config = infer_config(view, memory)
    if config is None:
        return None
    keep = options.index(default) if default in options else None
    results = _weigh(
        options, view, me, config, rng=rng, limits=limits, guilt=guilt, memory=memory, keep=keep
    )
    if results is None:
        return None
    if not results[0]:
        return steered  # not one deal fitted in the budget (a busy machine): no search
    margin = _MARGIN if len(view.shared.counts) <= 2 else _MARGIN_MANY
    return options[_pick(results, keep, margin)]


def _weigh(
    options: Sequence[SeatCommand],
    view: View,
    me: int,
    config: TableConfig,
    *,
    rng: random.Random,
    limits: Limits,
    guilt: float,
    memory: RoundMemory | None,
    keep: int | None,
) -> list[list[float]] | None:
    """Every candidate's playout results, deal by deal, until the fixed number of deals
    or the budget (a deal the budget cut short does not count), or till a multiple of
    ``_LOOK`` deals finds no candidate ahead of the one at ``keep``; None when the view
    cannot be dealt."""
    bluffer = wild_draw_four_player(view)
    results: list[list[float]] = [[] for _ in options]
    deadline = time.perf_counter() + _budget_ms(view, limits) / 1000.0
    deals = 0
    while True:
        deal = sample_deal(view, config, rng, memory)
        if deal is None:
            return None
        data = position(view, config, deal, bluffer, rng.random() < guilt)
        stop_at = None if limits.playouts else deadline
        outcome = _play_out_every(options, data, me, rng, limits, stop_at=stop_at)
        if outcome is None:
            return results
        for index, value in enumerate(outcome):
            results[index].append(value)
        deals += 1
        if limits.playouts and deals >= limits.playouts:
            return results
        if deals % _LOOK == 0 and keep is not None and _leads(results, keep):
            return results
        if not limits.playouts and time.perf_counter() > deadline:
            return results


_LOOK = 10
"""Every this many deals the search stops if the default move leads every other: one
behind it then seldom ends far enough ahead to be chosen (what that saves and what it
cost: docs/performance.md, "A faster search")."""


def _leads(results: list[list[float]], keep: int) -> bool:
    """Whether no candidate has done better so far than the one at ``keep``."""
    kept = sum(results[keep])
    return all(sum(result) <= kept for result in results)


def _play_out_every(
    commands: Sequence[Command],
    data: Mapping[str, Any],
    me: int,
    rng: random.Random,
    limits: Limits,
    *,
    stop_at: float | None,
) -> list[float] | None:
    """Each candidate played out from one deal (its win share); None when the time ran
    out in the middle of the deal, which then does not count."""
    outcome = []
    start = Match.restore(data)
    seed = rng.getrandbits(64)
    for command in commands:
        if stop_at is not None and time.perf_counter() > stop_at:
            return None
        match = start.fork()
        if isinstance(match.apply(me, command, _NOW), Rejected):
            outcome.append(0.0)  # never on a deal of this view; counts as a loss
            continue
        # Common random numbers: every candidate's playout draws the same choices.
        value = playout(match, me, random.Random(seed), limits.max_steps, stop_at=stop_at)
        if value is None:
            return None
        outcome.append(value)
    return outcome


def _pick(results: list[list[float]], default: int | None, margin: float) -> int:
    """The best candidate by mean; the default unless the best beats it by more than
    ``margin`` standard errors of the paired difference (the same deals)."""
    means = [sum(r) / len(r) for r in results]
    best = max(range(len(results)), key=lambda i: (means[i], -i))
    if default is None or best == default:
        return best
    diffs = [a - b for a, b in zip(results[best], results[default], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)) ** 0.5
    return best if mean > margin * spread / n**0.5 else default


_MARGIN = 1.0
"""Head to head, a move is kept from ``normal`` unless another beats it by this much."""

_MARGIN_MANY = 2.0
"""With more opponents a move changes the outcome less and a playout's is noisier: a
candidate must beat ``normal``'s move by more before the bot trusts it."""


def _next_seat(view: View, after: int, step: int) -> int | None:
    """The seat in play after ``after`` going ``step`` (1 or -1)."""
    counts = view.shared.counts
    out = set(view.shared.eliminated)
    seat = after
    for _ in range(len(counts)):
        seat = (seat + step) % len(counts)
        if seat not in out:
            return seat
    return None


_STOPPERS = {Rank.DRAW_TWO: 0, Rank.SKIP: 1, Rank.REVERSE: 2}
"""The coloured cards that stop the next player, the strongest first."""

_DANGER = 2
"""The next player is about to go out when it holds at most this many cards."""


def steer(
    options: Sequence[SeatCommand],
    view: View,
    memory: RoundMemory | None,
    default: SeatCommand | None,
) -> SeatCommand | None:
    """Where ``hard`` plays otherwise than ``normal`` without a search (None: as
    ``normal``). At any number of seats it keeps a wild while every hand is big
    (:func:`_keep_wild`), and plays a card of a colour the next player is read to lack
    where ``normal`` plays another colour (:func:`_aim`). Head to head it then follows the
    colour with the card whose rank it holds least in other colours (:func:`_keep_switch`).
    At three seats or more, against a next player about to go out, it first plays a card
    that stops that player (a Draw Two, a Skip, a Reverse that does not hand the turn to a
    hand as small), else one of a colour that player lacks, else the card the fewest
    unseen cards follow (:func:`_block`). Otherwise it plays that card first, then a
    colour the next player lacks, and keeps its stoppers for that moment, playing a number
    of the colour in force instead. Where only a wild plays it plays an honest Wild Draw
    Four in place of a plain one, naming the colour it holds that the fewest unseen cards
    are of (:func:`_block_colour`), or one the next player has shown it lacks. Head to
    head, measured, those three-seat moves cost more than they win."""
    me, shared = view.seat, view.shared
    counts = shared.counts
    if me is None or default is None:
        return None
    kept = _keep_wild(view, default)
    if kept is not None:
        return kept
    step = -1 if shared.direction == -1 else 1
    after, before = _next_seat(view, me, step), _next_seat(view, me, -step)
    plays = [c for c in options if isinstance(c, Play)]
    if after is None or before is None or not plays:
        return None
    if len(counts) - len(shared.eliminated) < 3:
        return _aim(plays, view, memory, after, default) or _keep_switch(plays, view, default)
    if counts[after] <= _DANGER:
        played = (
            _stop(plays, counts, after, before)
            or _aim(plays, view, memory, after, default)
            or _block(plays, view, memory, default)
        )
    else:
        played = (
            _block(plays, view, memory, default)
            or _aim(plays, view, memory, after, default)
            or _hold(plays, view, default)
        )
    if played is not None:
        return played
    four = _four(plays, view, default)
    named = _block_colour(options, view, memory, four or default)
    wild = named or four
    return _starve(options, view, memory, after, wild or default) or wild


_KEEP_WILDS_FROM = 5
"""While every hand in play holds at least this many cards, a wild is kept (measured
against other counts in docs/performance.md, "A stronger `hard`, seventh pass")."""

_WILDS = (Rank.WILD, Rank.WILD_DRAW_FOUR)


def _keep_wild(view: View, default: SeatCommand) -> Draw | Pass | None:
    """A draw in place of ``default``'s wild, or a pass on the wild just drawn, at any
    number of seats, while every hand in play holds ``_KEEP_WILDS_FROM`` cards or more:
    ``normal`` plays a wild whenever it is all that plays, and plays the wild it draws,
    while a wild kept is the card that plays on anything near the end."""
    if not isinstance(default, Play) or default.card.rank not in _WILDS:
        return None
    shared = view.shared
    if shared.phase is not Phase.TURN:
        return None  # on a stack, a draw takes the stack
    out = set(shared.eliminated)
    if any(n < _KEEP_WILDS_FROM for seat, n in enumerate(shared.counts) if seat not in out):
        return None
    keep = Pass if view.drawn is not None else Draw
    return next((c for c in view.legal if isinstance(c, keep)), None)


def _rank_of(command: SeatCommand) -> Rank | None:
    return command.card.rank if isinstance(command, Play) else None


def _stop(plays: Sequence[Play], counts: Sequence[int], after: int, before: int) -> Play | None:
    """The strongest card that stops ``after``, or None when none does."""
    card = _stopper([c.card for c in plays], counts[after], counts[before])
    return None if card is None else next(c for c in plays if c.card == card)


def _stopper(cards: Sequence[Card], after: int, before: int) -> Card | None:
    """The first of the strongest ``cards`` that stop a next player holding ``after``
    cards: a Draw Two, then a Skip, then a Reverse, but a Reverse only when the player
    it hands the turn to holds more (``before``). None when none of them does."""

    def strength(card: Card) -> int:
        if card.rank is Rank.REVERSE and before <= after:
            return len(_STOPPERS)  # the turn would pass to a hand as small
        return _STOPPERS.get(card.rank, len(_STOPPERS))

    best = min(cards, key=strength, default=None)
    return best if best is not None and strength(best) < len(_STOPPERS) else None


def _hold(plays: Sequence[Play], view: View, default: SeatCommand) -> Play | None:
    """The highest number of the colour in force instead of ``normal``'s stopper."""
    if _rank_of(default) not in _STOPPERS:
        return None
    card = _number_to_hold_with([c.card for c in plays], view.shared.color)
    return None if card is None else next(c for c in plays if c.card == card)


def _number_to_hold_with(cards: Sequence[Card], colour: Color | None) -> Card | None:
    """The highest number card of the colour in force among ``cards``, played so that a
    stopper is kept for a next player about to go out; None when there is none."""
    numbers = [c for c in cards if c.color is colour and c.rank.number is not None]
    return max(numbers, key=lambda c: c.rank.number or 0, default=None)


def _four(plays: Sequence[Play], view: View, default: SeatCommand) -> Play | None:
    """An honest Wild Draw Four, naming the colour ``normal``'s plain wild names, in place
    of that wild: ``normal`` challenges one from a hand of two or more cards and then draws
    six. The plain wild is kept, and a wild is still played only when no coloured card
    plays."""
    if not isinstance(default, Play) or default.card.rank is not Rank.WILD:
        return None
    top = view.shared.top
    colour = view.shared.color or (top.color if top is not None else None)
    if colour is None or any(card.color == colour for card in view.hand or ()):
        return None  # it would be a bluff
    return next(
        (
            c
            for c in plays
            if c.card.rank is Rank.WILD_DRAW_FOUR
            and (c.color, c.uno, c.target) == (default.color, default.uno, default.target)
        ),
        None,
    )


def _starve(
    options: Sequence[SeatCommand],
    view: View,
    memory: RoundMemory | None,
    after: int,
    default: SeatCommand,
) -> SeatCommand | None:
    """The wild ``default`` plays, naming a colour ``after`` lacks and this hand holds
    instead, if any."""
    named = default.color if isinstance(default, Play | ChooseColor) else None
    if memory is None or named is None:
        return None
    lacks = _lacked_colours(memory, after)
    if not lacks or named in lacks:
        return None
    held = Counter(card.color for card in view.hand or ())
    variants = [
        c
        for c in options
        if isinstance(c, Play | ChooseColor)
        and _same_but_colour(c, default)
        and c.color in lacks
        and held[c.color] > 0
    ]
    return max(variants, key=lambda c: held[c.color]) if variants else None


def _aim(
    plays: Sequence[Play],
    view: View,
    memory: RoundMemory | None,
    after: int,
    default: SeatCommand,
) -> Play | None:
    """A coloured card of a colour ``after`` is read to hold none of, in place of
    ``normal``'s coloured card of another colour: of those colours, the one this hand
    holds most, and its card worth most. None when no such card plays."""
    if memory is None or not isinstance(default, Play) or default.card.color is None:
        return None
    lacks = _lacked_colours(memory, after)
    if not lacks or default.card.color in lacks:
        return None
    held = Counter(card.color for card in view.hand or ())
    aimed = [c for c in plays if c.card.color in lacks]
    return max(aimed, key=lambda c: (held[c.card.color], card_points(c.card)), default=None)


def _keep_switch(plays: Sequence[Play], view: View, default: SeatCommand) -> Play | None:
    """A card of the colour in force with fewer partners of its rank in other colours
    than ``normal``'s card (the fewest, then the card worth most), in place of it: a
    number or symbol held in another colour is the way out of this colour later without
    a wild or a draw. None when ``normal``'s card is as good a card to give up."""
    colour = view.shared.color
    if not isinstance(default, Play) or colour is None or default.card.color is not colour:
        return None
    hand = view.hand or ()
    same = [c for c in plays if c.card.color is colour and c.uno == default.uno]
    return _fewer(same, default.card, lambda card: _switches(card, hand))


def _switches(card: Card, hand: Sequence[Card]) -> int:
    """How many cards of ``hand`` share ``card``'s rank in another colour."""
    return sum(
        1 for held in hand if held.rank is card.rank and held.color not in (None, card.color)
    )


def _block(
    plays: Sequence[Play], view: View, memory: RoundMemory | None, default: SeatCommand
) -> Play | None:
    """The coloured card that the fewest unseen cards follow (by its colour or its
    rank), the one worth most of those, in place of ``normal``'s coloured card when more
    follow that one: with three hands or more, each opponent holding a card that does not
    follow is one that draws. Cards of a colour this hand holds many of are seen, so the
    colour it can follow itself tends to be the one left. None when ``normal``'s card is
    as hard to follow, or plays no colour."""
    if not isinstance(default, Play) or default.card.color is None:
        return None
    unseen = _unseen(view, memory)
    if unseen is None:
        return None

    def followers(card: Card) -> int:
        return sum(
            n
            for other, n in unseen.items()
            if other.color is not None and (other.color is card.color or other.rank is card.rank)
        )

    coloured = [
        c
        for c in plays
        if c.card.color is not None and (c.uno, c.target) == (default.uno, default.target)
    ]
    return _fewer(coloured, default.card, followers)


def _fewer(plays: Sequence[Play], normal: Card, count: Callable[[Card], int]) -> Play | None:
    """The play whose card ``count`` gives least (then the one worth most), when that is
    less than it gives ``normal``'s card; None otherwise."""
    best = min(plays, key=lambda c: (count(c.card), -card_points(c.card)), default=None)
    return best if best is not None and count(best.card) < count(normal) else None


def _block_colour(
    options: Sequence[SeatCommand],
    view: View,
    memory: RoundMemory | None,
    default: SeatCommand,
) -> Play | None:
    """The wild ``default`` plays, naming instead the colour this hand holds that the
    fewest unseen cards are of (then the one it holds most), as :func:`_block` chooses a
    card; None when that is the colour ``default`` names already."""
    if not isinstance(default, Play) or default.card.color is not None or default.color is None:
        return None
    unseen = _unseen(view, memory)
    if unseen is None:
        return None
    of_colour: Counter[Color | None] = Counter()
    for card, n in unseen.items():
        of_colour[card.color] += n
    held = Counter(card.color for card in view.hand or ())
    variants = [
        c
        for c in options
        if isinstance(c, Play)
        and _same_but_colour(c, default)
        and c.color is not None
        and held[c.color] > 0
    ]
    best = min(variants, key=lambda c: (of_colour[c.color], -held[c.color]), default=None)
    return None if best is None or best.color is default.color else best


def _unseen(view: View, memory: RoundMemory | None) -> Counter[Card] | None:
    """The cards this seat has not seen where they are (:func:`_hidden`), or None when
    the deck cannot be told."""
    config = infer_config(view, memory)
    if config is None:
        return None
    return _hidden(view, config, _known_discard(view, memory))


def _lacked_colours(memory: RoundMemory, seat: int) -> set[Color]:
    """The colours ``seat`` held none of at its last void or play, if it has drawn no
    card since."""
    lacks: set[Color] = set()
    lack, void = memory.lacks.get(seat), memory.voids.get(seat)
    if lack is not None and lack.fresh == 0:
        lacks |= lack.colors
    if void is not None and void.fresh == 0 and void.color is not None:
        lacks.add(void.color)
    return lacks


def _same_but_colour(command: Play | ChooseColor, other: SeatCommand) -> bool:
    """Whether ``command`` is ``other`` but for the colour it names."""
    if isinstance(command, Play) and isinstance(other, Play):
        return (command.card, command.uno, command.target) == (other.card, other.uno, other.target)
    if isinstance(command, ChooseColor) and isinstance(other, ChooseColor):
        return command.target == other.target
    return False


def _budget_ms(view: View, limits: Limits) -> float:
    """The think budget, never more than half of what the turn clock has left."""
    remaining = view.shared.remaining_ms
    if remaining is not None:
        return min(limits.budget_ms, remaining / 2)
    return limits.budget_ms


def _in_endgame(view: View, limits: Limits) -> bool:
    """Whether some seat in play holds at most ``limits``' endgame count of cards (the
    heads-up one with two seats in play); always when that count is 0."""
    out = set(view.shared.eliminated)
    held = [n for seat, n in enumerate(view.shared.counts) if seat not in out]
    cards = limits.endgame_heads_up if len(held) == 2 else limits.endgame
    return not cards or any(n <= cards for n in held)


def wild_draw_four_player(view: View) -> int | None:
    """The seat that played the Wild Draw Four now awaiting an answer: the seat before the
    one the view waits on (the victim), in the direction of play, skipping eliminated
    seats."""
    to_act, counts = view.shared.to_act, view.shared.counts
    if to_act is None or not counts:
        return None
    step = -1 if view.shared.direction == -1 else 1
    out = set(view.shared.eliminated)
    seat = to_act
    for _ in range(len(counts)):
        seat = (seat - step) % len(counts)
        if seat not in out:
            return seat
    return None
