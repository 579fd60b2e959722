"""Version strings and negotiation."""

from __future__ import annotations

import pytest

from protocol.version import (
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    choose_version,
    parse_version,
    speaks,
)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("1.0", (1, 0)),
        ("12.34", (12, 34)),
        ("1", None),
        ("1.0.0", None),
        ("01.0", None),
        ("v1.0", None),
        ("", None),
        ("1.-1", None),
        (" 1.0", None),
    ],
)
def test_parse_version(text: str, parsed: tuple[int, int] | None) -> None:
    assert parse_version(text) == parsed


@pytest.mark.parametrize(
    ("offered", "supported", "chosen"),
    [
        (["1.0"], ["1.0"], "1.0"),
        (["1.3"], ["1.0"], "1.0"),  # a 1.3 client speaks 1.0 too
        (["1.0"], ["1.2"], "1.0"),
        (["1.1", "2.0"], ["1.4", "2.3"], "2.0"),  # highest shared major wins
        (["2.0"], ["1.0"], None),
        (["nonsense", "1.1"], ["1.0", "1.1"], "1.1"),
        ([], ["1.0"], None),
    ],
)
def test_choose_version(offered: list[str], supported: list[str], chosen: str | None) -> None:
    assert choose_version(offered, supported) == chosen


def test_this_release_speaks_1_3_and_still_every_older_minor() -> None:
    assert PROTOCOL_VERSION == "1.3"
    assert SUPPORTED_VERSIONS == ("1.0", "1.1", "1.2", "1.3")


def test_speaks_says_whether_a_version_has_what_came_in_since() -> None:
    assert speaks("1.3", (1, 3)) and speaks("1.3", (1, 2)) and speaks("2.0", (1, 3))
    assert not speaks("1.2", (1, 3)) and not speaks("1.0", (1, 1))
    assert not speaks("one.three", (1, 0)) and not speaks("", (1, 0))
