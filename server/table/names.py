"""Names compared as people read them: "Ann", a full-width "ANN" and one spelt with a Cyrillic
"A" are one name.

A name's key is its NFKC form, case-folded, with every character replaced by one
representative of the characters it can be mistaken for (the confusable "skeleton" of
Unicode Technical Standard #39). The pairs of look-alikes come from Unicode's
confusables data as the ``confusable-homoglyphs`` package ships it; characters that are
linked through any chain of pairs share a representative: the ASCII one if there is one,
else the lowest code point. Invisible fillers and lone combining marks never reach this
far: ``protocol.limits.clean_text`` has removed them from every name.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files

__all__ = ["name_key", "same_name"]

_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")
"""The data wraps right-to-left characters in direction marks; they are not part of them."""


def name_key(name: str) -> str:
    """What two names that read alike have in common, and two that read apart do not."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    skeleton = _representatives()
    decomposed = unicodedata.normalize("NFD", folded)
    return unicodedata.normalize("NFC", "".join(skeleton.get(char, char) for char in decomposed))


def same_name(one: str, other: str) -> bool:
    """Whether a reader could take ``one`` for ``other``."""
    return name_key(one) == name_key(other)


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character mapped to the representative of its group (built once,
    on the first name compared)."""
    data = files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    pairs: dict[str, list[dict[str, str]]] = json.loads(data)
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
