"""Fixtures for the browser tests: a real ``uno-server`` on 127.0.0.1 and chromium.

Every test here is marked ``e2e`` (real processes) and ``browser``. The server process
helper is ``tests/e2e``'s (not a copy): its folder is put on the import path here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from protocol.startup import PAGE

_E2E = str(Path(__file__).parent.parent / "e2e")
if _E2E not in sys.path:
    sys.path.insert(0, _E2E)

import pytest  # noqa: E402
from e2e_server import ServerProcess  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from web_browser import CHROMIUM, CHROMIUM_ARGS, need_chromium  # noqa: E402

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.browser)


def page_url(server: ServerProcess) -> str:
    """The URL in the server's ``browser page:`` line."""
    while True:
        line = server.next_line()
        if line.startswith(PAGE):
            return line[len(PAGE) :].split(" ", 1)[0]


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, str]]:
    """A fresh server (seed 7, bots that do not wait) and its page's URL."""
    server = ServerProcess.start(tmp_path)
    try:
        yield server, page_url(server)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, launched once for the session."""
    need_chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
