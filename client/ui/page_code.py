"""The browser page's QR code, full screen over the lobby (``p``): a phone's camera opens
the page from it. It does not fit beside the tables at 60x20, so it has the screen alone."""

from __future__ import annotations

from functools import lru_cache

from client.ui.layout import Line, text_line
from client.ui.model import Model
from protocol.qr import qr_lines

__all__ = ["code_lines", "page_code_screen", "page_url"]


@lru_cache(maxsize=4)
def code_lines(url: str) -> tuple[str, ...]:
    """The QR code of ``url`` as text lines, made once per address: the screen is drawn
    many times a second, the code changes only with the server."""
    return tuple(qr_lines(url))


def page_code_screen(model: Model, width: int, height: int) -> list[Line]:
    """The code of the page's URL, centred, with the URL and the key back under it; only
    the URL and a word when the terminal is too small for the code."""
    url = page_url(model) or ""
    code = list(code_lines(url)) if url else []
    words = [f"Scan to open {url}", "p or Esc: back to the tables"]
    if not code or len(code) + len(words) + 1 > height or max(map(len, code)) > width:
        code = ["(a larger terminal shows the QR code)"] if url else ["No browser page here."]
    lines: list[Line] = [[] for _ in range(max(0, (height - len(code) - 3) // 2))]
    lines += [text_line(line.center(width)) for line in code]
    lines += [[], *(text_line(line.center(width), "class:hint") for line in words)]
    return lines


def page_url(model: Model) -> str | None:
    """The URL of the server's browser page: the one a ``--serve`` server said, else the
    server's address with the web port of its ``welcome``; None if it serves none."""
    if model.page_at is not None:
        return model.page_at
    if model.web_port is None or not model.address:
        return None
    host = model.address.rpartition(":")[0]
    return f"http://{host}:{model.web_port}/"
