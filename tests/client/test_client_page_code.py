"""The browser page's QR code screen (``p``): the code is made once per address, not on
every frame, and a new address gets its own code."""

from __future__ import annotations

import pytest

from client.ui import page_code
from client.ui.model import Model
from client.ui.page_code import code_lines, page_code_screen
from protocol.qr import qr_lines


def drawn(model: Model) -> list[str]:
    return ["".join(text for _, text in line) for line in page_code_screen(model, 100, 60)]


def test_the_code_is_made_once_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def counting(url: str) -> list[str]:
        made.append(url)
        return qr_lines(url)

    monkeypatch.setattr(page_code, "qr_lines", counting)
    code_lines.cache_clear()
    model = Model(name="Ann")
    model.page_at = "http://192.168.1.20:7532/"
    first = drawn(model)
    for _ in range(5):
        assert drawn(model) == first
    assert made == ["http://192.168.1.20:7532/"]
    code = [row for row in qr_lines(model.page_at) if row.strip()]
    assert code and all(any(row in line for line in first) for row in code)

    model.page_at = "http://192.168.1.21:7532/"
    other = drawn(model)
    assert made == ["http://192.168.1.20:7532/", "http://192.168.1.21:7532/"]
    assert other != first and any("Scan to open http://192.168.1.21:7532/" in x for x in other)
    code_lines.cache_clear()
