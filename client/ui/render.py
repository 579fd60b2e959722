"""Render the model as formatted text; the table screen is drawn here.

``render(model, width, height, now)`` returns prompt-toolkit fragments for the whole
screen, exactly ``height`` lines of at most ``width`` cells. It reads only the model and
the time it is given, so tests call it directly and the benchmark measures it alone. The
app wraps it as ``FormattedTextControl(lambda: render(model, ...))``.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from client.i18n import _, ngettext, pgettext
from client.ui.faces import card_label, color_name
from client.ui.hints import keys_hint
from client.ui.layout import Line, assemble, rule, text_line, wrap_keys
from client.ui.model import Mode, Model, Screen
from client.ui.page_code import page_code_screen
from client.ui.panes import dance_pane, picker_pane, results_pane
from client.ui.screens import (
    MIN_HEIGHT,
    MIN_WIDTH,
    find_screen,
    header,
    help_screen,
    lobby_screen,
    too_small_screen,
)
from client.ui.standings_screen import standings_screen
from client.ui.turn_line import turn_line, waiting_lines
from client.ui.words import deck_word, level_word
from protocol.commands import (
    Play,
)
from protocol.messages import TableStatus
from protocol.options import DeckName, house_rule_words, house_rules
from protocol.phase import Phase
from protocol.views import View

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "CardClick", "render", "screen_lines"]

CardClick = Callable[[int], None]


def render(
    model: Model, width: int, height: int, now: float, on_card: CardClick | None = None
) -> StyleAndTextTuples:
    """The whole screen as fragments (see the module docstring)."""
    return assemble(screen_lines(model, width, height, now, on_card), width, height)


def screen_lines(
    model: Model, width: int, height: int, now: float, on_card: CardClick | None = None
) -> list[Line]:
    """The screen's lines before they are cut and padded to the terminal: the width
    contract's tests read them (no line but a rule wider than ``width``)."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        lines = too_small_screen(width, height)
    elif model.mode is Mode.HELP:
        lines = help_screen(model, width, height, now)
    elif model.mode is Mode.PAGE_CODE and model.screen is Screen.LOBBY:
        lines = page_code_screen(model, width, height)
    elif model.mode is Mode.STANDINGS and model.screen is Screen.LOBBY:
        lines = standings_screen(model, width, height)
    elif model.screen is Screen.FIND:
        lines = find_screen(model, width, height)
    elif model.screen is Screen.LOBBY:
        lines = lobby_screen(model, width, height)
    else:
        lines = _table(model, width, height, now, on_card)
    return lines


# -- the table --------------------------------------------------------------------------


def _table(
    model: Model, width: int, height: int, now: float, on_card: CardClick | None
) -> list[Line]:
    table = model.table
    assert table is not None
    options = table.options
    view = model.view
    round_no = None if view is None else view.shared.round
    title = f"{table.name} · {deck_word((options.deck or DeckName.CLASSIC).value)}"
    if round_no:
        title += " · " + _("round {round}").format(round=round_no)
    if model.spectating:
        title += " · " + _("watching")
    lines: list[Line] = [header(model, title)]
    rules = house_rules(options)
    if rules:
        said = _("house rules: {rules}").format(rules=house_rule_words(rules, pgettext))
        lines.append(text_line(f" {said}", "class:hint"))
    lines.append(rule(_("players")))
    lines += _seats(model)
    lines.append(rule())
    if view is not None:
        lines += _discard(view, model.replaying and not model.replay_counts_pile)
        lines.append(turn_line(model, now))
    else:
        lines += waiting_lines(model)
    bottom = _bottom(model, width, on_card)
    room = height - len(lines) - len(bottom) - 1
    lines.append(rule(_middle_title(model)))
    lines += _middle(model, width, max(room, 0))
    return lines + bottom


def _seats(model: Model) -> list[Line]:  # noqa: C901 (one mark per fact about a seat)
    table = model.table
    assert table is not None
    view = model.view
    shared = None if view is None else view.shared
    counts = shared.counts if shared else ()
    scores = shared.scores if shared else ()
    exposed = set(shared.exposed if shared else ())
    away = set(shared.away if shared else ())
    eliminated = set(shared.eliminated if shared else ())
    skip_marks = shared.skip_marks if shared else ()
    to_act = shared.to_act if shared else None
    lines: list[Line] = []
    for info in table.seats:
        seat = info.seat
        turn = to_act == seat
        name = info.name or _("(empty)")
        if seat == model.seat and not model.spectating:
            name += " " + _("(you)")
        tags = []
        if table.host_seat == seat:
            tags.append(_("host"))
        if info.bot:
            tags.append(_("bot") + (f" · {level_word(info.level)}" if info.level else ""))
        if info.away or seat in away:
            tags.append(_("away"))
        if seat in eliminated:
            tags.append(_("out"))
        if seat < len(skip_marks) and skip_marks[seat]:
            tags.append(_("skip next"))
        asking = table.state in (TableStatus.BETWEEN_ROUNDS, TableStatus.LOBBY)
        if info.ready and (asking or table.rematch_asked):
            tags.append(_("ready"))
        line: Line = [
            ("class:turn" if turn else "", " ▶ " if turn else "   "),
            ("class:me" if seat == model.seat else "", f"{name:<24}"),
        ]
        if seat < len(counts):
            count = counts[seat]
            word = ngettext("card", "cards", count)
            line.append(("", f"{count:>3} {word:<5}"))
        else:
            line.append(("", " " * 9))
        if seat < len(scores):
            line.append(("", f"{scores[seat]:>6} " + _("pts")))
        if seat < len(counts) and counts[seat] == 1:
            line.append(("class:uno", "  " + _("UNO!")))
        if seat in exposed:
            mine = seat == model.seat and not model.spectating
            line.append(
                (
                    "class:exposed",
                    "  " + (_("FORGOT UNO (u: say it!)") if mine else _("FORGOT UNO (c: catch)")),
                )
            )
        if tags:
            line.append(("class:hint", "  " + " · ".join(tags)))
        lines.append(line)
        hands = view.hands if view is not None else None
        if hands is not None and seat < len(hands):  # a teaching table's spectator
            shown: Line = [("", "      ")]
            for card in hands[seat]:
                shown += [(_card_style(card.code, True), card_label(card.code)), ("", " ")]
            lines.append(shown)
    if shared is not None:
        direction = shared.direction
        goes = _("play goes ↻ clockwise") if direction == 1 else _("play goes ↺ counter-clockwise")
        lines.append(text_line(f"   {goes}", "class:hint"))
    return lines


def _card_style(code: str, usable: bool) -> str:
    letter = code[0] if code[:1] in ("R", "Y", "G", "B") and code != "W" else "W"
    if code.startswith("W"):
        letter = "W"
    return f"class:card-{letter.lower()}" + ("" if usable else "-off")


def _discard(view: View, pile_unknown: bool) -> list[Line]:
    shared = view.shared
    line: Line = [("", " " + _("Discard:") + " ")]
    if shared.top is not None:
        top = shared.top.code
        line.append((_card_style(top, True), f" {card_label(top)} "))
    else:
        line.append(("class:hint", " " + _("none") + " "))
    color = None if shared.color is None else shared.color.value
    in_force = _("colour in force: {color}").format(color=color_name(color).upper())
    line.append(("", f"   {in_force}"))
    if not pile_unknown:  # a replay file written without its deck's size
        pile = _("draw pile {count}").format(count=shared.draw_count)
        line.append(("class:hint", f"   {pile}"))
    pending_draw = shared.pending_draw
    if pending_draw:
        line.append(("class:exposed", "   " + _("+{count} waiting").format(count=pending_draw)))
    return [line]


def _middle_title(model: Model) -> str:
    if model.mode is Mode.PICK and model.picker is not None:
        return model.picker.title
    if model.mode is Mode.DANCE:
        return _("the dance")
    if model.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return _("results")
    return _("what happened")


def _middle(model: Model, width: int, room: int) -> list[Line]:
    if room <= 0:
        return []
    if model.mode is Mode.PICK and model.picker is not None:
        lines = picker_pane(model)
    elif model.mode is Mode.DANCE:
        lines = dance_pane(model)
    elif model.mode is Mode.CONFIRM and model.picker is not None:
        lines = [text_line(f" {model.picker.title} " + _("y yes · n no"), "class:error")]
    elif model.mode is Mode.CONFIRM_LEAVE:
        question = (
            " " + _("Quit the game? The private server stops with it. y yes · n no")
            if model.solo
            else " " + _("Leave the match? A bot will play your seat. y yes · n no")
        )
        lines = [text_line(question, "class:error")]
    elif model.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        lines = results_pane(model, width)
    elif model.spectating and not model.replaying and _bot_seat(model):
        offer = " " + _("You are watching. Enter takes a bot's seat, with its cards and points.")
        lines = [text_line(offer, "class:hint")]
    else:
        lines = []
    log_room = room - len(lines)
    if log_room > 0:
        entries = list(model.log)
        scroll = model.log_scroll
        if scroll:
            log_room -= 1  # the last line says how much is below
            scroll = max(0, min(scroll, len(entries) - log_room))  # the oldest at the top
        if scroll:
            entries = entries[:-scroll]
        shown = entries[-log_room:] if log_room > 0 else []
        log = [text_line(f" {entry}", "class:log") for entry in shown]
        if scroll:
            more = " " + ngettext(
                "↓ {count} newer line below · PgDn / End",
                "↓ {count} newer lines below · PgDn / End",
                scroll,
            ).format(count=scroll)
            log.append(text_line(more, "class:hint"))
        lines = log + lines
        lines = [[] for _ in range(room - len(lines))] + lines
    return lines[-room:]


def _bot_seat(model: Model) -> bool:
    return model.table is not None and any(seat.bot for seat in model.table.seats)


def _bottom(model: Model, width: int, on_card: CardClick | None) -> list[Line]:
    lines: list[Line] = []
    if model.view and not model.spectating:
        lines += _hand(model, width, on_card)
    if model.mode is Mode.CHAT:
        lines.append(text_line(f" {_('say:')} {model.text}▏", "class:input"))
    else:
        style = "class:error" if model.message_is_error else "class:message"
        lines.append(text_line(f" {model.shown_message}", style))
    keys = model.replay_keys or keys_hint(model)
    lines += [text_line(line, "class:keys") for line in wrap_keys(keys, width)]
    return lines


def _hand(model: Model, width: int, on_card: CardClick | None) -> list[Line]:
    hand = model.hand
    playable = {c.card.code for c in model.legal if isinstance(c, Play)}
    selected = min(model.selected, max(len(hand) - 1, 0))
    title = " " + _("Your hand ({count})").format(count=len(hand))
    if model.uno_armed:
        title += "  · " + _("UNO armed: you will say UNO with your play")
    lines: list[Line] = [text_line(title, "class:title")]
    cards: Line = [("", " ")]
    marks: Line = [("", " ")]
    used = 1
    previous_group = None
    for index, code in enumerate(hand):
        group = "W" if code.startswith("W") else code[0]
        gap = "  " if previous_group is not None and group != previous_group else " "
        previous_group = group
        label = card_label(code)
        shown = f"[{label}]" if index == selected else f" {label} "
        cell = get_cwidth(shown) + get_cwidth(gap)
        if used + cell > width - 1:
            lines += [cards, marks]
            cards, marks, used, gap = [("", " ")], [("", " ")], 1, ""
        usable = code in playable
        style = _card_style(code, usable) + (" class:selected" if index == selected else "")
        cards.append(("", gap))
        if on_card is not None:
            cards.append((style, shown, _click_handler(on_card, index)))
        else:
            cards.append((style, shown))
        mark = _MARKS[index == selected, usable]
        size = get_cwidth(shown)
        marks.append(("", gap))
        marks.append(("class:mark", mark.center(size)))
        used += cell
    lines += [cards, marks]
    return lines


_MARKS = {(True, True): "▲", (True, False): "△", (False, True): "•", (False, False): " "}
"""Under each card: selected (playable or not), playable, neither. Readable without colour."""


def _click_handler(on_card: CardClick, index: int) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_card(index)

    return handler
