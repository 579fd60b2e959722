"""How cards look: a short text label that reads without colour, and the hand's order.

Every label starts with the colour letter (``R7``, ``G+2``, ``B⟲`` for a Reverse, ``Y⊘``
for a Skip) or ``W`` for a wild, so a player on a monochrome terminal, or one who does not
tell red from green, reads the same hand as everyone else.
"""

from __future__ import annotations

from protocol.cards import COLORS, Card, Color, InvalidCardError, Rank

__all__ = [
    "COLOR_NAMES",
    "RANK_SYMBOLS",
    "card_label",
    "card_name",
    "color_name",
    "hand_order",
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
    Rank.SKIP: "Skip",
    Rank.REVERSE: "Reverse",
    Rank.DRAW_TWO: "Draw Two",
    Rank.WILD: "Wild",
    Rank.WILD_DRAW_FOUR: "Wild Draw Four",
    Rank.SWAP_HANDS: "Wild Swap Hands",
    Rank.SHUFFLE_HANDS: "Wild Shuffle Hands",
    Rank.CUSTOM: "Wild Customizable",
    Rank.DANCE: "Dancing Wild",
    Rank.CREEPER: "Creeper",
}

COLOR_NAMES: dict[str, str] = {
    Color.RED.value: "red",
    Color.YELLOW.value: "yellow",
    Color.GREEN.value: "green",
    Color.BLUE.value: "blue",
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
    rank = str(card.rank.number) if card.rank.number is not None else _RANK_NAMES[card.rank]
    if card.color is None:
        return rank
    return f"{COLOR_NAMES[card.color.value]} {rank}"


def color_name(letter: str | None) -> str:
    """``R`` -> ``red``; None (no colour in force yet) -> ``none``."""
    if letter is None:
        return "none"
    return COLOR_NAMES.get(letter, letter)


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
