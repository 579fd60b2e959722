"""The language a person reads: one gettext catalogue per language, chosen once at start.

The catalogues are ``client/locale/<lang>/LC_MESSAGES/uno-lan.mo``, compiled from the
``.po`` files beside them (``make catalogues``; see docs/translating.md). English is the
code's own text and needs no catalogue. ``choose(lang)`` picks the active one; ``_``,
``ngettext``, ``pgettext`` and ``npgettext`` read it. Only the standard library is used, so
``--help`` stays light.

argparse reads its own words (``usage:``, ``options``, its error lines) through the
``gettext`` and ``ngettext`` it imported from the standard library, in gettext's global
domain; ``choose`` points those two names at this catalogue, which holds the words
``ARGPARSE_WORDS`` lists, so ``--help`` and a bad flag read in the chosen language too.
"""

from __future__ import annotations

import argparse
import gettext
from collections.abc import Mapping
from pathlib import Path

from protocol.words import mark

__all__ = [
    "ARGPARSE_WORDS",
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

ARGPARSE_WORDS: tuple[str | tuple[str, str], ...] = (
    "usage: ",
    "positional arguments",
    "options",
    "show this help message and exit",
    "%(prog)s: error: %(message)s\n",
    "argument %(argument_name)s: %(message)s",
    "unrecognized arguments: %s",
    "not allowed with argument %s",
    "ignored explicit argument %r",
    "the following arguments are required: %s",
    "one of the arguments %s is required",
    "expected one argument",
    "expected at most one argument",
    "expected at least one argument",
    ("expected %s argument", "expected %s arguments"),
    "ambiguous option: %(option)s could match %(matches)s",
    "invalid %(type)s value: %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)",
)
"""The words of argparse (as Python 3.11 words them) that ``uno-client``'s and
``uno-bot``'s command lines can show, as argparse asks for them: without a context, a
plural as its two English forms. ``make catalogues`` puts them in the catalogue; one
argparse no longer asks for only goes unused."""


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
    """Make ``lang`` the language every sentence is read in from now on (argparse's own
    words included)."""
    _Chosen.catalogue = translations(lang)
    _Chosen.lang = lang
    # argparse calls the module globals it bound at import (``from gettext import gettext
    # as _, ngettext``); rebinding them is the one way to give it a catalogue other than
    # gettext's global domain, which only the environment chooses.
    setattr(argparse, "_", _)  # noqa: B010 (argparse's private name, not a typed attribute)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010


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
