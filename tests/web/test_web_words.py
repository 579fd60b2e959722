"""Every word on the page comes from the catalogue (issue 29): in the pseudo-locale, whose
every entry reads inside ⟦ ⟧, no visible text of the lobby or the table screens is left
unmarked but names, card labels and numbers, nor any name a screen reader says
(``aria-label``, ``title``, ``placeholder``); and the page's own words read German and
Spanish from the same ``.po`` files as the terminal. A real page from a real server."""

from __future__ import annotations

from e2e_server import ServerProcess
from playwright.sync_api import Browser, BrowserContext, Page
from pseudo_locale import SEEN, pseudo_context, unmarked_words
from web_browser import play_until

from client.i18n import PSEUDO

# The page drawn from a state of our own (the app's, with `drawn` over it) in `lang`,
# once: what is seen then, and the names of the dance's step buttons and of the arrows
# shown. For what a real match shows only now and then.
DRAWN = f"""async ([lang, drawn]) => {{
  const {{ actions, state }} = await import("/app.js");
  const {{ render }} = await import("/render.js");
  const {{ setLanguage }} = await import("/sentences.js");
  setLanguage(lang);
  const shown = {{ ...state, ...drawn }};
  render(shown, actions);
  const labels = (selector) => [...document.querySelectorAll(selector)].map((n) => n.ariaLabel);
  return {{
    ...({SEEN})(shown),
    buttons: labels("#actions .step"),
    arrows: labels("#center .dance [role=img], #actions .entered [role=img]"),
  }};
}}"""

_STEPS = ["up", "left", "down", "right"]
# A Dancing Wild asks our seat for its steps, one already tapped.
_DANCING: dict[str, object] = {
    "screen": "table",
    "seat": 0,
    "picker": None,
    "danceSteps": ["up"],
    "tableState": {
        "table_id": "t",
        "name": "evening",
        "state": "playing",
        "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob", "bot": True}],
        "host_seat": 0,
        "options": {},
    },
    "view": {
        "seat": 0,
        "counts": [1, 4],
        "top": "WDANCE",
        "color": "R",
        "direction": 1,
        "to_act": 0,
        "phase": "dance",
        "draw_count": 80,
        "scores": [0, 0],
        "hand": ["R1"],
        "remaining_ms": None,
        "legal": [{"type": "dance", "steps": _STEPS}, {"type": "refuse-dance"}],
        "dance": {"seat": 1, "dance": "butter", "steps": _STEPS},
    },
}
# The standings with a match won and one a server upgrade cut short.
_MATCH = {"table": "evening", "deck": "bts", "finished_at": 1_700_000_000}
_STANDINGS: dict[str, object] = {
    "screen": "standings",
    "standings": {
        "period": "week",
        "players": [
            {"name": "Ann", "wins": 1, "matches": 2, "points": 50},
            {"name": "Bot 1", "wins": 0, "matches": 2, "points": 0, "bot": True},
        ],
        "matches": [
            {**_MATCH, "winners": ["Ann"], "players": [{"name": "Ann", "score": 50}]},
            {**_MATCH, "winners": [], "note_code": "server-upgraded", "players": []},
        ],
    },
}


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


def set_up_page(context: BrowserContext, url: str) -> Page:
    """The live page opened in ``context``, once it has set itself up (its language
    picker filled), for a state of our own to be drawn over it."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#lang option", state="attached")
    return page


def test_the_dance_steps_are_named_in_words_from_the_catalogue(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    context = pseudo_context(browser)
    page = set_up_page(context, url)
    seen = page.evaluate(DRAWN, [PSEUDO, _DANCING])
    assert seen["buttons"] == ["⟦up⟧", "⟦down⟧", "⟦left⟧", "⟦right⟧"]
    assert seen["arrows"] == ["⟦up⟧", "⟦left⟧", "⟦down⟧", "⟦right⟧", "⟦up⟧"]
    seen["names"].append("Butter")  # a song's title: the same in every language
    assert unmarked_words(page, seen) == [], "the table while our seat dances"
    german = page.evaluate(DRAWN, ["de", _DANCING])
    assert german["buttons"] == ["hoch", "runter", "links", "rechts"]
    assert german["arrows"][-1] == "hoch"
    context.close()


def test_every_word_of_the_standings_with_matches_is_marked(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    context = pseudo_context(browser)
    page = set_up_page(context, url)
    seen = page.evaluate(DRAWN, [PSEUDO, _STANDINGS])
    # A date is the browser's words for it (Intl's, in the chosen language).
    when = "async (at) => (await import('/language.js')).dateWords(at)"
    seen["names"] += ["Ann", "Bot 1", "evening", page.evaluate(when, _MATCH["finished_at"])]
    assert unmarked_words(page, seen) == [], "the standings, a match won and one cut short"
    context.close()
