"""The ``hard`` level's search: determinized Monte Carlo through the rules engine.

At a decision worth thinking about (which card, which colour, whom to swap with, whether
to challenge a Wild Draw Four or take a Draw Two stack) the bot:

1. samples a *deal*: the cards its view does not show (the deck, less its hand and the
   top card) dealt at random into every opponent's hand, the draw pile and the discards
   under the top card, each of the size the view says (:func:`sample_deal`);
2. builds that position in the real engine (``server.engine.Match.restore`` of a plain
   snapshot) once per candidate command, applies the candidate, and plays the round out
   with a fast default policy for every seat (:func:`playout`);
3. repeats with new deals until the think budget is spent or the fixed number of deals
   is reached, and sends the candidate that won most often.

Every candidate is played on the same deals, so their difference is measured with less
noise. The bot never sees more than its seat's view: only the view is read, and the
hidden cards come from the sampler. This module is the one part of ``client`` allowed to
import ``server.engine`` (pyproject's import-linter contracts), as its simulator.

What the view does not say is guessed: the table's deck from the number of cards in play
and the cards seen, and whether a Wild Draw Four was a bluff from a prior the caller
passes (``guilt``). Cards seen earlier in the round (the discards, a challenged hand) are
not remembered: the view holds only the top card, so they count as hidden.

Why this module is long: the sampler, the position it builds, the playout policy and the
search that weighs candidates are one pipeline, read best top to bottom in one place.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.cards import COLORS, Card, Color, Rank, card_points
from protocol.commands import (
    Accept,
    CallUno,
    Challenge,
    ChooseColor,
    Command,
    Dance,
    Draw,
    Pass,
    Play,
    command_from_data,
)
from protocol.options import ConfigError, DeckName, TableConfig
from server.engine import Match, Phase, Rejected, build_deck

__all__ = ["Deal", "Limits", "decide", "infer_config", "playout", "sample_deal"]

CommandMap = dict[str, Any]

_SEARCHED = {Play.TYPE, Draw.TYPE, Pass.TYPE, ChooseColor.TYPE, Challenge.TYPE, Accept.TYPE}
"""Command types the search weighs; any other decision is left to the caller."""

_NOW = 0
"""Playouts run on no clock: every command is stamped 0 and no timeout is ever sent."""

_OVER = (Phase.ROUND_OVER, Phase.MATCH_OVER)


@dataclass(frozen=True, slots=True)
class Limits:
    """How long the search may think: ``playouts`` deals (each plays every candidate once)
    when above 0, otherwise as many as fit in ``budget_ms``. ``max_steps`` cuts a playout
    that runs too long; the position is then scored by the hand sizes."""

    playouts: int = 0
    budget_ms: int = 150
    max_steps: int = 400


@dataclass(frozen=True, slots=True)
class Deal:
    """Hidden cards as the sampler dealt them: every hand (the bot's own as the view
    shows it), the draw pile, and the discard pile (its last card is the top card)."""

    hands: list[list[str]]
    draw_pile: list[str]
    discard: list[str]


# -- what the view tells ---------------------------------------------------------------------


def infer_config(view: Mapping[str, Any]) -> TableConfig | None:
    """The table configuration the view is most likely from, or None if no deck fits.

    The deck is the one whose size is the number of cards in play and which holds the
    cards seen (a Dancing Wild means ``bts``, a Creeper ``minecraft``...). House rules show
    in the view only when they are in use: a Draw Two stack, a Skip with a target.
    """
    counts = view.get("counts")
    if not isinstance(counts, list) or len(counts) < 2:
        return None
    total = sum(counts) + int(view.get("draw_count") or 0) + int(view.get("discard_count") or 0)
    seen = Counter(_seen(view))
    legal = view.get("legal") or ()
    skip_any = any(
        isinstance(c, Mapping) and c.get("target") is not None and str(c.get("card", ""))[1:] == "S"
        for c in legal
    )
    options: dict[str, Any] = {
        "seats": len(counts),
        "stack_draw_two": view.get("phase") == Phase.STACK.value,
        "skip_any": skip_any,
    }
    if "seven_o" in _CONFIG_FIELDS:  # the 7-0 house rule: a 7 names whom to swap with
        options["seven_o"] = any(
            isinstance(c, Mapping)
            and c.get("target") is not None
            and str(c.get("card", ""))[1:] == "7"
            for c in legal
        )
    best: TableConfig | None = None
    for deck in DeckName:
        for custom in (3, 2, 1):
            try:
                config = TableConfig(deck=deck, custom_wilds=custom, **options)
            except (ConfigError, TypeError, ValueError):
                continue
            cards = Counter(card.code for card in build_deck(config))
            if cards.total() != total or seen - cards:
                continue
            special = set(cards) - _CLASSIC_CODES
            if special & set(seen):
                return config  # a card only this deck has: it is this one
            best = best or config
    return best


_CONFIG_FIELDS = frozenset(field.name for field in dataclasses.fields(TableConfig))
_CLASSIC_CODES = frozenset(card.code for card in build_deck(TableConfig()))


def _seen(view: Mapping[str, Any]) -> list[str]:
    seen = [str(code) for code in view.get("hand") or ()]
    top = view.get("top")
    if isinstance(top, str):
        seen.append(top)
    return seen


def sample_deal(view: Mapping[str, Any], config: TableConfig, rng: random.Random) -> Deal | None:
    """Deal the cards the view does not show, at random, into the sizes it shows.

    The hidden cards are the deck less this seat's hand and the top card; every other
    hand gets its count, the draw pile ``draw_count``, the discards under the top card
    the rest. None when the view and the deck disagree (then there is nothing to sample).
    """
    seat = view.get("seat")
    counts = view.get("counts")
    top = view.get("top")
    if not isinstance(seat, int) or not isinstance(counts, list) or not isinstance(top, str):
        return None
    hidden = Counter(card.code for card in build_deck(config))
    hidden.subtract(_seen(view))
    if any(n < 0 for n in hidden.values()):
        return None
    pool = list(hidden.elements())
    draw_count = int(view.get("draw_count") or 0)
    under_top = int(view.get("discard_count") or 0) - 1
    others = sum(n for s, n in enumerate(counts) if s != seat)
    if len(view.get("hand") or ()) != counts[seat] or len(pool) != others + draw_count + under_top:
        return None
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for s, n in enumerate(counts):
        if s == seat:
            hands.append([str(code) for code in view.get("hand") or ()])
        else:
            hands.append(pool[:n])
            del pool[:n]
    return Deal(hands, pool[:draw_count], [*pool[draw_count:], top])


# -- building a position ---------------------------------------------------------------------

_TEMPLATES: dict[TableConfig, dict[str, Any]] = {}


def _template(config: TableConfig) -> dict[str, Any]:
    """A real snapshot of a fresh match of ``config``, the base every position edits."""
    template = _TEMPLATES.get(config)
    if template is None:
        template = _TEMPLATES[config] = Match(config, seed=0).snapshot(with_history=False)
    return template


def position(
    view: Mapping[str, Any], config: TableConfig, deal: Deal, bluffer: int | None, guilty: bool
) -> dict[str, Any]:
    """The snapshot of the position the view shows, with the hidden cards of ``deal``."""
    seats = len(deal.hands)
    phase = str(view.get("phase"))
    drawn = view.get("drawn")
    dance = view.get("dance") if phase == Phase.DANCE else None
    out = set(view.get("eliminated") or ())
    data = dict(_template(config))
    data.update(
        phase=phase,
        paused=False,
        paused_remaining=None,
        deadline=None,
        round=view.get("round", 1),
        dealer=view.get("dealer", 0),
        direction=-1 if view.get("direction") == -1 else 1,
        current=view.get("to_act"),
        color=view.get("color"),
        hands=deal.hands,
        draw_pile=deal.draw_pile,
        discard=deal.discard,
        scores=list(view.get("scores") or [0] * seats),
        eliminated=[s in out for s in range(seats)],
        away=[False] * seats,
        expiries=[0] * seats,
        drawn=drawn,
        has_drawn=isinstance(drawn, str),
        early_uno=False,
        stuck_passes=0,
        pending_draw=int(view.get("pending_draw") or 0),
        wd4=[-1, False, []],
        dance=[None, None],
        skip_marks=list(view.get("skip_marks") or [0] * seats),
        exposures=[],
        round_result=None,
        result=None,
        event_count=0,
    )
    if phase == Phase.CHALLENGE.value and bluffer is not None:
        data["wd4"] = [bluffer, guilty, list(deal.hands[bluffer])]
    if isinstance(dance, Mapping):
        data["dance"] = [dance.get("dance"), dance.get("steps")]
    return data


# -- the default policy of a playout ---------------------------------------------------------


def playout(match: Match, me: int, rng: random.Random, max_steps: int = 400) -> float:
    """Play the round out with the default policy for every seat; 1.0 if ``me`` went out,
    0.0 if another did, a share by hand sizes if ``max_steps`` ran out first."""
    for _ in range(max_steps):
        if match.phase in _OVER:
            return 1.0 if match.hand_count(me) == 0 else 0.0
        seat = match.to_act()
        if seat is None:
            break
        _default_move(match, seat, rng)
    sizes = [match.hand_count(s) or 1 for s in range(match.config.seats)]
    return (1.0 / sizes[me]) / sum(1.0 / n for n in sizes)


def _default_move(match: Match, seat: int, rng: random.Random) -> None:
    """A fast, sensible move: the coloured card worth most (toward the colour held most),
    a plain wild before a Wild Draw Four, and a draw when nothing plays."""
    phase = match.phase
    if phase is Phase.TURN or phase is Phase.STACK:
        cards = match.playable_cards(seat)
        if cards:
            coloured = [card for card in cards if card.color is not None]
            if coloured:
                held = Counter(card.color for card in match.hand(seat))
                card = max(coloured, key=lambda c: (card_points(c), held[c.color], rng.random()))
            else:
                plain = [card for card in cards if card.rank is not Rank.WILD_DRAW_FOUR]
                card = (plain or cards)[0]
            if card.color is not None and not (card.rank is Rank.SKIP and match.config.skip_any):
                uno = match.hand_count(seat) == 2
                if not isinstance(match.apply(seat, Play(card, uno=uno), _NOW), Rejected):
                    return
            _apply_one(match, seat, rng, card)
            return
        if match.may_draw(seat):
            match.apply(seat, Draw(), _NOW)
            return
    _apply_one(match, seat, rng, None)


def _apply_one(match: Match, seat: int, rng: random.Random, card: Card | None) -> None:
    """One of the engine's legal commands for ``seat`` (plays of ``card`` if given): the
    favourite colour, the smallest hand as a target, the right dance, accept, pass."""
    legal = [c for c in match.legal_commands(seat) if c.TYPE != "catch"]
    if card is not None:
        legal = [c for c in legal if isinstance(c, Play) and c.card == card] or legal
    if not legal:
        return
    hand = match.hand(seat)
    colour = _favourite(hand, card)

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


def _favourite(hand: Sequence[Card], without: Card | None) -> Color:
    remaining = list(hand)
    if without is not None and without in remaining:
        remaining.remove(without)
    held = Counter(card.color for card in remaining if card.color is not None)
    return max(COLORS, key=lambda colour: (held.get(colour, 0), -COLORS.index(colour)))


# -- the search ------------------------------------------------------------------------------


def candidates(legal: Sequence[Mapping[str, Any]]) -> list[CommandMap] | None:
    """The commands worth searching, or None when the caller should decide (a catch, a
    lone UNO call, a dance). A play that may declare UNO is kept only with the call."""
    kinds = {command.get("type") for command in legal}
    if kinds & {"catch", Dance.TYPE, "refuse-dance"}:
        return None
    if CallUno.TYPE in kinds and Play.TYPE not in kinds:
        return None
    chosen = [dict(c) for c in legal if c.get("type") in _SEARCHED]
    if Play.TYPE in kinds and Pass.TYPE not in kinds:
        # Drawing instead of playing: legal, and in playouts noise that looks like a plan.
        chosen = [c for c in chosen if c.get("type") != Draw.TYPE]
    declaring = [c for c in chosen if c.get("uno")]
    if declaring:
        chosen = [c for c in chosen if c.get("type") != Play.TYPE or c.get("uno")]
    return chosen or None


def decide(
    legal: Sequence[Mapping[str, Any]],
    view: Mapping[str, Any],
    rng: random.Random,
    limits: Limits,
    *,
    guilt: float = 0.2,
    default: Mapping[str, Any] | None = None,
) -> CommandMap | None:
    """The candidate that won most playouts on sampled deals, or None when the search has
    nothing to weigh (one candidate is returned at once). ``guilt`` is the prior that a
    Wild Draw Four awaiting this seat's answer was a bluff. ``default`` (a plain player's
    choice) is kept unless another candidate beats it clearly on the same deals."""
    options = candidates(legal)
    me = view.get("seat")
    if options is None or not isinstance(me, int) or view.get("to_act") != me:
        return None
    if len(options) == 1:
        return options[0]
    config = infer_config(view)
    if config is None:
        return None
    commands = [command_from_data(option) for option in options]
    bluffer = _previous_seat(view)
    results: list[list[float]] = [[] for _ in options]
    deadline = time.perf_counter() + limits.budget_ms / 1000.0
    deals = 0
    while True:
        deal = sample_deal(view, config, rng)
        if deal is None:
            return None
        data = position(view, config, deal, bluffer, rng.random() < guilt)
        stop_at = deadline if deals and not limits.playouts else None
        outcome = _play_out_every(commands, data, me, rng, limits, stop_at=stop_at)
        if outcome is None:
            break
        for index, value in enumerate(outcome):
            results[index].append(value)
        deals += 1
        if limits.playouts and deals >= limits.playouts:
            break
        if not limits.playouts and time.perf_counter() > deadline:
            break
    return options[_pick(results, options.index(dict(default)) if default in options else None)]


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
    for command in commands:
        if stop_at is not None and time.perf_counter() > stop_at:
            return None
        match = Match.restore(data)
        if isinstance(match.apply(me, command, _NOW), Rejected):
            outcome.append(0.0)  # never on a deal of this view; counts as a loss
            continue
        outcome.append(playout(match, me, rng, limits.max_steps))
    return outcome


def _pick(results: list[list[float]], default: int | None) -> int:
    """The best candidate by mean; the default unless the best beats it by more than
    ``_MARGIN`` standard errors of the paired difference (the same deals)."""
    means = [sum(r) / len(r) for r in results]
    best = max(range(len(results)), key=lambda i: (means[i], -i))
    if default is None or best == default:
        return best
    diffs = [a - b for a, b in zip(results[best], results[default], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)) ** 0.5
    return best if mean > _MARGIN * spread / n**0.5 else default


_MARGIN = 2.0


def _previous_seat(view: Mapping[str, Any]) -> int | None:
    """The seat before the one to act, in the direction of play (a Wild Draw Four's player)."""
    to_act = view.get("to_act")
    counts = view.get("counts") or ()
    if not isinstance(to_act, int) or not counts:
        return None
    step = -1 if view.get("direction") == -1 else 1
    out = set(view.get("eliminated") or ())
    seat = to_act
    for _ in range(len(counts)):
        seat = (seat - step) % len(counts)
        if seat not in out:
            return seat
    return None
