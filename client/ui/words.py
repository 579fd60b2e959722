"""The names a person reads for values that stay English on the wire and the command line:
decks, presets, bots' levels and tables' states. An unknown value shows as it came."""

from __future__ import annotations

from client.i18n import mark, pgettext

__all__ = ["deck_word", "level_word", "preset_word", "state_word"]

_DECKS = {
    "classic": mark("deck", "classic"),
    "modern-swap": mark("deck", "modern-swap"),
    "modern-shuffle": mark("deck", "modern-shuffle"),
    "bts": mark("deck", "bts"),
    "minecraft": mark("deck", "minecraft"),
}
_PRESETS = {
    "official": mark("preset", "official"),
    "party": mark("preset", "party"),
    "family": mark("preset", "family"),
    "custom": mark("preset", "custom"),
}
_LEVELS = {
    "easy": mark("level", "easy"),
    "normal": mark("level", "normal"),
    "hard": mark("level", "hard"),
    "random": mark("level", "random"),
}
_STATES = {
    "lobby": mark("table-state", "lobby"),
    "playing": mark("table-state", "playing"),
    "paused": mark("table-state", "paused"),
    "between-rounds": mark("table-state", "between-rounds"),
    "over": mark("table-state", "over"),
}


def _word(context: str, table: dict[str, str], value: str) -> str:
    return pgettext(context, table[value]) if value in table else value


def deck_word(value: str) -> str:
    """A deck's name in the chosen language (``classic`` stays ``classic`` in English)."""
    return _word("deck", _DECKS, value)


def preset_word(value: str) -> str:
    """A preset's name in the chosen language."""
    return _word("preset", _PRESETS, value)


def level_word(value: str) -> str:
    """A bots' level in the chosen language."""
    return _word("level", _LEVELS, value)


def state_word(value: str) -> str:
    """A table's state as the lobby's list names it."""
    return _word("table-state", _STATES, value)
