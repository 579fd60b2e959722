"""The names a person reads for values that stay English on the wire and the command line:
decks, presets, bots' levels and tables' states. An unknown value shows as it came."""

from __future__ import annotations

from client.i18n import mark, pgettext

__all__ = [
    "ROW_NAMES",
    "deck_word",
    "level_word",
    "option_word",
    "preset_word",
    "row_word",
    "state_word",
]

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
ROW_NAMES: dict[str, str] = {
    "name": mark("form-row", "name"),
    "password": mark("form-row", "password"),
    "bots": mark("form-row", "bots"),
    "bot_level": mark("form-row", "bot level"),
    "bot_speed": mark("form-row", "bot speed"),
    "preset": mark("form-row", "preset"),
    "deck": mark("form-row", "deck"),
    "seats": mark("form-row", "seats"),
    "target_score": mark("form-row", "target score"),
    "scoring": mark("form-row", "scoring"),
    "hand_size": mark("form-row", "hand size"),
    "stack_draw_two": mark("form-row", "stack draw two"),
    "stack": mark("form-row", "stack"),
    "skip_any": mark("form-row", "skip any"),
    "seven_o": mark("form-row", "seven o"),
    "jump_in": mark("form-row", "jump in"),
    "draw_until_playable": mark("form-row", "draw until playable"),
    "force_play": mark("form-row", "force play"),
    "wd4_bluff": mark("form-row", "wd4 bluff"),
    "custom_wilds": mark("form-row", "custom wilds"),
    "custom_rule": mark("form-row", "custom rule"),
    "dance_check": mark("form-row", "dance check"),
    "catch_grace_ms": mark("form-row", "catch grace ms"),
    "false_catch_penalty": mark("form-row", "false catch penalty"),
    "turn_seconds": mark("form-row", "turn seconds"),
    "decision_seconds": mark("form-row", "decision seconds"),
    "dance_seconds": mark("form-row", "dance seconds"),
    "round_pause_seconds": mark("form-row", "round pause seconds"),
    "spectators_see_hands": mark("form-row", "spectators see hands"),
}
"""The new-table form's rows by name, in English (context ``form-row``): a table option's
name in words (a ``bad-options`` rejection names one)."""
_VALUES = {
    "off": mark("option-value", "off"),
    "draw-two": mark("option-value", "draw-two"),
    "draw-four": mark("option-value", "draw-four"),
    "progressive": mark("option-value", "progressive"),
    "standard": mark("option-value", "standard"),
    "lowest": mark("option-value", "lowest"),
    "elimination": mark("option-value", "elimination"),
    "teams": mark("option-value", "teams"),
    "plain": mark("option-value", "plain"),
    "others-draw-two": mark("option-value", "others-draw-two"),
    "extra-turn": mark("option-value", "extra-turn"),
    "steps": mark("option-value", "steps"),
    "honour": mark("option-value", "honour"),
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


def row_word(name: str) -> str:
    """A new-table form row's label (``seven_o`` reads ``seven o`` in English)."""
    return _word("form-row", ROW_NAMES, name) if name in ROW_NAMES else name.replace("_", " ")


def option_word(value: str) -> str:
    """A house-rule option's value (``draw-two``, ``honour``...), decks by ``deck_word``."""
    if value in _DECKS:
        return deck_word(value)
    if value in _LEVELS:
        return level_word(value)
    return _word("option-value", _VALUES, value)
