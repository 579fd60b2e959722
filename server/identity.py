"""Who the server says it is: the identity every welcome (and the mDNS advert) carries."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from importlib import metadata

from protocol.options import TableOptions

__all__ = ["ServerIdentity", "package_version"]


@dataclass(frozen=True, slots=True)
class ServerIdentity:
    """Who the server says it is in every welcome."""

    name: str
    """Display name, at most 32 characters."""
    server_id: str
    """The server's id: random for a fresh identity; the CLI replaces it with the one its
    journal keeps, so that it stays the same across restarts."""
    version: str
    """The package version."""
    features: tuple[str, ...] = ()
    """Optional abilities, by name."""
    web_port: int | None = None
    """The port of the browser page, once it is served (the welcome says it, 1.3)."""
    table_defaults: TableOptions | None = None
    """What the server gives a new table for each option its creator leaves out (the
    welcome says it, 1.3); None where nobody told the identity."""

    @classmethod
    def fresh(cls, name: str) -> ServerIdentity:
        """A new identity for this process: ``name`` cut to 32 characters, a random id, and
        the installed package's version."""
        return cls(name=name[:32], server_id=secrets.token_hex(8), version=package_version())


def package_version() -> str:
    """The installed uno-lan version, or ``0+unknown`` when run from a bare source tree."""
    try:
        return metadata.version("uno-lan")
    except metadata.PackageNotFoundError:
        return "0+unknown"
