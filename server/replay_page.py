"""The HTML replay: one self-contained page that plays a finished match (docs/replays.md).

The page is the browser client's own ``index.html`` with its stylesheet and the modules
the table view needs inlined, plus ``replay.js`` (the player) and the record the
JSON-lines replay file holds, inlined as JSON. The modules are joined into one classic
script: each becomes a function whose result is its exports, and an ``import { a } from
"./x.js"`` line becomes a read of module ``x.js``'s exports (the page's modules use only
that form of import). A Content-Security-Policy meta allows exactly the inlined script and
style (by hash) and no connection at all, so the page works opened from a disk and can
reach nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterable
from importlib import resources

from server.web_files import PAGE_FOLDER

__all__ = ["REPLAY_MODULES", "ReplayPageError", "bundle_modules", "replay_page"]

REPLAY_MODULES = ("sentences.js", "language.js", "cards.js", "log.js", "render.js", "replay.js")
"""The page's modules the replay runs, each after the ones it imports."""

_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w.-]+)";\n', re.MULTILINE)
_EXPORT_DECLARATION = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) (\w+)", re.M)
_EXPORT_LIST = re.compile(r"^export \{([^}]*)\};\n", re.MULTILINE)


class ReplayPageError(ValueError):
    """A page module in a form the bundler does not read (a bug of this release)."""


def _page_file(name: str) -> str:
    return resources.files("server").joinpath(PAGE_FOLDER, name).read_text(encoding="utf-8")


def _names(listed: str) -> list[str]:
    return [name.strip() for name in listed.split(",") if name.strip()]


def bundle_modules(modules: Iterable[tuple[str, str]]) -> str:
    """One classic script running the ES modules given as (file name, source), in order."""
    parts = ["const modules = {};"]
    bundled: set[str] = set()
    for name, source in modules:
        exported = _EXPORT_DECLARATION.findall(source)
        for listed in _EXPORT_LIST.findall(source):
            exported.extend(_names(listed))
        body = _EXPORT_LIST.sub("", source)
        body = re.sub(r"^export (?=(?:async )?(?:function|const|let|class) )", "", body, flags=re.M)

        for line in _IMPORT.finditer(body):
            if line.group(2) not in bundled:
                raise ReplayPageError(f"{name} imports {line.group(2)}, not bundled before it")

        def imported(match: re.Match[str]) -> str:
            wanted = _names(match.group(1))
            return f'const {{ {", ".join(wanted)} }} = modules["{match.group(2)}"];\n'

        body = _IMPORT.sub(imported, body)
        if re.search(r"^\s*(?:import|export)\b", body, flags=re.M):
            raise ReplayPageError(f"{name}: an import or export the replay bundler cannot read")
        exports = ", ".join(exported)
        parts.append(f'modules["{name}"] = (() => {{\n{body}\nreturn {{ {exports} }};\n}})();')
        bundled.add(name)
    return "\n".join(parts) + "\n"


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _inline_json(value: object) -> str:
    # Inside <script> no "<" may appear: "</script>" or "<!--" in a name would end it.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def replay_page(lines: Iterable[str]) -> str:
    """The HTML page of a replay file's lines (header first, as ``replay_lines`` gives)."""
    rows = [json.loads(line) for line in lines]
    record = {"header": rows[0], "events": rows[1:]}
    # The hashes are of the elements' exact text, the newline after the tag included.
    script = "\n" + bundle_modules((name, _page_file(name)) for name in REPLAY_MODULES)
    style = "\n" + _page_file("style.css") + _page_file("replay.css")
    if "</script" in script.lower() or "</style" in style.lower():
        raise ReplayPageError("a page file holds a closing tag that would end its inlined element")
    policy = (
        f"default-src 'none'; script-src {_sha256(script)}; style-src {_sha256(style)}; "
        "img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'"
    )
    page = _page_file("index.html")
    # The replay's script says the title again in the reader's language; this one is for
    # a page opened with scripts off. No data-say: the page's own title must not win.
    title = f"Replay: {rows[0].get('table', '')}"
    replacements = {
        '<title data-say="page.title">UNO on the LAN</title>': (
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            f"<title>{_escape(title)}</title>"
        ),
        '<link rel="icon" href="data:,">\n': "",
        '<link rel="stylesheet" href="style.css">': f"<style>{style}</style>",
        '<script type="module" src="app.js"></script>\n': "",
        # At the body's end, so the page's elements are there when the script runs (an
        # inline script cannot be deferred as the page's module is).
        "</body>": (
            f'<script type="application/json" id="replay-record">{_inline_json(record)}</script>\n'
            f"<script>{script}</script>\n</body>"
        ),
    }
    for old, new in replacements.items():
        if old not in page:
            raise ReplayPageError(f"index.html: no {old.strip()!r} to replace")
        page = page.replace(old, new, 1)
    return page


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
