"""The catalogues' upkeep, a development tool (``make catalogues``; Babel, in the test
extras): build the template from the code, bring every ``.po`` file up to it, compile the
``.mo`` files the wheel ships and write the page's copy (``server/web/sentences.js``).

The template holds the log's table (``client.ui.sentences.SENTENCES``, each key its
context), the page's own words (``client.ui.page_words.PAGE_WORDS``, the same way),
argparse's words (``client.i18n.ARGPARSE_WORDS``), every
``_``/``ngettext``/``pgettext``/``npgettext``/``mark`` call in ``client/`` and every
``mark`` in ``protocol/`` (``protocol.words``: a flag's help, a house rule's name).
``problems(lang)`` lists what keeps a catalogue from being complete and current; a test
runs it for every shipped language.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from client.i18n import ARGPARSE_WORDS, DOMAIN, LANGUAGES, LOCALE_DIR
from client.ui.page_copy import page_module
from client.ui.page_words import PAGE_WORDS
from client.ui.sentences import SENTENCES

__all__ = ["compiled", "po_path", "problems", "template", "update"]

_KEYWORDS = {
    "_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "mark": ((1, "c"), 2),
}
_CLIENT = Path(__file__).parent
_PROTOCOL = _CLIENT.parent / "protocol"
PAGE_COPY = _CLIENT.parent / "server" / "web" / "sentences.js"


def template() -> Catalog:
    """Every sentence the code asks the catalogue for, in English."""
    catalog = Catalog(domain=DOMAIN, project="uno-lan", fuzzy=False)
    for words in (SENTENCES, PAGE_WORDS):
        for key, english in words.items():
            base, _, form = key.rpartition(".")
            if form == "one" and f"{base}.other" in words:
                catalog.add((english, words[f"{base}.other"]), context=base)
            elif not (form == "other" and f"{base}.one" in words):
                catalog.add(english, context=key)
    for argparse_words in ARGPARSE_WORDS:
        catalog.add(argparse_words)
    _extract(catalog, _CLIENT, _KEYWORDS)
    _extract(catalog, _PROTOCOL, {"mark": _KEYWORDS["mark"]})
    return catalog


def _extract(catalog: Catalog, folder: Path, keywords: Mapping[str, Any]) -> None:
    found = extract_from_dir(
        str(folder), [("**.py", "python")], keywords=keywords, strip_comment_tags=True
    )
    for filename, lineno, message, _comments, context in found:
        if "locale" in Path(filename).parts:
            continue
        location = (f"{folder.name}/{filename}", lineno)
        catalog.add(message, locations=[location], context=context)


def po_path(lang: str) -> Path:
    """Where ``lang``'s ``.po`` file lives (its ``.mo`` beside it)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as file:
        return read_po(file, locale=lang, domain=DOMAIN)


def compiled(lang: str) -> bytes:
    """The ``.mo`` bytes ``lang``'s ``.po`` file compiles to."""
    buffer = io.BytesIO()
    write_mo(buffer, _read(lang))
    return buffer.getvalue()


def _key(message: Message) -> tuple[object, object]:
    return (message.id, message.context)


def _missing(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not all(strings)


def problems(lang: str) -> list[str]:
    """Why ``lang``'s catalogue is not complete and current (empty when it is)."""
    catalog = _read(lang)
    wanted = {_key(message) for message in template() if message.id}
    have = {_key(message) for message in catalog if message.id}
    found = [f"{lang}: not in the catalogue: {key!r}" for key in wanted - have]
    found += [f"{lang}: no longer in the code: {key!r}" for key in have - wanted]
    found += [f"{lang}: obsolete entry: {key!r}" for key in catalog.obsolete]
    for message in catalog:
        if message.id and message.fuzzy:
            found.append(f"{lang}: fuzzy: {_key(message)!r}")
        if message.id and _missing(message):
            found.append(f"{lang}: untranslated: {_key(message)!r}")
    mo_file = po_path(lang).with_suffix(".mo")
    if not mo_file.exists() or mo_file.read_bytes() != compiled(lang):
        found.append(f"{lang}: {mo_file.name} is not compiled from the .po file")
    return found


def _new(lang: str) -> Catalog:
    return Catalog(
        locale=lang,
        domain=DOMAIN,
        project="uno-lan",
        copyright_holder="the uno-lan authors",
        header_comment=f"# uno-lan in {lang} (docs/translating.md).",
        fuzzy=False,
    )


def update() -> None:
    """Bring every ``.po`` file up to the template, compile it, write the page's copy."""
    current = template()
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = _read(lang) if path.exists() else _new(lang)
        # The file keeps the date it was made: a date renewed by every run would change
        # both the .po and the .mo files when no sentence did.
        made = catalog.creation_date
        catalog.update(current, update_header_comment=False)
        catalog.creation_date = made
        catalog.obsolete.clear()
        with path.open("wb") as file:
            write_po(file, catalog, width=100, omit_header=False, sort_output=False)
        path.with_suffix(".mo").write_bytes(compiled(lang))
    PAGE_COPY.write_text(page_module(), encoding="utf-8")


if __name__ == "__main__":
    update()
