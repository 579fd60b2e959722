"""The browser page at a phone's size: what it weighs and how soon a guest can play.

A real ``uno-server`` (127.0.0.1, no mDNS, no journal) serves the page; Debian's chromium,
headless, opens it at 360x640 with touch, in a fresh context each run (nothing cached).
Each run measures, from the navigation's start as the page's own clock counts it
(``performance.now()``): the first contentful paint, the name form ready to type in,
and, after the name is sent, the lobby on screen (the WebSocket opened, ``hello`` and
the table list answered). It counts the bytes of every response and every request to
another origin (there must be none). Medians over ``--runs``. It measures and prints;
it asserts nothing.

    .venv/bin/python tests/bench/page.py [--runs 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if entry != str(ROOT))]
sys.path.insert(1, str(ROOT / "tests" / "web"))

from playwright.sync_api import Browser, ViewportSize, sync_playwright  # noqa: E402
from web_browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from protocol.startup import PAGE  # noqa: E402

PHONE: ViewportSize = {"width": 360, "height": 640}
START_SECONDS = 20.0


def start_server() -> tuple[subprocess.Popen[str], str]:
    """A plain server on 127.0.0.1 and its page's URL, read from the lines it prints."""
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--no-mdns", "--no-state"]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    # A server that prints nothing is killed, which ends the reading loop.
    watchdog = threading.Timer(START_SECONDS, process.kill)
    watchdog.start()
    try:
        for line in process.stdout:
            if line.startswith(PAGE):
                return process, line[len(PAGE) :].split(" ", 1)[0]
    finally:
        watchdog.cancel()
    process.kill()
    raise SystemExit("the server printed no page URL")


def one_visit(browser: Browser, url: str, name: str) -> dict[str, Any]:
    """One guest's first visit: the page's timings (ms) and what it fetched."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    origin = urlsplit(url).netloc
    sizes: list[int] = []
    elsewhere: list[str] = []

    def on_response(response: Any) -> None:
        if urlsplit(response.url).netloc != origin:
            elsewhere.append(response.url)
        elif response.status == 200:
            sizes.append(len(response.body()))

    page.on("response", on_response)
    try:
        page.goto(url)
        page.wait_for_selector("#name-input:visible")
        form_ready = page.evaluate("performance.now()")
        paint = page.evaluate(
            "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
        )
        page.fill("#name-input", name)
        sent = page.evaluate("performance.now()")
        page.click("#name-form button")
        page.wait_for_selector("#lobby-screen:not([hidden])")
        lobby = page.evaluate("performance.now()")
    finally:
        context.close()
    return {
        "first_paint_ms": paint,
        "name_form_ms": form_ready,
        "lobby_after_name_ms": lobby - sent,
        "bytes": sum(sizes),
        "responses": len(sizes),
        "other_origins": elsewhere,
    }


def measure(runs: int) -> dict[str, Any]:
    process, url = start_server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                one_visit(browser, url, "warm-up")  # chromium's own first start
                visits = [one_visit(browser, url, f"guest {n}") for n in range(runs)]
            finally:
                browser.close()
    finally:
        process.terminate()
        process.wait(timeout=15)

    def median(key: str) -> float | None:
        values = [visit[key] for visit in visits if visit[key] is not None]
        return round(statistics.median(values), 1) if values else None

    return {
        "runs": runs,
        "viewport": PHONE,
        "first_paint_ms": median("first_paint_ms"),
        "name_form_ms": median("name_form_ms"),
        "lobby_after_name_ms": median("lobby_after_name_ms"),
        "page_bytes": max(visit["bytes"] for visit in visits),
        "responses": max(visit["responses"] for visit in visits),
        "other_origin_requests": sum(len(visit["other_origins"]) for visit in visits),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the browser page at a phone's size")
    parser.add_argument("--runs", type=int, default=7, help="fresh visits measured")
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    args = parser.parse_args(argv)
    result = measure(args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"page at {PHONE['width']}x{PHONE['height']}, median of {args.runs} fresh visits:")
    print(f"  first contentful paint  {result['first_paint_ms']} ms")
    print(f"  name form ready         {result['name_form_ms']} ms")
    print(f"  lobby after the name    {result['lobby_after_name_ms']} ms")
    print(f"  fetched                 {result['page_bytes']:,} bytes in {result['responses']}")
    print(f"  other origins           {result['other_origin_requests']} requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
