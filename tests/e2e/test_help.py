"""``--help`` answers at once: the three commands' help loads none of the heavy libraries
(issue 26 item 9); each command imports what it needs once its arguments are read. The
client's and the bots' help read in the environment's language (issue 29)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("trio", "prompt_toolkit", "zeroconf", "msgpack", "sqlite3", "websockets", "segno")

# Runs the command's entry point as its console script does, then reports sys.modules.
PROBE = """
import contextlib, io, json, sys
from importlib import import_module
module, function = sys.argv[1].split(":")
watched = json.loads(sys.argv[2])
sys.argv = [module, "--help"]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        getattr(import_module(module), function)()
    except SystemExit:
        pass
heavy = sorted(name for name in watched if name in sys.modules)
print(json.dumps({"heavy": heavy, "help": out.getvalue()}))
"""


def _probe(entry: str, env: dict[str, str] | None = None) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, entry, json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=env,
    )
    report: dict[str, object] = json.loads(result.stdout)
    return report


@pytest.mark.parametrize("entry", ["client.cli:main", "server.cli:main", "client.bots.cli:main"])
def test_help_imports_no_heavy_library(entry: str) -> None:
    report = _probe(entry)
    assert str(report["help"]).startswith("usage: ")
    assert report["heavy"] == []


# argparse's own words, a house-rule flag's help from protocol's TableConfig, the words
# protocol adds to it, and the preset's help, each as uno-client --help shows them; and
# uno-bot's own, with the default it adds to a flag's help.
_SKIP_ANY = {
    "de": "--skip-any, --no-skip-any ein Aussetzen trifft einen beliebigen Gegner "
    "(Standard: der des Servers; meist --no-skip-any)",
    "es": "--skip-any, --no-skip-any un Salta señala a cualquier rival "
    "(por defecto: el del servidor; normalmente --no-skip-any)",
}
_TRANSLATED_HELP = {
    "de": (
        "Aufruf: uno-client",
        "Optionen:",
        "-h, --help diese Hilfe zeigen und beenden",
        _SKIP_ANY["de"],
        "--preset {official,party,family} mit einer Vorgabe an Hausregeln beginnen",
    ),
    "es": (
        "uso: uno-client",
        "opciones:",
        "-h, --help muestra esta ayuda y sale",
        _SKIP_ANY["es"],
        "--preset {official,party,family} empieza con un conjunto de reglas de la casa",
    ),
}
_BOT_HELP = {
    "de": (
        "Aufruf: uno-bot",
        "wo gespielt wird:",
        "--bots BOTS Bots in diesem Prozess (Standard: 4)",
        "Optionen des Tisches (mit --create):",
        _SKIP_ANY["de"],
    ),
    "es": (
        "uso: uno-bot",
        "dónde jugar:",
        "--bots BOTS bots en este proceso (por defecto: 4)",
        "opciones de la mesa (con --create):",
        _SKIP_ANY["es"],
    ),
}


@pytest.mark.parametrize("lang", sorted(_TRANSLATED_HELP))
def test_client_help_reads_in_the_environments_language_and_stays_light(
    lang: str, tmp_path: Path
) -> None:
    env = {**os.environ, "LANGUAGE": lang, "XDG_CONFIG_HOME": str(tmp_path)}
    report = _probe("client.cli:main", env)
    assert report["heavy"] == []
    shown = " ".join(str(report["help"]).split())
    for words in _TRANSLATED_HELP[lang]:
        assert words in shown, words


@pytest.mark.parametrize("lang", sorted(_BOT_HELP))
def test_bot_help_reads_in_the_environments_language_and_stays_light(lang: str) -> None:
    report = _probe("client.bots.cli:main", {**os.environ, "LANGUAGE": lang})
    assert report["heavy"] == []
    shown = " ".join(str(report["help"]).split())
    for words in _BOT_HELP[lang]:
        assert words in shown, words


def test_server_help_mentions_history() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "server", "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert "uno-server history" in result.stdout
