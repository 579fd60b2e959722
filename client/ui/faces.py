"""How cards look: a short text label that reads without colour, and the hand's order.

Every label starts with the colour letter (``R7``, ``G+2``, ``B⟲`` for a Reverse, ``Y⊘``
for a Skip) or ``W`` for a wild, so a player on a monochrome terminal, or one who does not
tell red from green, reads the same hand as everyone else.
"""

from __future__ import annotations

import gettext

from client.i18n import mark, pgettext
from protocol.cards import COLORS, Card, Color, InvalidCardError, Rank

__all__ = [
    "COLOR_NAMES",
    "RANK_SYMBOLS",
    "card_label",
    "card_name",
    "color_name",
    "hand_order",
    "rank_name",
    "sort_hand",
]

RANK_SYMBOLS: dict[Rank, str] = {
    Rank.SKIP: "⊘",
    Rank.REVERSE: "⟲",
    Rank.DRAW_TWO: "+2",
    Rank.WILD: "",
    Rank.WILD_DRAW_FOUR: "+4",
    Rank.SWAP_HANDS: "⇄",
    Rank.SHUFFLE_HANDS: "≋",
    Rank.CUSTOM: "✱",
    Rank.DANCE: "♪",
    Rank.CREEPER: "✸",
}
"""The symbol after the colour letter for every rank that is not a number."""

_RANK_NAMES: dict[Rank, str] = {
    Rank.SKIP: mark("rank", "Skip"),
    Rank.REVERSE: mark("rank", "Reverse"),
    Rank.DRAW_TWO: mark("rank", "Draw Two"),
    Rank.WILD: mark("rank", "Wild"),
    Rank.WILD_DRAW_FOUR: mark("rank", "Wild Draw Four"),
    Rank.SWAP_HANDS: mark("rank", "Wild Swap Hands"),
    Rank.SHUFFLE_HANDS: mark("rank", "Wild Shuffle Hands"),
    Rank.CUSTOM: mark("rank", "Wild Customizable"),
    Rank.DANCE: mark("rank", "Dancing Wild"),
    Rank.CREEPER: mark("rank", "Creeper"),
}

COLOR_NAMES: dict[str, str] = {
    Color.RED.value: mark("color", "red"),
    Color.YELLOW.value: mark("color", "yellow"),
    Color.GREEN.value: mark("color", "green"),
    Color.BLUE.value: mark("color", "blue"),
}

_RANK_ORDER = {rank: index for index, rank in enumerate(Rank)}
_COLOR_ORDER = {color: index for index, color in enumerate(COLORS)}


def _parse(code: str) -> Card | None:
    try:
        return Card.parse(code)
    except InvalidCardError:
        return None


def card_label(code: str) -> str:
    """The short label of a card code: ``R7``, ``G+2``, ``B⟲``, ``Y⊘``, ``W``, ``W+4``..."""
    card = _parse(code)
    if card is None:
        return code
    letter = "W" if card.color is None else card.color.value
    number = card.rank.number
    return letter + (str(number) if number is not None else RANK_SYMBOLS[card.rank])


def card_name(code: str) -> str:
    """A card in words, for the log: ``red 7``, ``blue Reverse``, ``Wild Draw Four``."""
    card = _parse(code)
    if card is None:
        return code
    rank = rank_name(code)
    if card.color is None:
        return rank
    color = pgettext("color", COLOR_NAMES[card.color.value])
    return pgettext("card", "{color} {rank}").format(color=color, rank=rank)


def rank_name(code: str, catalogue: gettext.NullTranslations | None = None) -> str:
    """The words for a card's rank (``Skip``, ``Wild Draw Four``), from ``catalogue`` (the
    chosen language's when None); a number card's is its number."""
    card = _parse(code)
    if card is None:
        return code
    if card.rank.number is not None:
        return str(card.rank.number)
    english = _RANK_NAMES[card.rank]
    return pgettext("rank", english) if catalogue is None else catalogue.pgettext("rank", english)


def color_name(letter: str | None) -> str:
    """``R`` -> ``red``; None (no colour in force yet) -> ``none``."""
    if letter is None:
        return pgettext("color", "none")
    return pgettext("color", COLOR_NAMES[letter]) if letter in COLOR_NAMES else letter


def hand_order(code: str) -> tuple[int, int, str]:
    """Sort key: grouped by colour (red, yellow, green, blue, then wilds), then by rank."""
    card = _parse(code)
    if card is None:
        return (len(COLORS) + 1, 0, code)
    group = len(COLORS) if card.color is None else _COLOR_ORDER[card.color]
    return (group, _RANK_ORDER[card.rank], code)


def sort_hand(codes: list[str]) -> list[str]:
    """The hand in display order (see :func:`hand_order`)."""
    return sorted(codes, key=hand_order)
