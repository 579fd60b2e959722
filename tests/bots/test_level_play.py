"""What sets the levels apart: ``easy`` plays like a beginner but never throws the round,
and ``hard``'s memory narrows a seat's hidden cards from how it played, on real rounds."""

from __future__ import annotations

import random

from client.bots import search
from client.bots.memory import Favourite, RoundMemory
from client.bots.strategies import choose
from protocol.cards import Card, Color
from protocol.commands import Draw, Pass, Play, SeatCommand
from protocol.events import Drew, DrewReason, FirstCard, Played, RoundStarted, SeenEvent
from protocol.options import DeckName, TableConfig, preset_options
from protocol.phase import Phase
from protocol.views import View
from server.engine import Match


def seen(*bodies: object) -> list[SeenEvent]:
    return [SeenEvent(seq, body) for seq, body in enumerate(bodies, 1)]  # type: ignore[arg-type]


def played(seat: int, code: str, color: Color | None = None, count: int = 5) -> Played:
    return Played(seat=seat, card=Card.parse(code), color=color, count=count)


START = (RoundStarted(round=1, dealer=1, counts=(7, 7)), FirstCard(Card.parse("R5"), Color.RED))


def test_easy_plays_a_card_when_it_can_never_bluffs_and_names_a_colour_it_holds() -> None:
    decisions = 0
    for seed in range(30):
        config = TableConfig(deck=DeckName(("classic", "bts")[seed % 2]), seats=2 + seed % 3)
        match, rng = Match(config, seed), random.Random(seed)
        for _ in range(400):
            to_act = match.to_act()
            if to_act is None or match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                break
            seat = to_act
            view = match.view(seat, 0)
            command = choose(view, rng, "easy" if seat == 0 else "normal")
            assert command is not None
            if seat == 0 and any(isinstance(c, Play) for c in view.legal):
                assert not isinstance(command, Draw)  # never a draw while a card plays
                if view.drawn is not None:
                    assert isinstance(command, Pass)  # a card drawn waits for its turn
                else:
                    decisions += 1
                    assert isinstance(command, Play)
                    hand = list(view.hand or ())
                    in_force = view.shared.color
                    if command.card.code == "W+4" and in_force is not None:
                        # Honest, or the only card that plays.
                        others = [c for c in view.legal if isinstance(c, Play)]
                        assert not any(c.color == in_force for c in hand) or all(
                            c.card.code == "W+4" for c in others
                        )
                    if command.color is not None and command.card.color is None:
                        rest = list(hand)
                        rest.remove(command.card)
                        held = {c.color for c in rest if c.color is not None}
                        assert not held or command.color in held
            match.apply(seat, command, 0)
    assert decisions > 300


def play_round(config: TableConfig, seed: int, levels: list[str]) -> tuple[Match, list[str]]:
    """One round of ``levels`` (one a seat) from ``seed``, every seat declaring UNO: the
    match at its end and the slips of the ``easy`` seats (:func:`easy_slips`)."""
    match, rng = Match(config, seed), random.Random(seed)
    notes: list[str] = []
    for _ in range(600):
        seat = match.to_act()
        if seat is None or match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            break
        view = match.view(seat, 0)
        command = choose(view, rng, levels[seat])
        assert command is not None
        if levels[seat] == "easy":
            notes.extend(easy_slips(view, command))
        match.apply(seat, command, 0)
    return match, notes


def easy_slips(view: View, command: SeatCommand) -> list[str]:
    """What a beginner must never do at this decision: keep its last card when it plays,
    make a play that leaves one card without declaring UNO, draw while a card plays."""
    plays = [c for c in view.legal if isinstance(c, Play)]
    hand = list(view.hand or ())
    slips = []
    if len(hand) == 1 and plays and view.drawn is None and not isinstance(command, Play):
        slips.append(f"kept its last card: {command} with {hand}")
    if isinstance(command, Play) and len(hand) == 2 and not command.uno:
        slips.append(f"no UNO with {command}")
    if plays and isinstance(command, Draw):
        slips.append(f"drew while {plays[0]} played")
    return slips


def test_easy_never_throws_the_round_it_can_win() -> None:
    # Real rounds of easy against normal, four decks and the party rules: every decision
    # where it could go out, had to declare UNO or could play instead of drawing.
    outs = 0
    for seed in range(60):
        deck = DeckName(("classic", "bts", "minecraft", "modern-swap")[seed % 4])
        options = preset_options("party", {"deck": deck.value}) if seed % 5 == 0 else {}
        config = TableConfig.from_data({"deck": deck.value, "seats": 2 + seed % 3, **options})
        match, slips = play_round(config, seed, ["easy", "normal", "normal", "normal"])
        assert slips == []
        result = match.view(None, 0).shared.round_result
        outs += result is not None and result.winner == 0
    assert outs >= 5  # it went out itself in some of them: the last card was played


def test_easy_loses_clearly_to_normal() -> None:
    # 400 fixed rounds of the classic deck, easy's seat rotating among three normal: a
    # beginner wins well under a fair quarter (the bench's 2,000 rounds: docs/bots.md).
    wins = 0
    rounds = 400
    for seed in range(rounds):
        seat = seed % 4
        levels = ["normal"] * 4
        levels[seat] = "easy"
        match, slips = play_round(TableConfig(seats=4), 1000 + seed, levels)
        assert slips == []
        result = match.view(None, 0).shared.round_result
        wins += result is not None and result.winner == seat
    assert wins / rounds < 0.22


def test_a_play_of_the_colour_in_force_caps_what_the_seat_holds_of_it() -> None:
    memory = RoundMemory()
    memory.catch_up(seen(*START, played(0, "R3")))
    lack = memory.lacks[0]
    # normal plays its costliest card of the colour in force: none above a 3 of red.
    assert not lack.allows(Card.parse("R7")) and not lack.allows(Card.parse("RS"))
    assert lack.allows(Card.parse("R2")) and lack.allows(Card.parse("G9"))
    assert lack.allows(Card.parse("W")) and not lack.colors


def test_a_wild_says_no_coloured_card_played_and_its_colour_is_the_one_held_most() -> None:
    memory = RoundMemory()
    memory.catch_up(seen(*START, played(0, "W", Color.BLUE, count=3)))
    lack = memory.lacks[0]
    assert lack.colors == {Color.RED}
    assert not lack.allows(Card.parse("G5"))  # a 5 would have played on the red 5
    assert lack.allows(Card.parse("G6")) and lack.allows(Card.parse("W+4"))
    assert memory.favourites[0] == Favourite(Color.BLUE)
    assert Favourite(Color.BLUE).holds([Card.parse(c) for c in ("B1", "G2", "B3")])
    assert not Favourite(Color.BLUE).holds([Card.parse(c) for c in ("B1", "G2")])  # a tie: G
    assert Favourite(Color.RED).holds(())  # nothing coloured left: the first colour
    # Drawing makes the favourite stale, and the drawn cards free.
    memory.catch_up([SeenEvent(4, Drew(seat=0, count=1, reason=DrewReason.DRAW))])
    assert 0 not in memory.favourites and memory.lacks[0].fresh == 1


def test_the_sampler_deals_a_seat_the_colour_it_named_most() -> None:
    # Seat 1 named green with its last wild and holds two cards: nearly every deal
    # gives it green most (the sampler tries a few deals, then keeps one), a free deal
    # about one in four.
    config = TableConfig(seats=2, hand_size=3)
    match = Match(config, 3)
    rng = random.Random(1)
    memory = RoundMemory()
    for _ in range(200):
        seat = match.to_act()
        if seat is None or match.phase is not Phase.TURN:
            break
        memory.catch_up(event.seen_by(0) for event in match.events)
        if seat == 0:
            break
        match.apply(seat, choose(match.view(seat, 0), rng, "normal"), 0)  # type: ignore[arg-type]
    view = match.view(0, 0)
    memory.favourites[1] = Favourite(Color.GREEN)
    memory.voids.pop(1, None)
    memory.lacks.pop(1, None)
    assert view.shared.counts[1] == 2

    def green_most(memory: RoundMemory | None) -> int:
        deals = [search.sample_deal(view, config, rng, memory) for _ in range(100)]
        return sum(
            Favourite(Color.GREEN).holds([Card.parse(c) for c in deal.hands[1]])
            for deal in deals
            if deal is not None
        )

    assert green_most(memory) >= 85
    assert green_most(None) <= 60


def test_readings_hold_on_real_rounds_of_normal_players() -> None:
    # What the memory reads from normal players is true of their real hands: no more
    # cards it rules out than drawn since, and the colour named is the one held most.
    lacks = favourites = 0
    for seed in range(16):
        config = TableConfig(deck=DeckName(("classic", "bts", "minecraft")[seed % 3]), seats=3)
        match, memory, rng = Match(config, seed), RoundMemory(), random.Random(seed)
        for _ in range(300):
            memory.catch_up(event.seen_by(0) for event in match.events)
            real = match.snapshot(with_history=False)
            for seat, lack in memory.lacks.items():
                held = [Card.parse(code) for code in real["hands"][seat]]
                assert sum(not lack.allows(card) for card in held) <= lack.fresh, (seat, lack)
                lacks += 1
            for seat, favourite in memory.favourites.items():
                held = [Card.parse(code) for code in real["hands"][seat]]
                assert favourite.holds(held), (seat, favourite, held)
                favourites += 1
            to_act = match.to_act()
            if to_act is None or match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                break
            command = choose(match.view(to_act, 0), rng, "normal")
            assert command is not None
            match.apply(to_act, command, 0)
    assert lacks > 300 and favourites > 20
