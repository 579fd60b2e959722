"""Over-the-wire secrecy checks: read every frame each seat received and find any card it
may not see.

Cards travel in the clear in exactly these places (protocol/events.py, design.md ruling
6): the cards a seat drew (``drew.cards``, to the drawer), a seat's own hand
(``round-started`` / ``hands-shuffled`` / ``hands-swapped``, and ``hand`` in its view),
the challenged hand (``challenged.hand``, to the challenger), and what is public (played
cards, the first card, a revealed Creeper, the dealer draws, the hands counted at a
round's end). Everything else a seat receives must be the same for every recipient.

Beyond where secrets go, the checks verify what they say: each seat's hand rebuilt from
its own events must equal the hand in every view it gets (so no event carried someone
else's cards under its own name), and a challenged hand must equal the target's real hand
right after the Wild Draw Four it played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from e2e_client import Player

from protocol.messages import GameEvent, GameView

SECRET_KEYS = ("cards", "hand")


def _may_see(kind: str, key: str, body: dict[str, Any], seat: int | None) -> bool:
    """Whether ``seat`` may receive ``body[key]`` in an event of ``kind``."""
    if seat is None:
        return False
    if kind == "drew" and key == "cards":
        return body.get("seat") == seat
    if kind == "challenged" and key == "hand":
        return body.get("seat") == seat
    if kind == "hands-swapped" and key == "hand":
        return seat in (body.get("seat"), body.get("target"))
    return kind in ("round-started", "hands-shuffled", "hands-passed") and key == "hand"


def older(player: Player) -> bool:
    """Whether the player's connection speaks a version before 1.2, whose events of the
    kinds added since are withheld (each view then covers them; docs/protocol.md)."""
    version = player.welcome.version if player.welcome else "1.0"
    return tuple(map(int, version.split("."))) < (1, 2)


def _hands_by_seq(player: Player) -> dict[int, Counter[str]]:
    """The player's hand after each event seq, rebuilt from its own events only (for an
    older version, from its events and the views that cover what was withheld)."""
    hand: Counter[str] = Counter()
    after: dict[int, Counter[str]] = {}
    covered = older(player)
    for frame in player.frames:
        if covered and isinstance(frame, GameView):
            hand = Counter(frame.body.to_data().get("hand") or [])
            after[frame.seq] = Counter(hand)
            continue
        if not isinstance(frame, GameEvent):
            continue
        body = frame.body.to_data()
        kind, seat = body["kind"], body.get("seat")
        if "hand" in body and kind != "challenged":
            hand = Counter(body["hand"])
        elif kind == "drew" and seat == player.seat:
            hand.update(body.get("cards", []))
        elif kind == "played" and seat == player.seat:
            hand[body["card"]] -= 1
            if hand[body["card"]] <= 0:
                del hand[body["card"]]
        after[body["seq"]] = Counter(hand)
    return after


def leaks(players: Sequence[Player], spectators: Sequence[Player] = ()) -> list[str]:  # noqa: C901 (one check per kind of breach)
    """Every breach of secrecy found in what ``players`` and ``spectators`` received."""
    problems: list[str] = []
    everyone = list(players) + list(spectators)
    public_by_seq: dict[int, tuple[str, dict[str, Any]]] = {}
    hands = {player.seat: _hands_by_seq(player) for player in players}
    for player in everyone:
        seat = player.seat
        who = f"{player.name} (seat {seat})"
        seqs = [frame.seq for frame in player.frames if isinstance(frame, GameEvent)]
        if seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))) and not older(player):
            problems.append(f"{who}: event numbers have a gap or repeat")
        for frame in player.frames:
            if isinstance(frame, GameEvent):
                body = frame.body.to_data()
                kind = body["kind"]
                for key in SECRET_KEYS:
                    if key in body and not _may_see(kind, key, body, seat):
                        problems.append(f"{who} saw {kind}.{key} of seq {frame.seq}: {body}")
                public = {key: value for key, value in body.items() if key not in SECRET_KEYS}
                seen = public_by_seq.setdefault(frame.seq, (who, public))
                if seen[1] != public:
                    problems.append(f"seq {frame.seq}: {who} got {public}, {seen[0]} got {seen[1]}")
                if kind == "challenged" and "hand" in body and seat is not None:
                    truth = _hand_played_from(player, hands.get(body["target"], {}), body)
                    if truth is not None and Counter(body["hand"]) != truth:
                        problems.append(f"{who}: challenged hand {body['hand']} is not {truth}")
            elif isinstance(frame, GameView):
                view = frame.body.to_data()
                if seat is None:
                    if view.get("hand"):
                        problems.append(f"{who}: a spectator's view shows a hand")
                    continue
                mine = hands[seat].get(frame.seq, Counter())
                if Counter(view.get("hand") or []) != mine:
                    problems.append(
                        f"{who}: view at seq {frame.seq} shows {view.get('hand')}, "
                        f"its own events say {sorted(mine.elements())}"
                    )
                if len(view.get("hand") or []) != view["counts"][seat]:
                    problems.append(f"{who}: view hand size differs from its public count")
            if isinstance(frame, GameView) and _other_hands(frame.body.to_data()):
                problems.append(f"{who}: a view carries other hands outside a round's end")
    return problems


def _hand_played_from(
    challenger: Player, target_hands: dict[int, Counter[str]], challenged: dict[str, Any]
) -> Counter[str] | None:
    """The hand a challenge judges: the target's hand right after its latest Wild Draw Four
    (it differs from the hand at the challenge when the target drew in between, caught for
    a missing UNO call inside the decision window). None when not known."""
    played = [
        event["seq"]
        for event in challenger.events
        if event["kind"] == "played"
        and event.get("seat") == challenged["target"]
        and event.get("card") == "W+4"
        and event["seq"] < challenged["seq"]
    ]
    return target_hands.get(played[-1]) if played else None


def _other_hands(view: dict[str, Any]) -> bool:
    """Whether a view carries a ``hands`` map anywhere but in the round's result."""
    return "hands" in view
