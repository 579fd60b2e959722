"""The keys line at the bottom of the table screen: the keys that work now, what a key
that needs the server says while the server is away, and why a card cannot be played."""

from __future__ import annotations

from client.i18n import _
from client.ui.faces import card_label, color_name
from client.ui.host_controller import can_close_rebuilt
from client.ui.model import REFUSED, REFUSED_PLAY, Mode, Model, refusal_words
from protocol.commands import Accept, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from protocol.phase import Phase

__all__ = [
    "keys_hint",
    "ready_for_next_round",
    "refused_while_away",
    "rematch_asked",
    "why_not_playable",
]


def refused_while_away(model: Model, what: str) -> bool:
    """True while the server is away, after the message line says that ``what`` (a
    command's type, or a key) sends nothing: a key that needs the server does nothing
    until the client has reconnected."""
    if model.connected:
        return False
    if what in REFUSED or what in REFUSED_PLAY:
        what = refusal_words(what)  # a request's wire name is no word for a person
    model.notify(
        _("{what}: not sent, the server is away (reconnecting…)").format(what=what), error=True
    )
    return True


def ready_for_next_round(model: Model) -> bool:
    """Whether my seat has said it is ready (between rounds: the others are waited for)."""
    table, seat = model.table, model.seat
    if table is None or seat is None or model.spectating or not 0 <= seat < len(table.seats):
        return False
    return table.seats[seat].ready


def rematch_asked(model: Model) -> bool:
    """Whether the host asked for a rematch that waits for its guests (1.3)."""
    return model.table is not None and model.table.rematch_asked


def _break_keys(model: Model) -> list[str]:
    """Between rounds, at the match's end and while paused: the ready key, if it is asked."""
    if model.spectating or ready_for_next_round(model):
        return []
    if model.phase == Phase.ROUND_OVER:
        return [_("Enter ready for the next round")]
    if model.phase == Phase.MATCH_OVER and rematch_asked(model):
        return [_("Enter ready for the rematch")]
    return []


def _away_hint(model: Model) -> str:
    """The keys line while the server is away (and why, if it is ours and it stopped)."""
    if model.server_down is not None:
        return _("{problem}: R start it again · ? help · Ctrl-C quit").format(
            problem=model.server_down
        )
    return _("server away: ←/→ look at your cards · PgUp log · ? help · Ctrl-C quit")


def _waiting_hint(model: Model) -> str:
    """The keys line at a table before its match starts."""
    waiting = _("t chat · ? help · q leave")
    if model.is_host:
        return _("b bot · x remove bot · s start · k kick · K ban") + " · " + waiting
    return waiting


def keys_hint(model: Model) -> str:
    """The keys line: the keys that work now, separated by ``·``."""
    if model.mode is Mode.CHAT:
        return _("Enter send · Esc cancel")
    if model.mode is Mode.CONFIRM_LEAVE:
        return _("y quit · n stay") if model.solo else _("y leave · n stay")
    if model.mode is Mode.CONFIRM:
        return _("y yes · n no")
    if model.mode is Mode.PICK:
        return _("←/→ choose · Enter confirm · Esc cancel")
    if model.mode is Mode.DANCE:
        return _("←↑↓→ steps · Backspace undo · Enter send · x refuse · Esc clear")
    if not model.connected:
        return _away_hint(model)
    if model.spectating:
        bots = model.table is not None and any(seat.bot for seat in model.table.seats)
        watching = _("PgUp log · t chat · ? help · q leave")
        return _("Enter take a bot's seat") + " · " + watching if bots else watching
    if model.view is None:
        return _waiting_hint(model)
    keys = _game_keys(model)
    keys += [_("PgUp log"), _("m bell off") if model.bell else _("m bell on")]
    keys += [_("t chat"), _("? help")]
    keys.append(_("q quit") if model.solo else _("q leave"))
    if model.is_host:
        keys += _host_keys(model)
    return " · ".join(keys)


def _host_keys(model: Model) -> list[str]:
    """The host's keys during a match and at its end."""
    keys = []
    if model.phase != Phase.MATCH_OVER:
        keys.append(_("P go on") if model.phase == Phase.PAUSED else _("P pause"))
    elif not rematch_asked(model):
        keys.append(_("r rematch"))
    if can_close_rebuilt(model):
        keys.append(_("C close the table"))
    return keys


def _jump_in_key(model: Model, kinds: set[str]) -> list[str]:
    """Ruling 37: out of turn, a play listed is a jump-in with the card identical to the top."""
    if Play.TYPE not in kinds:
        return []
    top = None if model.view is None else model.view.shared.top
    if top is None:
        return [_("j jump in")]
    return [_("j jump in with the {card}").format(card=card_label(top.code))]


def _after_match_keys(model: Model) -> list[str]:
    """Over or paused: nothing to play; a match over may have its replay saved."""
    over = model.phase == Phase.MATCH_OVER
    return [_("e save replay")] if over and model.records.replays else []


def _game_keys(model: Model) -> list[str]:
    """The game's keys that do something now, in the order a player needs them."""
    phase = model.phase
    if phase in (Phase.ROUND_OVER, Phase.MATCH_OVER, Phase.PAUSED):
        return _break_keys(model) + _after_match_keys(model)
    kinds = {command.TYPE for command in model.legal}
    keys = [_("←/→ select")] if model.hand else []
    if model.my_turn:
        view = model.view
        drawn = None if view is None or view.drawn is None else view.drawn.code
        if ChooseColor.TYPE in kinds:
            keys.append(_("Enter choose the colour"))
        elif drawn and Play.TYPE in kinds:
            keys.append(_("Enter play the drawn {card}").format(card=card_label(drawn)))
        elif Play.TYPE in kinds:
            keys.append(_("Enter play"))
        if Draw.TYPE in kinds:
            keys.append(_("d draw"))
        if Pass.TYPE in kinds:
            keys.append(_("p pass"))
        if Challenge.TYPE in kinds or Accept.TYPE in kinds:
            keys.append(_("y challenge · n accept"))
    else:
        keys += _jump_in_key(model, kinds)
    if CallUno.TYPE in kinds or any(isinstance(c, Play) and c.uno for c in model.legal):
        keys.append(_("u UNO"))
    if Catch.TYPE in kinds:
        keys.append(_("c catch"))
    return keys


def why_not_playable(model: Model, code: str) -> str:
    """The rule that keeps ``code`` from being played now, in words."""
    view = model.view
    if model.spectating or view is None:
        return _("you are watching")
    if not model.my_turn:
        if model.to_act is None:
            return _("it is nobody's turn")
        return _("it is {player}'s turn").format(player=model.seat_name(model.to_act))
    if view.drawn is not None:
        drawn = card_label(view.drawn.code)
        return _("only the drawn {card} may be played now (or p to pass)").format(card=drawn)
    phase = model.phase
    if phase == Phase.CHALLENGE:
        return _("first answer the Wild Draw Four: y challenge, n accept")
    if phase == Phase.STACK:
        return _("only a Draw Two answers the Draw Two (or d to draw)")
    if phase == Phase.DANCE:
        return _("you must dance first")
    if not model.legal_of(Play.TYPE):
        return _("no play is open to you now")
    top = None if view.shared.top is None else view.shared.top.code
    colour = color_name(None if view.shared.color is None else view.shared.color.value)
    if top and code.startswith("W") and "+4" in card_label(code):
        return _("a Wild Draw Four needs a hand without {color} (bluffing is off)").format(
            color=colour
        )
    if top is None:
        return _("it matches neither the colour in force ({color}) nor the discard").format(
            color=colour
        )
    return _("it matches neither the colour in force ({color}) nor the {card}").format(
        color=colour, card=card_label(top)
    )
