"""The decks (ruling 1), built from the canonical card instances, and their wire codes.

What each card is worth (ruling 2) is shared vocabulary: ``protocol.cards.card_points``.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.cards import COLORS, Card, Rank, all_cards
from protocol.options import DeckName, TableConfig

__all__ = ["CODE", "CODE_BY_ID", "build_deck", "codes"]

CODE: dict[Card, str] = {card: card.code for card in all_cards()}
"""Each card's wire code, looked up rather than rebuilt from the enums in hot loops."""
_CANONICAL: dict[Card, Card] = {card: card for card in all_cards()}
_TEMPLATES: dict[tuple[DeckName, int], tuple[Card, ...]] = {}


CODE_BY_ID: dict[int, str] = {id(card): card.code for card in all_cards()}
"""Codes by the identity of the canonical card instances (which live as long as the
process): hashing a card hashes two enums in Python, an ``id`` is a plain int. Every card
the engine holds is canonical (decks are built from them, snapshots parse into them)."""


def codes(cards: Iterable[Card]) -> list[str]:
    """The wire codes of some cards, in order."""
    by_id = CODE_BY_ID
    return [by_id.get(id(card)) or card.code for card in cards]


_NUMBERS = (
    Rank.ONE,
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
)
_ACTIONS = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)


def _classic() -> list[Card]:
    cards: list[Card] = []
    for color in COLORS:
        cards.append(Card(color, Rank.ZERO))
        for rank in _NUMBERS + _ACTIONS:
            cards.append(Card(color, rank))
            cards.append(Card(color, rank))
    cards.extend([Card(None, Rank.WILD)] * 4)
    cards.extend([Card(None, Rank.WILD_DRAW_FOUR)] * 4)
    return cards


def build_deck(config: TableConfig) -> list[Card]:
    """Every card of the table's deck, in a fixed order (the caller shuffles).

    The modern decks hold three Wild Customizable; the table plays ``custom_wilds`` of them,
    so those decks have 110 to 112 cards (109 + ``custom_wilds``).
    """
    key = (config.deck, config.custom_wilds)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = tuple(_CANONICAL[card] for card in _build(config))
    return list(template)


def _build(config: TableConfig) -> list[Card]:
    cards = _classic()
    deck = config.deck
    if deck is DeckName.MODERN_SWAP:
        cards.append(Card(None, Rank.SWAP_HANDS))
        cards.extend([Card(None, Rank.CUSTOM)] * config.custom_wilds)
    elif deck is DeckName.MODERN_SHUFFLE:
        cards.append(Card(None, Rank.SHUFFLE_HANDS))
        cards.extend([Card(None, Rank.CUSTOM)] * config.custom_wilds)
    elif deck is DeckName.BTS:
        cards.extend([Card(None, Rank.DANCE)] * 4)
    elif deck is DeckName.MINECRAFT:
        cards.extend([Card(None, Rank.CREEPER)] * 4)
    return cards
