"""Sizes the protocol allows, and ``clean_text`` for every string a person typed.

Every limit here bounds memory or screen space on the receiving side: a frame's body, the
counts msgpack may announce in a header, nesting depth, and the visible length of names and
chat lines. ``clean_text`` strips control characters and terminal escape sequences so that
nothing one player types can move another player's cursor, recolour their terminal or set
its title.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "MAX_ARRAY_ITEMS",
    "MAX_BOT_THINK_MS",
    "MAX_CHAT_LEN",
    "MAX_CODE_LEN",
    "MAX_DEPTH",
    "MAX_FRAME_BODY",
    "MAX_ID",
    "MAX_MAP_ITEMS",
    "MAX_MESSAGE_LEN",
    "MAX_NAME_LEN",
    "MAX_PASSWORD_LEN",
    "MAX_PENDING_REQUESTS",
    "MAX_RAW_TEXT_FACTOR",
    "MAX_TABLE_NAME_LEN",
    "MAX_TOKEN_LEN",
    "MAX_VERSIONS",
    "clean_text",
]

MAX_FRAME_BODY = 65_536
"""Largest frame body in bytes. A length of 0 or above this is refused."""

MAX_DEPTH = 20
"""Deepest nesting of arrays and maps in one message, the top-level map being depth 1."""

MAX_ARRAY_ITEMS = 4096
"""Most items one msgpack array may announce."""

MAX_MAP_ITEMS = 1024
"""Most entries one msgpack map may announce."""

MAX_NAME_LEN = 24
"""A player's name, after cleaning, in characters."""

MAX_TABLE_NAME_LEN = 32
"""A table's name, after cleaning, in characters."""
MAX_BOT_THINK_MS = 60_000
"""The slowest pace a host may give a table's server bots, in milliseconds a move."""

MAX_CHAT_LEN = 200
"""One chat line, after cleaning, in characters."""

MAX_RAW_TEXT_FACTOR = 4
"""Text before cleaning may be this many times its limit (escape sequences take room)."""

MAX_PASSWORD_LEN = 64
"""A table password, in characters."""

MAX_TOKEN_LEN = 128
"""Opaque strings the server hands out: resume tokens, cursors, table and server ids."""

MAX_CODE_LEN = 64
"""Short machine words: error codes, versions, feature names, strategy names, states."""

MAX_MESSAGE_LEN = 500
"""A human-readable sentence attached to an error, a rejection or a closing notice."""

MAX_VERSIONS = 16
"""Most protocol versions a hello may offer."""

MAX_ID = 2**32 - 1
"""Largest command id (ids are 0 to 2**32 - 1)."""

MAX_PENDING_REQUESTS = 64
"""Most commands a client may have sent and not yet seen answered."""


# Terminal escape sequences (ECMA-48), in their 7-bit (ESC ...) and 8-bit (C1) forms:
# - control strings run to their terminator (BEL, or ST: ESC \ or 0x9C); an unterminated
#   one swallows the rest of the text, as a terminal would. Their introducers: OSC
#   (ESC ] or 0x9D), DCS (ESC P or 0x90), SOS (ESC X or 0x98), PM (ESC ^ or 0x9E) and
#   APC (ESC _ or 0x9F);
# - CSI: parameter bytes, intermediate bytes, one final byte;
# - any other escape: intermediate bytes and one final byte.
_ESCAPE_SEQUENCE = re.compile(
    r"""
      (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|\Z)
    | (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?
    | \x1b [\x20-\x2f]* [\x30-\x7e]?
    """,
    re.VERBOSE | re.DOTALL,
)


_BLANK_LOOKALIKES = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
"""Printable characters that show nothing, so a name made with one looks like another:
the Hangul fillers, the Khmer inherent vowels (Unicode's Default_Ignorable_Code_Point
letters) and the blank Braille pattern."""


def clean_text(text: str) -> str:
    """Text safe to show on anyone's terminal, and that shows everything it holds.

    Escape sequences are removed whole; tabs, newlines and other whitespace become plain
    spaces (U+0085, NEXT LINE, is a C1 control and whitespace both: as a line break it
    becomes a space, like a newline); every other character that is not printable (C0 and
    C1 controls, DEL, format characters such as bidirectional overrides, unassigned code
    points) is removed, and so
    are the blank look-alikes (``_BLANK_LOOKALIKES``) and combining marks with no letter
    to sit on (at the start, or after a space); leading and trailing spaces are stripped.
    Real scripts, accents on their letters and emoji stay.
    """
    text = _ESCAPE_SEQUENCE.sub("", text)
    kept: list[str] = []
    for char in text:
        if char in _BLANK_LOOKALIKES:
            continue
        if char.isprintable():
            if unicodedata.category(char)[0] == "M" and (not kept or kept[-1] == " "):
                continue  # a lone combining mark
            kept.append(char)
        elif char.isspace():
            kept.append(" ")
    return "".join(kept).strip()
