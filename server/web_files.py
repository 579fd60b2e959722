"""The browser page's files, as the web port serves them: only these, read once at start.

The page is static files shipped in the wheel as package data of ``server`` (its ``web``
folder). ``ShippedFiles`` reads them into memory when the server starts and answers a
request path with one of them or with nothing: a path is looked up in a table of the
files' names, never joined to a folder, so no request can reach outside them.

Every answer carries headers that keep the page to itself: a Content-Security-Policy
that lets it load only its own files and connect only to its own ``ws:`` origin, named
explicitly (older Safari does not count ``ws:`` as ``'self'``), no framing, no sniffing.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from server.web_names import WebNames

__all__ = ["PAGE_FOLDER", "ShippedFile", "ShippedFiles", "WebDoor", "content_security_policy"]

PAGE_FOLDER = "web"
"""The folder of package ``server`` that holds the page."""

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
}


@dataclass(frozen=True, slots=True)
class ShippedFile:
    """One file of the page."""

    body: bytes
    content_type: str


class ShippedFiles:
    """The page's files by URL path (``/`` is ``index.html``)."""

    def __init__(self, files: dict[str, ShippedFile]) -> None:
        self._files = dict(files)
        if "/index.html" in self._files:
            self._files["/"] = self._files["/index.html"]

    @classmethod
    def load(cls) -> ShippedFiles:
        """Read every file of the page shipped with the package."""
        found: dict[str, ShippedFile] = {}
        root = resources.files("server").joinpath(PAGE_FOLDER)
        pending = [(root, "")]
        while pending:
            folder, prefix = pending.pop()
            for entry in folder.iterdir():
                if entry.name.startswith((".", "_")):
                    continue
                if entry.is_dir():
                    pending.append((entry, f"{prefix}/{entry.name}"))
                    continue
                suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
                kind = _TYPES.get(suffix)
                if kind is not None:
                    found[f"{prefix}/{entry.name}"] = ShippedFile(entry.read_bytes(), kind)
        return cls(found)

    @property
    def paths(self) -> frozenset[str]:
        """Every path that answers."""
        return frozenset(self._files)

    @property
    def total_bytes(self) -> int:
        """The page's weight: every file once."""
        return sum(len(f.body) for p, f in self._files.items() if p != "/")

    def get(self, target: str) -> ShippedFile | None:
        """The file a request target names (its query and fragment ignored), or None."""
        path = target.split("?", 1)[0].split("#", 1)[0]
        return self._files.get(path)


def content_security_policy(host: str) -> str:
    """The policy the page is sent with, for a page asked for as ``http://host``."""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src ws://{host}; manifest-src 'self'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    )


@dataclass(frozen=True, slots=True)
class WebDoor:
    """What the web port answers with: the page's files and the server's own names."""

    files: ShippedFiles
    names: WebNames
