"""The HTML replay in a real browser: a real server plays a match to its end, the real
``uno-server replay --html`` writes its page, and chromium opens the file from disk and
steps through it, with every request the page makes recorded (only the file itself may
be one); then reads it in German and in the pseudo-locale (issue 29)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio
from e2e_client import drive, seat_table
from e2e_server import ServerProcess
from playwright.sync_api import Browser, Page
from pseudo_locale import SEEN, pseudo_context, unmarked_words

from client.ui.replay_state import model_at
from protocol.options import preset_options
from protocol.replay_file import read_replay

PARTY = preset_options("party", {"target_score": 150})


async def play_a_match(port: int) -> None:
    """Two people and a bot at a party table, played to the match's end."""
    async with trio.open_nursery() as nursery:
        players, _ = await seat_table(port, nursery, ["ann", "bob"], options=PARTY, bots=1)
        await drive(players, lambda: all(p.match_over for p in players), random.Random(6))
        nursery.cancel_scope.cancel()


def server_command(state: Path, *words: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "server", *words, "--state", str(state)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def position(page: Page) -> tuple[int, int]:
    """The replay's "event N / TOTAL" as (N, TOTAL)."""
    at, total = page.inner_text("#replay-position").removeprefix("event ").split(" / ")
    return int(at), int(total)


def draw_pile(page: Page) -> str:
    """The table's "draw pile: N" line, as shown."""
    return page.locator(".pile-facts div", has_text="draw pile:").inner_text()


def test_the_html_replay_of_a_real_match_plays_offline(tmp_path: Path, browser: Browser) -> None:
    server = ServerProcess.start(tmp_path)
    state = server.state
    assert state is not None
    try:
        trio.run(play_a_match, server.port)
        listed = server_command(state, "history", "--json")
        (match,) = json.loads(listed.stdout)["matches"]
        out = tmp_path / "match.html"
        done = server_command(state, "replay", str(match["match_id"]), "--html", "--out", str(out))
        assert done.returncode == 0, done.stderr
        plain = tmp_path / "match.jsonl"
        again = server_command(state, "replay", str(match["match_id"]), "--out", str(plain))
        assert again.returncode == 0, again.stderr
    finally:
        server.stop()
    header: dict[str, Any] = json.loads(plain.read_text(encoding="utf-8").splitlines()[0])
    events = [json.loads(line) for line in plain.read_text(encoding="utf-8").splitlines()[1:]]
    replay = read_replay(plain.read_text(encoding="utf-8").splitlines())
    assert header["deck_size"] == 108

    def counted(at: int) -> str:
        """The draw pile's count the terminal viewer folds at ``at`` (protocol.draw_pile)."""
        view = model_at(replay, at).view
        assert view is not None
        return f"draw pile: {view.shared.draw_count}"

    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text))
    try:
        page.goto(out.as_uri())
        page.wait_for_selector("#replay-controls")
        about = page.inner_text("#replay-about")
        assert header["table"] in about
        assert page.title() == f"Replay: {header['table']}"
        for player in header["players"]:
            assert f"{player['name']}{' (bot)' if player['bot'] else ''} {player['score']}" in about
        assert position(page) == (0, len(events))
        assert page.inner_text("#log") == ""

        page.tap("[data-replay=forward]")
        page.tap("[data-replay=forward]")
        assert position(page) == (2, len(events))
        assert "round 1 begins" in page.inner_text("#log")
        assert draw_pile(page) == counted(2)

        page.tap("[data-replay=end]")
        assert position(page) == (len(events), len(events))
        winners = " and ".join(header["winners"])
        assert page.inner_text("#match-result") == f"Match over: {winners} won"
        totals = page.locator("#dialog .results tbody tr td:last-child").all_inner_texts()
        assert totals == [str(p["score"]) for p in header["players"]]
        assert page.locator("#hand .card").count() == 0  # a spectator sees no hand
        assert draw_pile(page) == counted(len(events))

        # Back a round: the state folded again from the start stands at the last round's deal.
        starts = [i + 1 for i, e in enumerate(events) if e["kind"] == "round-started"]
        page.tap("[data-replay=round-back]")
        assert position(page)[0] == starts[-1]
        assert page.query_selector("#match-result") is None
        assert page.input_value("#replay-round") == str(len(starts) - 1)
        assert draw_pile(page) == counted(starts[-1])
        page.keyboard.press("ArrowLeft")
        assert position(page)[0] == starts[-1] - 1
        assert page.query_selector("#round-result") is not None
        page.keyboard.press("Shift+ArrowLeft")
        turns = [i + 1 for i, e in enumerate(events) if e["kind"] == "turn"]
        assert position(page)[0] == max(t for t in turns if t < starts[-1] - 1)

        page.select_option("#replay-round", "0")
        assert position(page)[0] == starts[0]
        page.tap("[data-replay=start]")
        assert position(page)[0] == 0
        assert page.inner_text("#log") == ""

        page.select_option("#replay-speed", "8")
        page.tap("#replay-play")
        page.wait_for_selector("#log li >> nth=3")
        page.tap("#replay-play")
        stopped = position(page)[0]
        assert stopped >= 4
        assert page.inner_text("#replay-play") == "▶ play"
    finally:
        context.close()
    assert errors == []
    assert requests == [out.as_uri()]
    in_other_words(browser, out, header, len(events))
    in_a_sandbox(browser, out, len(events))


def in_a_sandbox(browser: Browser, out: Path, events: int) -> None:
    """Opened where storage is refused (a sandboxed frame has an opaque origin, as a mail
    or file viewer's may), the replay still starts and steps."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_content('<iframe sandbox="allow-scripts" style="width:400px;height:700px"></iframe>')
    page.locator("iframe").evaluate("(frame, html) => { frame.srcdoc = html; }", out.read_text())
    frame = page.frame_locator("iframe")
    frame.locator("[data-replay=forward]").click()
    assert frame.locator("#replay-position").inner_text() == f"event 1 / {events}"
    page.close()
    assert errors == []


# What the replay shows and says, seen as test_web_words sees the page (the names: the
# table's and the players').
_SEEN_REPLAY = f"""(names) => ({SEEN})({{
  serverName: "",
  tables: [],
  tableState: {{ name: names[0], seats: names.map((name) => ({{ name }})) }},
}})"""


def in_other_words(browser: Browser, out: Path, header: dict[str, Any], events: int) -> None:
    """The replay reads the browser's language as the page does (or the one picked
    before: the pseudo-locale's), its controls and their names too."""
    german = browser.new_context(locale="de-DE")
    page = german.new_page()
    page.goto(out.as_uri())
    page.wait_for_selector("#replay-controls")
    assert page.get_attribute("[data-replay=forward]", "aria-label") == "ein Ereignis vor"
    assert page.get_attribute("#replay-controls", "aria-label") == "Steuerung der Aufzeichnung"
    assert page.inner_text("#replay-play") == "▶ abspielen"
    assert page.inner_text("#replay-position") == f"Ereignis 0 / {events}"
    assert page.title() == f"Aufzeichnung: {header['table']}"
    german.close()

    pseudo = pseudo_context(browser)
    page = pseudo.new_page()
    page.goto(out.as_uri())
    page.wait_for_selector("#replay-controls")
    names = [header["table"], *(p["name"] for p in header["players"])]
    assert unmarked_words(page, page.evaluate(_SEEN_REPLAY, names)) == [], "at the start"
    page.click("[data-replay=round-forward]")
    page.click("[data-replay=turn-forward]")
    assert unmarked_words(page, page.evaluate(_SEEN_REPLAY, names)) == [], "in a round"
    page.click("[data-replay=end]")
    page.wait_for_selector("#match-result")
    assert unmarked_words(page, page.evaluate(_SEEN_REPLAY, names)) == [], "at the end"
    pseudo.close()
