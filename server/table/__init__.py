"""One table of the server, as composed parts run by one task that reads one inbox.

``Table`` (table.py) holds the parts and runs the task; the lobby only calls its
``submit``, ``peer_gone``, ``stop`` and the read-only questions. See docs/architecture.md
for the picture of the parts and the path of one command.
"""

from server.table.hooks import TableHooks
from server.table.refusals import RequestRefused
from server.table.table import Table

__all__ = ["RequestRefused", "Table", "TableHooks"]
