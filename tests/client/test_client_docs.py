"""The README and docs/client.md say what the program does."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make_recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"{target}: $(STAMP)") + 1
    recipe = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def test_the_readme_says_what_make_play_runs() -> None:
    (command,) = make_recipe("play")
    assert command.startswith("$(BIN)/")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = [m.group(1).strip() for m in re.finditer(r"^(.*?)#.*what make play runs", readme, re.M)]
    assert said == [command.removeprefix("$(BIN)/")]
