"""The table screen's turn line (whose move it is, what it asks, the breaks' clocks) and
the lines shown before the match starts; ``client.ui.render`` places them."""

from __future__ import annotations

from client.i18n import _
from client.ui.faces import card_label
from client.ui.hints import ready_for_next_round
from client.ui.layout import Line, clock_text, text_line
from client.ui.model import Model
from protocol.phase import Phase

__all__ = ["turn_line", "waiting_lines"]


def _match_over_line(model: Model, now: float) -> str:
    """The match is over; while the host's rematch is asked for, its clock and my answer."""
    rematch_ms = model.rematch_ms(now)
    over = _("Match over")
    if rematch_ms is None:
        return f" {over}"
    clock = clock_text(rematch_ms) or "0:00"
    countdown = _("the rematch starts in {clock}").format(clock=clock)
    if model.spectating:
        return f" {over} · {countdown}"
    if ready_for_next_round(model):
        return f" {over} · {countdown} · " + _("you are ready; waiting for the others")
    return f" {over} · {countdown} · " + _("Enter: ready for the rematch")


def turn_line(model: Model, now: float) -> Line:
    """The line above the hand: whose move it is and what it asks, the break's clock and
    who is ready, or that the server is away."""
    view = model.view
    phase = model.phase
    clock = clock_text(model.remaining_ms(now))
    clock_part: Line = [("class:clock", f"  ⏱ {clock}")] if clock else []
    if not model.connected:
        away = _("⚠ THE SERVER IS AWAY: {status}").format(status=model.status)
        return text_line(f" {away}", "class:exposed")
    if phase == Phase.PAUSED:
        return text_line(
            " " + _("⏸ PAUSED by the host, or until everyone is back"), "class:exposed"
        )
    if phase == Phase.MATCH_OVER:
        return [("class:title", _match_over_line(model, now))]
    if phase == Phase.ROUND_OVER:
        over = _("Round over")
        if model.replaying:
            return [("class:title", f" {over}")]
        if clock:
            over += " · " + _("the next round starts in {clock}").format(clock=clock)
        if model.spectating:  # nothing to say ready for
            return [("class:title", f" {over}")]
        if ready_for_next_round(model):
            return [("class:title", f" {over} · " + _("you are ready; waiting for the others"))]
        return [("class:title", f" {over} · " + _("Enter: ready for the next round"))]
    to_act = model.to_act
    if model.my_turn:
        prompts: dict[str, str] = {
            Phase.TURN: _("YOUR TURN: play a card (Enter) or draw (d)"),
            Phase.CHOOSE_COLOR: _("YOUR TURN: choose the colour for the first card (Enter)"),
            Phase.CHALLENGE: _("A Wild Draw Four on you: y challenge · n accept"),
            Phase.DANCE: _("DANCE! enter the steps with the arrows, Enter to send, x to refuse"),
            Phase.STACK: _("A Draw Two on you: answer with a +2 (Enter) or d to draw"),
        }
        text = prompts.get(str(phase), _("YOUR TURN"))
        if view is not None and view.drawn is not None:
            drawn = card_label(view.drawn.code)
            text = _("YOUR TURN: play the drawn {card} (Enter) or pass (p)").format(card=drawn)
        return [("class:myturn", f" ▶ {text}"), *clock_part]
    who = model.seat_name(to_act)
    waiting_for: dict[str, str] = {
        Phase.CHALLENGE: _("{player} decides whether to challenge"),
        Phase.DANCE: _("{player} must dance"),
        Phase.CHOOSE_COLOR: _("{player} chooses the colour"),
        Phase.STACK: _("{player} answers the Draw Two"),
    }
    waiting = waiting_for.get(str(phase), _("{player}'s turn")).format(player=who)
    return [("", f"   {waiting}"), *clock_part]


def waiting_lines(model: Model) -> list[Line]:
    """Before the match: how many seats are taken, and who starts it."""
    table = model.table
    assert table is not None
    taken = sum(1 for s in table.seats if s.name)
    wait = _("Waiting for the match to start: {taken}/{seats} seats taken.")
    lines = [text_line(" " + wait.format(taken=taken, seats=len(table.seats)))]
    if model.is_host:
        lines.append(
            text_line(
                " " + _("You host: b add a bot · x remove one · s start · k kick · K ban"),
                "class:hint",
            )
        )
    else:
        lines.append(text_line(" " + _("The host starts the match."), "class:hint"))
    return lines
