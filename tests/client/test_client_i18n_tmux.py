"""The real ``uno-client`` in tmux in German and in Spanish (issue 29): a whole solo match
to its end, read off the screen in the chosen language (German by ``--lang``, Spanish by
the config file's ``lang``), and the pseudo-locale's screens with every word marked.

The words the test looks for come from the shipped catalogue, the same the client reads,
so a missing translation or an English line fails it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from test_client_i18n import _unmark, unmarked
from test_client_tmux import HEIGHT, TOKEN, WIDTH, Terminal, client_command, need_tmux

from client.i18n import PSEUDO, translations

pytestmark = [pytest.mark.e2e]

SOLO = (
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


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """Start ``uno-client`` with ``args`` (and ``env``) on a tmux server of the test's own."""
    need_tmux()
    socket = f"uno-i18n-test-{os.getpid()}-{secrets.token_hex(4)}"

    def run(*args: str, env: dict[str, str] | None = None) -> Terminal:
        term = Terminal(socket, "play")
        command = ["new-session", "-d", "-s", term.session, "-x", str(WIDTH), "-y", str(HEIGHT)]
        base = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path)}
        for key, value in {**base, **(env or {})}.items():
            command += ["-e", f"{key}={value}"]
        term.tmux(*command, client_command(*args))
        return term

    try:
        yield run
    finally:
        subprocess.run(
            ["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10, check=False
        )


class Words:
    """What the screen says in ``lang``, from its catalogue."""

    def __init__(self, lang: str) -> None:
        catalogue = translations(lang)
        self.say = catalogue.gettext
        self.picker = catalogue.pgettext("picker", "Choose the colour")
        self.hand = self.say("Your hand ({count})").split("{")[0]
        self.discard = self.say("Discard:")
        self.drawn = self.say("YOUR TURN: play the drawn {card} (Enter) or pass (p)")

    def before(self, sentence: str) -> str:
        """The words of a sentence before its first placeholder."""
        return self.say(sentence).split("{")[0].strip()


def _turn_line(words: Words, lines: list[str]) -> str:
    row = next((i for i, line in enumerate(lines) if line.startswith(" " + words.discard)), None)
    return lines[row + 1] if row is not None and row + 1 < len(lines) else ""


def _hand(words: Words, lines: list[str]) -> list[tuple[str, str]]:
    row = next(i for i, line in enumerate(lines) if line.startswith(" " + words.hand))
    cards, marks = lines[row + 1], lines[row + 2]
    return [(m.group(), marks[m.start() : m.end()].strip()) for m in TOKEN.finditer(cards)]


def _pick_red(terminal: Terminal, words: Words) -> None:
    terminal.wait_for(lambda s: any(words.picker in x for x in s), "the colour picker")
    terminal.keys("r")


def _play_a_turn(terminal: Terminal, words: Words, lines: list[str]) -> None:
    turn = _turn_line(words, lines)
    drawn_prefix = words.drawn.split("{")[0]
    if words.say("A Wild Draw Four on you: y challenge · n accept") in turn:
        terminal.keys("n")
    elif words.say("A Draw Two on you: answer with a +2 (Enter) or d to draw") in turn:
        terminal.keys("d")
    elif words.say("YOUR TURN: choose the colour for the first card (Enter)") in turn:
        terminal.keys("Enter")
        _pick_red(terminal, words)
    elif drawn_prefix in turn:
        drawn = turn.split(drawn_prefix)[1].split()[0]
        terminal.keys("Enter")
        if drawn.startswith("W"):
            _pick_red(terminal, words)
    else:
        tokens = _hand(words, lines)
        playable = [i for i, (_, mark) in enumerate(tokens) if mark in ("•", "▲")]
        if not playable:
            terminal.keys("p" if words.say("p pass") in lines[-1] + lines[-2] else "d")
            return
        selected = next(i for i, (label, _) in enumerate(tokens) if label.startswith("["))
        moves = playable[0] - selected
        terminal.keys(*(["Right"] * moves if moves >= 0 else ["Left"] * -moves), "Enter")
        if tokens[playable[0]][0].strip("[]").startswith("W"):
            _pick_red(terminal, words)
        if len(tokens) == 2:
            terminal.keys("u")


def _progress(words: Words, lines: list[str]) -> tuple[str, ...] | None:
    """What changes when the game moves on: the turn line and the hand (as
    ``test_client_tmux.progress``: not the log, which runs ahead of the view); None while
    a picker is open (a move half made)."""
    if any(line.startswith(f"── {words.picker}") for line in lines):
        return None
    row = next((i for i, line in enumerate(lines) if line.startswith(" " + words.hand)), None)
    cards = lines[row + 1] if row is not None and row + 1 < len(lines) else ""
    return _turn_line(words, lines), cards.replace("[", " ").replace("]", " ")


def _moved(words: Words, before: tuple[str, ...] | None, screen: list[str]) -> bool:
    now = _progress(words, screen)
    return now is not None and now != before


def _play_to_the_end(terminal: Terminal, words: Words) -> list[str]:
    match_over, round_over = words.say("Match over"), words.say("Round over")
    terminal.wait_for(lambda s: any(words.hand in x for x in s), "the dealt hand")
    rounds = 0
    for _ in range(400):
        lines = terminal.wait_for(
            lambda s: (
                "▶" in _turn_line(words, s)
                or round_over in _turn_line(words, s)
                or match_over in _turn_line(words, s)
            ),
            "my turn or a round's end",
        )
        turn = _turn_line(words, lines)
        if match_over in turn:
            return lines
        if round_over in turn:
            rounds += 1
            assert any(words.before("{player} won round {round}!") in x for x in lines), lines
            terminal.keys("Enter")
            terminal.wait_for(lambda s: round_over not in _turn_line(words, s), "the next round")
            continue
        before = _progress(words, lines)
        _play_a_turn(terminal, words, lines)
        terminal.wait_for(partial(_moved, words, before), "the game to move")
    pytest.fail("the match did not end in 400 decisions")


def _check_the_end(words: Words, lines: list[str]) -> None:
    won = words.say("{players} won the match!").split("}")[-1].strip()
    assert any(won in line for line in lines), "\n".join(lines)
    assert any(words.say("r: rematch with the same seats") in line for line in lines)
    assert not any("YOUR TURN" in line or "Your hand" in line for line in lines), lines


def test_a_solo_match_to_its_end_in_german(start: Callable[..., Terminal]) -> None:
    terminal = start(*SOLO, "--lang", "de")
    words = Words("de")
    lines = _play_to_the_end(terminal, words)
    _check_the_end(words, lines)
    assert any(" gewinnt die Partie!" in line for line in lines), "\n".join(lines)
    terminal.keys("q")
    terminal.wait_until_closed()


def test_a_solo_match_to_its_end_in_spanish(start: Callable[..., Terminal], tmp_path: Path) -> None:
    config = tmp_path / "config" / "uno-lan" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"lang": "es"}), encoding="utf-8")
    terminal = start(*SOLO, env={"LANG": "de_DE.UTF-8"})  # the config's setting wins
    words = Words("es")
    lines = _play_to_the_end(terminal, words)
    _check_the_end(words, lines)
    assert any(" gana la partida!" in line for line in lines), "\n".join(lines)
    terminal.keys("q")
    terminal.wait_until_closed()


def test_every_line_of_the_real_screens_is_marked_in_the_pseudo_locale(
    start: Callable[..., Terminal],
) -> None:
    terminal = start(*SOLO, env={"LANGUAGE": PSEUDO})
    hand = re.compile(r"⟦Your hand \(\d+\)⟧")
    seen = {"table": terminal.wait_for(lambda s: any(hand.search(x) for x in s), "the table")}
    terminal.keys("?")
    seen["help"] = terminal.wait_for(lambda s: any("⟦Keys:⟧" in x for x in s), "the help page")
    found = []
    for screen, lines in seen.items():
        blanked = _unmark("\n".join(lines)).split("\n")
        for number, (line, left) in enumerate(zip(lines, blanked, strict=True), start=1):
            # Names are never translated: the player's, the bot's and the table's.
            words = unmarked(re.sub(r"Tester's table|Tester|Bot 1", " ", left))
            if words:
                found.append(f"{screen}, line {number}: {words!r} in {line.strip()!r}")
    assert not found, "words that bypass the catalogue:\n" + "\n".join(found)
