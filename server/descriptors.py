"""Room for every connection: the process's file-descriptor limit against ``--max-connections``.

Each connection holds one descriptor, and the server needs a few more of its own (the
listeners, the log, zeroconf's sockets, a spare for refusing one connection politely). Many
systems start a process with a soft limit of 1,024 or less although the hard limit allows
far more, and a server past its limit cannot even accept a connection to refuse it. So at
start the soft limit is raised as far as the hard limit allows, and if that is still too
few for the connection cap, the cap is lowered to fit (the caller says so in one line).
Where the platform has no such limit (Windows), nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

__all__ = ["RESERVED_DESCRIPTORS", "DescriptorFit", "fit_connections"]

RESERVED_DESCRIPTORS = 64
"""Descriptors kept for the server itself, beyond one per connection."""


@dataclass(frozen=True, slots=True)
class DescriptorFit:
    """How many connections the descriptor limit leaves room for."""

    max_connections: int
    """The cap to serve with: the one asked for, or lower when the limit is too small."""
    soft_limit: int | None
    """The soft limit now (None where the platform has none)."""

    def lowered_from(self, asked: int) -> str | None:
        """One line for the operator when the cap had to come down, else None."""
        if self.max_connections >= asked:
            return None
        return (
            f"uno-server: the system allows {self.soft_limit} open files, so at most "
            f"{self.max_connections} connections are served instead of {asked}"
        )


def fit_connections(asked: int) -> DescriptorFit:
    """Raise the soft descriptor limit to hold ``asked`` connections if the hard limit
    allows, and say how many fit."""
    if resource is None:
        return DescriptorFit(asked, None)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = asked + RESERVED_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # macOS refuses more than its per-process maximum: keep what we have
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return DescriptorFit(asked, None if soft == resource.RLIM_INFINITY else soft)
    return DescriptorFit(max(1, soft - RESERVED_DESCRIPTORS), soft)
