"""The page's copy of the clients' sentences: ``server/web/sentences.js``, every shipped
language's table (the log's sentences from ``client.ui.sentences``, card names, house
rules, options' names and the page's own words, ``PAGE_WORDS``) and the page's ``say``,
``coded`` and ``plural``, which read it as the terminal's do. ``make web-sentences``
writes it (``page_module``); a test fails when the shipped copy is not current."""

from __future__ import annotations

import json

from client.i18n import LANGUAGES, PSEUDO, translations
from client.ui.faces import COLOR_NAMES, rank_name
from client.ui.page_words import PAGE_WORDS
from client.ui.sentences import SENTENCES
from client.ui.words import ROW_NAMES
from protocol.options import HOUSE_RULE_NAMES

__all__ = ["card_words", "language_table", "page_module"]

_PAGE_MODULE = """\
// Written by client/ui/page_copy.py from client/ui/sentences.py's SENTENCES (`make
// web-sentences`); do not edit: the terminal's log and this page's read the same table,
// and a test fails when this copy is not current.

// Every shipped language's sentences, by key; English is the code's own.
export const CATALOGUES = {table};

export const LANGUAGES = Object.keys(CATALOGUES);
export const SENTENCES = CATALOGUES.en;
// A check, not a language (client/i18n.py): every sentence shows inside ⟦ ⟧, so words
// outside the marks on the page bypassed this table.
export const PSEUDO = {pseudo};
let chosen = "en";

// Read every later sentence in `lang` (a shipped one or PSEUDO; else English).
export function setLanguage(lang) {{
  chosen = lang in CATALOGUES || lang === PSEUDO ? lang : "en";
}}

// The language chosen: a shipped one or PSEUDO.
export function language() {{
  return chosen;
}}

// The sentence `key` with its {{placeholders}} filled in from `fields`.
export function say(key, fields = {{}}) {{
  const text =
    chosen === PSEUDO ? `⟦${{SENTENCES[key]}}⟧` : (CATALOGUES[chosen][key] ?? SENTENCES[key]);
  return text.replace(/\\{{(\\w+)\\}}/g, (all, name) =>
    name in fields ? String(fields[name]) : all,
  );
}}

// The sentence for a server's `code` under `prefix` ("rejected", "error", "left"), or the
// server's own words `fallback` (then the code) for a code this page does not know. A
// field of the case that is given (a rejection's option, card or limit) picks the
// sentence that names it, `rejected.<code>.<field>` (a number's by its plural form).
export function coded(prefix, code, fallback, fields = {{}}) {{
  const key = `${{prefix}}.${{code}}`;
  if (code == null || !(key in SENTENCES)) return fallback || String(code ?? "");
  for (const [name, value] of Object.entries(fields)) {{
    if (value == null) continue;
    if (typeof value === "number" && `${{key}}.${{name}}.one` in SENTENCES) {{
      return say(plural(`${{key}}.${{name}}`, value), {{ ...fields, count: value }});
    }}
    if (`${{key}}.${{name}}` in SENTENCES) return say(`${{key}}.${{name}}`, fields);
  }}
  return say(key, fields);
}}

// The key of the form of `key` for `count`: `key.one` for 1, else `key.other`.
export function plural(key, count) {{
  return count === 1 ? `${{key}}.one` : `${{key}}.other`;
}}
"""


def language_table(lang: str, words: dict[str, str] = SENTENCES) -> dict[str, str]:
    """Every sentence of the table ``words`` (the log's, or ``PAGE_WORDS``) in ``lang``,
    by key (a plural's two English forms are its forms for 1 and for 2: the shipped
    languages have those two)."""
    catalogue = translations(lang)
    table: dict[str, str] = {}
    for key, english in words.items():
        base, _, form = key.rpartition(".")
        if form in ("one", "other") and f"{base}.one" in words:
            one, other = words[f"{base}.one"], words[f"{base}.other"]
            table[key] = catalogue.npgettext(base, one, other, 1 if form == "one" else 2)
        else:
            table[key] = catalogue.pgettext(key, english)
    return table


_PAGE_CARDS = ("RS", "RR", "R+2", "W", "W+4", "WSWAP", "WSHUF", "WCUST", "WDANCE", "WCREEP")
"""A card of every kind the page names: its rank's words go to the page by code part."""


def card_words(lang: str) -> dict[str, str]:
    """The page's card names in ``lang``, by key: a colour by letter (``card-color.R``), a
    rank by the rest of its code (``card-rank.S``, ``card-rank.W+4``), and ``card-name``,
    the order of the two."""
    catalogue = translations(lang)
    words = {f"card-color.{c}": catalogue.pgettext("color", n) for c, n in COLOR_NAMES.items()}
    for code in _PAGE_CARDS:
        part = code if code.startswith("W") else code[1:]
        words[f"card-rank.{part}"] = rank_name(code, catalogue)
    words["card-name"] = catalogue.pgettext("card", "{color} {rank}")
    return words


def _house_rule_names(lang: str) -> dict[str, str]:
    """The page's names of the house rules a ``table-list`` entry sends as codes."""
    catalogue = translations(lang)
    return {
        f"house-rule.{code}": catalogue.pgettext("house-rule", english)
        for code, english in HOUSE_RULE_NAMES.items()
    }


def _option_names(lang: str) -> dict[str, str]:
    """The page's names of the table options, as the terminal's new-table form names them
    (``form-row.seven_o``): the option a ``bad-options`` rejection names."""
    catalogue = translations(lang)
    return {
        f"form-row.{name}": catalogue.pgettext("form-row", english)
        for name, english in ROW_NAMES.items()
    }


def page_module() -> str:
    """The text of the page's ``sentences.js``: every language's table and its ``say``
    (the log's sentences, card names, house rules, options' names and the page's own
    words)."""
    tables = {
        lang: {
            **language_table(lang),
            **card_words(lang),
            **_house_rule_names(lang),
            **_option_names(lang),
            **language_table(lang, PAGE_WORDS),
        }
        for lang in LANGUAGES
    }
    table = json.dumps(tables, indent=2, ensure_ascii=False)
    return _PAGE_MODULE.format(table=table, pseudo=json.dumps(PSEUDO))
