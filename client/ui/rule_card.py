"""The rule card of the help page: what this table's house rules and settings do here.

Web UNO sites show a card of the table's rules before you play; ``rule_card(options)``
is this client's: one short sentence per house rule that is on (and the key it needs),
then how the match is scored and timed. It reads only the options the table state
carries, so a rule a server leaves out reads as off.
"""

from __future__ import annotations

from client.i18n import _, mark, pgettext
from client.ui.words import deck_word
from protocol.options import (
    CustomRule,
    DanceCheck,
    DeckName,
    Scoring,
    Stack,
    TableConfig,
    TableOptions,
)

__all__ = ["rule_card"]

_SCORING_WORDS = (
    mark("scoring", "standard"),
    mark("scoring", "lowest"),
    mark("scoring", "elimination"),
    mark("scoring", "teams"),
)

_STACKS = {
    Stack.DRAW_TWO: mark(
        "rules",
        "Stacking: a Draw Two on you may be answered with a Draw Two (Enter); "
        "the next player then draws the total, or passes it on.",
    ),
    Stack.DRAW_FOUR: mark(
        "rules",
        "Stacking: a Wild Draw Four on you may be answered with a Wild Draw "
        "Four; the total passes on. A stacked Draw Four cannot be challenged.",
    ),
    Stack.PROGRESSIVE: mark(
        "rules",
        "Progressive stacking: a Draw Two answers a Draw Two, a Wild Draw "
        "Four answers either; whoever cannot answer draws the whole stack (d).",
    ),
}

_SCORING = {
    Scoring.STANDARD: mark(
        "rules",
        "whoever goes out scores the cards left in the other hands; the first to {target} wins.",
    ),
    Scoring.LOWEST: mark(
        "rules",
        "everyone scores the cards left in their own hand; when someone "
        "reaches {target}, the lowest total wins.",
    ),
    Scoring.ELIMINATION: mark(
        "rules",
        "everyone scores their own hand; reaching {target} puts a player "
        "out, and the last one in wins.",
    ),
    Scoring.TEAMS: mark(
        "rules",
        "partners sit opposite; the team that goes out scores the others' "
        "cards; the first team to {target} wins.",
    ),
}

_CUSTOM = {
    CustomRule.PLAIN: mark("rules", "a Wild Customizable is a plain wild"),
    CustomRule.OTHERS_DRAW_TWO: mark("rules", "a Wild Customizable makes everyone else draw 2"),
    CustomRule.EXTRA_TURN: mark("rules", "a Wild Customizable gives its player another turn"),
}


def rule_card(options: TableOptions) -> list[str]:
    """The rule card's sentences for a table with ``options`` (see the module docstring)."""
    defaults = TableConfig()
    house: list[str] = []
    stack = options.stack or (Stack.DRAW_TWO if options.stack_draw_two else Stack.OFF)
    if stack in _STACKS:
        house.append(pgettext("rules", _STACKS[stack]))
    if options.seven_o:
        house.append(
            _(
                "7-0: a 7 swaps your hand with a player you choose (the picker starts on the "
                "smallest hand); a 0 passes every hand on in the direction of play."
            )
        )
    if options.jump_in:
        house.append(
            _(
                "Jump-in: anyone holding a card identical to the top card (colour and number, "
                "never a wild) may play it out of turn with j; play goes on from them."
            )
        )
    if options.skip_any:
        house.append(
            _(
                "Skip anyone: a Skip names any opponent; when their turn comes they draw one "
                "card and their turn passes."
            )
        )
    if options.draw_until_playable:
        house.append(_("Draw until playable: a draw goes on until a card you can play comes."))
    if options.force_play:
        house.append(_("Forced play: a drawn card that can be played must be played."))
    if not house:
        house.append(_("No house rules: the official rules of UNO."))
    target = options.target_score or defaults.target_score
    scoring = options.scoring or defaults.scoring
    deck = options.deck or defaults.deck
    lines = [
        *house,
        _("Scoring ({scoring}): {how}").format(
            scoring=pgettext("scoring", scoring.value),
            how=pgettext("rules", _SCORING[scoring]).format(target=target),
        ),
        _("Deck: {deck}, {count} cards dealt each.").format(
            deck=deck_word(deck.value), count=options.hand_size or defaults.hand_size
        ),
    ]
    bluff = defaults.wd4_bluff if options.wd4_bluff is None else options.wd4_bluff
    lines.append(
        _("A Wild Draw Four may be a bluff: the next player may challenge it (y).")
        if bluff
        else _("A Wild Draw Four is refused while you hold the colour in force (no bluffs).")
    )
    if deck in (DeckName.MODERN_SWAP, DeckName.MODERN_SHUFFLE):
        custom = pgettext("rules", _CUSTOM[options.custom_rule or defaults.custom_rule])
        lines.append(custom[:1].upper() + custom[1:] + ".")
    if deck is DeckName.BTS:
        check = options.dance_check or defaults.dance_check
        lines.append(
            _("A Dancing Wild: enter the steps with the arrows.")
            if check is DanceCheck.STEPS
            else _("A Dancing Wild: say you danced (Enter), as at a real table.")
        )
    turn = defaults.turn_seconds if options.turn_seconds is None else options.turn_seconds
    lines.append(
        _("Turn clock: {seconds} s a turn.").format(seconds=turn) if turn else _("No turn clock.")
    )
    penalty = options.false_catch_penalty or 0
    if penalty:
        lines.append(_("A wrong UNO catch makes the catcher draw {count}.").format(count=penalty))
    return lines
