"""Hypothesis strategies for every wire message, derived from the message classes.

Each field's strategy follows its annotation and its ``Limits`` metadata, so a new message
or field is covered by the round-trip tests without editing this file. Text is drawn from
characters ``clean_text`` keeps as they are, so that a round trip must give back an equal
message.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from hypothesis import strategies as st

from protocol.cards import COLORS, Card, all_cards
from protocol.commands import (
    Accept,
    Arrow,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Dance,
    Draw,
    Pass,
    Play,
    RefuseDance,
    SeatCommand,
)
from protocol.events import EVENT_TYPES, EventBody, SeenEvent
from protocol.messages import ClientMessage, Message, ServerMessage
from protocol.schema import Limits, Record
from protocol.views import SharedView, View

__all__ = [
    "ALL_MESSAGE_CLASSES",
    "CLIENT_CLASSES",
    "SERVER_CLASSES",
    "messages",
    "plain_values",
    "records",
]

CLIENT_CLASSES: tuple[type[Message], ...] = typing.get_args(ClientMessage)
SERVER_CLASSES: tuple[type[Message], ...] = typing.get_args(ServerMessage)
ALL_MESSAGE_CLASSES: tuple[type[Message], ...] = tuple(
    dict.fromkeys(CLIENT_CLASSES + SERVER_CLASSES)
)

# Printable, not whitespace: clean_text leaves such text unchanged.
_KEPT_CHARS = st.characters(categories=["L", "N", "P", "S"])

plain_values: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
"""Any plain wire value (what maps such as event bodies may hold)."""

_plain_maps = st.dictionaries(st.text(max_size=8), plain_values, max_size=5)

seat_commands: st.SearchStrategy[SeatCommand] = st.one_of(
    st.sampled_from([Draw(), Pass(), CallUno(), Accept(), Challenge(), RefuseDance()]),
    st.builds(
        Play,
        card=st.sampled_from(all_cards()),
        color=st.none() | st.sampled_from(COLORS),
        target=st.none() | st.integers(0, 9),
        dance=st.none() | st.sampled_from(["dynamite", "butter"]),
        uno=st.booleans(),
    ),
    st.builds(ChooseColor, color=st.sampled_from(COLORS), target=st.none() | st.integers(0, 9)),
    st.builds(Catch, target=st.integers(0, 9)),
    st.builds(Dance, steps=st.lists(st.sampled_from(list(Arrow)), max_size=8).map(tuple)),
)
"""Well-formed commands a seat may send."""


def _text(limits: Limits) -> st.SearchStrategy[str]:
    if limits.choices is not None:
        return st.sampled_from(limits.choices)
    max_len = limits.max_len if limits.max_len is not None else 40
    return st.text(_KEPT_CHARS, min_size=limits.min_len, max_size=min(max_len, 40))


def _for_hint(hint: Any, limits: Limits) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        (member,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return st.none() | _for_hint(member, limits)
    if origin is tuple:
        item_hint = typing.get_args(hint)[0]
        max_items = min(limits.max_items or 5, 5)
        item_limits = dataclasses.replace(limits, min_items=0, max_items=None)
        return st.lists(
            _for_hint(item_hint, item_limits), min_size=limits.min_items, max_size=max_items
        ).map(tuple)
    if origin is dict:
        return _plain_maps
    if hint is str:
        return _text(limits)
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(limits.low, limits.high)
    if issubclass(hint, StrEnum):
        return st.sampled_from(list(hint))
    if hint in _SPECIAL:
        return _SPECIAL[hint]()
    if issubclass(hint, SeatCommand):
        return seat_commands
    if issubclass(hint, Record):
        return records(hint)
    raise AssertionError(f"no strategy for {hint!r}")


def records(cls: type[Record]) -> st.SearchStrategy[Any]:
    """Valid instances of ``cls`` (a message or a record inside one)."""
    hints = typing.get_type_hints(cls)
    fields = {
        field.name: _for_hint(hints[field.name], field.metadata.get("wire", Limits()))
        for field in dataclasses.fields(cls)
    }
    return st.builds(cls, **fields)


_SPECIAL: dict[type, Callable[[], st.SearchStrategy[Any]]] = {
    Card: lambda: st.sampled_from(all_cards()),
    EventBody: lambda: st.one_of([records(cls) for cls in EVENT_TYPES.values()]),
    SeenEvent: lambda: seen_events,
    View: lambda: views,
}
"""Kinds of field drawn by hand: cards, any event kind, and the two records whose parts
depend on each other."""


def _seen(body: EventBody) -> st.SearchStrategy[SeenEvent]:
    secrets = st.none() if body.SECRET is None else st.none() | records(body.SECRET)
    return st.builds(SeenEvent, seq=st.integers(1, 2**63 - 1), body=st.just(body), secret=secrets)


seen_events: st.SearchStrategy[SeenEvent] = _for_hint(EventBody, Limits()).flatmap(_seen)
"""An event as one seat sees it: any kind, with that kind's secret or none."""

views: st.SearchStrategy[View] = st.builds(
    View,
    seat=st.none() | st.integers(0, 9),
    shared=records(SharedView),
    hand=st.none() | st.lists(st.sampled_from(all_cards()), max_size=8).map(tuple),
    legal=st.lists(seat_commands, max_size=4).map(tuple),
).flatmap(
    lambda view: (
        st.just(view)
        if view.hand is None
        else st.builds(
            dataclasses.replace, st.just(view), drawn=st.none() | st.sampled_from(all_cards())
        )
    )
)
"""Views; the drawn card only beside a hand (a spectator's view has neither)."""


def _with_drawn(view: View) -> st.SearchStrategy[View]:
    drawn = st.none() | st.sampled_from(all_cards())
    return st.builds(dataclasses.replace, st.just(view), drawn=drawn)


def messages(classes: tuple[type[Message], ...] = ALL_MESSAGE_CLASSES) -> st.SearchStrategy[Any]:
    """Valid messages of any of ``classes``."""
    return st.one_of([records(cls) for cls in classes])
