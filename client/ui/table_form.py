"""The new-table form: its rows, what each shows, how ←/→ steps it, and what it sends.

The form is a plain map in the model (``Model.form``) that holds only what the person
set: the table's name and password, how many bots of which level to seat and how fast
they play (``create-table``'s ``bot_think_ms``), and each table option they changed. An
option (or the bot speed) left alone is not sent, so it takes the server's own default
(``uno-server --turn-seconds 20`` reaches tables made with this form too); its row says
so, with the protocol's default as the usual value. The preset row fills in
the house rules of ``official``, ``party`` or ``family`` (Ruling 36), which the person may
then change one by one. A new row is a new name in :func:`form_rows` and, for a table
option, nothing at all: every ``TableConfig`` field is a row.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from client.bots.choices import DEFAULT_LEVEL, LEVEL_CHOICES
from client.i18n import _
from client.ui.intents import TableRequest
from client.ui.sentences import say
from client.ui.words import level_word, option_word, preset_word
from protocol.limits import MAX_PASSWORD_LEN, MAX_TABLE_NAME_LEN
from protocol.messages import MAX_BOT_THINK_MS, AddBot
from protocol.options import PRESET_OPTIONS, PRESETS, TableConfig, TableOptions, preset_options

__all__ = [
    "BOT_ROWS",
    "BOT_SPEED_STEP_MS",
    "DEFAULT_LEVEL",
    "FORM_STEPS",
    "FORM_TEXT_ROWS",
    "LEVEL_CHOICES",
    "MAX_BOTS",
    "PRESET_ROW",
    "TEXT_LIMITS",
    "bot_requests",
    "bot_think_ms",
    "form_fields",
    "form_preset",
    "form_rows",
    "new_form",
    "row_text",
    "step_row",
    "table_options",
]

FORM_TEXT_ROWS = ("name", "password")
"""The form's typed rows, first; typing edits them."""

TEXT_LIMITS = {"name": MAX_TABLE_NAME_LEN, "password": MAX_PASSWORD_LEN}
"""How long each typed row may grow."""

BOT_ROWS = ("bots", "bot_level", "bot_speed")
"""How many server bots to seat once the table exists, their level, and how long the
table's server bots (stand-ins too) think before each move."""

USUAL_BOT_THINK_MS = 800
"""What ``uno-server`` gives a table's bots unless its ``--bot-think-ms`` says otherwise."""
BOT_SPEED_STEP_MS = 100
"""How far one left / right moves the bot speed."""

PRESET_ROW = "preset"
"""The row that fills in a preset's house rules; it comes before the options it sets."""

MAX_BOTS = 9

FORM_STEPS = {"target_score": 50, "catch_grace_ms": 250}
"""How far one left / right moves a whole-number option, by TableConfig field name (a test
checks each is one); other ``*_seconds`` options move by 5, the rest by 1."""


def form_fields() -> list[dataclasses.Field[Any]]:
    """The table options the form edits, in TableConfig's order."""
    return list(dataclasses.fields(TableConfig))


def form_rows() -> list[str]:
    """Every row of the form, top to bottom."""
    return [*FORM_TEXT_ROWS, *BOT_ROWS, PRESET_ROW, *(option.name for option in form_fields())]


def new_form(player: str) -> dict[str, Any]:
    """A fresh form: the table named after ``player``, open, no bots, no option set."""
    return {
        "name": say("table.default-name", player=player)[:MAX_TABLE_NAME_LEN],
        "password": "",
        "bots": 0,
        "bot_level": DEFAULT_LEVEL,
    }


def _option(name: str) -> dataclasses.Field[Any] | None:
    return next((option for option in form_fields() if option.name == name), None)


def step_row(form: dict[str, Any], name: str, delta: int) -> None:
    """Left / right on row ``name``: step its value (a table option not set yet starts
    from the protocol's default, and is set from then on)."""
    if name == "bots":
        form["bots"] = max(0, min(MAX_BOTS, int(form.get("bots", 0)) + delta))
        return
    if name == "bot_level":
        level = form.get("bot_level", DEFAULT_LEVEL)
        index = LEVEL_CHOICES.index(level) if level in LEVEL_CHOICES else 1
        form["bot_level"] = LEVEL_CHOICES[(index + delta) % len(LEVEL_CHOICES)]
        return
    if name == "bot_speed":
        value = int(form.get("bot_speed", USUAL_BOT_THINK_MS)) + delta * BOT_SPEED_STEP_MS
        form["bot_speed"] = max(0, min(MAX_BOT_THINK_MS, value))
        return
    if name == PRESET_ROW:
        _step_preset(form, delta)
        return
    option = _option(name)
    if option is None:
        return
    default = option.default
    value = form.get(name, default)
    if isinstance(default, bool):
        form[name] = not value
    elif isinstance(default, StrEnum):
        values = [member.value for member in type(default)]
        form[name] = values[(values.index(value) + delta) % len(values)]
    elif isinstance(default, int):
        form[name] = max(0, int(value) + delta * _int_step(name))


def form_preset(form: Mapping[str, Any]) -> str | None:
    """The preset whose house rules the form holds now, or None (none set, or a mix)."""
    for name in PRESETS:
        if all(form.get(key) == value for key, value in preset_options(name).items()):
            return name
    return None


def _step_preset(form: dict[str, Any], delta: int) -> None:
    names = list(PRESETS)
    if not any(key in form for key in PRESET_OPTIONS):
        current: str | None = "official"  # what the row says the server usually plays
    else:
        current = form_preset(form)
    if current is None:  # a mix of one's own: the first step picks an end of the list
        index = 0 if delta > 0 else len(names) - 1
    else:
        index = (names.index(current) + delta) % len(names)
    expanded = preset_options(names[index], form)
    form.clear()
    form.update(expanded)


def _int_step(name: str) -> int:
    if name in FORM_STEPS:
        return FORM_STEPS[name]
    if name.endswith("_seconds"):
        return 5
    return 1


def row_text(
    form: Mapping[str, Any], name: str, selected: bool, defaults: TableOptions | None = None
) -> str:
    """What row ``name`` shows after its label; an option left alone shows the server's
    default, from ``defaults`` (its welcome's, 1.3) when it said them."""
    if name in FORM_TEXT_ROWS:
        return _typed_text(form, name, selected)
    if name == "bots":
        return str(form.get("bots", 0))
    if name == "bot_level":
        return level_word(str(form.get("bot_level", DEFAULT_LEVEL)))
    if name == "bot_speed":
        if "bot_speed" not in form:
            usual = _("{ms} ms a move").format(ms=USUAL_BOT_THINK_MS)
            return _("server's default (usually {value})").format(value=usual)
        return _("{ms} ms a move").format(ms=form["bot_speed"])
    if name == PRESET_ROW:
        if not any(key in form for key in PRESET_OPTIONS):
            if defaults is not None:
                preset = form_preset({key: getattr(defaults, key) for key in PRESET_OPTIONS})
                said = preset_word(preset) if preset else _("its own mix")
                return _("server's default ({value})").format(value=said)
            return _("server's default (usually {value})").format(value=preset_word("official"))
        preset = form_preset(form)
        return preset_word(preset) if preset else _("(your own mix)")
    option = _option(name)
    if name == "spectators_see_hands" and form.get(name):
        return _("on: a trust feature, anyone watching sees all the cards (and may not sit)")
    if name not in form:
        if defaults is not None and getattr(defaults, name, None) is not None:
            return _("server's default ({value})").format(value=_shown(getattr(defaults, name)))
        usual = _shown(option.default) if option is not None else "?"
        return _("server's default (usually {value})").format(value=usual)
    return _shown(form[name])


def _typed_text(form: Mapping[str, Any], name: str, selected: bool) -> str:
    """A row typed into (the name, the password), with the cursor when selected."""
    value = str(form.get(name, ""))
    if name == "password" and not value:
        return _("(none: anyone may join)") + (" " + _("type one") + "▏" if selected else "")
    if name == "password":
        value = "•" * len(value)  # masked, as the join prompt does
    return value + ("▏" if selected else "")


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return option_word(str(value.value)) if isinstance(value, StrEnum) else str(value)


def table_options(form: Mapping[str, Any]) -> dict[str, Any]:
    """The options to send: those the person set, and only those."""
    names = {option.name for option in form_fields()}
    return {name: value for name, value in form.items() if name in names}


def bot_think_ms(form: Mapping[str, Any]) -> int | None:
    """The pace to ask for the table's server bots; None when the person left it alone."""
    value = form.get("bot_speed")
    return None if value is None else int(value)


def bot_requests(form: Mapping[str, Any]) -> tuple[TableRequest, ...]:
    """The add-bot requests that seat the form's bots once the table exists."""
    level = str(form.get("bot_level", DEFAULT_LEVEL))
    count = int(form.get("bots", 0))
    return tuple(TableRequest(AddBot.TYPE, {"strategy": level}) for _ in range(count))
