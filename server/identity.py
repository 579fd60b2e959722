"""Who the server says it is: the identity every welcome (and the mDNS advert) carries."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ServerIdentity"]


@dataclass(frozen=True, slots=True)
class ServerIdentity:
    """Who the server says it is in every welcome."""

    name: str
    """Display name, at most 32 characters."""
    server_id: str
    """Random id of this server process."""
    version: str
    """The package version."""
    features: tuple[str, ...] = ()
    """Optional abilities, by name."""
