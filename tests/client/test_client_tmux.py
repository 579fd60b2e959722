"""The real ``uno-client`` in a real terminal: tmux at 100x30, keys in, screen out. One
test plays a whole solo match to its final scores; another joins a second client to a
``--serve`` host (on 127.0.0.1, not advertised) and the two play a round with a bot.

tmux offers no event for "the screen changed", so the test polls ``capture-pane`` (every
0.1 s, bounded by a deadline) until the text it waits for appears; it never sleeps for a
fixed time hoping something happened.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from protocol.replay_file import read_replay
from protocol.startup import LISTENING

pytestmark = [pytest.mark.e2e]


def _discard_shows(label: str, screen: list[str]) -> bool:
    return any(line.startswith(f" Discard:  {label} ") for line in screen)


def _moved_from(before: object, screen: list[str]) -> bool:
    return progress(screen) not in (None, before)


def need_tmux() -> None:
    """Skip without tmux; under CI (``CI=true``) a missing tmux fails instead."""
    if shutil.which("tmux") is not None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("tmux is not installed, and CI=true requires the terminal tests")
    pytest.skip("tmux is not installed")


WIDTH, HEIGHT = 100, 30
DEADLINE = 60.0
POLL = 0.1
TOKEN = re.compile(r"\[?[^\s\[\]]+\]?")


class Terminal:
    """One tmux session on a private tmux server (its own socket)."""

    def __init__(self, socket: str, session: str) -> None:
        self.socket = socket
        self.session = session

    def tmux(self, *args: str) -> str:
        command = ["tmux", "-L", self.socket, *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, check=True)
        return done.stdout

    def screen(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", self.session).split("\n")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def wait_until_closed(self) -> None:
        """Wait for the program to end (its tmux session goes with it)."""
        deadline = time.monotonic() + DEADLINE
        while self.alive():
            if time.monotonic() > deadline:
                pytest.fail("the program did not end; the screen:\n" + "\n".join(self.screen()))
            time.sleep(POLL)

    def alive(self) -> bool:
        command = ["tmux", "-L", self.socket, "has-session", "-t", self.session]
        done = subprocess.run(command, capture_output=True, timeout=10, check=False)
        return done.returncode == 0

    def wait_for(self, condition: Callable[[list[str]], object], what: str) -> list[str]:
        deadline = time.monotonic() + DEADLINE
        while True:
            lines = self.screen()
            if condition(lines):
                return lines
            if time.monotonic() > deadline:
                pytest.fail(f"gave up waiting for {what}; the screen:\n" + "\n".join(lines))
            time.sleep(POLL)


def client_command(*args: str) -> str:
    """The shell command tmux runs: ``uno-client`` with this Python and ``args``."""
    return shlex.join([sys.executable, "-m", "client", *args])


@pytest.fixture
def open_terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """Start ``uno-client`` with the given arguments in a fresh tmux session (each on the
    test's private tmux server); all of them end with the test."""
    need_tmux()
    # A socket of its own per test: a server killed at the end of the last test may still
    # be going away when the next one starts, and a new session on its socket then fails.
    socket = f"uno-client-test-{os.getpid()}-{secrets.token_hex(4)}"
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    count = 0

    def start(*args: str) -> Terminal:
        nonlocal count
        count += 1
        term = Terminal(socket, f"play{count}")
        command = ["new-session", "-d", "-s", term.session, "-x", str(WIDTH), "-y", str(HEIGHT)]
        for key, value in env.items():
            command += ["-e", f"{key}={value}"]
        term.tmux(*command, client_command(*args))
        return term

    try:
        yield start
    finally:
        subprocess.run(
            ["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10, check=False
        )


@pytest.fixture
def terminal(open_terminal: Callable[..., Terminal]) -> Terminal:
    return open_terminal(
        "--solo",
        "--bots",
        "1",
        "--name",
        "Tester",
        "--server-arg=--seed=5",
        "--server-arg=--bot-think-ms=2500",
    )


def hand_tokens(lines: list[str]) -> list[tuple[str, str]]:
    """(label as shown, mark under it) for every card in the first hand row."""
    row = next(i for i, line in enumerate(lines) if line.startswith(" Your hand ("))
    cards, marks = lines[row + 1], lines[row + 2]
    tokens = []
    for match in TOKEN.finditer(cards):
        under = marks[match.start() : match.end()].strip()
        tokens.append((match.group(), under))
    return tokens


def my_turn(lines: list[str]) -> bool:
    return any("▶ YOUR TURN" in line for line in lines)


def test_solo_game_played_by_keystrokes(terminal: Terminal) -> None:
    lines = terminal.wait_for(lambda s: any("Your hand (7)" in x for x in s), "the dealt hand")
    assert any("Tester (you)" in line for line in lines)
    assert any("Bot" in line for line in lines)
    for _ in range(12):
        lines = terminal.wait_for(my_turn, "my turn")
        assert any(line.startswith(" ▶ Tester (you)") for line in lines), "the turn marker"
        tokens = hand_tokens(lines)
        playable = [i for i, (_, mark) in enumerate(tokens) if mark in ("•", "▲")]
        if not playable:
            terminal.keys("d")
            terminal.wait_for(lambda s: any("you drew" in x for x in s), "my draw")
            continue
        selected = next(i for i, (label, _) in enumerate(tokens) if label.startswith("["))
        target = playable[0]
        label = tokens[target][0].strip("[]")
        moves = target - selected
        terminal.keys(*(["Right"] * moves if moves >= 0 else ["Left"] * -moves))
        terminal.keys("Enter")
        if label.startswith("W"):
            terminal.wait_for(lambda s: any("Choose the colour" in x for x in s), "the picker")
            terminal.keys("r")
        lines = terminal.wait_for(
            partial(_discard_shows, label),
            f"{label} on the discard pile",
        )
        assert any(line.startswith(" you played") for line in lines)
        break
    else:
        pytest.fail("no card could be played in twelve turns")
    terminal.keys("q")
    terminal.wait_for(lambda s: any("Quit the game?" in x for x in s), "the confirmation")
    terminal.keys("y")


def test_without_tmux_ci_fails_instead_of_skipping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        need_tmux()
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        need_tmux()


# -- a whole match ---------------------------------------------------------------------------

CLOCK = re.compile(r"⏱ \d+:\d\d|starts in \d+:\d\d")


def turn_line(lines: list[str]) -> str:
    """The line under the discard pile: whose turn, what the game waits for."""
    row = next((i for i, line in enumerate(lines) if line.startswith(" Discard:")), None)
    return lines[row + 1] if row is not None and row + 1 < len(lines) else ""


def progress(lines: list[str]) -> tuple[str, ...] | None:
    """What changes when the game moves on: the turn line (without its clock) and the
    hand; None while a picker is open (a move half made). Not the log: a move's events
    arrive before the view that follows them, so a screen drawn between the two shows
    the new lines under the old turn line."""
    if any(line.startswith("── Choose ") for line in lines):
        return None
    turn = CLOCK.sub("", turn_line(lines))
    hand = next((i for i, line in enumerate(lines) if line.startswith(" Your hand (")), None)
    cards = lines[hand + 1] if hand is not None and hand + 1 < len(lines) else ""
    return turn, cards.replace("[", " ").replace("]", " ")


def results(lines: list[str]) -> dict[str, int]:
    """The totals in the results pane: name -> total."""
    totals = {}
    for line in lines:
        match = re.match(r"^   (.{16}) +\d+ in hand +(?:\+\d+)? +total +(\d+)", line)
        if match:
            totals[match.group(1).strip()] = int(match.group(2))
    return totals


def play_a_turn(terminal: Terminal, lines: list[str]) -> None:
    """One decision by keys, read off the screen."""
    turn = turn_line(lines)
    if "Wild Draw Four on you" in turn:
        terminal.keys("n")
    elif "A Draw Two on you" in turn:
        terminal.keys("d")
    elif "choose the colour" in turn:
        terminal.keys("Enter")
        terminal.wait_for(lambda s: any("Choose the colour" in x for x in s), "the picker")
        terminal.keys("r")
    elif "play the drawn" in turn:
        # The drawn card is selected (item 1 of issue 15): Enter plays it.
        drawn = turn.split("play the drawn ")[1].split()[0]
        terminal.keys("Enter")
        if drawn.startswith("W"):
            terminal.wait_for(lambda s: any("Choose the colour" in x for x in s), "the picker")
            terminal.keys("r")
    else:
        tokens = hand_tokens(lines)
        playable = [i for i, (_, mark) in enumerate(tokens) if mark in ("•", "▲")]
        if not playable:
            keys_line = lines[-1] + lines[-2]
            terminal.keys("p" if "p pass" in keys_line else "d")
            return
        selected = next(i for i, (label, _) in enumerate(tokens) if label.startswith("["))
        target = playable[0]
        moves = target - selected
        terminal.keys(*(["Right"] * moves if moves >= 0 else ["Left"] * -moves))
        terminal.keys("Enter")
        if tokens[target][0].strip("[]").startswith("W"):
            terminal.wait_for(lambda s: any("Choose the colour" in x for x in s), "the picker")
            terminal.keys("r")
        if len(tokens) == 2:
            # UNO right after the play, as the rules allow. Said before it, its answer
            # (a fresh view) may move the selection between the keys above.
            terminal.keys("u")


def test_a_whole_solo_match_to_its_final_scores_and_its_replay(
    open_terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    terminal = open_terminal(
        "--solo",
        "--bots",
        "1",
        "--name",
        "Tester",
        "--server-arg=--seed=8",
        "--server-arg=--bot-think-ms=150",
        "--server-arg=--hand-size=3",
        "--server-arg=--target-score=100",
    )
    terminal.wait_for(lambda s: any("Your hand (3)" in x for x in s), "the dealt hand")
    rounds_seen: list[dict[str, int]] = []
    for _ in range(400):
        lines = terminal.wait_for(
            lambda s: "▶" in turn_line(s) or "over" in turn_line(s), "my turn or a round's end"
        )
        turn = turn_line(lines)
        if "Match over" in turn:
            break
        before = progress(lines)
        if "Round over" in turn:
            totals = results(lines)
            assert set(totals) == {"you", "Bot 1"}, lines
            assert any(" won round " in line for line in lines)
            rounds_seen.append(totals)
            terminal.keys("Enter")
            terminal.wait_for(lambda s: "Round over" not in turn_line(s), "the next round")
            continue
        play_a_turn(terminal, lines)
        terminal.wait_for(partial(_moved_from, before), "the game to move")
    else:
        pytest.fail("the match did not end in 400 decisions")
    assert rounds_seen, "a match of several rounds (this seed plays six)"
    totals = results(lines)
    assert set(totals) == {"you", "Bot 1"} and max(totals.values()) >= 100, "\n".join(lines)
    winner = next(line for line in lines if "won the match!" in line).split(" won the")[0]
    assert winner.strip() in ("you", "Bot 1")
    assert any("r: rematch" in line for line in lines)  # the solo player hosts
    for earlier, later in zip(rounds_seen, [*rounds_seen[1:], totals], strict=True):
        assert all(later[name] >= earlier[name] for name in earlier)
    # The --no-state server behind --solo kept the match's record: e saves it.
    assert any("e: save the replay" in line for line in lines)
    terminal.keys("e")
    saved_line = terminal.wait_for(lambda s: any("Replay saved as" in x for x in s), "the save")
    (saved,) = (tmp_path / "data" / "uno-lan" / "replays").iterdir()
    assert any(f"saved as {saved.name} in " in line for line in saved_line)
    replay = read_replay(saved.read_text(encoding="utf-8").splitlines())
    assert [player.name for player in replay.players] == ["Tester", "Bot 1"]
    assert [player.score for player in replay.players] == [totals["you"], totals["Bot 1"]]
    assert replay.config.target_score == 100 and replay.config.hand_size == 3
    assert len(replay.rounds()) == len(rounds_seen) + 1
    assert replay.events[-1].kind == "match-over"
    terminal.keys("q")  # the match is over: nothing to abandon, so no question
    terminal.wait_until_closed()


# -- two people and a bot ----------------------------------------------------------------------


def serve_with_a_guest(
    open_terminal: Callable[..., Terminal], *server_args: str
) -> tuple[Terminal, Terminal]:
    """A ``--serve`` host ("Hostess", three seats, one bot, seed 4, hands of three, and
    ``server_args``) and a second client, "Guest", seated at its table; not started."""
    host = open_terminal(
        "--serve",
        "--host",
        "127.0.0.1",
        "--no-mdns",
        "--seats",
        "3",
        "--bots",
        "1",
        "--name",
        "Hostess",
        "--server-arg=--seed=4",
        "--server-arg=--bot-think-ms=150",
        "--server-arg=--hand-size=3",
        *(f"--server-arg={arg}" for arg in server_args),
    )
    lines = host.wait_for(lambda s: any("Waiting for the match" in x for x in s), "the table")
    address = re.search(r"connected · (127\.0\.0\.1:\d+)", lines[0])
    assert address is not None, lines[0]
    guest = open_terminal(
        "--server", address.group(1), "--table", "Hostess's table", "--name", "Guest"
    )
    guest.wait_for(lambda s: any("Hostess" in x for x in s), "the guest at the table")
    host.wait_for(lambda s: any(x.startswith("   Guest") for x in s), "the guest seated")
    return host, guest


def play_both_until(host: Terminal, guest: Terminal, until: str) -> dict[str, list[str]]:
    """Both players take their turns by keys until ``until`` is on both turn lines; the
    two screens then."""
    acted: dict[str, object] = {}
    deadline = time.monotonic() + DEADLINE
    while True:
        screens = {"host": host.screen(), "guest": guest.screen()}
        if all(until in turn_line(s) for s in screens.values()):
            return screens
        for who, terminal in (("host", host), ("guest", guest)):
            lines = screens[who]
            now = progress(lines)
            if "▶" in turn_line(lines) and now is not None and now != acted.get(who):
                acted[who] = now
                play_a_turn(terminal, lines)
        if time.monotonic() > deadline:
            pytest.fail(f"no {until!r} in time; the host's screen:\n" + "\n".join(screens["host"]))
        time.sleep(POLL)


def test_a_second_client_joins_a_serve_host_and_they_play_a_round(
    open_terminal: Callable[..., Terminal],
) -> None:
    host, guest = serve_with_a_guest(open_terminal)
    host.keys("s")
    screens = play_both_until(host, guest, "Round over")
    host_totals, guest_totals = results(screens["host"]), results(screens["guest"])
    assert set(host_totals) == {"you", "Guest", "Bot 1"}
    assert host_totals["Guest"] == guest_totals["you"]
    assert host_totals["you"] == guest_totals["Hostess"]
    assert sum(host_totals.values()) > 0
    winners = [[line for line in screen if " won round 1!" in line] for screen in screens.values()]
    assert all(len(found) == 1 for found in winners), winners


@contextmanager
def local_server(*flags: str, state: Path | None = None) -> Iterator[str]:
    """A real ``uno-server`` on a free port of 127.0.0.1 (no mDNS; no journal unless
    ``state`` names its file) with ``flags``; yields its ``host:port``."""
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    command += ["--no-mdns", *(["--no-state"] if state is None else ["--state", str(state)])]
    server = subprocess.Popen([*command, *flags], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first.startswith(LISTENING), first
        yield first.removeprefix(LISTENING).strip()
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def party_server() -> Iterator[str]:
    """A ``uno-server --preset party`` without its page."""
    with local_server("--no-web", "--preset", "party") as address:
        yield address


def test_the_new_table_form_shows_the_servers_own_defaults(
    open_terminal: Callable[..., Terminal], party_server: str
) -> None:
    lobby = open_terminal("--server", party_server, "--name", "Ann", "--no-mdns")
    lobby.wait_for(lambda s: any("n new table" in x for x in s), "the lobby")
    lobby.keys("n")
    lines = lobby.wait_for(lambda s: any(x.strip().startswith("▶") for x in s), "the form")
    text = "\n".join(lines)
    assert "server's default (party)" in text
    assert "usually official" not in text
    assert "server's default (progressive)" in text


@pytest.fixture
def web_server() -> Iterator[str]:
    """A ``uno-server`` with its browser page, on a free port too."""
    with local_server("--web-port", "0") as address:
        yield address


def test_the_lobby_shows_the_page_and_p_its_qr_code_full_screen(
    open_terminal: Callable[..., Terminal], web_server: str
) -> None:
    lobby = open_terminal("--server", web_server, "--name", "Ann", "--no-mdns")
    lines = lobby.wait_for(lambda s: any("Phones: http://" in x for x in s), "the page line")
    url = re.search(r"Phones: (http://127\.0\.0\.1:\d+/)", "\n".join(lines))
    assert url is not None
    lobby.keys("p")
    code = lobby.wait_for(lambda s: any("Scan to open" in x for x in s), "the QR code")
    assert any(f"Scan to open {url.group(1)}" in x for x in code)
    assert sum("█" in x for x in code) >= 10  # the code itself, not only its words
    lobby.keys("Escape")
    lobby.wait_for(lambda s: any("Phones: http://" in x for x in s), "the lobby again")


def test_a_client_that_starts_watching_mid_round_shows_the_rounds_first_lines(
    open_terminal: Callable[..., Terminal],
) -> None:
    # Ann's table plays its round (two bots, then her turn, where it waits) before the
    # watcher arrives: the round's first lines reach it only by the 1.3 catch-up.
    from test_client_late_seat import host_a_table_with_bots

    started, done = threading.Event(), threading.Event()
    with local_server("--no-web", "--bot-think-ms", "20") as address:
        host, port = address.rsplit(":", 1)
        ann = threading.Thread(target=host_a_table_with_bots, args=(host, int(port), started, done))
        ann.start()
        try:
            assert started.wait(DEADLINE)
            watcher = open_terminal(
                "--server", address, "--name", "Wes", "--no-mdns",
                "--table", "Late night", "--spectate",
            )  # fmt: skip
            lines = watcher.wait_for(
                lambda s: any("first card: " in x for x in s), "the round's first lines"
            )
        finally:
            done.set()
            ann.join(DEADLINE)
    text = "\n".join(lines)
    assert "round 1 begins (dealer: " in text
    assert "watching" in text.lower()


def test_the_standings_screen_saves_the_chosen_matchs_replay(
    open_terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    """Real bots play a match on a server with a journal; in the client's standings ``e``
    saves that match's replay, and the file is the one ``uno-server replay`` writes."""
    state = tmp_path / "server.sqlite3"
    with local_server("--no-web", state=state) as address:
        bots = [sys.executable, "-m", "client.bots", "--server", address, "--create"]
        bots += ["--table", "Bots", "--bots", "2", "--games", "1", "--target-score", "60"]
        bots += ["--seed", "4", "--timeout", "90"]
        done = subprocess.run(bots, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        lobby = open_terminal("--server", address, "--name", "Ann", "--no-mdns")
        lobby.wait_for(lambda s: any("h standings" in x for x in s), "the lobby")
        lobby.keys("h")
        # The list comes after the screen: an "e" before it says "no match chosen".
        lobby.wait_for(lambda s: any(" won by bot" in x for x in s), "the match listed")
        lobby.keys("e")
        lines = lobby.wait_for(lambda s: any("Replay saved as" in x for x in s), "the saved line")
    saved = list((tmp_path / "data" / "uno-lan" / "replays").iterdir())
    assert len(saved) == 1 and re.fullmatch(r"uno-\d+-\d{4}-\d\d-\d\d\.jsonl", saved[0].name)
    shown = next(x for x in lines if "Replay saved as" in x)
    assert f"saved as {saved[0].name} in " in shown
    replay = read_replay(saved[0].read_text(encoding="utf-8").splitlines())
    assert replay.table == "Bots" and replay.events[-1].kind == "match-over"
    out = tmp_path / "written.jsonl"
    command = [sys.executable, "-m", "server", "replay", str(replay.match_id), "--out", str(out)]
    written = subprocess.run(
        [*command, "--state", str(state)], capture_output=True, text=True, timeout=60, check=False
    )
    assert written.returncode == 0, written.stderr
    assert saved[0].read_bytes() == out.read_bytes()
