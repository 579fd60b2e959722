"""Card vocabulary shared by the engine, the wire and the client.

A card is a value: two Red 7s are equal and interchangeable. Every card has a short
code used on the wire and in logs (``R7``, ``GS``, ``B+2``, ``W``, ``W+4``...), and a
worth in points at a round's end (``card_points``, ruling 2).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

__all__ = [
    "COLORS",
    "Card",
    "Color",
    "InvalidCardError",
    "Rank",
    "all_cards",
    "card_points",
    "hand_points",
]


class InvalidCardError(ValueError):
    """A card code that names no card."""


class Color(StrEnum):
    """The four suits. Wild cards have no colour of their own."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)


class Rank(StrEnum):
    """What is printed on a card. The values are the rank part of a card's code."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    WILD = "W"
    WILD_DRAW_FOUR = "W+4"
    SWAP_HANDS = "WSWAP"
    SHUFFLE_HANDS = "WSHUF"
    CUSTOM = "WCUST"
    DANCE = "WDANCE"
    CREEPER = "WCREEP"

    @property
    def is_wild(self) -> bool:
        return self.value.startswith("W")

    @property
    def number(self) -> int | None:
        """The face value of a number card, None for every other rank."""
        return int(self.value) if self.value.isdigit() else None


class Card(NamedTuple):
    """One card: a coloured rank, or a wild rank with ``color`` None.

    A NamedTuple rather than a dataclass: cards are compared and hashed in the engine's
    hottest loops, and tuple equality runs in C.
    """

    color: Color | None
    rank: Rank

    @property
    def code(self) -> str:
        # Both enums are StrEnums: adding them with str's own + gives a plain str without
        # the cost of reading ``.value`` (this runs for every card of every view sent).
        return "" + self.rank if self.color is None else self.color + self.rank

    @property
    def is_wild(self) -> bool:
        return self.color is None

    @staticmethod
    def parse(code: str) -> Card:
        """The card a code names; raises InvalidCardError for anything else."""
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise InvalidCardError(f"{code!r} is not a card code") from None

    def __str__(self) -> str:
        return self.code


def all_cards() -> tuple[Card, ...]:
    """Every distinct card that exists in any supported deck."""
    return tuple(_BY_CODE.values())


def _build_registry() -> dict[str, Card]:
    cards: list[Card] = []
    for rank in Rank:
        if rank.is_wild:
            cards.append(Card(None, rank))
        else:
            cards.extend(Card(color, rank) for color in COLORS)
    return {card.code: card for card in cards}


_BY_CODE: dict[str, Card] = _build_registry()


_SYMBOL_POINTS: dict[Rank, int] = {
    Rank.SKIP: 20,
    Rank.REVERSE: 20,
    Rank.DRAW_TWO: 20,
    Rank.WILD: 50,
    Rank.WILD_DRAW_FOUR: 50,
    Rank.DANCE: 50,
    Rank.CREEPER: 50,
    Rank.SWAP_HANDS: 40,
    Rank.SHUFFLE_HANDS: 40,
    Rank.CUSTOM: 40,
}
_POINTS: dict[Rank, int] = {
    rank: _SYMBOL_POINTS[rank] if rank.number is None else rank.number for rank in Rank
}


def card_points(card: Card) -> int:
    """Ruling 2: numbers at face value; Skip, Reverse, Draw Two 20; Wild, Wild Draw Four,
    Dancing Wild, Creeper 50; Swap Hands, Shuffle Hands, Customizable 40."""
    return _POINTS[card.rank]


def hand_points(cards: Iterable[Card]) -> int:
    """What some cards (a hand at a round's end) are worth together."""
    points = _POINTS
    return sum(points[card.rank] for card in cards)
