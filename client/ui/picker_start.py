"""Where a picker opens: on the choice a good player would make most often.

A seat picker for a swap (Swap Hands, the 7 of 7-0) opens on the smallest other hand, ties
going to the first seat in turn order after the player's own; a colour picker opens on the
colour the player holds most; any other picker on its first choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from protocol.views import View

__all__ = ["sensible_start"]


def sensible_start(
    field: str, values: Sequence[Any], view: View | None, seat: int | None, hand: Sequence[str]
) -> int:
    """The index in ``values`` a picker of ``field`` (``target``, ``color``...) opens on,
    for the player at ``seat`` holding ``hand`` (card labels) in ``view``."""
    if view is None:
        return 0
    if field == "target" and all(isinstance(v, int) for v in values):
        counts = view.shared.counts
        seats = len(counts) or 1
        mine = seat or 0
        step = view.shared.direction or 1

        def order(target: int) -> tuple[int, int]:
            cards = counts[target] if 0 <= target < len(counts) else 10**6
            return (cards, ((target - mine) * step) % seats)

        return list(values).index(min(values, key=order))
    if field == "color":
        held = [code[0] for code in hand if not code.startswith("W")]
        tally = {v: held.count(str(v)) for v in values}
        best = max(tally.values(), default=0)
        return next((i for i, v in enumerate(values) if best and tally[v] == best), 0)
    return 0
