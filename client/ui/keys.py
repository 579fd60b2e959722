"""Key bindings, built by a factory from the model and the controller.

Each group of keys is active under a filter that reads the model (which screen, which
mode), so the same arrow key selects a card, moves a picker or adds a dance step. The
handlers only call the controller; ``KEY_HINTS`` is the help screen's list (its words marked
for the catalogue, read with ``pgettext("key", ...)``).
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from client.i18n import mark
from client.ui.controller import Controller
from client.ui.hints import refused_while_away
from client.ui.model import Mode, Model, Screen
from client.ui.table_form import FORM_TEXT_ROWS
from protocol.commands import Arrow

__all__ = ["KEY_HINTS", "build_key_bindings"]

KEY_HINTS: list[tuple[str, str]] = [
    (mark("key", "← → or h l"), mark("key", "select a card")),
    ("Enter", mark("key", "play the selected card, confirm a choice; between rounds: ready")),
    ("d", mark("key", "draw a card")),
    ("p", mark("key", "pass after drawing")),
    ("u", mark("key", "say UNO (before your play, with it, or right after)")),
    (
        "j",
        mark("key", "jump in out of turn with the card identical to the top card (jump_in tables)"),
    ),
    ("c", mark("key", "catch a player who forgot to say UNO")),
    ("y / n", mark("key", "challenge / accept a Wild Draw Four")),
    ("r y g b", mark("key", "pick a colour in the colour picker")),
    ("1-9, 0", mark("key", "pick a seat by the number the picker shows beside it (0: seat 10)")),
    (
        mark("key", "arrows"),
        mark("key", "dance steps when you must dance; Backspace undoes, x refuses"),
    ),
    ("PgUp / PgDn", mark("key", "scroll the match log back and forward; End shows the newest")),
    ("m", mark("key", "the bell on your turn: on / off (remembered)")),
    ("t", mark("key", "chat")),
    (
        "b / x / s",
        mark("key", "host, before the match: add a bot (of a level) / remove a bot / start"),
    ),
    (
        "k / K / P / r",
        mark("key", "host: kick / ban a person (asks first) / pause or go on / rematch"),
    ),
    (
        "C",
        mark("key", "host, after a server restart, while the table waits: close it (asks first)"),
    ),
    ("R", mark("key", "--serve, when your server stopped: start it again (every seat comes back)")),
    ("e", mark("key", "after the match: save its replay to a file (the message line says where)")),
    ("?", mark("key", "this help, with the table's rule card; ↑/↓ scroll it")),
    ("q", mark("key", "leave the table (asks first during a match); Ctrl-C quits")),
    (
        mark("key", "lobby"),
        mark("key", "↑/↓ choose a table · Enter join (asks a locked table's password)"),
    ),
    ("", mark("key", "a table in play with bots: Enter watches, Enter again takes a bot's seat")),
    ("", mark("key", "s spectate · n new table (type its name and password) · r refresh")),
    ("", mark("key", "h standings: w this week / all time, ↑/↓ and Enter a match's final table")),
    ("", mark("key", "  e saves the chosen match's replay to a file; the line below says where")),
    ("", mark("key", "t chat with everyone in the lobby (their lines show under the tables)")),
    ("", mark("key", "c change your name (remembered for next time)")),
    (
        mark("key", "find"),
        mark("key", "↑/↓ choose a server found on the network · Enter join · a type an address"),
    ),
]


LOG_PAGE = 8
"""Lines PgUp and PgDn scroll the match log by."""


def build_key_bindings(model: Model, controller: Controller) -> KeyBindings:  # noqa: C901 (one binding per key)
    """Every key of the client, each group under a filter on the model."""
    kb = KeyBindings()
    c = controller

    def mode_is(*modes: Mode) -> Filter:
        return Condition(lambda: model.mode in modes)

    def screen_is(screen: Screen) -> Filter:
        return Condition(lambda: model.screen is screen)

    normal = mode_is(Mode.NORMAL)
    at_table = normal & screen_is(Screen.TABLE)
    online = Condition(lambda: model.connected)
    table = at_table & online
    lobby = normal & screen_is(Screen.LOBBY)
    find = normal & screen_is(Screen.FIND)
    typing = mode_is(Mode.CHAT, Mode.ADDRESS, Mode.PASSWORD, Mode.RENAME)

    def on(*keys: str, filter: Filter) -> Callable[[Callable[[], None]], None]:
        def register(action: Callable[[], None]) -> None:
            def handler(event: KeyPressEvent) -> None:
                action()

            kb.add(*keys, filter=filter)(handler)

        return register

    def bind(keys: list[str], action: Callable[[], None], filter: Filter) -> None:
        for key in keys:
            on(key, filter=filter)(action)

    # everywhere
    always = Condition(lambda: True)
    bind(["c-c"], c.quit, always)
    bind(["escape"], c.cancel, always)
    bind(["?"], c.toggle_help, mode_is(Mode.NORMAL, Mode.HELP))
    bind(["R"], c.host.restart_server, normal & Condition(lambda: model.server_down is not None))

    # the table
    bind(["left", "h"], lambda: c.move(-1), at_table)
    bind(["right", "l"], lambda: c.move(1), at_table)
    bind(["enter"], c.play_selected, table)
    bind(["d"], c.draw, table)
    bind(["p"], c.pass_turn, table)
    bind(["u"], c.uno, table)
    bind(["j"], c.jump_in, table)
    bind(["c"], c.catch, table)
    bind(["y"], lambda: c.challenge(True), table)
    bind(["n"], lambda: c.challenge(False), table)
    bind(["pageup"], lambda: c.scroll_log(LOG_PAGE), at_table)
    bind(["pagedown"], lambda: c.scroll_log(-LOG_PAGE), at_table)
    bind(["end"], lambda: c.scroll_log(0), at_table)
    bind(["m"], c.toggle_bell, at_table)
    bind(["t"], c.start_chat, table | lobby)
    bind(["q"], c.leave, table | lobby | find)
    bind(["b"], c.host.add_bot, table)
    bind(["x"], c.host.remove_bot, table)
    bind(["s"], c.host.start, table)
    bind(["k"], c.host.kick, table)
    bind(["K"], lambda: c.host.kick(ban=True), table)
    bind(["P"], c.host.pause, table)
    bind(["r"], c.host.rematch, table)
    bind(["C"], c.host.close_rebuilt, table)
    bind(["e"], c.save_replay, table)

    # while the server is away: the keys above that need it say so and do nothing
    def refuse(key: str) -> Callable[[], None]:
        def say_why() -> None:
            refused_while_away(model, key)

        return say_why

    for key in (
        "Enter",
        "d",
        "p",
        "u",
        "j",
        "c",
        "y",
        "n",
        "t",
        "q",
        "b",
        "x",
        "s",
        "k",
        "K",
        "P",
        "r",
        "C",
    ):
        on(key.lower() if key == "Enter" else key, filter=at_table & ~online)(refuse(key))

    # the help page
    helping = mode_is(Mode.HELP)
    bind(["up", "k"], lambda: c.scroll_help(-1), helping)
    bind(["down", "j"], lambda: c.scroll_help(1), helping)
    bind(["pageup"], lambda: c.scroll_help(-LOG_PAGE), helping)
    bind(["pagedown", " "], lambda: c.scroll_help(LOG_PAGE), helping)

    # pickers
    pick = mode_is(Mode.PICK)
    bind(["left", "up", "h", "k"], lambda: c.pick_move(-1), pick)
    bind(["right", "down", "l", "j"], lambda: c.pick_move(1), pick)
    bind(["enter"], c.pick_confirm, pick)
    for letter in "RYGB":
        on(letter.lower(), filter=pick)(lambda letter=letter: c.pick_value(letter))  # type: ignore[misc]
    for digit in "0123456789":
        on(digit, filter=pick)(lambda digit=digit: c.pick_seat_number(int(digit)))  # type: ignore[misc]

    # the dance
    dance = mode_is(Mode.DANCE)
    for step in Arrow:  # prompt-toolkit names the arrow keys as the protocol names the steps
        on(step.value, filter=dance)(lambda step=step: c.dance_step(step.value))  # type: ignore[misc]
    bind(["backspace"], c.dance_undo, dance)
    bind(["enter"], c.dance_submit, dance)
    bind(["x"], c.refuse_dance, dance)
    bind(["c"], c.catch, dance)
    bind(["?"], c.toggle_help, dance)

    # typing a chat line or an address
    @kb.add(Keys.Any, filter=typing)
    def _typed(event: KeyPressEvent) -> None:
        c.type_text(event.data)

    bind(["backspace"], c.backspace, typing)
    bind(["enter"], c.submit_text, typing)

    # confirmations
    confirm = mode_is(Mode.CONFIRM_LEAVE)
    bind(["y"], lambda: c.confirm_leave(True), confirm)
    bind(["n", "q"], lambda: c.confirm_leave(False), confirm)
    asked = mode_is(Mode.CONFIRM)
    bind(["y"], lambda: c.host.confirm(True), asked)
    bind(["n"], lambda: c.host.confirm(False), asked)

    # the server's lobby
    bind(["up", "k"], lambda: c.lobby.lobby_move(-1), lobby)
    bind(["down", "j"], lambda: c.lobby.lobby_move(1), lobby)
    bind(["enter"], lambda: c.lobby.join_selected(False), lobby)
    bind(["s"], lambda: c.lobby.join_selected(True), lobby)
    bind(["n"], c.lobby.open_form, lobby)
    bind(["r"], c.lobby.refresh, lobby)
    bind(["h"], c.records.open, lobby)
    bind(["c"], c.lobby.start_rename, lobby)

    bind(["p"], c.lobby.toggle_page_code, lobby)
    bind(["p", "escape"], c.lobby.toggle_page_code, mode_is(Mode.PAGE_CODE))

    # the standings screen
    standings = mode_is(Mode.STANDINGS)
    bind(["w"], c.records.toggle_period, standings)
    bind(["up", "k"], lambda: c.records.move(-1), standings)
    bind(["down", "j"], lambda: c.records.move(1), standings)
    bind(["enter"], c.records.toggle_match, standings)
    bind(["r"], c.records.refresh, standings)
    bind(["e"], c.records.export, standings)

    # the new-table form
    form = mode_is(Mode.CREATE)
    bind(["up"], lambda: c.lobby.form_move(-1), form)
    bind(["down"], lambda: c.lobby.form_move(1), form)
    bind(["left"], lambda: c.lobby.form_change(-1), form)
    bind(["right"], lambda: c.lobby.form_change(1), form)
    bind(["enter"], c.lobby.submit_form, form)
    form_text = form & Condition(lambda: model.form_index < len(FORM_TEXT_ROWS))

    @kb.add(Keys.Any, filter=form_text)
    def _form_typed(event: KeyPressEvent) -> None:
        c.lobby.form_type(event.data)

    bind(["backspace"], c.lobby.form_backspace, form_text)

    # finding a server
    bind(["up", "k"], lambda: c.lobby.find_move(-1), find)
    bind(["down", "j"], lambda: c.lobby.find_move(1), find)
    bind(["enter"], c.lobby.join_discovered, find)
    bind(["a"], c.start_address, find)
    return kb
