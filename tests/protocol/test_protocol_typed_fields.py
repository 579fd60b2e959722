"""Issue 17's floor: every field of every wire record has a concrete type (no Any, no
object, no plain map), so nothing on the wire is read by indexing a dict by a string."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import protocol.commands
import protocol.events
import protocol.messages
import protocol.options
import protocol.views
from protocol.schema import Record

_MODULES = (protocol.commands, protocol.events, protocol.messages, protocol.options, protocol.views)


def _records(cls: type[Record]) -> Iterator[type[Record]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _records(sub)


def _untyped(hint: Any) -> bool:
    if hint is Any or hint is object:
        return True
    origin = typing.get_origin(hint)
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        return True
    if origin in (typing.Union, types.UnionType, tuple):
        return any(_untyped(arg) for arg in typing.get_args(hint) if arg is not Ellipsis)
    return False


def test_every_field_of_every_wire_record_has_a_concrete_type() -> None:
    records = {cls for cls in _records(Record) if cls.__module__ in {m.__name__ for m in _MODULES}}
    assert protocol.messages.TableState in records and protocol.options.TableOptions in records
    loose = [
        f"{cls.__name__}.{field.name}: {typing.get_type_hints(cls)[field.name]}"
        for cls in sorted(records, key=lambda cls: cls.__name__)
        for field in dataclasses.fields(cls)
        if _untyped(typing.get_type_hints(cls)[field.name])
    ]
    assert loose == []
