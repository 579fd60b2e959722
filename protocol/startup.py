"""What ``uno-server`` says on standard output as it starts, and the port it listens on by
default: in one place, so that a client which starts a server (``--solo``, ``--serve``)
reads exactly what the server writes.

The lines, in order: ``LISTENING`` with the first address it bound (``HOST:PORT``, always),
``REACHABLE`` with its addresses for other machines (comma-separated, when it has some), and
``PAGE`` with its browser page's URL (when it serves one).
"""

from __future__ import annotations

__all__ = ["DEFAULT_PORT", "LISTENING", "PAGE", "REACHABLE"]

DEFAULT_PORT = 7531
"""The port a server listens on unless told otherwise (``--serve`` asks for it first)."""

LISTENING = "uno-server listening on "
"""The first line's start; the address follows."""

REACHABLE = "reachable at: "
"""The start of the line of addresses for other machines."""

PAGE = "browser page: "
"""The start of the line naming the browser page's URL."""
