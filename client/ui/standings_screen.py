"""The standings screen, opened from the lobby with ``h``: who is winning, and the latest
matches with their final tables.

The top half lists wins, matches and points by player (people, then bots), this week or
all time (``w`` switches); the bottom half the latest finished matches, or the chosen
match's final table (Enter). What its keys do is ``client.ui.records_controller``; the
server's answers arrive in ``model.records`` (``client.ui.records``).
"""

from __future__ import annotations

import textwrap
import time

from client.i18n import _, mark, pgettext
from client.ui.layout import Line, rule, text_line
from client.ui.model import Model
from client.ui.screens import footer, header
from client.ui.sentences import coded
from client.ui.words import deck_word
from protocol.errors import LobbyRejectCode
from protocol.messages import MatchRecord, Standing, StandingsPeriod
from protocol.options import TableConfig

__all__ = ["STANDINGS_KEYS", "standings_screen"]

STANDINGS_KEYS = mark(
    "keys",
    "w this week / all time · ↑/↓ match · Enter final table · e save replay · r refresh · Esc back",
)
"""The standings screen's key line (read with ``pgettext("keys", ...)``)."""

_PERIOD_TITLES = {
    StandingsPeriod.WEEK: mark("period", "this week"),
    StandingsPeriod.ALL: mark("period", "all time"),
}
_WEEKDAYS = tuple(mark("weekday", day) for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"))
_MONTHS = tuple(
    mark("month", month)
    for month in (
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    )
)  # fmt: skip


def standings_screen(model: Model, width: int, height: int) -> list[Line]:
    """The standings screen (see the module docstring); ``height`` lines of ``width``."""
    records = model.records
    lines = [header(model, f"{model.server_name or _('server')} · {_('standings')}")]
    lines.append(rule(f"{_('standings')} · {pgettext('period', _PERIOD_TITLES[records.period])}"))
    below = _final_table(records.chosen) if records.showing_match else _match_rows(model)
    room = max(3, height - len(below) - 6)
    if records.refused and records.refused_code == LobbyRejectCode.NO_HISTORY:
        why = (
            _(
                "This server keeps no standings: it was started with --no-state. It "
                "remembers its latest matches until it stops."
            )
            if records.matches
            else _(
                "This server keeps no history: it was started with --no-state, so it "
                "remembers no finished match and has no standings to show."
            )
        )
        lines += [text_line("  " + line) for line in textwrap.wrap(why, width - 4)]
    elif records.refused:
        lines.append(
            text_line(
                "  " + _("The server gives no standings (the line below says why)."), "class:hint"
            )
        )
    else:
        lines += _standing_rows(records.players, records.loaded, room)
    lines.append(rule(_("final table") if records.showing_match else _("latest matches")))
    lines += below[: max(1, height - len(lines) - 2)]
    lines += footer(model, width, height - len(lines), pgettext("keys", STANDINGS_KEYS))
    return lines


def _standing_rows(players: tuple[Standing, ...], loaded: bool, room: int) -> list[Line]:
    if not loaded:
        return [text_line("  " + _("(asking the server...)"), "class:hint")]
    if not players:
        return [text_line("  " + _("No finished matches in this period yet."), "class:hint")]
    heads = f"   {_('player'):<24} {_('wins'):>5} {_('matches'):>8} {_('points'):>8}"
    rows = [text_line(heads, "class:hint")]
    for index, standing in enumerate(players):
        if standing.bot and (index == 0 or not players[index - 1].bot):
            rows.append(text_line("   " + _("bots"), "class:hint"))
        rows.append(
            text_line(
                f"   {standing.name:<24} {standing.wins:>5} {standing.matches:>8} "
                f"{standing.points:>8}"
            )
        )
    if len(rows) > room:
        hidden = len(rows) - room + 1
        more = _("... and {count} more").format(count=hidden)
        rows = [*rows[: room - 1], text_line(f"   {more}", "class:hint")]
    return rows


def _match_rows(model: Model) -> list[Line]:
    records = model.records
    if not records.matches:
        return [text_line("  " + _("No finished matches yet."), "class:hint")]
    chosen = min(records.match_index, len(records.matches) - 1)
    start = max(0, chosen - 4)
    rows = []
    for index, match in enumerate(records.matches[start:], start):
        marker = "▶" if index == chosen else " "
        winners = ", ".join(match.winners) or _("nobody")
        won = _("won by {players}").format(players=winners)
        text = f" {marker} {_when(match)}  {match.table:<16} {deck_word(match.deck):<14} {won}"
        rows.append(text_line(text, "class:picked" if index == chosen else ""))
    return rows


def _final_table(match: MatchRecord | None) -> list[Line]:
    if match is None:
        return []
    rows = [
        text_line(
            "  "
            + _("{table} (table {id}) · {when} · {deck} deck").format(
                table=match.table, id=match.table_id, when=_when(match), deck=deck_word(match.deck)
            )
        )
    ]
    changed = _options_changed(match)
    if changed:
        rows.append(text_line(f"  options: {changed}", "class:hint"))
    rows.append(text_line(f"   {'player':<24} {'score':>7}", "class:hint"))
    for player in sorted(match.players, key=lambda p: -p.score):
        mark = "★" if player.name in match.winners else " "
        name = player.name + (" " + _("(bot)") if player.bot else "")
        won = "  " + _("winner") if player.name in match.winners else ""
        rows.append(text_line(f" {mark} {name:<24} {player.score:>7}{won}"))
    note = coded("note", match.note_code, match.note)
    if note:
        rows.append(text_line(f"  {note}", "class:hint"))
    return rows


def _options_changed(match: MatchRecord) -> str:
    """The match's options that differ from a new table's, as ``name value`` pairs."""
    defaults = TableConfig().to_data()
    shown = []
    for name, value in match.options.to_data().items():
        if name in ("deck", "seats") or defaults.get(name) == value:
            continue
        if isinstance(value, bool):
            shown.append(name.replace("_", " ") + " " + (_("on") if value else _("off")))
        elif isinstance(value, str | int):
            shown.append(f"{name.replace('_', ' ')} {value}")
    return " · ".join(shown)


def _when(match: MatchRecord) -> str:
    """When a match finished, ``Mon 02 Mar 20:15``: the day's and month's names from the
    catalogue, not the system's locale (which may not be installed)."""
    when = time.localtime(match.finished_at)
    day = pgettext("weekday", _WEEKDAYS[when.tm_wday])
    month = pgettext("month", _MONTHS[when.tm_mon - 1])
    return f"{day} {when.tm_mday:02d} {month} {when.tm_hour:02d}:{when.tm_min:02d}"
