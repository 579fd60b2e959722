"""The language a person reads: one gettext catalogue per language, chosen once at start.

The catalogues are ``client/locale/<lang>/LC_MESSAGES/uno-lan.mo``, compiled from the
``.po`` files beside them (``make catalogues``; see docs/translating.md). English is the
code's own text and needs no catalogue. ``choose(lang)`` picks the active one; ``_``,
``ngettext``, ``pgettext`` and ``npgettext`` read it. Only the standard library is used, so
``--help`` stays light.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "PSEUDO",
    "Pseudo",
    "_",
    "active",
    "choose",
    "language_from",
    "mark",
    "ngettext",
    "npgettext",
    "pgettext",
    "translations",
]

DOMAIN = "uno-lan"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES: tuple[str, ...] = ("en", "de", "es")
"""The shipped languages, English first (the code's own words)."""
PSEUDO = "x-pseudo"
"""A check, not a language: every sentence from the catalogue shows inside ``⟦ ⟧``, so a
line with words outside the marks names a sentence that bypasses the catalogue."""

_ENV_ORDER = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class _Chosen:
    """The language chosen and its catalogue (one per process: one player's client)."""

    lang = "en"
    catalogue: gettext.NullTranslations = gettext.NullTranslations()


def _short(value: str) -> str:
    """``de_DE.UTF-8`` -> ``de``; ``C`` and ``POSIX`` read as English."""
    code = (
        value.split(".", maxsplit=1)[0]
        .split("@", maxsplit=1)[0]
        .split("_", maxsplit=1)[0]
        .split("-", maxsplit=1)[0]
        .strip()
        .lower()
    )
    return "en" if code in ("c", "posix", "") else code


class Pseudo(gettext.NullTranslations):
    """The pseudo-locale's catalogue: the English, marked (see ``PSEUDO``)."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def language_from(flag: str | None, setting: object, environ: Mapping[str, str]) -> str:
    """The language to use: ``--lang`` first, then the config's ``lang``, then the
    environment (``LANGUAGE`` may list several, ``de:en``); the first shipped one wins,
    else English."""
    wanted: list[str] = []
    if flag:
        wanted.append(flag)
    if isinstance(setting, str) and setting:
        wanted.append(setting)
    for variable in _ENV_ORDER:
        value = environ.get(variable)
        if value:
            wanted.extend(value.split(":") if variable == "LANGUAGE" else [value])
            break
    for value in wanted:
        if value == PSEUDO:
            return PSEUDO
        if _short(value) in LANGUAGES:
            return _short(value)
    return "en"


def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue for ``lang`` (English: none, the code's words as they are)."""
    if lang == "en":
        return gettext.NullTranslations()
    if lang == PSEUDO:
        return Pseudo()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def choose(lang: str) -> None:
    """Make ``lang`` the language every sentence is read in from now on."""
    _Chosen.catalogue = translations(lang)
    _Chosen.lang = lang


def active() -> str:
    """The language chosen (``en`` until ``choose`` is called)."""
    return _Chosen.lang


def _(message: str) -> str:
    """``message`` in the chosen language."""
    return _Chosen.catalogue.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a sentence for ``count`` in the chosen language."""
    return _Chosen.catalogue.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the chosen language, told apart from equal words by ``context``."""
    return _Chosen.catalogue.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    """``ngettext`` with a context."""
    return _Chosen.catalogue.npgettext(context, singular, plural, count)


def mark(context: str, message: str) -> str:
    """``message`` as it is, marked for the catalogue under ``context``: for a table built
    at import time, read later with ``pgettext(context, message)``."""
    del context
    return message
