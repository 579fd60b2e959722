"""docs/protocol.md names every code the server may answer with, each with its meaning."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import pytest

from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.rejections import RejectCode

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def codes_in_table(heading: str) -> set[str]:
    """The codes in the first column of the table under ``heading``."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"\n{heading}", 1)[1].split("\n#", 1)[0]
    codes: set[str] = set()
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) > 2 and "`" in cells[1]:
            codes.update(re.findall(r"`([a-z0-9-]+)`", cells[1]))
    return codes


@pytest.mark.parametrize(
    ("heading", "enum"),
    [
        ("### Protocol errors", ErrorCode),
        ("### Lobby rejections", LobbyRejectCode),
        ("### Game rejections", RejectCode),
    ],
)
def test_the_page_gives_every_code_its_meaning(heading: str, enum: type[StrEnum]) -> None:
    assert codes_in_table(heading) == {code.value for code in enum}
