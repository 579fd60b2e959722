"""Bot strategies: pure functions from the view the server sent to one command.

A strategy never learns the rules from anywhere but the view (a ``protocol.views.View``):
the server lists every command this seat may send right now in ``view.legal`` (typed
``protocol.commands`` records, fully expanded: each wild colour, each target, the ``uno``
variant of a play). A strategy picks one of them, or None when this seat has nothing it
wants to do. Nothing here does I/O,
reads a clock or imports trio; the server's away seats call :func:`choose` directly.

Knobs make a bot human-like or adversarial for tests: how long it thinks (used by the
runner, not here), how often it forgets UNO, whether it catches others, how it answers a
Wild Draw Four, and whether it dances correctly.

Why this module is long: the knobs every strategy shares, the basic strategy's reasoning
(which card, which colour, whether to challenge a Wild Draw Four) and the few readers of
the view they need are pure functions that read best side by side.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from client.bots import search
from client.bots.choices import CHALLENGE_MODES, DANCE_MODES, STRATEGY_NAMES
from client.bots.memory import RoundMemory
from protocol.cards import Card, Color, Rank, card_points
from protocol.commands import (
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Dance,
    Draw,
    Pass,
    Play,
    RefuseDance,
    SeatCommand,
)
from protocol.views import View

__all__ = [
    "FORGET_UNO",
    "LEVELS",
    "STRATEGIES",
    "Knobs",
    "Level",
    "UnknownStrategyError",
    "canonical_strategy",
    "choose",
    "guilt_probability",
    "is_jump_in",
    "jump_in_seconds",
    "table_knobs",
]

_C = TypeVar("_C", bound=SeatCommand)


class UnknownStrategyError(ValueError):
    """The caller named a strategy that does not exist."""


@dataclass(frozen=True, slots=True)
class Knobs:
    """How a bot behaves beyond its strategy. The defaults make a prompt, honest player.

    ``think_ms`` is the range a runner waits before each command of its own turn;
    ``forget_uno`` the probability of not declaring UNO when a play leaves one card (and of
    not calling late once exposed); ``catch`` whether to catch exposed opponents, after
    ``catch_delay_ms`` of reaction time (the runner waits it); ``challenge`` is ``auto``
    (the strategy decides), ``always`` or ``never``; ``dance`` is ``auto``, ``correct``,
    ``wrong`` (sends a wrong sequence) or ``refuse``. ``playouts`` and ``budget_ms`` bound
    the ``hard`` level's search: a fixed number of sampled deals per decision (benchmarks
    and tests; 0 = use the budget), otherwise as many as fit in ``budget_ms``.
    ``jump_in_ms`` is the range of the human-scale reaction a runner waits before a jump-in
    (a play out of turn, ruling 37), so that people at a table with bots can win races.
    """

    think_ms: tuple[int, int] = (0, 0)
    jump_in_ms: tuple[int, int] = (600, 1200)
    forget_uno: float = 0.0
    catch: bool = True
    catch_delay_ms: int = 0
    challenge: str = "auto"
    dance: str = "auto"
    playouts: int = 0
    budget_ms: int = 150

    def __post_init__(self) -> None:
        low, high = self.think_ms
        if not 0 <= low <= high:
            raise ValueError(f"think_ms must be a range 0 <= low <= high, not {self.think_ms}")
        if not 0.0 <= self.forget_uno <= 1.0:
            raise ValueError("forget_uno is a probability from 0 to 1")
        low, high = self.jump_in_ms
        if not 0 <= low <= high:
            raise ValueError(f"jump_in_ms must be a range 0 <= low <= high, not {self.jump_in_ms}")
        if self.catch_delay_ms < 0:
            raise ValueError("catch_delay_ms cannot be negative")
        if self.challenge not in CHALLENGE_MODES:
            raise ValueError(f"challenge must be one of {', '.join(CHALLENGE_MODES)}")
        if self.dance not in DANCE_MODES:
            raise ValueError(f"dance must be one of {', '.join(DANCE_MODES)}")
        if self.playouts < 0 or self.budget_ms < 0:
            raise ValueError("playouts and budget_ms cannot be negative")


DEFAULT_KNOBS = Knobs()


def choose(
    view: View,
    rng: random.Random,
    strategy: str = "basic",
    knobs: Knobs | None = None,
    memory: RoundMemory | None = None,
) -> SeatCommand | None:
    """One command of ``view.legal`` for this seat, or None if it has nothing to do.

    ``memory`` is the round as this seat saw it (its events); the ``hard`` level samples
    hidden cards consistent with it, the other levels ignore it.

    The result is one entry of the legal list, except for a deliberately wrong dance (knob
    ``dance="wrong"``), which changes the steps of a legal dance command, and a play whose
    UNO a forgetful bot leaves out.
    """
    try:
        pick = STRATEGIES[strategy]
    except KeyError:
        names = ", ".join(sorted(STRATEGIES))
        raise UnknownStrategyError(f"no strategy {strategy!r}; choose from {names}") from None
    knobs = knobs or DEFAULT_KNOBS
    legal = _apply_knobs(list(view.legal), view, rng, knobs)
    if not legal:
        return None
    if memory is not None and pick is _hard:
        command = _hard(legal, view, rng, knobs, memory=memory)
    else:
        command = pick(legal, view, rng, knobs)
    if isinstance(command, Dance) and knobs.dance == "wrong":
        command = _spoil_dance(command, rng)
    return command


def is_jump_in(command: SeatCommand, view: View) -> bool:
    """Whether ``command`` is a jump-in: a play by a seat that is not to act (ruling 37)."""
    if not isinstance(command, Play):
        return False
    return view.shared.to_act != view.seat


def jump_in_seconds(knobs: Knobs, rng: random.Random) -> float:
    """The reaction a bot waits before a jump-in, drawn from ``knobs.jump_in_ms``."""
    low, high = knobs.jump_in_ms
    return rng.uniform(low, high) / 1000.0


# -- knobs shared by every strategy ---------------------------------------------------------


def _apply_knobs(
    legal: list[SeatCommand], view: View, rng: random.Random, knobs: Knobs
) -> list[SeatCommand]:
    """Remove what the knobs forbid: catches, one side of a challenge, one way to dance."""
    if not knobs.catch:
        legal = [c for c in legal if not isinstance(c, Catch)]
    if knobs.challenge != "auto" and _has(legal, Challenge):
        unwanted = Accept if knobs.challenge == "always" else Challenge
        legal = [c for c in legal if not isinstance(c, unwanted)]
    if knobs.dance in ("correct", "wrong") and _has(legal, Dance):
        legal = [c for c in legal if not isinstance(c, RefuseDance)]
    elif knobs.dance == "refuse" and _has(legal, RefuseDance):
        legal = [c for c in legal if not isinstance(c, Dance)]
    if knobs.forget_uno > 0.0 and _forgets(legal, rng, knobs):
        legal = _without_uno(legal)
    return legal


def _forgets(legal: list[SeatCommand], rng: random.Random, knobs: Knobs) -> bool:
    declares = any(isinstance(c, CallUno) or (isinstance(c, Play) and c.uno) for c in legal)
    return declares and rng.random() < knobs.forget_uno


def _without_uno(legal: list[SeatCommand]) -> list[SeatCommand]:
    """Drop every way of declaring UNO, keeping a plain play for each card."""
    kept: list[SeatCommand] = []
    for command in legal:
        if isinstance(command, CallUno):
            continue
        if isinstance(command, Play) and command.uno:
            plain = dataclasses.replace(command, uno=False)
            if plain not in legal and plain not in kept:
                kept.append(plain)
            continue
        kept.append(command)
    return kept


def _spoil_dance(command: Dance, rng: random.Random) -> Dance:
    """The same dance command with a sequence that is certainly wrong."""
    steps = list(command.steps)
    arrows = list(Arrow)
    if not steps:
        steps = [rng.choice(arrows)]
    else:
        index = rng.randrange(len(steps))
        steps[index] = rng.choice([a for a in arrows if a != steps[index]])
    return Dance(steps=tuple(steps))


# -- the random strategy ---------------------------------------------------------------------


def _random(
    legal: list[SeatCommand], view: View, rng: random.Random, knobs: Knobs
) -> SeatCommand | None:
    """Uniform over the legal commands."""
    return rng.choice(legal)


# -- the basic strategy ----------------------------------------------------------------------


def _basic(
    legal: list[SeatCommand], view: View, rng: random.Random, knobs: Knobs
) -> SeatCommand | None:
    """A sensible player; see the module docstring of docs/bots.md for the reasoning."""
    hand = list(view.hand or ())

    # Catching an exposed opponent costs nothing and the window is short: do it first.
    catches = _of(legal, Catch)
    if catches:
        return min(catches, key=lambda c: _held(view, c.target, 99))
    plays = _of(legal, Play)
    call = _first(legal, CallUno)
    if call is not None and not plays:
        return call
    if _has(legal, Challenge) or _has(legal, Accept):
        return _answer_draw_four(legal, guilt_probability(_bluffer_cards(view)))
    answer = _first(legal, Dance) or _first(legal, RefuseDance)
    if answer is not None:
        return answer
    colours = _of(legal, ChooseColor)
    if colours:
        return _best_wild_variant(colours, view, hand, without=None)
    if plays:
        return _best_play(plays, view, hand, rng)
    plain = _first(legal, Draw) or _first(legal, Pass)
    if plain is not None:
        return plain
    # Anything newer than this strategy knows: better to act than to stall the table.
    return rng.choice(legal)


def _best_play(plays: list[Play], view: View, hand: list[Card], rng: random.Random) -> Play:
    """Colour before number, wilds held back, Wild Draw Four only when honest."""
    in_force = _color_in_force(view)
    coloured = [c for c in plays if c.card.color is not None]
    wilds = [c for c in plays if c.card.color is None]

    candidates: list[Play]
    if coloured:
        same_colour = [c for c in coloured if c.card.color == in_force]
        if same_colour:
            best = max(card_points(c.card) for c in same_colour)
            candidates = [c for c in same_colour if card_points(c.card) == best]
        else:
            # Switching colour on a number or symbol: go to the colour held most.
            held: Counter[Color | None] = Counter(card.color for card in hand if card.color)
            best = max(held.get(c.card.color, 0) for c in coloured)
            candidates = [c for c in coloured if held.get(c.card.color, 0) == best]
    else:
        honest = [c for c in wilds if not _is_bluff(c.card, hand, in_force)]
        pool = honest or wilds
        plain = [c for c in pool if c.card.rank != Rank.WILD_DRAW_FOUR]
        candidates = plain or pool
        chosen_card = candidates[0].card
        candidates = [c for c in candidates if c.card == chosen_card]
        candidates = _best_wild_variants(candidates, hand)
    declaring = [c for c in candidates if c.uno]
    candidates = declaring or candidates
    targeted = [c for c in candidates if c.target is not None]
    if targeted:
        target = _fewest_cards_next_in_turn(view, [c.target for c in targeted])
        candidates = [c for c in targeted if c.target == target]
    return rng.choice(candidates)


def _is_bluff(card: Card, hand: list[Card], in_force: Color | None) -> bool:
    """A Wild Draw Four while holding a card of the colour in force (ruling 6)."""
    if card.rank != Rank.WILD_DRAW_FOUR or in_force is None:
        return False
    return any(held.color == in_force for held in hand)


def _best_wild_variants(variants: list[Play], hand: list[Card]) -> list[Play]:
    """Of the colour variants of one wild, those naming the colour held most."""
    colour = search.favourite_colour(hand, without=variants[0].card)
    matching = [c for c in variants if c.color == colour]
    return matching or variants


def _best_wild_variant(
    variants: list[ChooseColor], view: View, hand: list[Card], without: Card | None
) -> ChooseColor:
    colour = search.favourite_colour(hand, without=without)
    matching = [c for c in variants if c.color == colour] or variants
    targeted = [c for c in matching if c.target is not None]
    if targeted:
        target = _fewest_cards_next_in_turn(view, [c.target for c in targeted])
        return next(c for c in targeted if c.target == target)
    return matching[0]


def guilt_probability(
    cards_left: int, colour_share: float = 0.23, bluff_rate: float = 0.5
) -> float:
    """How likely a Wild Draw Four was a bluff, given the hand it came from.

    ``cards_left`` is what the player holds after playing it. A hand of n cards holds the
    colour in force with probability 1 - (1 - share)^n; a player who holds it plays the
    Wild Draw Four anyway at ``bluff_rate`` relative to one who may play it honestly.
    """
    had = 1.0 - (1.0 - colour_share) ** max(cards_left, 0)
    weighted = had * bluff_rate
    honest = 1.0 - had
    return weighted / (weighted + honest) if weighted + honest > 0 else 0.0


# Challenge when the expected cards saved beat the expected cards lost. Guilty: I avoid 4,
# they draw 4 (worth about half a card each to me) and I keep my turn (about one card);
# innocent: I draw 2 more than by accepting. Break-even at p * 7 = (1 - p) * 2.
CHALLENGE_THRESHOLD = 2.0 / 9.0


def _answer_draw_four(legal: list[SeatCommand], guilt: float) -> SeatCommand:
    """A challenge when the Wild Draw Four was a bluff with probability ``guilt`` above
    the break-even, else an acceptance (whichever of the two is legal)."""
    challenges, accepts = _of(legal, Challenge), _of(legal, Accept)
    if not challenges:
        return accepts[0]
    if not accepts:
        return challenges[0]
    return challenges[0] if guilt > CHALLENGE_THRESHOLD else accepts[0]


# -- reading the view ------------------------------------------------------------------------


def _color_in_force(view: View) -> Color | None:
    shared = view.shared
    if shared.color is not None:
        return shared.color
    return shared.top.color if shared.top is not None else None


def _held(view: View, seat: int | None, unknown: int) -> int:
    """Cards held by ``seat``; ``unknown`` for a seat the view does not count."""
    counts = view.shared.counts
    return counts[seat] if seat is not None and 0 <= seat < len(counts) else unknown


def _fewest_cards_next_in_turn(view: View, seats: Sequence[int | None]) -> int | None:
    """Of ``seats``, the one holding the fewest cards; ties go to the first in turn order
    from this seat (Rulings 17 and 32: whom a 7 or a Swap Hands names for an away seat)."""
    size = max(len(view.shared.counts), 1)
    direction = view.shared.direction
    me = view.seat if view.seat is not None else 0

    def order(seat: int | None) -> tuple[int, int]:
        steps = ((seat - me) * direction) % size if seat is not None else size
        return _held(view, seat, 99), steps

    return min(seats, key=order, default=None)


def _bluffer_cards(view: View) -> int:
    """Cards held by the seat whose Wild Draw Four awaits an answer (7 if unknown)."""
    bluffer = search.wild_draw_four_player(view)
    return _held(view, bluffer, 7) if bluffer is not None else 7


def _of(legal: Sequence[SeatCommand], kind: type[_C]) -> list[_C]:
    """The commands of ``legal`` of one type, in order."""
    return [command for command in legal if isinstance(command, kind)]


def _first(legal: Sequence[SeatCommand], kind: type[_C]) -> _C | None:
    """The first command of ``legal`` of one type (records are never false)."""
    return next((command for command in legal if isinstance(command, kind)), None)


def _has(legal: Sequence[SeatCommand], kind: type[SeatCommand]) -> bool:
    return any(isinstance(command, kind) for command in legal)


Strategy = Callable[[list[SeatCommand], View, random.Random, Knobs], SeatCommand | None]


# -- the easy level --------------------------------------------------------------------------


def _easy(
    legal: list[SeatCommand], view: View, rng: random.Random, knobs: Knobs
) -> SeatCommand | None:
    """A beginner: any card that plays (never a draw while one does), at random, but a
    Wild Draw Four only when honest or alone; a wild names a colour it holds, at random;
    it never challenges. The rest as ``normal``."""
    hand = list(view.hand or ())
    plays = _of(legal, Play)
    passes = _first(legal, Pass)
    if passes is not None and view.drawn is not None:
        return passes  # a beginner plays from the hand it had: a card drawn waits
    if plays and not _has(legal, Catch):
        in_force = _color_in_force(view)
        honest = [c for c in plays if not _is_bluff(c.card, hand, in_force)] or plays
        card = rng.choice(honest).card
        variants = [c for c in honest if c.card == card]
        variants = [c for c in variants if c.uno] or variants
        held = _colours_held(hand, without=card)
        return rng.choice([c for c in variants if c.color in held] or variants)
    colours = _of(legal, ChooseColor)
    if colours:
        held = _colours_held(hand, without=None)
        return rng.choice([c for c in colours if c.color in held] or colours)
    accepts = _of(legal, Accept)
    if accepts:
        return accepts[0]
    return _basic(legal, view, rng, knobs)


def _colours_held(hand: Sequence[Card], without: Card | None) -> set[Color]:
    """The colours of ``hand`` once ``without`` has left it."""
    remaining = list(hand)
    if without is not None and without in remaining:
        remaining.remove(without)
    return {card.color for card in remaining if card.color is not None}


# -- the hard level --------------------------------------------------------------------------


def _hard(
    legal: list[SeatCommand],
    view: View,
    rng: random.Random,
    knobs: Knobs,
    memory: RoundMemory | None = None,
) -> SeatCommand | None:
    """Searches plays, colours, targets and challenges (``client.bots.search``); the rest
    (catching, calling UNO, dancing) as ``normal``. A Wild Draw Four is challenged only
    from a seat its memory saw caught bluffing (:func:`_hard_guilt`)."""
    guilt = _hard_guilt(view, memory)
    limits = search.Limits(playouts=knobs.playouts, budget_ms=knobs.budget_ms)
    default = _basic(legal, view, rng, knobs)
    if isinstance(default, Challenge | Accept):
        default = _answer_draw_four(legal, guilt)  # as normal answers, on hard's reading
    command = search.decide(legal, view, rng, limits, guilt=guilt, default=default, memory=memory)
    return command if command is not None else default


def _hard_guilt(view: View, memory: RoundMemory | None) -> float:
    """How likely the Wild Draw Four awaiting an answer was a bluff, as ``hard`` reads it:
    the odds from the hand it came from (:func:`guilt_probability`) for a seat seen caught
    bluffing at this table, and none for any other. ``hard`` reads every seat as ``normal``
    plays, and ``normal`` never bluffs: challenging an honest card costs two cards more
    than accepting it (measured in docs/performance.md, "A stronger `hard`, seventh pass")."""
    bluffer = search.wild_draw_four_player(view)
    if memory is None or bluffer is None or bluffer not in memory.bluffers:
        return 0.0
    return guilt_probability(_bluffer_cards(view))


# -- the levels ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level: how it picks a command, and the human traits it owns."""

    strategy: Strategy
    forget_uno: float
    """How often, as a server bot, it forgets to say UNO (catching it is part of the game)."""
    catch_delay_ms: int
    """Its reaction time before catching an opponent who forgot UNO."""


LEVELS: dict[str, Level] = {
    "random": Level(_random, forget_uno=0.4, catch_delay_ms=0),
    "easy": Level(_easy, forget_uno=0.35, catch_delay_ms=1200),
    # normal is the basic strategy as it was when the levels came: frozen, the yardstick.
    "normal": Level(_basic, forget_uno=0.2, catch_delay_ms=0),
    "hard": Level(_hard, forget_uno=0.05, catch_delay_ms=0),
}
"""Every level by name (``random`` stays for tests). The level is the wire's strategy."""

ALIASES: dict[str, str] = {"basic": "normal"}
"""Older names of levels, still accepted everywhere."""

STRATEGIES: dict[str, Strategy] = {
    **{name: level.strategy for name, level in LEVELS.items()},
    **{alias: LEVELS[name].strategy for alias, name in ALIASES.items()},
}
"""Every strategy by name, aliases included."""
if sorted(STRATEGIES) != sorted(STRATEGY_NAMES):  # the names --help offers, kept light
    raise ImportError(f"client.bots.choices must name {sorted(STRATEGIES)}")

FORGET_UNO: dict[str, float] = {
    **{name: level.forget_uno for name, level in LEVELS.items()},
    **{alias: LEVELS[name].forget_uno for alias, name in ALIASES.items()},
}
"""How often a bot seated at a table by the server (solo play, a host's add-bot) forgets
to say UNO, by strategy (each level owns its rate, :data:`LEVELS`)."""


def canonical_strategy(name: str) -> str:
    """The level a strategy name (or alias) means: ``basic`` is ``normal``."""
    return ALIASES.get(name, name)


def table_knobs(strategy: str) -> Knobs:
    """The knobs a server bot of ``strategy`` plays with: honest, but forgetful of UNO and
    as slow to catch as its level (:data:`LEVELS`)."""
    level = LEVELS.get(canonical_strategy(strategy))
    if level is None:
        return Knobs()
    return Knobs(forget_uno=level.forget_uno, catch_delay_ms=level.catch_delay_ms)
