"""Words for people that ``protocol`` defines and a client shows (a flag's help, a house
rule's name): each is marked here for the client's catalogue and translated where it is
shown, since ``protocol`` cannot reach the catalogue (it imports no ``client``).

``mark(context, message)`` returns ``message`` as it is; ``make catalogues`` gathers every
call (docs/translating.md). The code that shows a marked word takes a ``Translate``, the
shape of ``gettext.pgettext``, and reads it through that: ``client.i18n.pgettext`` in the
client, ``as_is`` (English) elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Translate", "as_is", "mark"]

Translate = Callable[[str, str], str]
"""``(context, message) -> message in the reader's language``."""


def mark(context: str, message: str) -> str:
    """``message`` as it is, marked for the catalogue under ``context``."""
    del context
    return message


def as_is(context: str, message: str) -> str:
    """A ``Translate`` that leaves every word English (the server's own help)."""
    del context
    return message
