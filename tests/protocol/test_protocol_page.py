"""docs/protocol.md names every code the server may answer with, and every reason an
event gives, each with its meaning."""

from __future__ import annotations

import re
import typing
from enum import StrEnum
from pathlib import Path

import pytest

from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.events import EVENT_TYPES, EventKind
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


def reasons_on_the_page() -> dict[str, set[str]]:
    """The *Reasons* table of section 13: each event kind's reasons."""
    text = PAGE.read_text(encoding="utf-8")
    table = text.split("\n**Reasons.**", 1)[1].split("\n\n", 2)[1]
    reasons: dict[str, set[str]] = {}
    for line in table.splitlines()[2:]:
        kind, reason = re.findall(r"`([a-z0-9-]+)`", line)[:2]
        reasons.setdefault(kind, set()).add(reason)
    return reasons


def test_the_page_lists_every_reason_of_every_event() -> None:
    in_code: dict[str, set[str]] = {}
    for kind, cls in EVENT_TYPES.items():
        hint = typing.get_type_hints(cls).get("reason")
        if hint is not None:
            assert issubclass(hint, StrEnum), f"{kind.value}.reason is no closed list"
            in_code[kind.value] = {reason.value for reason in hint}
    assert set(in_code) == {
        EventKind.DREW,
        EventKind.FALSE_CATCH,
        EventKind.DANCE_REFUSED,
        EventKind.AWAY,
        EventKind.ROUND_OVER,
    }
    assert reasons_on_the_page() == in_code
