"""TableConfig on the schema: its ranges and enums are field metadata, refused by name."""

from __future__ import annotations

import dataclasses
import typing
from enum import StrEnum

import pytest

from protocol.options import ConfigError, TableConfig
from protocol.schema import Limits

_HINTS = typing.get_type_hints(TableConfig)
_WHOLE_NUMBERS = [f for f in dataclasses.fields(TableConfig) if _HINTS[f.name] is int]
_CHOICES = [f for f in dataclasses.fields(TableConfig) if issubclass(_HINTS[f.name], StrEnum)]
_SWITCHES = [f for f in dataclasses.fields(TableConfig) if _HINTS[f.name] is bool]


def _range(option: dataclasses.Field[int]) -> Limits:
    limits = option.metadata["wire"]
    assert isinstance(limits, Limits)
    return limits


@pytest.mark.parametrize("option", _WHOLE_NUMBERS, ids=lambda option: option.name)
def test_every_whole_number_option_declares_its_range_and_keeps_to_it(
    option: dataclasses.Field[int],
) -> None:
    limits = _range(option)
    assert limits.low <= getattr(TableConfig(), option.name) <= limits.high
    for outside in (limits.low - 1, limits.high + 1, True, "5", None):
        with pytest.raises(ConfigError, match=f"^{option.name} "):
            TableConfig.from_data({option.name: outside})
    # seats and hand_size also meet each other (the deal); 4 seats of 15 cards fit.
    for inside in (limits.low, limits.high):
        options = {option.name: inside}
        if option.name == "seats" and inside == 10:
            options["hand_size"] = 10
        assert getattr(TableConfig.from_data(options), option.name) == inside


@pytest.mark.parametrize("option", _CHOICES, ids=lambda option: option.name)
def test_every_choice_option_takes_its_values_and_names_itself_otherwise(
    option: dataclasses.Field[StrEnum],
) -> None:
    kind = _HINTS[option.name]
    for member in kind:
        options = {option.name: member.value}
        if member.value == "teams":
            options["seats"] = 4
        assert getattr(TableConfig.from_data(options), option.name) is member
    for wrong in ("nowhere", 3):
        with pytest.raises(ConfigError, match=f"^{option.name} must be one of"):
            TableConfig.from_data({option.name: wrong})
    with pytest.raises(ConfigError, match=f"^{option.name} is required"):
        TableConfig.from_data({option.name: None})


@pytest.mark.parametrize("option", _SWITCHES, ids=lambda option: option.name)
def test_every_switch_is_true_or_false(option: dataclasses.Field[bool]) -> None:
    for wrong in (1, "true"):
        with pytest.raises(ConfigError, match=f"^{option.name} must be true or false"):
            TableConfig.from_data({option.name: wrong})
    with pytest.raises(ConfigError, match=f"^{option.name} is required"):
        TableConfig.from_data({option.name: None})


def test_the_plain_form_is_every_option_as_before() -> None:
    data = TableConfig(deck="bts", stack="progressive").to_data()  # type: ignore[arg-type]
    assert list(data) == [option.name for option in dataclasses.fields(TableConfig)]
    assert data["deck"] == "bts" and data["stack"] == "progressive"
    assert data["stack_draw_two"] is True
    assert all(type(value) in (str, int, bool) for value in data.values())
    assert TableConfig.from_data(data) == TableConfig(deck="bts", stack="progressive")  # type: ignore[arg-type]
