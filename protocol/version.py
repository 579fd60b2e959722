"""Protocol versions and how two peers agree on one.

A version is ``"major.minor"``. A minor version only adds optional fields and new messages
to the one before it, so a peer that speaks 1.3 also speaks 1.0, 1.1 and 1.2. A different
major version is a different protocol. The client offers every version it speaks; the
server picks the highest major both speak, then the lower of the two sides' highest minor
in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "PROTOCOL_VERSION",
    "SUPPORTED_VERSIONS",
    "Version",
    "choose_version",
    "parse_version",
    "speaks",
]

PROTOCOL_VERSION = "1.3"
"""The version this release speaks best."""

SUPPORTED_VERSIONS: tuple[str, ...] = ("1.0", "1.1", "1.2", "1.3")
"""Every version this release speaks."""

_VERSION = re.compile(r"(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})")

Version = tuple[int, int]
"""A parsed version: (major, minor)."""


def parse_version(text: str) -> Version | None:
    """``"1.0"`` -> ``(1, 0)``; None for anything that is not ``major.minor``."""
    match = _VERSION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    return int(match[1]), int(match[2])


def speaks(version: str, since: Version) -> bool:
    """Whether a connection that agreed on ``version`` has what came in ``since`` (a
    message's ``SINCE``); False for a ``version`` that is not one."""
    parsed = parse_version(version)
    return parsed is not None and parsed >= since


def choose_version(offered: Iterable[str], supported: Iterable[str]) -> str | None:
    """The version to speak, or None when the two sides share no major version.

    Strings that are not versions are skipped, so that a future client may offer
    something this release cannot parse.
    """
    best_offered = _highest_minor_per_major(offered)
    best_supported = _highest_minor_per_major(supported)
    shared = best_offered.keys() & best_supported.keys()
    if not shared:
        return None
    major = max(shared)
    minor = min(best_offered[major], best_supported[major])
    return f"{major}.{minor}"


def _highest_minor_per_major(versions: Iterable[str]) -> dict[int, int]:
    highest: dict[int, int] = {}
    for text in versions:
        parsed = parse_version(text)
        if parsed is not None:
            major, minor = parsed
            highest[major] = max(minor, highest.get(major, minor))
    return highest
