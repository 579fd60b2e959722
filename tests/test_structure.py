"""The shape of the code, checked: composition across files, and modules of one idea.

design.md section 2: a class cut into several files by a chain of base classes is one
object too big. So no class of the server's shell (``server`` outside ``server.engine``,
whose shape is the engine's own business) inherits from a project class defined in another
module (an interface, a ``typing.Protocol``, may extend another: it holds no state), and a
module past about 400 lines says at its top why it is long.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import server
from server.table import Table
from server.table.broadcast import Broadcast
from server.table.game import TableGame
from server.table.handlers import RequestHandlers
from server.table.public_state import PublicState
from server.table.seating import Seating
from server.table.stand_ins import StandIns

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("protocol", "server", "client")
LONG_MODULE_LINES = 400
LONG_MODULE_REASON = "Why this module is long:"


def shell_modules() -> list[ModuleType]:
    """Every module of ``server`` outside the engine, imported."""
    found = []
    for info in pkgutil.walk_packages(server.__path__, "server."):
        if info.name.startswith("server.engine"):
            continue
        found.append(importlib.import_module(info.name))
    return found


def test_no_server_class_inherits_a_project_class_from_another_module() -> None:
    offenders = []
    modules = shell_modules()
    assert len(modules) > 10, "the walk found too few modules to mean anything"
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue  # imported here, checked where it is defined
            for base in cls.__mro__[1:]:
                if getattr(base, "_is_protocol", False):
                    continue
                home = base.__module__.split(".")[0]
                if home in PROJECT_PACKAGES and base.__module__ != cls.__module__:
                    offenders.append(f"{cls.__module__}.{cls.__qualname__} <- {base.__module__}")
    assert offenders == []


def test_the_table_holds_its_parts() -> None:
    parts = {
        "seating": Seating,
        "game": TableGame,
        "broadcast": Broadcast,
        "public": PublicState,
        "stand_ins": StandIns,
        "handlers": RequestHandlers,
    }
    source = inspect.getsource(Table.__init__)
    for attribute, kind in parts.items():
        assert f"self.{attribute} = {kind.__name__}(" in source, attribute
    assert Table.__mro__ == (Table, object)


def test_a_long_module_says_why_at_its_top() -> None:
    unexplained = []
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if text.count("\n") <= LONG_MODULE_LINES:
                continue
            docstring = text.split('"""')[1] if text.startswith('"""') else ""
            if LONG_MODULE_REASON not in docstring:
                unexplained.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
    assert unexplained == []


def test_no_production_module_loads_trio_testing() -> None:
    # issue 27: the server once seated its bots over trio.testing's memory streams. Every
    # module of the three packages is imported in a fresh interpreter (pytest itself has
    # trio.testing loaded; a __main__ would run), which then names what it loaded.
    script = (
        "import importlib, pkgutil, sys\n"
        f"for name in {PROJECT_PACKAGES!r}:\n"
        "    package = importlib.import_module(name)\n"
        "    for info in pkgutil.walk_packages(package.__path__, name + '.'):\n"
        "        if not info.name.endswith('__main__'):\n"
        "            importlib.import_module(info.name)\n"
        "print(len(sys.modules), 'trio' in sys.modules, 'trio.testing' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules, trio_loaded, testing_loaded = done.stdout.split()
    assert int(modules) > 150 and trio_loaded == "True"
    assert testing_loaded == "False"
