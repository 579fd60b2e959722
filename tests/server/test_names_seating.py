"""The stricter comparison of names at a table and for bans (``seating_keys``): look-alikes
that only it catches, honest names that stay apart, the standings' key left as it was, and
the table of default-ignorable code points checked against its definition."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.table.names import (
    DEFAULT_IGNORABLE,
    is_default_ignorable,
    reads_alike_at_a_table,
    same_name,
)

CAUGHT_NOW = [
    ("mallory", "rnallory"),  # r + n reads as m
    ("MALLORY", "RNALLORY"),
    ("Mom", "Rnorn"),
    ("mallory", "mallory."),  # punctuation at the ends
    ("mallory", "...mallory!"),
    ("mallory", "_mallory_"),
    ("Ann", "An\u0144"),  # n with an acute accent
    ("Ann", "\u00c1nn"),  # A with an acute accent
    ("Ann", "Ann\u0308"),  # a diaeresis over the last n
    ("Ann", "An\u200dn"),  # zero-width joiner inside
    ("Ann", "An\u034fn"),  # combining grapheme joiner (a mark, so the cleaning keeps it)
    ("Ann", "Ann\ufe0f"),  # variation selector 16
    ("Ann", "A\U000e0041nn"),  # a tag character
    ("Ann", "An\u180bn"),  # Mongolian free variation selector
    ("Bill", "Bi\u01c1"),  # LATIN LETTER LATERAL CLICK reads as ll
    ("Aeron", "\u00c6ron"),  # AE ligature
    ("Jose", "Jos\u00e9"),
]


@pytest.mark.parametrize(("one", "other"), CAUGHT_NOW)
def test_a_look_alike_that_name_keys_missed_reads_alike_at_a_table(one: str, other: str) -> None:
    assert reads_alike_at_a_table(one, other)
    assert reads_alike_at_a_table(other, one)


@pytest.mark.parametrize(
    ("one", "other"), [("mallory", "rnallory"), ("mallory", "mallory."), ("Ann", "An\u0144")]
)
def test_the_standings_key_is_left_as_it_was(one: str, other: str) -> None:
    # server/standings.py counts players by ``name_keys``: José and Jose stay two there.
    assert not same_name(one, other)
    assert not same_name("Jos\u00e9", "Jose")


HONEST_NAMES = [
    "Ann", "Anna", "Bob", "Bo", "m", "n", "Mia", "Nia", "Tom", "Tim", "Sam", "Pam", "Jan",
    "Jen", "Emma", "Emily", "Max", "Leo", "Lea", "Noah", "Nora", "Ben", "Bea", "Dan", "Don",
    "Mark", "Marc", "Eve", "Ava", "Zoe", "Zara", "Ola", "Ida", "\u041e\u043b\u044c\u0433\u0430",
    "\u0414\u043c\u0438\u0442\u0440\u0438\u0439", "\u674e\u96f7", "\u674e\u7535", "Bot 1",
    "Bot 11", "...", "!!!", "Ann 2", "Ann 3",
]  # fmt: skip


def test_honest_names_stay_apart() -> None:
    together = [
        (one, other)
        for number, one in enumerate(HONEST_NAMES)
        for other in HONEST_NAMES[number + 1 :]
        if reads_alike_at_a_table(one, other)
    ]
    assert together == []


# Latin letters none of which reads as another or as a pair of others ("r" and "n" make
# an "m", "l" is an "I", "o" a zero): names spelt with them read apart unless equal.
PLAIN_LETTERS = "abcdefghjkmnpqstuvwxyzABCDEFGHJKMNPQSTUVWXYZ"
plain_names = st.text(alphabet=PLAIN_LETTERS, min_size=1, max_size=12)


@given(plain_names, plain_names)
def test_plain_latin_names_read_alike_only_when_they_are_one_name(one: str, other: str) -> None:
    assert reads_alike_at_a_table(one, other) == (one.casefold() == other.casefold())


letters = st.characters(categories=["Lu", "Ll", "Lo"])
names = st.text(alphabet=letters, min_size=1, max_size=12)
ignorables = st.sampled_from(
    [chr(point) for first, last in DEFAULT_IGNORABLE for point in range(first, last + 1)]
)
marks = st.sampled_from(["\u0300", "\u0301", "\u0302", "\u0303", "\u0308", "\u030a", "\u0327"])
punctuation = st.text(alphabet=".,;:!?'\"-_()[]", min_size=1, max_size=3)


@given(names, st.data())
def test_an_invisible_code_point_anywhere_changes_nothing(name: str, data: st.DataObject) -> None:
    where = data.draw(st.integers(0, len(name)))
    hidden = name[:where] + data.draw(ignorables) + name[where:]
    assert reads_alike_at_a_table(hidden, name)


@given(names, st.data())
def test_an_accent_over_a_letter_changes_nothing(name: str, data: st.DataObject) -> None:
    where = data.draw(st.integers(1, len(name)))
    accented = name[:where] + data.draw(marks) + name[where:]
    assert reads_alike_at_a_table(accented, name)


@given(names, punctuation, punctuation)
def test_punctuation_around_a_name_changes_nothing(name: str, before: str, after: str) -> None:
    assert reads_alike_at_a_table(before + name + after, name)


# What Default_Ignorable_Code_Point is made of (Unicode Standard Annex #44 and the
# derivation comment of DerivedCoreProperties.txt): Other_Default_Ignorable_Code_Point,
# format characters (Cf) and variation selectors, less white space, the interlinear
# annotation characters, the Egyptian hieroglyph format controls and the prepended
# concatenation marks.
OTHER_DEFAULT_IGNORABLE = [
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x2065, 0x2065),
    (0x3164, 0x3164),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0000),
    (0xE0002, 0xE001F),
    (0xE0080, 0xE00FF),
    (0xE01F0, 0xE0FFF),
]
VARIATION_SELECTORS = [(0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF)]
NOT_IGNORABLE_FORMATS = [
    (0x0600, 0x0605),  # prepended concatenation marks
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0xFFF9, 0xFFFB),  # interlinear annotation
    (0x13430, 0x1343F),  # Egyptian hieroglyph format controls
]


def _points(ranges: Iterable[tuple[int, int]]) -> set[int]:
    return {point for first, last in ranges for point in range(first, last + 1)}


def test_the_ignorable_table_is_the_property_as_unicode_derives_it() -> None:
    formats = {
        point
        for point in range(sys.maxunicode + 1)
        if unicodedata.category(chr(point)) == "Cf" and not chr(point).isspace()
    }
    derived = (_points(OTHER_DEFAULT_IGNORABLE) | formats | _points(VARIATION_SELECTORS)) - _points(
        NOT_IGNORABLE_FORMATS
    )
    table = _points(DEFAULT_IGNORABLE)
    # Format characters newer than this Python's Unicode data are unassigned here (Cn).
    assert {chr(p) for p in table - derived} <= {
        chr(p) for p in table if unicodedata.category(chr(p)) == "Cn"
    }
    assert derived <= table
    assert all(is_default_ignorable(chr(point)) for point in table)
    assert is_default_ignorable("\u200d")
    assert not any(is_default_ignorable(char) for char in "Ann 1.\u00e9\u2800\u0301")
