"""Round and match scoring (ruling 15): standard, lowest, elimination and teams.

Pure functions over plain lists so that each scoring mode is a small unit to test.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.options import Scoring

__all__ = ["RoundScore", "score_round"]


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What a round's end changes: points gained per seat, who is newly out, who won."""

    gained: tuple[int, ...]
    newly_eliminated: tuple[int, ...]
    winners: tuple[int, ...] | None
    """The match winners when this round ends the match, else None."""


def score_round(
    scoring: Scoring,
    *,
    target: int,
    winner: int,
    points: list[int],
    scores: list[int],
    eliminated: list[bool],
) -> RoundScore:
    """Score one round. ``points`` is each hand's worth, ``scores`` the totals before it.

    standard: the winner takes every other hand. teams: partners sit opposite (seat i and
    i + n/2); the winning team takes the other teams' hands and both partners are
    credited. lowest: everyone adds their own hand, and at the target the lowest total wins.
    elimination: everyone adds their own hand, at the target a seat is out, and the last
    seat standing wins (if the last ones go out together, the lowest of them wins).
    """
    seats = len(points)
    in_play = [seat for seat in range(seats) if not eliminated[seat]]
    gained = [0] * seats
    if scoring is Scoring.STANDARD:
        gained[winner] = sum(points[seat] for seat in in_play if seat != winner)
    elif scoring is Scoring.TEAMS:
        half = seats // 2
        team = winner % half
        taken = sum(points[seat] for seat in in_play if seat % half != team)
        for seat in (team, team + half):
            gained[seat] = taken
    else:
        for seat in in_play:
            gained[seat] = points[seat]
    totals = [score + gain for score, gain in zip(scores, gained, strict=True)]
    newly_out: tuple[int, ...] = ()
    winners: tuple[int, ...] | None = None
    if scoring is Scoring.ELIMINATION:
        newly_out = tuple(seat for seat in in_play if totals[seat] >= target)
        standing = [seat for seat in in_play if seat not in newly_out]
        if len(standing) == 1:
            winners = (standing[0],)
        elif not standing:
            lowest = min(totals[seat] for seat in newly_out)
            winners = tuple(seat for seat in newly_out if totals[seat] == lowest)
    elif any(totals[seat] >= target for seat in in_play):
        if scoring is Scoring.LOWEST:
            lowest = min(totals[seat] for seat in in_play)
            winners = tuple(seat for seat in in_play if totals[seat] == lowest)
        else:
            best = max(totals[seat] for seat in in_play)
            winners = tuple(seat for seat in in_play if totals[seat] == best)
    return RoundScore(tuple(gained), newly_out, winners)
