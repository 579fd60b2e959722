"""clean_text removes what could take over a terminal and keeps what people wrote."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.limits import clean_text


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b[2J\x1b[Hwiped", "wiped"),
        ("\x1b[?1049hscreen", "screen"),
        ("a\x1b]0;evil title\x07b", "ab"),
        ("a\x1b]0;evil title\x1b\\b", "ab"),
        ("\x1b]8;;http://example.invalid\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("a\x1bPq#0;2;0;0;0\x1b\\b", "ab"),
        ("unterminated\x1b]0;title forever", "unterminated"),
        ("\x9b31m8-bit csi", "8-bit csi"),
        ("\x9d0;title\x9cok", "ok"),
        ("a\x9d0;title\x07b", "ab"),
        ("a\x90q#0;2\x1b\\b", "ab"),
        ("a\x98start of string\x9cb", "ab"),
        ("a\x9eprivacy message\x9cb", "ab"),
        ("a\x9fapplication command\x9cb", "ab"),
        ("kept\x9funterminated swallows the rest", "kept"),
        ("stray\x9c st\x8d ri", "stray st ri"),
        ("next\x85line", "next line"),
        ("line\u2028and paragraph\u2029end", "line and paragraph end"),
        ("keep\x1bcreset", "keepreset"),
        ("\x1b7saved\x1b8", "saved"),
        ("bell\x07 nul\x00 del\x7f", "bell nul del"),
        ("tab\tand\nnewline\r", "tab and newline"),
        ("\u202eevil\u202c", "evil"),
        ("zero\u200bwidth", "zerowidth"),
        ("  spaced  ", "spaced"),
        ("Zoë 日本 🃏", "Zoë 日本 🃏"),
        ("", ""),
    ],
)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\x1b[]\\\x07\x9b;0")))
def test_cleaned_text_holds_no_control_and_is_stable(raw: str) -> None:
    cleaned = clean_text(raw)
    assert all(unicodedata.category(char) not in {"Cc", "Cf", "Zl", "Zp"} for char in cleaned)
    assert cleaned == cleaned.strip()
    assert clean_text(cleaned) == cleaned


PAGE_WHITESPACE = [
    *range(0x09, 0x0E),
    *range(0x1C, 0x21),
    0x85,
    0xA0,
    0x1680,
    *range(0x2000, 0x200B),
    0x2028,
    0x2029,
    0x202F,
    0x205F,
    0x3000,
]
"""docs/protocol.md section 9's list of the characters that become a space."""


def test_exactly_the_pages_whitespace_becomes_a_space() -> None:
    spaced = [code for code in range(0x110000) if clean_text(f"a{chr(code)}b") == "a b"]
    assert spaced == PAGE_WHITESPACE
