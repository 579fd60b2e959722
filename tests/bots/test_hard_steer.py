"""Where ``hard`` plays otherwise than ``normal`` (most of it at three seats or more), how
its own seat plays in its playouts, and the colours its memory sees a seat leave."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from typed_views import play, view

from client.bots import search
from client.bots.memory import Lack, RoundMemory
from client.bots.strategies import Knobs, choose
from protocol.cards import Card, Color
from protocol.commands import Accept, Challenge, Draw, Pass, Play, SeatCommand
from protocol.events import (
    Drew,
    DrewReason,
    EventBody,
    FirstCard,
    Passed,
    Played,
    RoundStarted,
    SeenEvent,
)
from protocol.options import TableConfig
from protocol.phase import Phase
from protocol.views import View
from server.engine import Match


def table(hand: list[str], counts: list[int], colour: str, top: str) -> View:
    """Seat 0's view of its turn at a table going clockwise; legal: the cards that fit."""
    legal: list[SeatCommand] = []
    for code in hand:
        if code[0] == "W":
            legal += [play(code, color=c) for c in "RYGB"]
        elif code[0] == colour or code[1:] == top[1:]:
            legal.append(play(code))
    legal.append(Draw())
    return view(hand, colour, legal, top=top, counts=counts)


def steer(view: View, default: SeatCommand, memory: RoundMemory | None = None) -> Any:
    options = search.candidates(view.legal)
    assert options is not None
    return search.steer(options, view, memory, default)


def played(seat: int, code: str, color: Color | None = None) -> Played:
    """The ``played`` event of a seat's card (the colour named, for a wild)."""
    return Played(seat=seat, card=Card.parse(code), color=color, count=6)


def remembered(bodies: list[EventBody]) -> RoundMemory:
    """A round memory that has seen ``bodies``, in order."""
    memory = RoundMemory()
    memory.catch_up([SeenEvent(seq, body) for seq, body in enumerate(bodies, 1)])
    return memory


def card_of(command: SeatCommand | None) -> str | None:
    """The code of the card a command plays (None: it plays none)."""
    return command.card.code if isinstance(command, Play) else None


def test_hard_keeps_its_stoppers_while_the_next_player_is_far_from_out() -> None:
    view = table(["R+2", "R7", "G3", "B4", "Y5", "G8"], [6, 6, 6, 6], "R", "R1")
    # normal plays the costliest card of the colour: the Draw Two.
    assert card_of(choose(view, random.Random(1), "normal")) == "R+2"
    # hard plays the number and keeps the Draw Two, also as the level plays it.
    assert card_of(steer(view, play("R+2"))) == "R7"
    assert card_of(choose(view, random.Random(1), "hard", Knobs(playouts=4))) == "R7"
    # Head to head it plays as normal.
    two = table(["R+2", "R7", "G3", "B4", "Y5"], [5, 6], "R", "R1")
    assert steer(two, play("R+2")) is None


def test_hard_stops_a_next_player_about_to_go_out() -> None:
    # Next (seat 1) holds 2 cards, the one before (seat 3) 2 as well: a Reverse would
    # hand the turn to a hand as small, so the Skip.
    view = table(["RR", "RS", "R4", "G3"], [4, 2, 6, 2], "R", "R1")
    assert card_of(steer(view, play("R4"))) == "RS"
    # With the seat before far from out, the Draw Two is still the strongest.
    view = table(["RR", "RS", "R+2", "G3"], [4, 2, 6, 7], "R", "R1")
    assert card_of(steer(view, play("RR"))) == "R+2"
    # Nothing that stops it: as normal.
    view = table(["R4", "G3"], [2, 1, 6, 7], "R", "R1")
    assert steer(view, play("R4")) is None


def test_the_memory_sees_a_seat_leave_a_colour_and_hard_names_it() -> None:
    memory = RoundMemory()
    bodies = [
        RoundStarted(round=1, dealer=3, counts=(7, 7, 7, 7)),
        FirstCard(card=Card.parse("R5"), color=Color.RED),
        played(0, "R1"),
        played(1, "Y1"),  # had no red
        played(2, "Y4"),
        played(3, "W", Color.GREEN),  # no yellow
    ]
    events = [SeenEvent(seq, body) for seq, body in enumerate(bodies, 1)]
    memory.catch_up(events)
    assert memory.lacks[1].colors == {Color.RED} and memory.lacks[1].fresh == 0
    assert memory.lacks[3].colors == {Color.YELLOW}
    assert not memory.lacks[2].colors  # it followed the colour (its costliest card of it)
    memory.catch_up([SeenEvent(7, Drew(seat=1, count=2, reason=DrewReason.DRAW))])
    assert memory.lacks[1].fresh == 2  # the two new cards may be red
    # Seat 0 plays a wild; seat 1 is known to lack red: name red, held, over green, held most.
    memory = RoundMemory()
    memory.catch_up(events[:4])
    view = table(["W", "G1", "G2", "R9"], [4, 5, 6, 6], "Y", "Y1")
    default = play("W", color="G")
    assert steer(view, default, memory) == play("W", color="R")
    assert steer(view, default, RoundMemory()) is None


def test_hard_plays_a_colour_the_next_player_is_read_to_lack() -> None:
    def memory_of(seats: int) -> RoundMemory:
        memory = RoundMemory()
        opening = [
            RoundStarted(round=1, dealer=seats - 1, counts=(7,) * seats),
            FirstCard(card=Card.parse("R5"), color=Color.RED),
            played(0, "R1"),
            played(1, "Y1"),  # had no red
        ]
        memory.catch_up([SeenEvent(seq, body) for seq, body in enumerate(opening, 1)])
        return memory

    # normal follows yellow; hard turns the colour to red by the rank, which seat 1 lacks.
    two = table(["Y7", "R1", "G3", "B4", "B5", "B6"], [6, 6], "Y", "Y1")
    memory = memory_of(2)
    assert card_of(steer(two, play("Y7"), memory)) == "R1"
    assert steer(two, play("Y7"), RoundMemory()) is None
    # At four seats it aims at the next player the same way.
    four = table(["Y7", "R1", "G3"], [3, 5, 6, 6], "Y", "Y1")
    assert card_of(steer(four, play("Y7"), memory_of(4))) == "R1"
    # Once that seat has drawn, its new cards may be red: as normal again.
    memory.catch_up([SeenEvent(5, Drew(seat=1, count=1, reason=DrewReason.DRAW))])
    assert steer(two, play("Y7"), memory) is None


def test_head_to_head_hard_keeps_a_card_that_changes_the_colour_by_rank() -> None:
    # normal follows red with its costliest red, the 7; hard keeps it (a blue 7 makes it
    # the way from red to blue) and follows with the 5, which has no partner.
    two = table(["R7", "R5", "B7", "B2", "G4", "Y6"], [6, 6], "R", "R3")
    assert card_of(choose(two, random.Random(1), "normal")) == "R7"
    assert card_of(steer(two, play("R7"))) == "R5"
    # Every red has a partner in another colour: the one with fewer is given up.
    partners = table(["R7", "R5", "B7", "G7", "B5", "Y6"], [6, 6], "R", "R3")
    assert card_of(steer(partners, play("R7"))) == "R5"
    # No red has a partner, or normal changes the colour: as normal.
    plain = table(["R7", "R5", "B2", "G4", "Y6"], [5, 6], "R", "R3")
    assert steer(plain, play("R7")) is None
    switch = table(["B3", "B7", "G4"], [3, 6], "R", "R3")
    assert steer(switch, play("B3")) is None
    # A default no legal play matches (it declares UNO, the plays do not): as normal.
    assert steer(two, play("R7", uno=True)) is None
    # At four seats normal's card stands.
    four = table(["R7", "R5", "B7", "B2", "G4", "Y6"], [6, 6, 6, 6], "R", "R3")
    assert steer(four, play("R7")) is None


def test_at_four_seats_hard_leaves_the_card_the_fewest_unseen_cards_follow() -> None:
    # normal follows red with its costliest red, the 9. Three of the other 2s are in
    # hand, so fewer unseen cards follow the red 2 (red ones, and the last other 2s).
    view = table(["R9", "R2", "G2", "B2", "Y2", "G8"], [6, 6, 6, 6], "R", "R1")
    assert card_of(choose(view, random.Random(1), "normal")) == "R9"
    assert card_of(steer(view, play("R9"))) == "R2"
    # Head to head the card stays normal's (measured: a loss there).
    two = table(["R9", "R2", "G2", "B2", "Y2", "G8"], [6, 6], "R", "R1")
    assert steer(two, play("R9")) is None


def test_hard_counts_the_discards_it_saw_when_it_changes_the_colour() -> None:
    # Six blue cards went by. On the red 5, with no red, normal changes to green, the
    # colour it holds most; hard changes to blue, which fewer unseen cards follow.
    memory = remembered(
        [
            RoundStarted(round=1, dealer=3, counts=(7, 7, 7, 7)),
            FirstCard(card=Card.parse("B1"), color=Color.BLUE),
            played(1, "B2"),
            played(2, "B3"),
            played(3, "B4"),
            played(0, "B7"),
            played(1, "B8"),
            played(2, "R8"),
            played(3, "R5"),
        ]
    )
    assert memory.discard is not None and len(memory.discard) == 8

    def board(hand: list[str], counts: list[int]) -> View:
        legal: list[SeatCommand] = [play(code) for code in hand if code[1:] == "5"]
        legal += [play("W", color=c) for c in "RYGB" if "W" in hand]
        return view(hand, "R", [*legal, Draw()], top="R5", counts=counts, discard_count=8)

    changing = board(["B5", "G5", "G2", "G3", "B9", "Y6"], [6, 5, 5, 5])
    assert card_of(choose(changing, random.Random(1), "normal")) == "G5"
    assert card_of(steer(changing, play("G5"), memory)) == "B5"
    # Not knowing the discards, more blue cards are unseen than green ones: as normal.
    assert steer(changing, play("G5"), RoundMemory()) is None
    # A wild names blue for the same reason, where normal names green (held as much).
    naming = board(["W", "G2", "G3", "B9", "B6", "Y4"], [6, 4, 5, 5])
    assert choose(naming, random.Random(1), "normal") == play("W", color="G")
    assert steer(naming, play("W", color="G"), memory) == play("W", color="B")
    # It names only a colour it holds.
    only_green = board(["W", "G2", "G3", "G9", "G6", "G4"], [6, 4, 5, 5])
    assert steer(only_green, play("W", color="G"), memory) is None


def test_a_second_void_keeps_the_first_one_on_the_old_cards() -> None:
    # Seat 1 draws on red and passes the card it drew, then draws again on blue: its old
    # cards hold neither red nor blue (nor a 5, nor a wild); its new card may be anything.
    memory = RoundMemory()
    bodies = [
        RoundStarted(round=1, dealer=1, counts=(7, 7)),
        FirstCard(card=Card.parse("R5"), color=Color.RED),
        Drew(seat=1, count=1, reason=DrewReason.DRAW),
        Passed(seat=1, stuck=False),
        played(0, "B5"),
        Drew(seat=1, count=1, reason=DrewReason.DRAW),
    ]
    memory.catch_up(SeenEvent(seq, body) for seq, body in enumerate(bodies, 1))
    void, lack = memory.voids[1], memory.lacks[1]
    assert (void.color, void.fresh) == (Color.BLUE, 1)
    assert lack.colors == {Color.RED} and lack.fresh == 1
    old = [Card.parse(code) for code in ("R2", "B3", "G5", "W")]
    assert [lack.allows(c) and void.allows(c) for c in old] == [False] * 4
    assert lack.allows(Card.parse("G2")) and void.allows(Card.parse("G2"))
    # Without the pass the drawn card is fresh: nothing is known of which cards are old.
    memory = RoundMemory()
    memory.catch_up(SeenEvent(seq, body) for seq, body in enumerate(bodies[:3], 1))
    memory.catch_up([SeenEvent(4, played(0, "B5")), SeenEvent(5, bodies[5])])
    assert 1 not in memory.lacks and memory.voids[1].color == Color.BLUE


def test_a_reading_replaced_after_a_draw_still_binds_the_cards_held_then() -> None:
    # Seat 1 leaves red, takes a Draw Two, then leaves yellow: the new reading is of its
    # whole hand (no yellow); the old one still holds for all but the two cards it drew.
    memory = RoundMemory()
    bodies = [
        RoundStarted(round=1, dealer=1, counts=(7, 7)),
        FirstCard(card=Card.parse("R5"), color=Color.RED),
        played(0, "R1"),
        played(1, "Y1"),  # no red
        played(0, "Y+2"),
        Drew(seat=1, count=2, reason=DrewReason.DRAW_TWO),
        played(0, "Y3"),
        played(1, "B3"),  # no yellow, among all seven cards
    ]
    memory.catch_up(SeenEvent(seq, body) for seq, body in enumerate(bodies, 1))
    assert memory.lacks[1].colors == {Color.YELLOW} and memory.lacks[1].fresh == 0
    [earlier] = memory.earlier[1]
    assert isinstance(earlier, Lack) and earlier.colors == {Color.RED} and earlier.fresh == 2
    assert memory.readings(1) == [earlier, memory.lacks[1]]
    # Every deal of seat 1's seven cards holds no yellow and at most the two drawn reds.
    view = table(["B7", "G2"], [2, 7], "B", "B3")
    rng = random.Random(3)
    reds = set()
    for _ in range(200):
        deal = search.sample_deal(view, TableConfig(seats=2), rng, memory)
        assert deal is not None
        held = [Card.parse(code) for code in deal.hands[1]]
        assert not any(card.color is Color.YELLOW for card in held)
        reds.add(sum(card.color is Color.RED for card in held))
    assert max(reds) == 2
    # Two Draw Twos more, then a red: one of the drawn cards, so one more old card bound.
    two = Drew(seat=1, count=2, reason=DrewReason.DRAW_TWO)
    more = [played(0, "B+2"), two, played(0, "R+2"), two, played(0, "R9"), played(1, "R8")]
    memory.catch_up(SeenEvent(seq, body) for seq, body in enumerate(more, 9))
    assert earlier.fresh == 2 + 4 - 1


def test_a_wild_draw_four_says_the_seat_held_no_plain_wild() -> None:
    # normal plays a plain wild before a Wild Draw Four; after a plain wild nothing is
    # known of its other wilds.
    memory = RoundMemory()
    bodies = [
        RoundStarted(round=1, dealer=2, counts=(7, 7, 7)),
        FirstCard(card=Card.parse("R5"), color=Color.RED),
        played(0, "W+4", Color.BLUE),
        played(1, "W", Color.GREEN),
    ]
    memory.catch_up(SeenEvent(seq, body) for seq, body in enumerate(bodies, 1))
    four, plain = memory.lacks[0], memory.lacks[1]
    assert not four.allows(Card.parse("W")) and four.allows(Card.parse("W+4"))
    assert plain.allows(Card.parse("W")) and plain.allows(Card.parse("W+4"))
    assert not four.allows(Card.parse("G5")) and four.allows(Card.parse("G6"))


def test_readings_hold_on_real_rounds_of_normal_players_and_deals_keep_them() -> None:
    # Normal players follow the colour when they can, so a colour a seat left is one it
    # held none of, but for what it drew since; so with every earlier reading; the sampler
    # deals by them too.
    lacks = earlier = 0
    for seed in range(10):
        match, memory, rng = Match(TableConfig(seats=4), seed), RoundMemory(), random.Random(seed)
        for _ in range(200):
            memory.catch_up(event.seen_by(0) for event in match.events)
            real = match.snapshot(with_history=False)
            for seat in range(4):
                held = [Card.parse(code) for code in real["hands"][seat]]
                for reading in memory.readings(seat):
                    assert sum(not reading.allows(card) for card in held) <= reading.fresh
                    lacks += isinstance(reading, Lack)
                    earlier += reading in memory.earlier.get(seat, ())
            to_act = match.to_act()
            if to_act is None or match.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
                break
            if to_act == 0 and match.phase is Phase.TURN:
                view = match.view(0, 0)
                deal = search.sample_deal(view, TableConfig(seats=4), rng, memory)
                assert deal is not None
                for other in range(1, 4):
                    cards = [Card.parse(code) for code in deal.hands[other]]
                    for reading in memory.readings(other):
                        assert sum(not reading.allows(c) for c in cards) <= reading.fresh
            command = choose(match.view(to_act, 0), rng, "normal")
            assert command is not None
            match.apply(to_act, command, 0)
    assert lacks > 200 and earlier > 50


def test_at_four_seats_the_search_weighs_moves_once_a_hand_is_down_to_five(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The search starts at four seats once some hand holds five cards (it was three):
    # measured on two seeds, it won more rounds so (docs/performance.md, fifth pass).
    deals: list[int] = []
    weigh = search._play_out_every

    def counted(*args: Any, **kwargs: Any) -> list[float] | None:
        deals.append(1)
        return weigh(*args, **kwargs)

    monkeypatch.setattr(search, "_play_out_every", counted)
    limits = search.Limits(playouts=3)
    hand = ["R+2", "R7", "G3", "B4", "Y5", "G8"]
    for counts, searched in (([6, 5, 6, 6], 3), ([6, 6, 6, 6], 0)):
        deals.clear()
        board = table(hand, counts, "R", "R1")
        search.decide(board.legal, board, random.Random(1), limits, default=play("R+2"))
        assert len(deals) == searched, counts


def test_hard_plays_an_honest_wild_draw_four_where_normal_plays_a_plain_wild() -> None:
    # No red in hand and nothing coloured that plays: normal spends the plain wild.
    view = table(["W", "W+4", "G3", "B4"], [4, 6, 6, 6], "R", "R1")
    assert card_of(choose(view, random.Random(1), "normal")) == "W"
    assert steer(view, play("W", color="G")) == play("W+4", color="G")
    assert card_of(choose(view, random.Random(1), "hard", Knobs(playouts=4))) == "W+4"
    # Holding yellow, the colour in force, the Wild Draw Four would be a bluff: a plain
    # wild (were it the move) stays.
    view = table(["W", "W+4", "Y3", "B4"], [4, 6, 6, 6], "Y", "Y1")
    assert card_of(steer(view, play("W", color="G"))) in (None, "W")
    # Head to head it plays as normal (measured with the search, a loss).
    two = table(["W", "W+4", "G3", "B4"], [4, 6], "R", "R1")
    assert steer(two, play("W", color="G")) is None


@pytest.mark.parametrize("counts", [[6, 6], [6, 7, 6, 9]])
def test_hard_keeps_a_wild_while_every_hand_is_big(counts: list[int]) -> None:
    # Only the wilds play; normal spends the plain one, hard draws and keeps them. (With a
    # hand of five the search weighs the draw against the wilds, and may play one.)
    view = table(["W", "W+4", "G3", "B4", "G8", "Y2"], counts, "R", "R1")
    assert card_of(choose(view, random.Random(1), "normal")) == "W"
    assert steer(view, play("W", color="G")) == Draw()
    assert choose(view, random.Random(1), "hard", Knobs(playouts=4)) == Draw()
    # Once a hand in play is down to four cards the wild is played, as normal plays it.
    smaller = [*counts[:-1], 4]
    view = table(["W", "W+4", "G3", "B4", "G8", "Y2"], smaller, "R", "R1")
    assert card_of(choose(view, random.Random(1), "hard", Knobs(playouts=4))) in ("W", "W+4")
    # A coloured card that plays is played, as normal plays it.
    view = table(["W", "R4", "G3", "B4", "G8", "Y2"], counts, "R", "R1")
    assert steer(view, play("R4")) is None


def test_hard_keeps_the_wild_it_drew_while_every_hand_is_big() -> None:
    hand = ["W+4", "G3", "B4", "G8", "Y7", "B1"]
    legal: list[SeatCommand] = [*(play("W+4", color=c) for c in "RYGB"), Pass()]
    drew = replace(view(hand, "R", legal, top="R1", counts=[6, 6]), drawn=Card.parse("W+4"))
    assert card_of(choose(drew, random.Random(1), "normal")) == "W+4"
    assert choose(drew, random.Random(1), "hard", Knobs(playouts=4)) == Pass()
    # A coloured card it drew is played, as normal plays it.
    legal = [play("R9"), Pass()]
    drew = replace(
        view([*hand[1:], "R9"], "R", legal, top="R1", counts=[6, 6]), drawn=Card.parse("R9")
    )
    assert steer(drew, play("R9")) is None


@pytest.mark.parametrize(("ahead", "deals"), [(False, 10), (True, 40)])
def test_the_search_stops_early_only_while_the_default_leads(
    monkeypatch: pytest.MonkeyPatch, ahead: bool, deals: int
) -> None:
    # Every ten deals the search looks: with nothing ahead of the default it stops there;
    # with a candidate ahead it plays every deal it may (the outcomes are set by hand).
    board = table(["R+2", "R7", "G3", "B4", "Y5"], [5, 6], "R", "R1")
    options = search.candidates(board.legal)
    assert options is not None and play("R7") in options and play("R+2") in options
    played: list[int] = []

    def outcomes(commands: Any, *args: Any, **kwargs: Any) -> list[float]:
        played.append(1)
        return [1.0 if ahead and c == play("R7") else 0.5 for c in commands]

    monkeypatch.setattr(search, "_play_out_every", outcomes)
    pick = search.decide(
        board.legal, board, random.Random(1), search.Limits(playouts=40), default=play("R+2")
    )
    assert len(played) == deals
    assert pick == (play("R7") if ahead else play("R+2"))


def one_playout_move(board: View, me: int) -> Match:
    """The position ``board`` shows (seat 0 to act) after a playout's first move, when the
    searching bot sits at ``me``."""
    config = search.infer_config(board)
    assert config is not None
    deal = search.sample_deal(board, config, random.Random(3))
    assert deal is not None
    bluffer = search.wild_draw_four_player(board)
    match = Match.restore(search.position(board, config, deal, bluffer, guilty=False))
    search.playout(match, me, random.Random(1), max_steps=1)
    return match


@pytest.mark.parametrize(
    ("hand", "counts", "top", "normal", "own"),
    [
        # Next player about to go out: a Skip of another colour stops it.
        (["R7", "GS", "B4", "Y5"], [4, 2, 6, 6], "RS", "R7", "GS"),
        # Next player far from out: a number of the colour, the Draw Two kept.
        (["R+2", "R7", "G3", "B4", "Y5"], [5, 6, 6, 6], "R1", "R+2", "R7"),
        # No red and no coloured card plays: the honest Wild Draw Four.
        (["W", "W+4", "G3", "B4"], [4, 6, 6, 6], "R1", "W", "W+4"),
        # Head to head its own seat plays as normal, as the bot does.
        (["W", "W+4", "G3", "B4"], [4, 6], "R1", "W", "W"),
    ],
)
def test_in_its_playouts_the_bots_own_seat_plays_as_hard_does_without_a_search(
    hand: list[str], counts: list[int], top: str, normal: str, own: str
) -> None:
    board = table(hand, counts, top[0], top)
    assert card_of(choose(board, random.Random(1), "normal")) == normal
    # An opponent's seat (the search is seat 1's) plays normal's card, the own seat hard's.
    assert one_playout_move(board, me=1).top_card().code == normal
    assert one_playout_move(board, me=0).top_card().code == own


def test_in_its_playouts_the_bots_own_seat_never_challenges() -> None:
    # Seat 1 played an honest Wild Draw Four from six cards. normal challenges it and draws
    # six; hard, which reads a seat never caught bluffing as honest, draws four.
    board = view(
        ["R7", "G3", "B4", "Y5"],
        "G",
        [Challenge(), Accept()],
        top="W+4",
        counts=[4, 6],
        phase=Phase.CHALLENGE,
    )
    for me, drawn in ((1, 6), (0, 4)):
        assert one_playout_move(board, me).hand_count(0) == 4 + drawn
