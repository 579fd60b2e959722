"""Table-option flags generated from ``TableConfig``, for every command line that sets
table options: ``uno-server`` (its defaults for new tables), ``uno-client --solo/--serve``
(passed on to the server it starts) and ``uno-bot --create``. A new option is a new flag.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection
from dataclasses import fields
from enum import StrEnum
from typing import Any

from protocol.options import PRESETS, TableConfig, preset_options
from protocol.words import Translate, as_is, mark

__all__ = ["add_table_flags", "given_table_options", "table_flag_args"]

PRESET_HELP = mark(
    "table-option",
    "start from a preset of house rules: official (none), party (7-0, jump-in, progressive "
    "stacking), family (stacking Draw Twos, draw until playable)",
)
SERVER_DECIDES = mark("table-option", "{doc} (default: the server's; usually {value})")


def add_table_flags(
    group: argparse._ArgumentGroup,
    *,
    server_decides: bool = False,
    leave_out: Collection[str] = (),
    translate: Translate = as_is,
) -> None:
    """``--preset`` and one flag per ``TableConfig`` field on ``group``.

    ``turn_seconds`` becomes ``--turn-seconds`` with the field's ``doc`` as its help; a
    bool becomes ``--skip-any`` / ``--no-skip-any``, an enum a choice among its values. A
    flag left out leaves no attribute, so that :func:`given_table_options` tells the flags
    given from those a preset sets (a flag given wins over the preset).
    ``server_decides`` says in each help that an unset flag leaves the server's default;
    options in ``leave_out`` get no flag (the command line has its own for them). Each
    help is read through ``translate`` (``protocol.words``: the client's language).
    """
    preset_help = translate("table-option", PRESET_HELP)
    group.add_argument("--preset", choices=list(PRESETS), default=None, help=preset_help)
    unset = argparse.SUPPRESS
    for option in fields(TableConfig):
        if option.name in leave_out:
            continue
        flag = "--" + option.name.replace("_", "-")
        default = option.default
        doc = translate("table-option", option.metadata["doc"])
        if server_decides:
            doc = translate("table-option", SERVER_DECIDES).format(
                doc=doc, value=_default_words(flag, default)
            )
        if isinstance(default, bool):
            group.add_argument(flag, action=argparse.BooleanOptionalAction, default=unset, help=doc)
        elif isinstance(default, StrEnum):
            choices = [member.value for member in type(default)]
            group.add_argument(flag, choices=choices, default=unset, help=doc)
        elif isinstance(default, int):
            metavar = "S" if flag.endswith("-seconds") else "MS" if flag.endswith("-ms") else "N"
            group.add_argument(flag, type=int, default=unset, metavar=metavar, help=doc)
        else:
            raise TypeError(f"no flag for TableConfig.{option.name}, a {type(default).__name__}")


def given_table_options(
    args: argparse.Namespace, *, leave_out: Collection[str] = ()
) -> dict[str, Any]:
    """The table options the flags of :func:`add_table_flags` give, as ``TableConfig``
    data: the preset's house rules, if one is named, under the flags given (none of
    ``leave_out``, which the command line has flags of its own for)."""
    names = [option.name for option in fields(TableConfig) if option.name not in leave_out]
    given = {name: getattr(args, name, _MISSING) for name in names}
    given = {name: value for name, value in given.items() if value is not _MISSING}
    preset = getattr(args, "preset", None)
    if preset is not None:
        given = {**preset_options(preset), **given}
    return given


def table_flag_args(options: dict[str, Any]) -> list[str]:
    """The flags that give ``options`` (``TableConfig`` data) back, for a command line:
    ``{"seven_o": True, "turn_seconds": 0}`` -> ``["--seven-o", "--turn-seconds", "0"]``."""
    words: list[str] = []
    for name, value in options.items():
        flag = name.replace("_", "-")
        if isinstance(value, bool):
            words.append(_switch(flag, value))
        else:
            words += [f"--{flag}", _value_word(value)]
    return words


def _switch(name: str, on: bool) -> str:
    """A bool option's flag: ``--seven-o`` or ``--no-seven-o`` (``name`` dashed)."""
    return f"--{name}" if on else f"--no-{name}"


def _value_word(value: Any) -> str:
    return str(value.value if isinstance(value, StrEnum) else value).lower()


def _default_words(flag: str, value: Any) -> str:
    """A default as the command line gives it, in no language (a help's "usually X"): a
    switch by its flag, anything else by its value."""
    if isinstance(value, bool):
        return _switch(flag.removeprefix("--"), value)
    return _value_word(value)


_MISSING = object()
