"""Line layout for the screens: fragments cut and padded to exact terminal sizes."""

from __future__ import annotations

import math
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

__all__ = [
    "Line",
    "assemble",
    "clock_text",
    "fit",
    "line_width",
    "rule",
    "text_line",
    "wrap_keys",
]

Line = list[Any]
"""One screen line: (style, text) fragments, or (style, text, mouse handler)."""


def line_width(line: Line) -> int:
    """How many terminal cells ``line`` takes (wide characters count two)."""
    return sum(get_cwidth(fragment[1]) for fragment in line)


def fit(line: Line, width: int) -> Line:
    """Cut a line to ``width`` cells and pad it with spaces to exactly that width. Text cut
    off ends in ``…`` (never a rule, nor a cut through blank padding)."""
    out: Line = []
    used = 0
    for number, fragment in enumerate(line):
        text = fragment[1]
        size = get_cwidth(text)
        if used + size <= width:
            out.append(fragment)
            used += size
            continue
        dropped = "".join(f[1] for f in line[number:])
        mark = "class:rule" not in fragment[0] and bool(
            dropped[_fitting(text, width - used) :].strip()
        )
        room = width - used - (1 if mark else 0)
        kept = _fitting(text, room)
        used += get_cwidth(text[:kept])
        if kept:
            out.append((fragment[0], text[:kept], *fragment[2:]))
        if mark and used < width:
            out.append((fragment[0], "…"))
            used += 1
        break
    if used < width:
        out.append(("", " " * (width - used)))
    return out


def _fitting(text: str, room: int) -> int:
    """How many characters of ``text`` fit in ``room`` cells."""
    used = kept = 0
    for ch in text:
        cells = get_cwidth(ch)
        if used + cells > room:
            break
        used += cells
        kept += 1
    return kept


def assemble(lines: list[Line], width: int, height: int) -> StyleAndTextTuples:
    """The whole screen: ``lines`` cut or padded to exactly ``height`` lines of ``width``
    cells each, joined by newlines into one formatted text for prompt-toolkit."""
    lines = lines[:height]
    lines += [[] for _ in range(height - len(lines))]
    result: StyleAndTextTuples = []
    for number, line in enumerate(lines):
        result.extend(fit(line, width))
        if number < height - 1:
            result.append(("", "\n"))
    return result


def text_line(text: str, style: str = "") -> Line:
    """A line of one fragment: ``text`` in ``style``."""
    return [(style, text)]


def rule(title: str = "") -> Line:
    """A horizontal rule, ``title`` set into its start; long enough for any width (``fit``
    cuts it)."""
    return [("class:rule", f"── {title} " if title else ""), ("class:rule", "─" * 400)]


def clock_text(ms: int | None) -> str:
    """Milliseconds remaining as ``m:ss``, rounded up to the whole second; "" for no clock."""
    if ms is None:
        return ""
    seconds = math.ceil(ms / 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def wrap_keys(keys: str, width: int) -> list[str]:
    """Split the key hints at their separators into lines that fit the width."""
    lines: list[str] = []
    current = ""
    for part in keys.split(" · "):
        candidate = f"{current} · {part}" if current else f" {part}"
        if current and get_cwidth(candidate) > width - 1:
            lines.append(current)
            candidate = f" {part}"
        current = candidate
    lines.append(current)
    return lines
