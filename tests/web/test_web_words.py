"""Every word on the page comes from the catalogue (issue 29): in the pseudo-locale, whose
every entry reads inside ⟦ ⟧, no visible text of the lobby or the table screens is left
unmarked but names, card labels and numbers, nor any name a screen reader says
(``aria-label``, ``title``, ``placeholder``); and the page's own words read German and
Spanish from the same ``.po`` files as the terminal. A real page from a real server."""

from __future__ import annotations

import re

from e2e_server import ServerProcess
from playwright.sync_api import Browser, BrowserContext, Page
from web_browser import play_until

from client.i18n import PSEUDO

# Each visible text node (a closed <select> shows its chosen option), outside the
# language picker, whose names are names; every element's aria-label, title and
# placeholder, seen or not (a screen reader says them); and the names on the page: the
# product's (the bar's before the server names itself), the server's, the tables', the
# players'.
VISIBLE_TEXTS = """async () => {
  const { state } = await import("/app.js");
  const texts = [];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("#lang, select, noscript")) continue;
    if (parent.checkVisibility()) texts.push(node.textContent);
  }
  for (const select of document.querySelectorAll("select:not(#lang)")) {
    if (select.checkVisibility()) texts.push(select.selectedOptions[0]?.textContent ?? "");
  }
  const names = ["uno-lan", state.serverName, state.tableState?.name];
  names.push(...state.tables.map((t) => t.name));
  names.push(...(state.tableState?.seats ?? []).map((s) => s.name).filter(Boolean));
  names.push(...state.tables.map((t) => t.host).filter(Boolean));
  return { texts, names };
}"""

_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


def unmarked_words(page: Page) -> list[str]:
    """The words of the visible texts outside the pseudo-locale's marks, names taken out
    (card labels and numbers have no run of two letters, so they never count)."""
    seen = page.evaluate(VISIBLE_TEXTS)
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


def test_every_visible_word_of_the_lobby_and_the_table_is_marked(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    ann_browser, bob_browser = pseudo_context(browser), pseudo_context(browser)
    errors: list[str] = []
    ann = ann_browser.new_page()
    ann.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(url)
    ann.fill("#name-input", "Ann")
    assert unmarked_words(ann) == [], "the name screen"
    ann.click("#name-form button")
    ann.wait_for_selector("#lobby-screen:not([hidden]) #tables .empty")
    ann.click("#create summary")
    assert unmarked_words(ann) == [], "the lobby, no table yet, the new-table form open"

    ann.fill("#create-form [name=name]", "evening")
    ann.select_option("#create-form [name=preset]", "party")
    ann.fill("#create-form [name=seats]", "3")
    ann.fill("#create-form [name=bots]", "2")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_selector("#seats .seat >> nth=2")
    ann.wait_for_selector("#seats .seat.empty", state="detached")
    assert unmarked_words(ann) == [], "the table before the start, as its host"

    bob = bob_browser.new_page()
    bob.goto(url)
    bob.fill("#name-input", "Bob")
    bob.click("#name-form button")
    bob.wait_for_selector("#tables .table-entry")
    assert unmarked_words(bob) == [], "the lobby listing a table with house rules"

    ann.click("#start")
    ann.wait_for_selector("#hand .card")
    ann.wait_for_selector("#log li")
    assert unmarked_words(ann) == [], "the table during the match"
    bob.click("#tables .table-entry button >> nth=0")  # watch it
    bob.wait_for_selector("#table-screen:not([hidden]) #seats .seat")
    assert unmarked_words(bob) == [], "the table, watched"
    play_until(ann, "#round-result, #match-result")
    assert unmarked_words(ann) == [], "the round's result"
    assert errors == []
    ann_browser.close()
    bob_browser.close()


def test_the_pages_own_words_read_german_and_spanish(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.inner_text("#name-form button") == "Spielen"
    assert page.inner_text("#name-form label") == "Dein Name"
    said = "async (key) => (await import('/sentences.js')).say(key)"
    assert page.evaluate(said, "page.action.draw") == "Ziehen"
    page.select_option("#lang", "es")
    assert page.inner_text("#name-form button") == "Jugar"
    assert page.evaluate(said, "page.action.draw") == "Robar"
    spanish = [page.evaluate(said, key) for key in ("page.action.pass", "page.your.turn")]
    assert spanish == ["Pasar", "Tu turno: juega una carta o roba"]
    context.close()
