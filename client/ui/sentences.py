"""The clients' sentences: one table for the terminal and the page.

It holds the log's sentences and the ones said for a server's codes: a ``rejected`` or
``error`` code (``rejected.<code>``, ``error.<code>``), a ``left`` cause (``left.<cause>``,
with ``{host}`` from its ``by``) and a match's ``note_code`` (``note.<code>``); ``coded``
picks one, and falls back to the server's words only for a code it does not know (a
newer server's).

``SENTENCES`` maps a key to an English sentence (or a part of one) with placeholders by
name, ``{player}``; ``say(key, **fields)`` fills one in. The terminal's log
(``client.ui.describe``) reads this table; the page's (``server/web/log.js``) reads
``server/web/sentences.js``, which ``make web-sentences`` writes from it
(``client.ui.page_copy``); a test fails when the page's copy is not current.

The table's English is the source of the gettext catalogues (``client.i18n``): each
entry's key is its context (``msgctxt``), so ``say`` reads the chosen language. A
placeholder is ``{name}``, nothing else inside the braces; a sentence whose words change
with a number has one entry per English form (``cards.one``, ``cards.other``), one plural
entry in the catalogue, read by ``say_count`` through ``npgettext``. The page's copy holds
every shipped language.
"""

from __future__ import annotations

import re

from client.i18n import npgettext, pgettext

__all__ = ["SENTENCES", "coded", "plural", "say", "say_count"]

SENTENCES: dict[str, str] = {
    "cards.one": "1 card",
    "cards.other": "{count} cards",
    "number.2": "two",
    "number.3": "three",
    "number.4": "four",
    "number.5": "five",
    "number.6": "six",
    "number.7": "seven",
    "number.8": "eight",
    "number.9": "nine",
    "number.10": "ten",
    "you": "you",
    "someone": "someone",
    "seat.number": "seat {seat}",
    "whose.you": "your",
    "whose.other": "{player}'s",
    "nobody": "nobody",
    "color.none": "none",
    "direction.1": "clockwise",
    "direction.-1": "counter-clockwise",
    "dealer-chosen": "the dealer is {dealer}",
    "round-started": "round {round} begins (dealer: {dealer})",
    "first-card": "first card: {card}",
    "first-card-returned": "a Wild Draw Four turned up; it goes back",
    "played": "{player} played {card}",
    "played.calling": ", calling {color}",
    "played.target": " on {target}",
    "played.dance": " (dance: {dance})",
    "played.uno": " and said UNO!",
    "jumped-in": "{player} jumped in ahead of {overtaken}!",
    "color-chosen": "{player} chose {color}",
    "drew": "{player} drew {cards}",
    "drew.cards": ": {labels}",
    "drew.reason": " ({reason})",
    "drew.stack": "{player} drew {count}: a stack of {stack}",
    "drew.stack.cards": " ({labels})",
    "stack.draw-two": "{number} Draw Twos",
    "stack.wild-draw-four": "{number} Wild Draw Fours",
    "stack.mixed": "{number} draw cards",
    "reason.draw-two": "Draw Two",
    "reason.wild-draw-four": "Wild Draw Four",
    "reason.caught": "caught without UNO",
    "reason.false-catch": "a wrong catch",
    "reason.challenge": "the challenge",
    "reason.custom": "Customizable wild",
    "reason.dance": "no dance",
    "reason.skip": "skip",
    "reason.creeper": "Creeper",
    "passed": "{player} passed",
    "passed.stuck": "{player} passed (stuck)",
    "direction": "play now goes {direction}",
    "skipped": "{player} skipped",
    "uno-called": "{player} said UNO!",
    "exposed.you": "you forgot to say UNO! press u before someone catches you",
    "exposed.other": "{player} forgot to say UNO! (c to catch)",
    "caught": "{by} caught {player}: draws {penalty}",
    "false-catch": "{player} wrongly caught {target}: draws {penalty}",
    "challenged.guilty": "{player} challenged {whose} Wild Draw Four: guilty!",
    "challenged.legal": "{player} challenged {whose} Wild Draw Four: it was legal",
    "challenged.hand": " (hand: {labels})",
    "draw-four-accepted": "{player} took the Wild Draw Four",
    "dance-called": "{player} must dance {dance}: {steps}",
    "danced": "{player} danced!",
    "dance-refused": "{player} did not dance and draws 3",
    "creeper-revealed": "{player} drew a Creeper! 3 more cards",
    "hands-swapped": "{player} swapped hands with {target}",
    "hands-shuffled": "{player} shuffled everyone's hands",
    "hands-passed": "{player} played a 0: every hand moves on to the next player",
    "skip-marked": "{player} will skip {target}",
    "skip-served": "{player} draws 1 and loses the turn (skip)",
    "reshuffled": "the discards were shuffled into a new draw pile",
    "timed-out": "{player} ran out of time",
    "away": "{player} is away; a bot plays for now",
    "back": "{player} is back",
    "paused": "the game is paused",
    "resumed": "the game goes on",
    "round-over": "round over: {player} won",
    "round-over.scored": "round over: {player} won and scored {points}",
    "match-over": "match over: {players} won the match",
    "and": " and ",
    "seat.joined": "{player} joined the table",
    "seat.bot": "{player} (a bot)",
    "seat.left": "{player} left the table",
    "seat.taken": "{player} took {old}'s seat",
    "host.nobody": "Nobody holds the host role now",
    "host.lent": "Host role lent to {host} while {owner} is away",
    "host.back": "Host role back with {host}, the table's owner",
    "host.handed": "Host role handed to {host} for good ({owner} left)",
    "host.the-owner": "the owner",
    "host.moved": "{host} is the host now",
    "host.the-host": "the host",
    "removed.someone": "a player",
    "removed.kicked": "{host} removed {player} from the table",
    "removed.banned": "{host} banned {player} from the table",
    "removed.bot-plays": "{line}; a bot plays the seat",
    "rejected.not-your-turn": "it is not your move",
    "rejected.not-now": "that is not possible now",
    "rejected.card-not-in-hand": "that card is not in your hand",
    "rejected.card-not-in-hand.card": "{card} is not in your hand",
    "rejected.card-does-not-match": "that card does not match the top card",
    "rejected.card-does-not-match.card": "{card} does not match the top card",
    "rejected.colour-required": "a wild needs a colour",
    "rejected.colour-not-allowed": "only a wild takes a colour",
    "rejected.target-required": "that card needs a target seat",
    "rejected.invalid-target": "that seat cannot be the target",
    "rejected.dance-required": "name a dance for the Dancing Wild",
    "rejected.dance-not-allowed": "only a Dancing Wild names a dance",
    "rejected.uno-not-allowed": "you cannot say UNO with that play",
    "rejected.only-drawn-card": "only the card you drew may be played now",
    "rejected.only-drawn-card.card": "only the card you drew may be played now, not {card}",
    "rejected.already-drew": "you already drew this turn",
    "rejected.nothing-to-draw": "both piles are empty; pass instead",
    "rejected.cannot-pass": "you cannot pass now",
    "rejected.must-answer-draw-two": "answer the Draw Two with a Draw Two, or draw",
    "rejected.not-exposed": "that player owes no UNO",
    "rejected.catch-too-late": "the catch window has closed",
    "rejected.lost-race": "someone else was quicker",
    "rejected.wild-draw-four-not-allowed": "a Wild Draw Four is not allowed now",
    "rejected.not-due": "the deadline has not passed yet",
    "rejected.invalid-seat": "there is no such seat",
    "rejected.eliminated": "this seat is out of the match",
    "rejected.table-only": "only the table may do that",
    "rejected.seat-only": "only a seated player may do that",
    "rejected.paused": "the table is paused",
    "rejected.not-paused": "the table is not paused",
    "rejected.round-over": "the round is over; wait for the next one",
    "rejected.match-over": "the match is over",
    "rejected.table-not-found": "there is no such table",
    "rejected.table-full": "the table is full",
    "rejected.wrong-password": "wrong password",
    "rejected.not-host": "only the host may do that",
    "rejected.bad-token": "that seat can no longer be resumed",
    "rejected.name-taken": "that name is taken at this table",
    "rejected.bad-options": "the table's options do not go together",
    "rejected.bad-options.option": "the table's options do not go together: check {option}",
    "rejected.bad-seat": "there is no such seat at this table",
    "rejected.seat-taken": "that seat is taken",
    "rejected.not-a-bot": "that seat is not a bot's",
    "rejected.unknown-strategy": "the server has no bot of that kind",
    "rejected.not-at-table": "you are not at a table",
    "rejected.already-at-table": "you are already at a table",
    "rejected.not-seated": "you do not hold a seat",
    "rejected.not-enough-players": "not enough players to start",
    "rejected.wrong-table-state": "the table cannot do that now",
    "rejected.bad-cursor": "that page of the list is gone; start again",
    "rejected.too-many-tables": "the server has as many tables as it takes",
    "rejected.too-many-tables.limit.one": "your address may keep 1 table open; join it",
    "rejected.too-many-tables.limit.other": (
        "your address may keep {count} tables open; join one of them"
    ),
    "rejected.slow-down": "too many requests; wait a little",
    "rejected.banned": "the host has banned you from this table",
    "rejected.no-history": "this server keeps no history",
    "rejected.no-replay": "the server keeps no replay of that match",
    "rejected.watched-hands": "you watched this match seeing every hand; you cannot sit in it",
    "rejected.journal-unavailable": "the server cannot save tables now; try later",
    "rejected.internal-error": "the server failed on this request",
    "error.malformed-frame": "the server could not read what we sent",
    "error.frame-too-large": "we sent the server too much at once",
    "error.bad-message": "the server could not read a message we sent",
    "error.unknown-message": "the server does not know a message we sent",
    "error.unsupported-version": "the server speaks another version of the protocol",
    "error.hello-required": "the server expected a hello first",
    "error.duplicate-hello": "we said hello twice",
    "error.unexpected-message": "we sent a message the server did not expect now",
    "error.duplicate-id": "we reused a request number",
    "error.unknown-id": "we answered a request that was not asked",
    "error.rate-limited": "we sent the server too much, too fast",
    "error.handshake-timeout": "the hello took too long",
    "error.idle-timeout": "the server heard nothing from us for too long",
    "error.too-slow": "we read too slowly and fell behind",
    "error.server-full": "the server is full",
    "error.server-shutdown": "the server is stopping",
    "error.internal-error": "the server failed",
    "error.replaced": "the seat moved to another connection",
    "error.too-many-refusals": "we kept asking for what the server refused",
    "note.host-closed-after-restart": "not finished: its host closed it after a server restart",
    "note.closed-for-new-table": "not finished: closed to make room for a new table",
    "note.journal-unwritten": "not finished: the server could not save it (scores as last saved)",
    "note.server-upgraded": "not finished: the server was upgraded (scores of the last round)",
    "table.default-name": "{player}'s table",
    "closing": "the server is stopping; it may be back",
    "left.left": "You left the table",
    "left.asked-to-leave": "{host} asked you to leave",
    "left.seat-to-bot": "{host} gave your seat to a bot",
    "left.banned": "{line} and banned you from this table",
    "left.table-closed": "The table closed",
    "left.kicked": "You were removed from the table by the host",
    "left.made-room": "The table closed to make room for a new one: nobody had moved",
}
"""Every sentence of the log, by key (see the module docstring)."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def say(key: str, **fields: object) -> str:
    """The sentence ``key`` with its placeholders filled in from ``fields``.

    A placeholder without a field stays as written, so a missing one shows instead of
    failing (the page's ``say`` does the same).
    """
    return _fill(pgettext(key, SENTENCES[key]), fields)


def say_count(key: str, count: int, **fields: object) -> str:
    """The form of the sentence ``key`` for ``count`` (``cards``: "1 card", "2 cards"),
    with ``{count}`` and ``fields`` filled in."""
    text = npgettext(key, SENTENCES[f"{key}.one"], SENTENCES[f"{key}.other"], count)
    return _fill(text, {"count": count, **fields})


def _fill(text: str, fields: dict[str, object]) -> str:
    return _PLACEHOLDER.sub(lambda m: str(fields.get(m[1], m[0])), text)


def coded(prefix: str, code: str | None, fallback: str, **fields: object) -> str:
    """The sentence for a server's ``code`` under ``prefix`` (``rejected``, ``error``,
    ``left``, ``note``), or the server's own words ``fallback`` (else the code itself) for
    a code this release does not know: a newer server's.

    A code whose message may carry a field of the case (1.3: a rejection's ``option``,
    ``card`` or ``limit``) has a sentence that names it, ``rejected.<code>.<field>`` (a
    number's in its plural forms, ``{count}``): it is said when that field is given."""
    key = f"{prefix}.{code}"
    if code is None or key not in SENTENCES:
        return fallback or str(code or "")
    for name, value in fields.items():
        if value is None:
            continue
        if isinstance(value, int) and f"{key}.{name}.one" in SENTENCES:
            return say_count(f"{key}.{name}", value, **fields)
        if f"{key}.{name}" in SENTENCES:
            return say(f"{key}.{name}", **fields)
    return say(key, **fields)


def plural(key: str, count: int) -> str:
    """The key of the form of ``key`` for ``count``: ``key.one`` for 1, else ``key.other``."""
    return f"{key}.one" if count == 1 else f"{key}.other"
