"""Reading the page in the pseudo-locale (issue 29), whose every catalogue entry reads
inside ⟦ ⟧: what a person sees or a screen reader says, and the words of it that no
catalogue entry marked. Shared by the live page's and the HTML replay's tests."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, Page

from client.i18n import PSEUDO

__all__ = ["SEEN", "VISIBLE_TEXTS", "pseudo_context", "unmarked_words"]

# Each visible text, by the element holding it (a sentence may hold elements: the dance's
# arrows), outside the language picker, whose names are names (a closed <select> shows
# its chosen option); every element's aria-label, title and
# placeholder, seen or not (a screen reader says them); and the names on the page: the
# product's (the bar's before the server names itself), the server's, the tables', the
# players'. A function of the page's state.
SEEN = """(state) => {
  const texts = [];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
    }
  }
  const parents = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("#lang, select, noscript")) continue;
    if (parent.checkVisibility()) parents.add(parent);
  }
  texts.push(...[...parents].map((parent) => parent.textContent));
  for (const select of document.querySelectorAll("select:not(#lang)")) {
    if (select.checkVisibility()) texts.push(select.selectedOptions[0]?.textContent ?? "");
  }
  const names = ["uno-lan", state.serverName, state.tableState?.name];
  names.push(...state.tables.map((t) => t.name));
  names.push(...(state.tableState?.seats ?? []).map((s) => s.name).filter(Boolean));
  names.push(...state.tables.map((t) => t.host).filter(Boolean));
  return { texts, names };
}"""

VISIBLE_TEXTS = f"""async () => {{
  const {{ state }} = await import("/app.js");
  return ({SEEN})(state);
}}"""

_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


def unmarked_words(page: Page, seen: dict[str, list[str]] | None = None) -> list[str]:
    """The words of the visible texts (``seen``, else what the page shows now) outside the
    pseudo-locale's marks, names taken out (card labels and numbers have no run of two
    letters, so they never count)."""
    seen = seen or page.evaluate(VISIBLE_TEXTS)
    names = sorted(filter(None, seen["names"]), key=len, reverse=True)
    found = []
    for text in seen["texts"]:
        left = text
        while _MARKED.search(left):
            left = _MARKED.sub(" ", left)
        for name in names:
            left = left.replace(name, " ")
        words = re.findall(r"[^\W\d_]{2,}", left)
        if words:
            found.append(f"{' '.join(words)!r} in {text!r}")
    return found


def pseudo_context(browser: Browser) -> BrowserContext:
    """A browser of its own (its own storage: a seat is kept per browser) that reads the
    pseudo-locale."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    context.add_init_script(f"localStorage.setItem('uno-lan:lang', '{PSEUDO}')")
    return context
