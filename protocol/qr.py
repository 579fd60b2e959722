"""A QR code of a URL as lines of text, for a terminal: what ``uno-server`` prints at start
(``server.web_address``) and what ``uno-client`` shows full screen on a key. One code for
both, here because both may import ``protocol``; ``segno`` (pure Python) is loaded only
when a code is drawn."""

from __future__ import annotations

import io

__all__ = ["qr_lines"]


def qr_lines(url: str) -> list[str]:
    """The code of ``url``, two modules to a character cell (half blocks), dark on light,
    with a quiet border of two modules."""
    import segno  # noqa: PLC0415 (only a code drawn needs it; --help never does)

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue().splitlines()
