"""Typed wire records: frozen dataclasses whose fields describe and check themselves.

A ``Record`` is a frozen, slotted dataclass. Its field annotations say what each field
holds (``str``, ``int``, ``bool``, a ``StrEnum``, a ``Card`` (sent as its code), another
``Record`` (game commands are records too), ``tuple[X, ...]``, or any of these ``| None``;
never an untyped map) and ``field(metadata=...)`` built with
``text``/``number``/``items``/``wire`` adds the limits and how the field is sent. From
that one description:

- construction validates (and cleans human text), raising LocalProtocolError(bad-message);
- ``to_data`` gives the plain map: optional fields that are None are left out, unless
  the field is sent as nil (``nil=True``); a ``sparse`` field is left out while it holds
  its default. A record whose ``AS_LIST`` is true is sent as the list of its fields (a
  ``[seat, card]`` pair);
- ``record_from_data`` builds a record from a received map, raising
  RemoteProtocolError(bad-message) for missing or wrongly typed fields, and ignoring
  keys it does not know (later minor versions may add optional fields).

``Record.trusted`` builds a record without those checks, for the sending side only: the
server's hot path (events, views, replies) builds many records from values it produced
and checked itself. What such a record holds is still checked as plain wire data when it
is encoded (``protocol.codec.encode_body``), and the receiver decodes it strictly.

Why this module is long: it is the one mechanism every wire record goes through (checks,
encoding, decoding and the trusted path), and one kind of field's three directions read
best side by side.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeVar, Union

from protocol.cards import Card, InvalidCardError
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_RAW_TEXT_FACTOR, clean_text

__all__ = [
    "Limits",
    "Record",
    "fields_into",
    "items",
    "number",
    "record_from_data",
    "text",
    "trusted_record",
    "wire",
]

_R = TypeVar("_R", bound="Record")


@dataclass(frozen=True, slots=True)
class Limits:
    """What a field's values may be, beyond their type. Text lengths count characters
    after cleaning; ``items`` limits apply to tuples and the item limits to each item."""

    min_len: int = 0
    max_len: int | None = None
    clean: bool = False
    low: int = -(2**63)
    high: int = 2**64 - 1
    min_items: int = 0
    max_items: int | None = None
    choices: tuple[str, ...] | None = None
    """The only strings the field may hold (a dance's name), when it is not an enum."""
    nil: bool = False
    """None is sent as nil rather than left out (a key every version has sent)."""
    sparse: bool = False
    """The field is left out while it holds its default (``uno`` only when true)."""


def text(
    max_len: int,
    *,
    min_len: int = 1,
    clean: bool = False,
    choices: tuple[str, ...] | None = None,
    nil: bool = False,
) -> dict[str, Limits]:
    """Field metadata for a string of ``min_len`` to ``max_len`` characters.

    ``clean`` passes it through ``clean_text`` first (names, chat, anything shown to
    people); the raw string may then be ``MAX_RAW_TEXT_FACTOR`` times longer. ``choices``
    names the only strings allowed.
    """
    limits = Limits(min_len=min_len, max_len=max_len, clean=clean, choices=choices, nil=nil)
    return {"wire": limits}


def number(low: int, high: int, *, nil: bool = False, sparse: bool = False) -> dict[str, Limits]:
    """Field metadata for an integer from ``low`` to ``high`` inclusive (``sparse``: left
    out while it holds its default)."""
    return {"wire": Limits(low=low, high=high, nil=nil, sparse=sparse)}


def items(
    max_items: int, *, min_items: int = 0, item: dict[str, Limits] | None = None, nil: bool = False
) -> dict[str, Limits]:
    """Field metadata for a tuple of ``min_items`` to ``max_items`` items; ``item`` gives
    the limits of each item (from ``text`` or ``number``)."""
    base = item["wire"] if item is not None else Limits()
    return {"wire": dataclasses.replace(base, min_items=min_items, max_items=max_items, nil=nil)}


def wire(*, nil: bool = False, sparse: bool = False) -> dict[str, Limits]:
    """Field metadata for how a field without limits is sent: ``nil``, None is sent as
    nil; ``sparse``, the field is left out while it holds its default."""
    return {"wire": Limits(nil=nil, sparse=sparse)}


@dataclass(frozen=True, slots=True)
class Record:
    """Base of every typed wire structure (messages and the records inside them)."""

    AS_LIST: ClassVar[bool] = False
    """Sent as the list of its field values, in order, rather than as a map."""

    def __post_init__(self) -> None:
        for spec in _schema(type(self)):
            value = getattr(self, spec.name)
            kind = value.__class__
            if kind is spec.exact and (
                kind is not int or spec.limits.low <= value <= spec.limits.high
            ):
                continue  # a bool, a card, an enum member or an int within its limits
            if value is None and spec.kind.optional:
                continue
            try:
                checked = _check(spec.kind, value, spec.limits, spec.where)
            except LocalProtocolError as error:
                raise LocalProtocolError(error.code, error.message, field=spec.name) from None
            if checked is not value:
                object.__setattr__(self, spec.name, checked)

    @classmethod
    def trusted(cls: type[_R], **values: Any) -> _R:
        """A record of ``values`` the sender produced itself, built without validation.

        For sending only (decoding always validates, see ``record_from_data``): values
        are taken as they are, neither checked nor cleaned, so they must already be what
        the field allows. Omitted fields take their defaults; an unknown or missing field
        is a TypeError, as for the constructor.
        """
        return trusted_record(cls, values)

    @classmethod
    def from_data(cls: type[_R], data: Mapping[str, Any]) -> _R:
        """Build the record from a received map (``record_from_data``); a record with a
        wire shape of its own overrides this and ``to_data`` together."""
        return record_from_data(cls, data)

    def to_data(self) -> dict[str, Any]:
        """The plain map of this record (see the module docstring for what is left out)."""
        return fields_into({}, self)


def fields_into(data: dict[str, Any], record: Record) -> dict[str, Any]:
    """``data`` with ``record``'s fields added as ``to_data`` sends them: for a record
    whose map starts with keys of its own (a message's or a command's ``type``)."""
    for name, encode, nil, sparse, default in _plan(type(record)):
        value = getattr(record, name)
        if value is None:
            if nil:
                data[name] = None
        elif not (sparse and value == default):
            data[name] = value if encode is None else encode(value)
    return data


def trusted_record(cls: type[_R], values: dict[str, Any]) -> _R:
    """``cls.trusted(**values)``, for subclasses that add to it (``values`` is consumed)."""
    # The one place that builds a record past its constructor: validating what the server
    # built itself cost 11 us more per view (12.3 against 1.0) and 7 us per event (9.7
    # against 2.4), about 150 us of a move's 600 us of server CPU at a table of five.
    # tests/protocol/test_protocol_trusted.py holds it to the same value and bytes.
    record = object.__new__(cls)
    for spec in _schema(cls):
        if spec.name in values:
            value = values.pop(spec.name)
        elif spec.factory is not None:
            value = spec.factory()
        elif spec.required:
            raise TypeError(f"{cls.__name__}.trusted() needs the field {spec.name!r}")
        else:
            value = spec.default
        object.__setattr__(record, spec.name, value)
    if values:
        raise TypeError(f"{cls.__name__} has no field {next(iter(values))!r}")
    return record


def record_from_data(cls: type[_R], data: Mapping[str, Any]) -> _R:
    """Build ``cls`` from a received map; raises RemoteProtocolError(bad-message).

    nil and an absent key mean the same: the field's default, or an error if it has none
    (or None, for an optional field without a default: one sent as nil when unset).
    Keys that name no field (a message's ``type`` among them) are never looked at.
    """
    label = _label(cls)
    values: dict[str, Any] = {}
    for spec in _schema(cls):
        raw = data.get(spec.name)
        if raw is None:
            if spec.required and spec.kind.optional:
                values[spec.name] = None  # a field always sent, nil when unset
            elif spec.required:
                raise RemoteProtocolError(
                    ErrorCode.BAD_MESSAGE, f"{label} needs the field {spec.name!r}"
                )
            continue
        values[spec.name] = _from_plain(spec.kind, raw, f"{label}.{spec.name}")
    try:
        return cls(**values)
    except LocalProtocolError as error:
        raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, error.message) from None


# --- field kinds -------------------------------------------------------------------------
# A kind is what an annotation means on the wire, resolved once per class.


@dataclass(frozen=True, slots=True)
class _Kind:
    base: type  # str, int, bool, a StrEnum, Card, a Record subclass or tuple
    optional: bool = False
    item: _Kind | None = None  # for tuples


@dataclass(frozen=True, slots=True)
class _FieldSpec:
    name: str
    kind: _Kind
    limits: Limits
    required: bool
    default: Any = None
    factory: Callable[[], Any] | None = None
    converted: bool = True
    """Whether a value needs ``_to_plain`` on the way out (plain kinds go as they are)."""
    where: str = ""
    """How errors name the field (``play.card``)."""
    exact: type | None = None
    """The class whose instances fit the field as they are (a bool, a Card, a member of
    the field's enum, an int within ``limits``), so that construction need not go through
    ``_check``."""


_Encode = Callable[[Any], Any]
_Plan = tuple[tuple[str, "_Encode | None", bool, bool, Any], ...]
_PLANS: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    """How ``to_data`` sends each field of ``cls``: (name, encoder or None for a plain
    value, sent as nil, sparse, default), made once per class from its schema."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = tuple(
            (spec.name, _encoder(spec.kind), spec.limits.nil, spec.limits.sparse, spec.default)
            for spec in _schema(cls)
        )
        _PLANS[cls] = plan
    return plan


def _encoder(kind: _Kind) -> _Encode | None:
    """The function that makes a value of ``kind`` plain (None: it is plain already).
    One per kind, so that encoding a record does not ask each value what it is; the same
    result as ``_to_plain`` (tests/protocol/test_protocol_trusted.py)."""
    base = kind.base
    if base in _PLAIN_BASES:
        return None
    if base is Card:
        return _card_code
    if base is tuple:
        assert kind.item is not None
        item = _encoder(kind.item)
        if item is None:
            return list
        return lambda values: [item(value) for value in values]
    if issubclass(base, StrEnum):
        return _enum_value
    return _to_plain  # records, whose own to_data knows their shape


def _card_code(card: Card) -> str:
    return card.code


def _enum_value(member: StrEnum) -> str:
    return member.value


_PLAIN_BASES = (str, int, bool)
"""Kinds sent as they are. A ``str`` field holds plain text: a StrEnum belongs in a field
of its enum type, which is converted (and a trusted message's exact-type packer refuses
an enum member anywhere else)."""

_SCHEMAS: dict[type, tuple[_FieldSpec, ...]] = {}


def _schema(cls: type) -> tuple[_FieldSpec, ...]:
    schema = _SCHEMAS.get(cls)
    if schema is None:
        hints = typing.get_type_hints(cls)
        kinds = {
            field.name: _kind_of(hints[field.name], f"{cls.__name__}.{field.name}")
            for field in dataclasses.fields(cls)
        }
        schema = tuple(
            _FieldSpec(
                name=field.name,
                kind=kinds[field.name],
                limits=field.metadata.get("wire", Limits()),
                required=field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING,
                default=None if field.default is dataclasses.MISSING else field.default,
                factory=None
                if field.default_factory is dataclasses.MISSING
                else field.default_factory,
                converted=kinds[field.name].base not in _PLAIN_BASES,
                where=f"{_label(cls)}.{field.name}",
                exact=_exact(kinds[field.name]),
            )
            for field in dataclasses.fields(cls)
        )
        _SCHEMAS[cls] = schema
    return schema


def _exact(kind: _Kind) -> type | None:
    base = kind.base
    if base is bool or base is int or base is Card or issubclass(base, StrEnum):
        return base
    return None


def _kind_of(hint: Any, where: str) -> _Kind:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        members = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(members) != 1:
            raise TypeError(f"{where}: only 'X | None' unions are supported")
        return dataclasses.replace(_kind_of(members[0], where), optional=True)
    if origin is tuple:
        item_hint, ellipsis = typing.get_args(hint)
        if ellipsis is not Ellipsis:
            raise TypeError(f"{where}: only tuple[X, ...] is supported")
        return _Kind(tuple, item=_kind_of(item_hint, where))
    if hint in (str, int, bool, Card) or (
        isinstance(hint, type) and issubclass(hint, StrEnum | Record)
    ):
        return _Kind(hint)
    raise TypeError(f"{where}: {hint!r} cannot go on the wire")


def _invalid(where: str, why: str) -> LocalProtocolError:
    return LocalProtocolError(ErrorCode.BAD_MESSAGE, f"{where} {why}")


def _check(kind: _Kind, value: Any, limits: Limits, where: str) -> Any:  # noqa: C901 (one branch per kind of field)
    """``value`` if it fits ``kind`` and ``limits``, possibly normalised (cleaned text,
    enum members, lists made tuples); raises LocalProtocolError(bad-message)."""
    if value is None:
        if kind.optional:
            return None
        raise _invalid(where, "is required")
    base = kind.base
    if base is str:
        return _check_text(value, limits, where)
    if base is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _invalid(where, "must be an integer")
        if not limits.low <= value <= limits.high:
            raise _invalid(where, f"must be from {limits.low} to {limits.high}, not {value}")
        return value
    if base is bool:
        if not isinstance(value, bool):
            raise _invalid(where, "must be true or false")
        return value
    if base is Card:
        if value.__class__ is not Card:
            raise _invalid(where, "must be a card")
        return value
    if base is tuple:
        return _check_items(kind, value, limits, where)
    if issubclass(base, StrEnum):
        try:
            return base(value)
        except ValueError:
            choices = ", ".join(member.value for member in base)
            raise _invalid(where, f"must be one of {choices}, not {value!r}") from None
    if not isinstance(value, base):
        raise _invalid(where, f"must be a {base.__name__}")
    return value


def _check_text(value: Any, limits: Limits, where: str) -> str:
    if not isinstance(value, str):
        raise _invalid(where, "must be a string")
    if limits.max_len is not None:
        allowed = limits.max_len * (MAX_RAW_TEXT_FACTOR if limits.clean else 1)
        if len(value) > allowed:
            raise _invalid(where, f"is longer than {allowed} characters")
    cleaned = clean_text(value) if limits.clean else value
    if len(cleaned) < limits.min_len:
        raise _invalid(where, "must not be empty" if limits.min_len == 1 else "is too short")
    if limits.max_len is not None and len(cleaned) > limits.max_len:
        raise _invalid(where, f"is longer than {limits.max_len} characters")
    if limits.choices is not None and cleaned not in limits.choices:
        raise _invalid(where, f"must be one of {', '.join(limits.choices)}, not {cleaned!r}")
    return value if cleaned == value else cleaned


def _check_items(kind: _Kind, value: Any, limits: Limits, where: str) -> tuple[Any, ...]:
    if not isinstance(value, tuple | list) or value.__class__ is Card:
        raise _invalid(where, "must be a list")
    if limits.max_items is not None and len(value) > limits.max_items:
        raise _invalid(where, f"has more than {limits.max_items} items")
    if len(value) < limits.min_items:
        raise _invalid(where, f"needs at least {limits.min_items} items")
    assert kind.item is not None
    item_kind = kind.item
    checked = tuple(
        _check(item_kind, item, limits, f"{where}[{index}]") for index, item in enumerate(value)
    )
    if isinstance(value, tuple) and all(a is b for a, b in zip(checked, value, strict=True)):
        return value
    return checked


def _from_plain(kind: _Kind, raw: Any, where: str) -> Any:
    """Turn received plain data into the field's Python shape; type checks happen when the
    record is constructed."""
    base = kind.base
    if base is Card and isinstance(raw, str):
        try:
            return Card.parse(raw)
        except InvalidCardError as error:
            raise RemoteProtocolError(ErrorCode.BAD_MESSAGE, f"{where}: {error}") from None
    if base is tuple and isinstance(raw, list):
        assert kind.item is not None
        item_kind = kind.item
        return tuple(
            _from_plain(item_kind, item, f"{where}[{index}]") for index, item in enumerate(raw)
        )
    if isinstance(raw, list) and issubclass(base, Record) and base.AS_LIST:
        names = [spec.name for spec in _schema(base)]
        if len(raw) != len(names):
            raise RemoteProtocolError(
                ErrorCode.BAD_MESSAGE, f"{where} must be a list of {len(names)} items"
            )
        return base.from_data(dict(zip(names, raw, strict=True)))
    if isinstance(raw, dict) and issubclass(base, Record):
        try:
            return base.from_data(raw)
        except RemoteProtocolError as error:
            raise RemoteProtocolError(error.code, f"{where}: {error.message}") from None
    return raw


def _to_plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if value.__class__ is Card:
        return value.code
    if isinstance(value, tuple):
        return [_to_plain(item) for item in value]
    if isinstance(value, Record):
        if value.AS_LIST:
            return [_to_plain(getattr(value, spec.name)) for spec in _schema(type(value))]
        return value.to_data()
    return value


def _label(cls: type[Record]) -> str:
    """How errors name a record: its wire type for a message, else its class name."""
    wire_type = getattr(cls, "TYPE", "")
    return wire_type if isinstance(wire_type, str) and wire_type else cls.__name__
