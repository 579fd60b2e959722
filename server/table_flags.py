"""``uno-server``'s table flags, generated from ``TableConfig``: a new option is a new flag."""

from __future__ import annotations

import argparse
from dataclasses import fields
from enum import StrEnum

from protocol.options import PRESETS, TableConfig, preset_options

__all__ = ["add_table_flags", "table_defaults"]


def add_table_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per ``TableConfig`` field, so that a new table option is a new flag.

    ``turn_seconds`` becomes ``--turn-seconds``, defaulting to TableConfig's default, with
    the field's ``doc`` as its help; a bool becomes ``--skip-any`` / ``--no-skip-any``, an
    enum a choice among its values. :func:`table_defaults` reads them back. A flag left
    out leaves no attribute, so that ``--preset NAME`` can tell the flags given from those
    it sets (a flag given wins over the preset).
    """
    group = parser.add_argument_group(
        "table options (defaults for new tables; the host of a table may choose others)"
    )
    group.add_argument(
        "--preset",
        choices=list(PRESETS),
        default=None,
        help="start from a preset of house rules: "
        "official (none), party (7-0, jump-in, progressive stacking), "
        "family (stacking Draw Twos, draw until playable)",
    )
    unset = argparse.SUPPRESS
    for option in fields(TableConfig):
        flag = "--" + option.name.replace("_", "-")
        doc = option.metadata["doc"]
        default = option.default
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


def table_defaults(args: argparse.Namespace) -> TableConfig:
    """The defaults for new tables that the flags of :func:`add_table_flags` give (over
    the preset's options, if one is named); raises ConfigError if they make no sense
    together."""
    given = {option.name: getattr(args, option.name, _MISSING) for option in fields(TableConfig)}
    given = {name: value for name, value in given.items() if value is not _MISSING}
    preset = getattr(args, "preset", None)
    if preset is not None:
        given = {**preset_options(preset), **given}
    return TableConfig.from_data(given)


_MISSING = object()
