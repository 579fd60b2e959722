"""Names compared as people read them: "Ann", a full-width "ANN" and one spelt with a Cyrillic
"A" are one name.

A name's key is its NFKC form, case-folded, with every character replaced by one
representative of the characters it can be mistaken for (the confusable "skeleton" of
Unicode Technical Standard #39). The pairs of look-alikes come from Unicode's
confusables data as the ``confusable-homoglyphs`` package ships it; characters that are
linked through any chain of pairs share a representative: the ASCII one if there is one,
else the lowest code point. A second key takes the skeleton before folding the case
(``name_keys``): a Greek capital Beta reads as B, its small form as no b. Invisible
fillers and lone combining marks never reach this far: ``protocol.limits.clean_text``
has removed them from every name.

Two strengths, for two uses. ``name_keys`` is the key of a player in the standings
(``server.standings``): "José" and "Jose" stay two players there. ``seating_keys`` is
stricter, for the names people sit down with at one table (``name-taken``) and for bans,
where a guest would pick a name that only looks like another: it also drops every
default-ignorable code point and the combining marks over letters ("Anń" is "Ann"),
leading and trailing punctuation ("mallory." is "mallory"), and reads a letter that
Unicode's confusables data likens to several as those ("m" as "rn").
"""

from __future__ import annotations

import json
import unicodedata
from bisect import bisect_right
from functools import cache, lru_cache
from importlib.resources import files

__all__ = [
    "DEFAULT_IGNORABLE",
    "SERVERS_NAME_REFUSAL",
    "SERVER_NAME",
    "is_default_ignorable",
    "is_servers_name",
    "name_key",
    "name_keys",
    "prepare_look_alikes",
    "reads_alike_at_a_table",
    "same_name",
    "seating_keys",
]

_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")
"""The data wraps right-to-left characters in direction marks; they are not part of them."""


def name_key(name: str) -> str:
    """What two names that read alike have in common, and two that read apart do not:
    the skeleton of the case-folded NFKC form (but see ``name_keys``)."""
    return _skeleton(unicodedata.normalize("NFKC", name).casefold())


def name_keys(name: str) -> frozenset[tuple[int, str]]:
    """Both keys of a name; two names read alike when they share one (``same_name``).

    ``name_key`` folds the case first, so "ANN" is "ann"; but a capital may read as a
    Latin letter that its small form does not (a Greek capital Beta is a B, its small
    beta is no b). The second key takes the skeleton of the name as written and then
    folds the case, so "\u0392ob" is "Bob". Neither key alone catches both.
    """
    normal = unicodedata.normalize("NFKC", name)
    return frozenset({(0, name_key(name)), (1, _skeleton(normal).casefold())})


def same_name(one: str, other: str) -> bool:
    """Whether a reader could take ``one`` for ``other``."""
    return not name_keys(one).isdisjoint(name_keys(other))


@lru_cache(maxsize=1024)  # a join compares every seated name again
def seating_keys(name: str) -> frozenset[tuple[int, str]]:
    """The keys ``name-taken`` and bans compare: ``name_keys``' two (so what read alike
    there still does) and two stricter ones (the module docstring says how); two names
    read alike at a table when they share one.

    The name is first made plain: compatibility forms folded (NFKD), default-ignorable
    code points and nonspacing marks (``Mn``: accents over letters) dropped, and leading
    and trailing punctuation and spaces trimmed. Then each of ``name_keys``' two keys is
    taken, with every letter that reads as several replaced by those, and made plain
    again (a representative may be an accented letter, or punctuation). A name that
    nothing would be left of is kept as it was at the step that would have emptied it, so
    "..." and "!!!" stay two names.
    """
    plain = _plain(name)
    stricter = {(2, _fold(plain.casefold())), (3, _fold(plain).casefold())}
    return name_keys(name) | stricter


def reads_alike_at_a_table(one: str, other: str) -> bool:
    """Whether ``one`` and ``other`` would be one name at a table (``seating_keys``)."""
    return not seating_keys(one).isdisjoint(seating_keys(other))


DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE, (NON-)JOINER, LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),  # bidirectional embeddings and overrides
    (0x2060, 0x206F),  # WORD JOINER, invisible operators, isolates, deprecated formats
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1 to 16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE (byte order mark)
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP to UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM to END PHRASE
    (0xE0000, 0xE0FFF),  # LANGUAGE TAG, TAG characters, VARIATION SELECTOR-17 to 256, reserved
)
"""Every code point with Unicode's ``Default_Ignorable_Code_Point`` property, as first and
last of each range: the ranges ``DerivedCoreProperties.txt`` of the Unicode Character
Database lists for it in version 14.0 (the one Python 3.11's ``unicodedata`` has), with
adjacent ranges joined. Python's ``unicodedata`` does not give this property. These are
characters a renderer shows as nothing when it cannot show them: a name with one inside
looks like the name without it. ``tests/server/test_names_seating.py`` derives the
property as UAX #44 defines it (``Other_Default_Ignorable_Code_Point``, format
characters and variation selectors, less the listed exceptions) from this Python's
``unicodedata`` and checks that this table holds all of it."""


_IGNORABLE_STARTS = [first for first, _ in DEFAULT_IGNORABLE]


def is_default_ignorable(char: str) -> bool:
    """Whether ``char`` (one code point) is in ``DEFAULT_IGNORABLE``."""
    point = ord(char)
    where = bisect_right(_IGNORABLE_STARTS, point) - 1
    return where >= 0 and point <= DEFAULT_IGNORABLE[where][1]


def _plain(text: str) -> str:
    """``text`` folded (NFKD), without default-ignorable code points and nonspacing marks,
    recomposed (NFC), and trimmed of punctuation and spaces at both ends; ``text`` itself
    where that leaves nothing."""
    kept = (
        char
        for char in unicodedata.normalize("NFKD", text)
        if unicodedata.category(char) != "Mn" and not is_default_ignorable(char)
    )
    plain = unicodedata.normalize("NFC", "".join(kept))
    start, end = 0, len(plain)
    while start < end and _trimmed(plain[start]):
        start += 1
    while end > start and _trimmed(plain[end - 1]):
        end -= 1
    return plain[start:end] or text


def _trimmed(char: str) -> bool:
    """Whether ``char`` is trimmed off a name's ends: punctuation (``P*``) or a space."""
    return char.isspace() or unicodedata.category(char).startswith("P")


def _fold(plain: str) -> str:
    """The skeleton of ``plain``, every letter that reads as several spelt out, plain."""
    expansions = _expansions()
    skeleton = _skeleton(plain)
    return _plain("".join(expansions.get(char, char) for char in skeleton))


def _skeleton(text: str) -> str:
    """``text`` with every character replaced by the representative of its group."""
    skeleton = _representatives()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(skeleton.get(char, char) for char in decomposed))


SERVER_NAME = "uno-server"
"""Who the server's own chat lines are from (a notice to a host); no person may take it."""


def is_servers_name(name: str) -> bool:
    """Whether ``name`` reads like the server's own (``SERVER_NAME``), so that a line from
    it could pass for the server's."""
    return not seating_keys(name).isdisjoint(seating_keys(SERVER_NAME))


SERVERS_NAME_REFUSAL = f"{SERVER_NAME} is the server's own name; connect with another one"
"""Why a line from a person called so is refused where it would carry no seat."""


def prepare_look_alikes() -> None:
    """Build the look-alike tables now (the server does it at start) rather than at the
    first name compared, inside a table's step."""
    _expansions()


@cache
def _confusables() -> dict[str, list[dict[str, str]]]:
    """Unicode's confusables data as the ``confusable-homoglyphs`` package ships it."""
    data = files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    pairs: dict[str, list[dict[str, str]]] = json.loads(data)
    return pairs


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character mapped to the representative of its group (built once)."""
    pairs = _confusables()
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            parent[char] = parent.get(parent[char], parent[char])  # halve the path
            char = parent[char]
        return char

    for key, alikes in pairs.items():
        char = key.translate(_DIRECTION_MARKS)
        if len(char) != 1:
            continue  # a sequence of characters: no single one to map
        for alike in alikes:
            other = alike["c"].translate(_DIRECTION_MARKS)
            if len(other) == 1:
                first, second = root(char), root(other)
                if first != second:
                    parent[max(first, second, key=_rank)] = min(first, second, key=_rank)
    return {char: root(char) for char in parent if root(char) != char}


def _rank(char: str) -> tuple[bool, int]:
    """ASCII first, then by code point: the smallest rank represents its group."""
    return (not char.isascii(), ord(char))


@cache
def _expansions() -> dict[str, str]:
    """Each representative (``_representatives``) of a character that the confusables data
    likens to a sequence of several ("m" to "rn", "æ" to "ae", "ǁ" to "ll") mapped to the
    skeleton of that sequence. A representative likened to several sequences takes the
    lowest in ``_rank`` order, character by character."""
    pairs = _confusables()
    expansions: dict[str, str] = {}
    for key, alikes in pairs.items():
        for alike in alikes:
            one, other = key.translate(_DIRECTION_MARKS), alike["c"].translate(_DIRECTION_MARKS)
            if len(one) > 1 and len(other) == 1:
                one, other = other, one
            if len(one) != 1 or len(other) < 2:
                continue
            char, sequence = _skeleton(one), _skeleton(other)
            if len(char) != 1 or char == sequence:
                continue
            held = expansions.get(char)
            if held is None or [_rank(c) for c in sequence] < [_rank(c) for c in held]:
                expansions[char] = sequence
    return expansions
