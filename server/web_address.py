"""Where guests find the browser page: its URL for each LAN address, and a QR code.

``uno-server`` prints these at start (server/cli.py), after its listening lines. A server
only on loopback says its page is for this machine only; a server on a terminal draws a
QR code of the first LAN URL for a phone's camera.
"""

from __future__ import annotations

import ipaddress
import sys

from protocol.qr import qr_lines
from protocol.startup import PAGE
from server.app import format_address, local_addresses

__all__ = ["announce_page", "page_url", "print_qr_code"]


def announce_page(web_addresses: list[tuple[str, int]]) -> None:
    """The page's address for each address others can reach it at, on stdout.

    A server only on loopback says so: a phone cannot reach it.
    """
    if not web_addresses:
        print("no browser page (--no-web, or its port was busy: see the log)", flush=True)
        return
    port = web_addresses[0][1]
    reachable = local_addresses([address for address, _ in web_addresses])
    lan = [page_url(a, port) for a in reachable if not _is_loopback(a)]
    if not lan:
        local = ", ".join(page_url(a, port) for a in reachable)
        print(f"{PAGE}{local} (reachable only from this machine)", flush=True)
    for url in lan:
        print(f"{PAGE}{url}", flush=True)
    if lan and sys.stdout.isatty():
        print_qr_code(lan[0])


def print_qr_code(url: str) -> None:
    """A QR code of ``url`` in the terminal, for a phone's camera."""
    print(f"scan to open {url}:")
    print("\n".join(qr_lines(url)), flush=True)


def page_url(address: str, port: int) -> str:
    """The page's URL at ``address`` and ``port``."""
    return f"http://{format_address(address, port)}/"


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return address == "localhost"
