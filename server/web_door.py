"""Opening the web port: its listeners, and what it serves (the page and its names).

``uno-server`` (server/cli.py) opens it beside the game port and hands both to
``Server.run``. A web port that cannot be had is a warning, not a failure: the game port
serves every terminal client all the same.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterable

import trio

from server.app import EVERY_INTERFACE, bind_listeners, bound_address, local_addresses
from server.own_addresses import interface_addresses
from server.web_files import ShippedFiles, WebDoor
from server.web_names import WebNames

__all__ = ["open_web_door"]

log = logging.getLogger("uno.server")


async def open_web_door(
    hosts: Iterable[str], port: int | None
) -> tuple[list[trio.SocketListener], WebDoor] | None:
    """Listen for the page on ``hosts`` (as ``bind_listeners``) and ``port``, and load
    what it serves; None when ``port`` is None or cannot be had (logged)."""
    if port is None:
        return None
    try:
        listeners = await bind_listeners(hosts, port)
    except OSError as error:
        log.warning("no browser page: %s", error)
        return None
    return listeners, web_door_for([bound_address(listener) for listener in listeners])


def web_door_for(web_addresses: list[tuple[str, int]]) -> WebDoor:
    """The page's files and the names a browser may use for a server on these addresses."""
    bound = [host for host, _ in web_addresses]
    port = web_addresses[0][1]
    named = set(local_addresses(bound))
    if any(host in EVERY_INTERFACE for host in bound):
        named |= interface_addresses()
    names = WebNames.of(port, named, socket.gethostname())
    return WebDoor(files=ShippedFiles.load(), names=names)
