"""The draw pile's count, folded from public events and the deck's size (issue 28).

A spectator's view says how many cards the draw pile holds; a replay file has only the
events, and its header's ``deck_size`` (``protocol.replay_file``). Those are enough:

- ``round-started``: every round is dealt from the whole deck, so the pile is the deck
  less the cards dealt (the event's ``counts``);
- ``first-card``: one card leaves the pile for the discards (a Wild Draw Four turned up
  goes back in, ``first-card-returned``, and another is turned: the count is the same);
- ``drew``: ``count`` cards leave it;
- ``reshuffled``: the discards under the top card became the pile, ``count`` cards. The
  engine reshuffles in the middle of a draw, when the pile runs dry, and says ``drew``
  after: the cards taken before the reshuffle were the whole old pile, already gone, so
  that ``drew`` takes only the rest from the new one.

Nothing else moves a card to or from the pile. tests/engine/test_draw_pile_fold.py holds
the fold equal to the engine's count after every command of many seeded matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.events import Drew, EventBody, FirstCard, Reshuffled, RoundStarted

__all__ = ["DrawPile"]


@dataclass(slots=True)
class DrawPile:
    """The draw pile's count as the events so far leave it (``take`` each in order)."""

    deck_size: int
    count: int = field(init=False)
    """The cards in the pile now (the whole deck before the first deal)."""
    _taken_before_reshuffle: int = field(init=False, default=0)
    # the old pile's cards, drawn before a reshuffle in the middle of a draw

    def __post_init__(self) -> None:
        self.count = self.deck_size

    def take(self, body: EventBody) -> None:
        """Take in the next public event."""
        match body:
            case RoundStarted():
                self.count = self.deck_size - sum(body.counts)
                self._taken_before_reshuffle = 0
            case FirstCard():
                self.count -= 1
            case Reshuffled():
                self._taken_before_reshuffle += self.count
                self.count = body.count
            case Drew():
                self.count -= body.count - self._taken_before_reshuffle
                self._taken_before_reshuffle = 0
            case _:
                pass
