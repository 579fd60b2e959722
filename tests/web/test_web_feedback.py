"""What the page does besides drawing (issue 25): sound after the first tap with one
remembered toggle, a vibration on your turn, a warning before leaving mid-match, and no
zoom on a double tap. In a real browser against a real server."""

from __future__ import annotations

from e2e_server import ServerProcess
from playwright.sync_api import Browser, Page
from test_web_page import ROUND_OVER, sign_in_and_sit
from web_browser import play_until

# Counts what the page asks of the browser: audio contexts made, tones started, and
# vibrations, in window.__made (the page's own code runs unchanged on top of these).
WATCH = """
window.__made = { contexts: 0, tones: 0, vibrations: [] };
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) {
    super(...args);
    window.__made.contexts += 1;
  }
  createOscillator() {
    const oscillator = super.createOscillator();
    const start = oscillator.start.bind(oscillator);
    oscillator.start = (...args) => {
      window.__made.tones += 1;
      return start(...args);
    };
    return oscillator;
  }
};
Object.defineProperty(navigator, "vibrate", {
  value: (pattern) => {
    window.__made.vibrations.push(pattern);
    return true;
  },
});
"""


def made(page: Page) -> dict[str, object]:
    result = page.evaluate("() => window.__made")
    assert isinstance(result, dict)
    return result


def test_sound_starts_after_the_first_tap_and_your_turn_rings_and_vibrates(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(url)
    # No sound before the player touched the page (browsers forbid it).
    assert made(page)["contexts"] == 0
    sign_in_and_sit(page, url, touch=True)
    play_until(page, ROUND_OVER, touch=True, stop_after=3)
    seen = made(page)
    assert seen["contexts"] == 1
    assert isinstance(seen["tones"], int) and seen["tones"] > 0  # at least your turn
    vibrations = seen["vibrations"]
    assert isinstance(vibrations, list) and vibrations and set(vibrations) == {80}
    # One toggle, remembered across a reload; off means no more tones.
    page.tap("#sound")
    assert page.inner_text("#sound") == "sound off"
    page.reload()
    page.wait_for_selector("#table-screen:not([hidden]) #hand .card")
    assert page.inner_text("#sound") == "sound off"
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.tap("#hand")  # the first tap of this load starts the audio
    play_until(page, ROUND_OVER, touch=True, stop_after=3)
    assert made(page)["tones"] == 0
    context.close()


# A leave of the page, as the browser starts it: whether the page asked to stay.
LEAVE = """() => {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""


def test_leaving_mid_match_asks_first_and_the_lobby_does_not(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    lobby = browser.new_page()
    lobby.goto(url)
    lobby.fill("#name-input", "Cy")
    lobby.click("#name-form button")
    lobby.wait_for_selector("#lobby-screen:not([hidden])")
    assert lobby.evaluate(LEAVE) is False
    lobby.close()

    page = browser.new_page()
    sign_in_and_sit(page, url)
    assert page.evaluate(LEAVE) is True
    page.close()


def test_a_double_tap_does_not_zoom_nor_a_pull_refresh(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    page = browser.new_page()
    page.goto(url)
    style = page.evaluate(
        """() => {
          const s = getComputedStyle(document.body);
          return [s.touchAction, getComputedStyle(document.documentElement).overscrollBehaviorY,
                  s.overscrollBehaviorY];
        }"""
    )
    assert style[0] == "manipulation"
    assert "none" in style[1:]
    page.close()
