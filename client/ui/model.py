"""The client's model: plain state the UI renders from, and the reducers that change it.

Everything the screen shows is here. Server messages reduce into it through the one
reducer, ``client.ui.reducer.apply``, which dispatches each to ``apply_view``,
``apply_table_state``, ``apply_event``, ``apply_chat``...; replies go to ``apply_reply``.
Key presses change its UI part (selection, pickers, typed text) through the controller. Nothing here
does I/O or reads a clock: times are passed in, so every reducer is a plain unit test.

Why this module is long: every field the screen shows, each documented, and the reducers
that alone write them read as one: a reducer beside the state it changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from client.i18n import _, mark, pgettext
from client.ui.describe import describe_event, describe_removal, describe_seats, stack_after
from client.ui.faces import card_label, sort_hand
from client.ui.records import Records
from client.ui.sentences import coded, say
from client.ui.words import row_word
from protocol.commands import Dance, Play, SeatCommand
from protocol.events import SeenEvent
from protocol.messages import TableState, TableStatus, TableSummary
from protocol.options import TableOptions
from protocol.phase import Phase
from protocol.rejections import RejectCode
from protocol.views import View

if TYPE_CHECKING:
    from client.discovery import FoundServer

__all__ = [
    "LOG_LINES",
    "Mode",
    "Model",
    "Picker",
    "Screen",
    "apply_chat",
    "apply_connection",
    "apply_discovered",
    "apply_event",
    "apply_reply",
    "apply_table_list",
    "apply_table_state",
    "apply_view",
    "case_words",
    "clear_table",
    "forget_table_lines",
    "refusal_words",
]

LOG_LINES = 200

REFUSED = {
    "join": mark("refusal", "cannot join"),
    "spectate": mark("refusal", "cannot watch the table"),
    "take-bot-seat": mark("refusal", "cannot take the seat"),
    "create-table": mark("refusal", "cannot create the table"),
    "list-tables": mark("refusal", "cannot list the tables"),
    "leave": mark("refusal", "cannot leave the table"),
    "ready": mark("refusal", "cannot say you are ready"),
    "start": mark("refusal", "cannot start the match"),
    "add-bot": mark("refusal", "cannot add a bot"),
    "remove-bot": mark("refusal", "cannot remove the bot"),
    "chat": mark("refusal", "not said"),
    "kick": mark("refusal", "cannot remove the player"),
    "pause": mark("refusal", "cannot pause"),
    "unpause": mark("refusal", "cannot go on"),
    "rematch": mark("refusal", "cannot start a rematch"),
    "resume": mark("refusal", "cannot take the seat back"),
    "close-table": mark("refusal", "cannot close the table"),
    "get-standings": mark("refusal", "cannot show the standings"),
    "list-matches": mark("refusal", "cannot show the latest matches"),
    "rename": mark("refusal", "cannot change your name"),
}
"""How the refusal of each request begins on the message line, in words (never the
request's wire name); Enter on a table in play watches it first, so "spectate" would
puzzle. A request missing here (a newer one) reads "the server said no"."""

REFUSED_PLAY = {
    "play": mark("refusal", "cannot play that"),
    "draw": mark("refusal", "cannot draw"),
    "pass": mark("refusal", "cannot pass"),
    "call-uno": mark("refusal", "cannot say UNO"),
    "catch": mark("refusal", "cannot catch"),
    "challenge": mark("refusal", "cannot challenge"),
    "accept": mark("refusal", "cannot accept"),
    "choose-color": mark("refusal", "cannot choose the colour"),
    "dance": mark("refusal", "the dance was not taken"),
    "refuse-dance": mark("refusal", "cannot refuse the dance"),
    "next-round": mark("refusal", "cannot start the next round"),
}
"""The same for the game's own commands (their ``kind``)."""


class Screen(StrEnum):
    """Which screen is shown; derived from the model (see :attr:`Model.screen`)."""

    FIND = "find"
    LOBBY = "lobby"
    TABLE = "table"


class Mode(StrEnum):
    """What the keys mean right now."""

    NORMAL = "normal"
    PICK = "pick"  # choosing among options: colour, seat, dance name, seat to kick
    DANCE = "dance"  # entering the dance steps with the arrow keys
    CHAT = "chat"  # typing a chat line
    ADDRESS = "address"  # typing host:port on the find screen
    PASSWORD = "password"  # typing a table's password before joining or watching it
    CREATE = "create"  # the new-table form
    HELP = "help"
    CONFIRM_LEAVE = "confirm-leave"
    STANDINGS = "standings"  # the standings screen, over the lobby
    CONFIRM = "confirm"  # y / n to the question in the picker's title (the host's kick, ban)
    RENAME = "rename"  # typing a new name in the lobby

    PAGE_CODE = "page-code"  # the browser page's QR code, full screen, over the lobby


@dataclass(slots=True)
class Picker:
    """A small menu: ``options`` are (value, label); ``purpose`` says what it picks."""

    title: str
    purpose: str
    options: list[tuple[Any, str]]
    index: int = 0

    @property
    def value(self) -> Any:
        return self.options[self.index][0]


@dataclass(slots=True)
class Model:
    """Everything the UI shows. Mutated only by reducers and the controller."""

    name: str
    name_note: str = ""
    """Why ``name`` is not the name typed (cut, or stripped of unshowable characters):
    the find screen and the lobby say so."""
    address: str | None = None
    solo: bool = False
    no_color: bool = False
    connected: bool = False
    status: str = field(default_factory=lambda: _("not connected"))
    server_name: str = ""
    message: str = ""
    message_is_error: bool = False
    # the server's lobby
    tables: list[TableSummary] = field(default_factory=list)
    table_index: int = 0
    kept_seat: str | None = None
    """The table (by id) where this machine keeps a seat of ours that a match moved on
    from: the lobby offers it ("your seat at Ann's table"), Enter on it takes it back."""
    records: Records = field(default_factory=Records)
    """The standings and the latest matches (the standings screen)."""
    # the find screen: servers found on the LAN (client.discovery), live
    discovered: list[FoundServer] = field(default_factory=list)
    server_index: int = 0
    discovery: str = ""
    """What discovery is doing, in words ("" when it does not run: --server, --solo)."""
    server_down: str | None = None
    """Why the server this client started (``--serve``) stopped, while it is down: the
    keys line says so and R starts it again."""
    web_port: int | None = None
    """(1.3) The port of the server's browser page, from its ``welcome``; None if it
    serves none (or speaks an older protocol)."""
    table_defaults: TableOptions | None = None
    """(1.3) What the server gives a new table for the options left out, from its
    ``welcome`` (the new-table form shows them); None if it did not say."""
    friends_at: str | None = None
    """``--serve``: the LAN address and port friends connect to (the server says it)."""
    page_at: str | None = None
    """``--serve``: the browser page's URL on the LAN (the server says it)."""
    # the table
    table: TableState | None = None
    seat: int | None = None
    rebuilt_table: str | None = None
    """The table (by id) this client resumed on a server that restarted since, while that
    table is still paused for its people: its host may close it (``close-table``)."""
    spectating: bool = False
    view: View | None = None
    view_at: float = 0.0
    rematch_at: float | None = None
    """When (monotonic seconds) the table state saying the host asked for a rematch came;
    None while no rematch is asked for."""
    view_behind: bool = False
    """Events newer than the view have arrived (its view follows them): act on nothing yet."""
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    lobby_chat: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    """What was said in the lobby (the lobby's chat pane); table chat stays in ``chat``."""
    # the UI's own state
    mode: Mode = Mode.NORMAL
    selected: int = 0
    picker: Picker | None = None
    draft: list[SeatCommand] = field(default_factory=list)
    uno_armed: bool = False
    dance_steps: list[str] = field(default_factory=list)
    text: str = ""
    form_index: int = 0
    form: dict[str, Any] = field(default_factory=dict)
    entering: tuple[str, str, bool] | None = None
    """The table a password is being typed for: (table id, name, spectate)."""
    finished: bool = False
    last_event: SeenEvent | None = None
    stack: tuple[str, ...] = ()
    """The draw cards played in a row and not yet drawn for (the log names a stack)."""
    bell: bool = True
    """Ring the terminal bell when the game waits for you (the ``m`` key, the config)."""
    bells: int = 0
    """How many times the bell was due: the app rings once for each."""
    help_scroll: int = 0
    """How many lines of the help page are scrolled out of view above."""
    log_scroll: int = 0
    """How many of the newest log lines are scrolled out of view below (0: the newest show)."""
    turns: int = 0
    """Views that changed whose move it is (or the phase): the message line's clock."""
    message_context: tuple[Any, ...] = ()
    message_turn: int = 0
    """The event logged last (a UNO said with a play is not logged twice)."""
    replay_keys: str = ""
    """``uno-client --replay``: the viewer's keys, shown in place of the keys line."""
    replay_counts_pile: bool = False
    """``uno-client --replay`` of a file whose header gives the deck's size: the views
    made from its events count the draw pile (``protocol.draw_pile``), which is shown."""

    # -- derived -------------------------------------------------------------------------

    @property
    def screen(self) -> Screen:
        if self.table is not None:
            return Screen.TABLE
        if self.connected:
            return Screen.LOBBY
        return Screen.FIND

    @property
    def chosen_server(self) -> FoundServer | None:
        """The server selected on the find screen, if any was found."""
        if not self.discovered:
            return None
        return self.discovered[min(self.server_index, len(self.discovered) - 1)]

    @property
    def hand(self) -> list[str]:
        """My cards in display order (grouped by colour, sorted by rank)."""
        if self.view is None:
            return []
        return sort_hand([card.code for card in self.view.hand or ()])

    @property
    def legal(self) -> list[SeatCommand]:
        if self.view is None or self.view_behind:
            return []
        return list(self.view.legal)

    @property
    def phase(self) -> Phase | None:
        return None if self.view is None else self.view.shared.phase

    @property
    def my_turn(self) -> bool:
        return (
            self.view is not None
            and not self.view_behind
            and self.seat is not None
            and self.to_act == self.seat
        )

    @property
    def to_act(self) -> int | None:
        return None if self.view is None else self.view.shared.to_act

    @property
    def selected_card(self) -> str | None:
        hand = self.hand
        if not hand:
            return None
        return hand[min(self.selected, len(hand) - 1)]

    @property
    def is_host(self) -> bool:
        return (
            self.table is not None and self.seat is not None and self.table.host_seat == self.seat
        )

    @property
    def match_running(self) -> bool:
        """True while leaving would abandon a match in progress."""
        return self.table is not None and self.table.state in (
            TableStatus.PLAYING,
            TableStatus.PAUSED,
            TableStatus.BETWEEN_ROUNDS,
        )

    @property
    def replaying(self) -> bool:
        """True in ``uno-client --replay``: a record played back, no server, no seat."""
        return bool(self.replay_keys)

    def legal_of(self, kind: str) -> list[SeatCommand]:
        """The legal commands of one type (``play``, ``draw``, ``catch``...)."""
        return [command for command in self.legal if kind == command.TYPE]

    def plays_of(self, code: str) -> list[Play]:
        """Every legal play of the card ``code`` (its colour, target, dance, UNO variants)."""
        return [c for c in self.legal if isinstance(c, Play) and c.card.code == code]

    def seat_name(self, seat: int | None) -> str:
        """A seat's name as the log says it: ``you`` for my own seat."""
        if seat is None:
            return say("someone")
        if seat == self.seat and not self.spectating:
            return say("you")
        if self.table is not None and 0 <= seat < len(self.table.seats):
            name = self.table.seats[seat].name
            if name:
                return name
        return say("seat.number", seat=seat)

    def remaining_ms(self, now: float) -> int | None:
        """The clock now: the view's remaining time less the time since it arrived; None
        while the server is away (no clock runs for a server that is gone)."""
        if self.view is None or not self.connected:
            return None
        shared = self.view.shared
        # Between rounds nothing is pending, but the pause before the next round runs.
        remaining = shared.pending.remaining_ms if shared.pending else shared.remaining_ms
        if remaining is None:
            return None
        if self.phase == Phase.PAUSED:
            return int(remaining)
        return max(0, int(remaining - (now - self.view_at) * 1000))

    def rematch_ms(self, now: float) -> int | None:
        """While a rematch is asked for: the round break's clock, counted from when the ask
        came (the rematch starts when it runs out); None otherwise."""
        table = self.table
        if table is None or self.rematch_at is None or not self.connected:
            return None
        pause = table.options.round_pause_seconds or 0
        return max(0, int(pause * 1000 - (now - self.rematch_at) * 1000))

    def notify(self, text: str, error: bool = False) -> None:
        """Put a short line on the message bar (see :attr:`shown_message`)."""
        self.message = text
        self.message_is_error = error
        self.message_context = self._message_context()
        self.message_turn = self.turns

    def _message_context(self) -> tuple[Any, ...]:
        table_id = self.table.table_id if self.table is not None else None
        return (self.screen, table_id, None if self.view is None else self.view.shared.round)

    @property
    def shown_message(self) -> str:
        """The message line as shown: a message lasts while its screen, table and round
        do, and for the turn after the one it came in, so none lingers for rounds."""
        if self.message_context != self._message_context() or self.turns > self.message_turn + 1:
            return ""
        return self.message


# -- reducers ---------------------------------------------------------------------------


def apply_connection(model: Model, connected: bool, status: str) -> None:
    """The connection came up or went down; ``status`` says so in words."""
    model.connected = connected
    model.status = status


def apply_discovered(model: Model, servers: list[FoundServer]) -> None:
    """The LAN's servers changed: keep the same server selected when it is still there."""
    chosen = model.chosen_server
    model.discovered = list(servers)
    keys = [server.key for server in model.discovered]
    if chosen is not None and chosen.key in keys:
        model.server_index = keys.index(chosen.key)
    else:
        model.server_index = min(model.server_index, max(len(keys) - 1, 0))


def apply_table_list(model: Model, tables: list[TableSummary]) -> None:
    """A fresh page of the server's tables."""
    model.tables = list(tables)
    model.table_index = min(model.table_index, max(len(model.tables) - 1, 0))


def apply_table_state(model: Model, state: TableState, seat: int | None) -> None:
    """The table's public state changed (seats, host, status, options); seats that
    changed at the same table are logged (joined, left, taken over)."""
    before = model.table
    if before is not None and before.table_id == state.table_id:
        old, new = _seat_names(before), _seat_names(state)
        removed = state.removed_seat
        told = None
        if removed is not None and 0 <= removed < min(len(old), len(new)):
            told = describe_removal(old[removed][0], state, model.seat_name)
            new[removed] = old[removed]  # said by the removal's line, not as a plain leave
        for line in describe_seats(old, new):
            model.log.append(line)
        if told is not None:
            model.log.append(told)
    model.table = state
    model.seat = seat
    model.spectating = seat is None


def _seat_names(state: TableState) -> list[tuple[str, bool]]:
    return [(info.name or "", info.bot) for info in state.seats]


def clear_table(model: Model) -> None:
    """We left the table: forget it and everything shown about it."""
    model.table = None
    model.seat = None
    model.rebuilt_table = None
    model.view = None
    model.rematch_at = None
    model.spectating = False
    model.mode = Mode.NORMAL
    model.picker = None
    model.draft = []
    forget_table_lines(model)


def forget_table_lines(model: Model) -> None:
    """Forget the log and chat of the table we were at: nothing of it shows at the next."""
    model.log.clear()
    model.chat.clear()
    model.log_scroll = 0
    model.last_event = None


def apply_view(model: Model, body: View, now: float) -> None:
    """A fresh view: keep the selected card selected if it is still in the hand."""
    previous = model.view
    if _waited_on(previous) != _waited_on(body):
        model.turns += 1
    kept = model.selected_card
    model.view = body
    model.view_at = now
    hand = model.hand
    if kept is not None and kept in hand:
        model.selected = hand.index(kept)
    else:
        model.selected = min(model.selected, max(len(hand) - 1, 0))
    _select_for_turn(model, previous)
    if model.bell and model.my_turn and _waited_on(body) != _waited_on(previous):
        model.bells += 1
    if model.mode is Mode.DANCE and not _dancing_now(model):
        model.mode = Mode.NORMAL
        model.dance_steps = []
    if model.mode is Mode.PICK and model.draft and not _draft_still_legal(model):
        model.mode = Mode.NORMAL
        model.picker = None
        model.draft = []
    if model.uno_armed and len(model.hand) > 2:
        model.uno_armed = False
    if model.mode is Mode.NORMAL and _dancing_now(model):
        model.mode = Mode.DANCE
        model.dance_steps = []


def _waited_on(view: View | None) -> tuple[int, Phase, int | None] | None:
    """What the game waits for (round, phase, seat to act): a new value on my turn is a
    new call for me (my turn, a Wild Draw Four to answer, a dance)."""
    if view is None:
        return None
    return (view.shared.round, view.shared.phase, view.shared.to_act)


def _select_for_turn(model: Model, previous: View | None) -> None:
    """A card just drawn is selected (only it may be played now); a turn that starts
    moves the selection to a playable card when the selected one is not."""
    view = model.view
    hand = model.hand
    drawn = None if view is None or view.drawn is None else view.drawn.code
    before = None if previous is None or previous.drawn is None else previous.drawn.code
    if drawn and drawn in hand and (previous is None or before != drawn):
        model.selected = hand.index(drawn)
        return
    if not model.my_turn or view is None:
        return
    # The same turn goes on (after a draw); a play that gives another turn (a Skip with
    # two players) starts a new one, though the view waited on this seat all along.
    continuing = (
        previous is not None
        and previous.shared.to_act == model.seat
        and previous.shared.round == view.shared.round
        and len(previous.hand or ()) <= len(hand)
    )
    playable = {c.card.code for c in model.legal if isinstance(c, Play)}
    if continuing or not playable or model.selected_card in playable:
        return
    model.selected = next(i for i, code in enumerate(hand) if code in playable)


def _dancing_now(model: Model) -> bool:
    return model.phase == Phase.DANCE and model.my_turn and bool(model.legal_of(Dance.TYPE))


def _draft_still_legal(model: Model) -> bool:
    legal = model.legal
    return any(candidate in legal for candidate in model.draft)


def apply_event(model: Model, body: SeenEvent) -> None:
    """One numbered event: a line in the log, in plain words."""
    line = describe_event(body, model.seat_name, model.last_event, model.stack)
    model.last_event = body
    model.stack = stack_after(model.stack, body.body)
    if line:
        model.log.append(line)
        if model.log_scroll:  # scrolled back: keep the same lines in view
            model.log_scroll = min(model.log_scroll + 1, len(model.log) - 1)


def apply_chat(model: Model, sender: str, text: str) -> None:
    """A chat line: said at our table, it goes into the table's log; said in the lobby
    (we are at no table), into the lobby's chat pane."""
    line = f"{sender}: {text}"
    if model.table is None:
        model.lobby_chat.append(line)
        return
    model.chat.append(line)
    model.log.append("» " + line)


def apply_reply(
    model: Model,
    what: str,
    ok: bool,
    code: str | None,
    message: str,
    *,
    case: Mapping[str, str | int] | None = None,
) -> None:
    """The server answered a command; a rejection becomes a short message line, naming
    what its ``case`` fields give (1.3: the option, the card, the limit)."""
    if ok:
        return
    why = coded("rejected", code, message, **case_words(case or {}))
    if code == RejectCode.LOST_RACE:
        model.notify(_("too late: {why}").format(why=why or what), error=True)
        return
    model.notify(f"{refusal_words(what)}: {why}", error=True)


def case_words(case: Mapping[str, str | int]) -> dict[str, str | int]:
    """A rejection's per-case fields as its sentence shows them: a card by its label, an
    option by its name in the new-table form; a number as it is."""
    words = dict(case)
    if isinstance(card := case.get("card"), str):
        words["card"] = card_label(card)
    if isinstance(option := case.get("option"), str):
        words["option"] = row_word(option)
    return words


def refusal_words(what: str) -> str:
    """How a refusal of the request or command ``what`` begins, in words."""
    words = REFUSED.get(what) or REFUSED_PLAY.get(what)
    return pgettext("refusal", words) if words else _("the server said no")
