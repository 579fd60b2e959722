"""What counts as plain wire data, checked without msgpack (the engine may use it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from protocol.limits import MAX_DEPTH

__all__ = ["check_plain"]

_LOWEST = -(2**63)
_BEYOND = 2**64
"""The integers msgpack carries: signed or unsigned 64-bit."""


def check_plain(value: object, depth: int = 1) -> None:  # noqa: C901 (one branch per kind of wire value)
    """Raise ValueError unless ``value`` is plain wire data within the nesting limit.

    Plain means nil, bool, int (signed or unsigned 64-bit), str, lists (or plain tuples)
    and maps with string keys. ``depth`` is the nesting level ``value`` sits at.
    """
    pending: list[tuple[object, int]] = [(value, depth)]
    while pending:
        item, level = pending.pop()
        if item is None or isinstance(item, bool | str):
            continue
        if isinstance(item, int):
            if not _LOWEST <= item < _BEYOND:
                raise ValueError(f"integer {item} does not fit in 64 bits")
            continue
        # Exact list and tuple: a NamedTuple such as Card must be turned into its code by
        # its owner, not slip onto the wire as an array of its fields.
        if type(item) is list or type(item) is tuple or isinstance(item, dict):
            if level > MAX_DEPTH:
                raise ValueError(f"arrays and maps nest deeper than {MAX_DEPTH} levels")
            children: Iterable[Any] = item
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise ValueError(f"map keys must be strings, not {type(key).__name__}")
                children = item.values()
            # The common leaves (exact str, bool, None, int in range) are passed here, not
            # queued: this runs on every frame the server sends. Anything else is queued
            # and judged by the checks above.
            for child in children:
                kind = type(child)
                if kind is str or kind is bool or child is None:
                    continue
                if kind is int and _LOWEST <= child < _BEYOND:
                    continue
                pending.append((child, level + 1))
            continue
        raise ValueError(f"{type(item).__name__} values are not allowed on the wire")
