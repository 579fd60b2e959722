"""The rules engine: pure, deterministic, clockless (design.md section 5; docs/rules.md
rulings 1-37).

It imports only the standard library and ``protocol``'s pure vocabulary; it never reads a
clock, logs or does I/O. All randomness comes from ``random.Random(seed)``, so the seed and
the log of accepted commands replay a match exactly.

Where things live
-----------------
``match``     ``Match``, the public face: it holds one ``MatchState`` and routes each
              command through the table of checks and actions at its top.
``state``     ``MatchState``: every field, event recording, turn order, drawing.
``checks``    the one home of legality: a check per command, and the predicates
              (matches, may play, names a seat) that ``legal`` lists moves with.
``effects``   a card played and what it does; ``actions``: every other command and
              the clocks; ``rounds``: the deal, the first card, a round's end.
``legal``, ``view``, ``snapshot``: legal-move lists, per-seat views, plain-data
snapshots (they only read the state).
``deck``, ``scoring``: the decks and the scoring modes. Card points and ``Phase`` are
shared vocabulary in ``protocol`` (``protocol.cards``, ``protocol.phase``).

API reference
-------------
``Match(config: TableConfig, seed: int, now_ms: int = 0, *, quiet: bool = False)``
    Picks the dealer (everyone draws, highest number deals, symbols 0, ties redraw among
    the tied), deals, turns up the first card. Those events are already in ``m.events``.
    A ``quiet`` match (a playout, a benchmark) keeps no events and no log and builds
    none: its rules, RNG and event numbers are exactly a recording match's, but
    ``m.events`` and ``m.log`` stay empty and ``Accepted.events`` is ``()``.

``m.apply(actor: int | None, command: Command, now_ms: int) -> Accepted | Rejected``
    ``actor`` is the seat (0..n-1) for seat commands, ``None`` for table commands
    (Timeout, NextRound, Pause, Resume, SetAway). ``Rejected(code: RejectCode, message)``
    changes nothing, not even the RNG. ``Accepted(events)`` carries the new events, the
    ``protocol.events.Event`` records the server sends (the engine has no other model).

Turn flow (ruling 5): a turn is one card. ``Draw`` may be sent even when a card could be
played; a drawn card that cannot be played ends the turn at once (a ``passed`` event
follows the ``drew``), otherwise the player plays that card or sends ``Pass``. An early
``CallUno`` is accepted from the seat to act holding two cards with a play possible (in
a turn or a Draw Two stack) and lapses when it draws; it never passes to the next seat.
A Wild Draw Four asks for a decision (``CHALLENGE``) only when the table allows bluffing;
otherwise the next seat draws four and is skipped at once (ruling 23). A ``skip_any`` mark
costs its seat one card and one turn, one mark per turn (ruling 24). Under ``jump_in``
(ruling 37) a ``Play`` from a seat not to act is a jump-in: a card identical to the top
card that a player put there, in a turn; a ``jumped-in`` event precedes its ``played``.

``m.events: list[Event]``
    Every event of the match, ``seq`` 1..N without gaps. ``Event.for_seat(seat)`` redacts.

``m.forget_history()``
    Lets go of the events and the log so far (a server table calls it once it has sent
    the events and journalled the commands, so that a long match holds its position and
    little else). Numbering goes on; ``m.events`` and ``m.log`` hold what came after.

``m.legal_commands(seat) -> list[SeatCommand]``
    Fully expanded: wild colours, swap / skip_any targets, dance names, ``uno=True``
    variants when the play leaves one card, off-turn Catch(target) / CallUno and jump-ins.
    Anything listed is accepted if sent next, at any time.

``m.saw(seat, count=None)``, ``m.event_count()``
    Ruling 37: the table says which events the last view sent to ``seat`` included (by
    default all so far), so that a jump-in whose card matched that view's top card and
    arrives after the top changed is refused as ``lost-race``, not as not matching.

``m.playable_cards(seat) -> list[Card]``, ``m.may_draw(seat) -> bool``, ``m.hand_count(seat)``
    Cheap queries for bots and simulations: the distinct cards of the listed ``Play``
    commands (the engine's instances, in hand order; only the drawn card after a draw,
    only Draw Twos in a stack), whether ``Draw()`` is listed, the size of a hand. They
    agree with ``legal_commands`` without expanding colours, targets, dances or UNO.

``m.legal_table_commands(now_ms=None) -> list[TableCommand]``
    Timeout (while a clock runs; with ``now_ms`` only once due), NextRound between rounds,
    Pause / Resume, SetAway toggles.

``m.deadline_ms() -> int | None``
    Absolute server ms when the table must send ``Timeout()``: the turn clock
    (``turn_seconds``, 0 = none; also for the first-card colour choice and a Draw Two
    stack), the Wild Draw Four decision, the dance, the round pause. None while paused.
    On Timeout the engine acts (ruling 17): draw and pass; accept the Draw Four; refuse
    the dance; the colour held most and the swap with the fewest cards; next round. Three
    expiries in a row emit ``away`` for the seat.

``m.view(seat: int | None, now_ms) -> dict``
    Plain msgpack-able data for a seat (None: spectator): ``hand``, ``counts``, ``top``,
    ``color``, ``direction``, ``to_act``, ``phase``, ``pending`` {kind, seat,
    remaining_ms}, ``exposed``, ``away``, ``eliminated``, ``scores``, ``dealer``,
    ``round``, ``draw_count``, ``discard_count``, ``dance`` (during a dance),
    ``pending_draw``, ``skip_marks``, ``drawn``, ``round_result``, ``match_result``,
    ``last_seq`` and ``legal`` (``[command.to_data()]``). ``m.shared_view(now_ms)`` and
    ``m.seat_view(shared, seat)`` give the same views for every seat of one moment,
    building the part they share once.

``m.to_act() -> int | None``
    The seat the match waits on; None between rounds, at the end and while paused.

``m.phase -> Phase`` (``protocol.phase.Phase``, re-exported here)
    TURN, CHOOSE_COLOR, CHALLENGE, DANCE, STACK, ROUND_OVER, MATCH_OVER, PAUSED.

``m.log: list[LogEntry(actor, command, now_ms)]``, ``Match.replay(config, seed, log,
start_ms=0) -> Match``, ``m.snapshot(with_history=True) -> dict``,
``Match.restore(dict) -> Match``, ``m.state_digest() -> str`` (position hash). A snapshot
taken ``with_history=False`` is the position alone: restored, it plays on correctly but its
event stream starts empty (numbered from 1 again), so a table that must keep numbering
snapshots with history.

``m.fork() -> Match``, ``m.quiet``
    A quiet copy of the position (as a position-only snapshot restores it, without the
    snapshot): what a searching bot plays its futures on.

``m.hand(seat)``, ``m.top_card()``, ``m.card_count_total()`` (== ``m.deck_size``),
``m.cards_accounted_for()``, ``m.is_over``, ``m.result`` ({"winners", "scores"} or
None), ``m.scores``, ``m.config``.

Test seam: a snapshot is plain data with card codes (``hands``, ``draw_pile``,
``discard``, ``color``, ``current``, ``phase``...). Tests rig a position by editing a real
snapshot and restoring it; ``cards_accounted_for`` checks the rigging kept the deck whole.
"""

from protocol.cards import card_points, hand_points
from protocol.events import Event, EventKind
from protocol.phase import Phase
from protocol.rejections import RejectCode
from server.engine.deck import build_deck
from server.engine.match import Match
from server.engine.outcome import Accepted, LogEntry, Outcome, Rejected
from server.engine.snapshot import SnapshotError

__all__ = [
    "Accepted",
    "Event",
    "EventKind",
    "LogEntry",
    "Match",
    "Outcome",
    "Phase",
    "RejectCode",
    "Rejected",
    "SnapshotError",
    "build_deck",
    "card_points",
    "hand_points",
]
