"""The page's language (issue 29): it follows the browser's, its picker changes it, and
the choice is kept for the next visit; a real page from a real server."""

from __future__ import annotations

from e2e_server import ServerProcess
from playwright.sync_api import Browser


def test_the_page_follows_the_browser_and_remembers_the_pick(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _, url = web_server
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.eval_on_selector("#lang", "e => e.value") == "de"
    said = "async () => (await import('/sentences.js')).say('back', { player: 'Ann' })"
    assert page.evaluate(said) == "Ann ist zurück"

    page.select_option("#lang", "es")
    assert page.evaluate(said) == "Ann ha vuelto"
    page.reload()  # the pick outlives the visit, over the browser's German
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.eval_on_selector("#lang", "e => e.value") == "es"
    context.close()
