"""Playing at a table: start, whole matches, redaction, clocks, catches, pause, rematch."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from test_table_rig import (
    FakePeer,
    create,
    ok,
    open_lobby,
    play,
    refused,
    rigged,
    settle,
    two_players,
)

from protocol.cards import Card, Color
from protocol.commands import Catch, Challenge, Draw, Play
from protocol.errors import LobbyRejectCode
from protocol.events import Played
from protocol.messages import (
    AddBot,
    Chat,
    ChatMessage,
    Game,
    GameEvent,
    GameView,
    Join,
    Joined,
    Kick,
    Leave,
    Ok,
    PauseTable,
    Ready,
    Rejected,
    Rematch,
    ResumeTable,
    Spectate,
    Start,
    TableState,
    TableStatus,
    TakeBotSeat,
)
from protocol.rejections import RejectCode
from server.peer import Peer
from server.table import Table


def card(code: str) -> Card:
    return Card.parse(code)


def kinds_after(peer: FakePeer, seq: int) -> list[str]:
    return [str(e.body.kind) for e in peer.events if e.seq > seq]


def assert_gap_free(peer: FakePeer) -> None:
    seqs = [event.seq for event in peer.events]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs


EVERY_EVENT = 1_000_000
"""A table history that keeps every event of a test's match, for ``assert_redacted`` (the
match itself forgets its events once the table has sent them)."""


def assert_redacted(table: Table, peer: FakePeer, seat: int | None) -> None:
    """Every frame ``peer`` got shows only what ``seat`` may see, compared with the engine's
    events in the table's history (a lobby opened with ``history_limit=EVERY_EVENT``)."""
    kept = list(table.broadcast.history.after(0))
    assert kept[0].seq == 1, "the history lost events: open the lobby with EVERY_EVENT"
    events = {numbered.seq: numbered.event for numbered in kept}
    assert peer.events, "nothing to check"
    for message in peer.events:
        event = events[message.seq]
        body = message.body.to_data()
        secrets = {other: secret.to_data() for other, secret in event.private.items()}
        mine = secrets.get(seat, {}) if seat is not None else {}
        for other, secret in secrets.items():
            if other == seat:
                continue
            for key, value in secret.items():
                if key in event.public or key in mine:
                    continue
                assert key not in body, (seat, other, key, body)
                assert value not in body.values()
        for key, value in mine.items():
            assert body[key] == value  # a seat does get its own secrets
    for view_message in peer.of(GameView):
        view = view_message.body
        assert view.seat == seat
        if seat is None:
            assert view.hand is None and view.legal == ()
        else:
            assert view.hand is not None and len(view.hand) == view.shared.counts[seat]


async def test_start_needs_the_host_and_two_seats(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann"), FakePeer("Bob")
    table = await create(lobby, ann, seats=4)
    code = await refused(lobby, ann, lambda i: Start(id=i))
    assert code == LobbyRejectCode.NOT_ENOUGH_PLAYERS
    await ok(lobby, bob, lambda i: Join(id=i, table_id=table.table_id, seat=3))
    assert await refused(lobby, bob, lambda i: Start(id=i)) == LobbyRejectCode.NOT_HOST

    await ok(lobby, ann, lambda i: Start(id=i))
    # The empty seats close up: Bob plays as seat 1 of a two-seat match.
    assert bob.seat == 1 and bob.token == bob.of(Joined)[0].resume_token
    assert ann.state.state is TableStatus.PLAYING and ann.state.options.seats == 2
    assert bob.view["seat"] == 1 and len(bob.view["hand"]) == 7
    assert ann.events[0].seq == 1 and ann.events[0].body.kind == "dealer-chosen"
    assert await refused(lobby, ann, lambda i: Start(id=i)) == "wrong-table-state"
    code = await refused(lobby, FakePeer("Cat"), lambda i: Join(id=i, table_id=table.table_id))
    assert code == LobbyRejectCode.WRONG_TABLE_STATE


async def test_whole_match_with_bot_seats_reaches_the_end_redacted_for_everyone(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery, history_limit=EVERY_EVENT)
    ann, sue = FakePeer("Ann"), FakePeer("Sue")
    table = await create(lobby, ann, target_score=60, turn_seconds=5)
    for _ in range(3):
        await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))

    # Ann never moves: her turn clock plays for her, then a server bot does.
    with trio.fail_after(100_000):
        await ann.wait_for(lambda: "match-over" in ann.event_kinds())
    await settle()
    assert ann.state.state is TableStatus.OVER
    assert "timed-out" in ann.event_kinds() and "away" in ann.event_kinds()
    assert [e.seq for e in ann.events] == [e.seq for e in sue.events]
    assert_gap_free(ann)
    assert ann.events[-1].seq == table.broadcast.last_seq
    assert_redacted(table, ann, 0)
    assert_redacted(table, sue, None)
    result = ann.events[-1].body.to_data()
    assert max(result["scores"]) >= 60


async def test_every_frame_to_two_people_is_redacted_for_their_seat(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    _lobby, table, ann, bob = await two_players(
        nursery, history_limit=EVERY_EVENT, target_score=40, turn_seconds=2
    )
    with trio.fail_after(100_000):
        await ann.wait_for(lambda: "round-over" in ann.event_kinds())
    assert_redacted(table, ann, 0)
    assert_redacted(table, bob, 1)
    await settle()
    assert ann.view["counts"] == bob.view["counts"]
    match = table.game.match
    assert match is not None
    assert ann.view["hand"] == [c.code for c in match.hand(0)]
    assert bob.view["hand"] == [c.code for c in match.hand(1)]


async def test_illegal_commands_are_rejected_and_change_nothing(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    match = rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    digest = match.state_digest()
    before_ann, before_bob = len(ann.received), len(bob.received)

    reply = await play(lobby, bob, Draw())
    assert reply.code == RejectCode.NOT_YOUR_TURN  # type: ignore[union-attr]
    reply = await play(lobby, ann, Play(card("Y9")))
    assert reply.code == RejectCode.CARD_NOT_IN_HAND  # type: ignore[union-attr]
    reply = await play(lobby, ann, Play(card("G2")))
    assert reply.code == RejectCode.CARD_DOES_NOT_MATCH  # type: ignore[union-attr]

    assert match.state_digest() == digest
    assert len(ann.received) == before_ann + 2 and len(bob.received) == before_bob + 1
    spectator = FakePeer("Sue")
    await ok(lobby, spectator, lambda i: Spectate(id=i, table_id=table.table_id))
    reply = await play(lobby, spectator, Draw())
    assert reply.code == LobbyRejectCode.NOT_SEATED  # type: ignore[union-attr]


async def test_a_legal_move_reaches_everyone_numbered_with_the_cause_for_the_sender(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    last = table.broadcast.last_seq

    reply = await play(lobby, ann, Play(card("R1")))
    new_for_ann = [e for e in ann.events if e.seq > last]
    new_for_bob = [e for e in bob.events if e.seq > last]
    assert [e.seq for e in new_for_ann] == [e.seq for e in new_for_bob]
    assert new_for_ann[0].seq == last + 1 and new_for_ann[0].body.kind == "played"
    assert {e.cause for e in new_for_ann} == {reply.id} and {e.cause for e in new_for_bob} == {None}
    # The reply comes after the events and the fresh view.
    assert ann.received[-1] == reply and isinstance(ann.received[-2], GameView)
    assert bob.view["to_act"] == 1 and bob.view["top"] == "R1"


async def test_a_move_reaches_its_sender_first_and_every_other_seat_with_its_view(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    sue = FakePeer("Sue")
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))
    await settle()
    writes_before = {peer.name: len(peer.writes) for peer in (ann, bob, sue)}
    built: list[int] = []
    build_view = table.broadcast.send_view

    def watched_send_view(peer: Peer, *args: Any, **options: Any) -> None:
        built.append(len(ann.writes))
        build_view(peer, *args, **options)

    table.broadcast.send_view = watched_send_view  # type: ignore[method-assign]
    reply = await play(lobby, ann, Play(card("R1")))
    await settle()

    new_writes = {peer.name: peer.writes[writes_before[peer.name] :] for peer in (ann, bob, sue)}
    # The sender's events leave alone, before any view is built...
    first = new_writes["Ann"][0]
    assert first and all(isinstance(m, GameEvent) and m.cause == reply.id for m in first)
    assert built and min(built) == writes_before["Ann"] + 1
    # ...then its view, any table state and the reply, in one write.
    assert len(new_writes["Ann"]) == 2
    assert isinstance(new_writes["Ann"][1][0], GameView) and new_writes["Ann"][1][-1] == reply
    # Everyone else gets the same events and the view that covers them, in one write.
    for name in ("Bob", "Sue"):
        (write,) = new_writes[name]
        events = [m for m in write[:-1] if isinstance(m, GameEvent)]
        assert len(events) == len(write) - 1, name
        assert [m.seq for m in events] == [m.seq for m in first if isinstance(m, GameEvent)]
        assert all(m.cause is None for m in events), name
        view = write[-1]
        assert isinstance(view, GameView) and view.seq == events[-1].seq, name
    assert not (ann.held or bob.held or sue.held)


async def test_a_move_that_ends_the_round_answers_its_sender_in_one_write(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, _bob = await two_players(nursery, turn_seconds=0, target_score=500)
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await settle()
    before = len(ann.writes)
    reply = await play(lobby, ann, Play(card("R1")))
    await settle()

    events, answer = ann.writes[before:]
    assert all(isinstance(m, GameEvent) for m in events)
    assert "round-over" in [m.body.kind for m in events if isinstance(m, GameEvent)]
    # The round's end changed the table state: it goes between the view and the reply.
    assert [type(m) for m in answer] == [GameView, TableState, Ok] and answer[-1] == reply
    state = answer[1]
    assert isinstance(state, TableState) and state.state is TableStatus.BETWEEN_ROUNDS


async def test_requests_are_handled_in_the_order_they_arrive(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["R4", "Y5", "Y6"]], top="R9", current=0)
    await settle()
    # Three requests from two connections, queued without the table running in between.
    first = Game(id=ann.next_id(), command=Play(card("R1")))
    chat = Chat(id=bob.next_id(), text="my turn next")
    second = Game(id=bob.next_id(), command=Play(card("R4")))
    for peer, request in ((ann, first), (bob, chat), (bob, second)):
        await lobby.handle(peer, request)
    await settle()
    assert isinstance(ann.reply(first.id), Ok) and isinstance(bob.reply(second.id), Ok)

    def seen_by_ann_at(sender: FakePeer, request: Game) -> int:
        """Where Ann received the first event of ``request`` (its sender knows its seq)."""
        seq = next(e.seq for e in sender.events if e.cause == request.id)
        return next(
            at for at, m in enumerate(ann.received) if isinstance(m, GameEvent) and m.seq == seq
        )

    chat_at = next(
        at
        for at, m in enumerate(ann.received)
        if isinstance(m, ChatMessage) and m.text == chat.text
    )
    assert seen_by_ann_at(ann, first) < chat_at < seen_by_ann_at(bob, second)


async def test_turn_clock_plays_for_a_silent_player(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    _lobby, table, ann, bob = await two_players(nursery, turn_seconds=5)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    last = table.broadcast.last_seq

    await ann.wait_for(lambda: "timed-out" in kinds_after(ann, last))
    expired = [e.body.to_data() for e in ann.events if e.seq > last]
    assert expired[0] == {"seq": last + 1, "kind": "timed-out", "seat": 0, "phase": "turn"}
    assert "drew" in kinds_after(ann, last) and "passed" in kinds_after(ann, last)
    await settle()
    assert bob.view["to_act"] == 1 and bob.view["counts"][0] == 4


async def test_a_move_that_arrives_as_the_turn_clock_runs_out_comes_after_the_timeout(
    nursery: trio.Nursery, mock_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=5)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await settle()  # the table waits for requests; its clock is 5 s away
    last = table.broadcast.last_seq

    mock_clock.jump(6)
    # Sent with no checkpoint since the jump: the table's task has not woken to its clock,
    # so it must not take the move ahead of the timeout it owes.
    move = Game(id=ann.next_id(), command=Play(card("R1")))
    await lobby.handle(ann, move)
    await ann.wait_for(lambda: ann.reply(move.id) is not None)

    answer = ann.reply(move.id)
    assert isinstance(answer, Rejected) and answer.code == RejectCode.NOT_YOUR_TURN
    assert kinds_after(ann, last)[0] == "timed-out"
    await settle()
    assert "R1" in ann.view["hand"] and bob.view["to_act"] == 1


async def test_draw_four_decision_clock_accepts_for_a_silent_victim(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=60, decision_seconds=3)
    rigged(table, hands=[["W+4", "R5", "G7"], ["B1", "B2", "B3"]], top="R3", current=0)
    await play(lobby, ann, Play(card("W+4"), color=Color.GREEN))
    assert bob.view["phase"] == "challenge" and bob.view["pending"]["seat"] == 1
    last = table.broadcast.last_seq

    await bob.wait_for(lambda: "draw-four-accepted" in kinds_after(bob, last))
    bodies = [e.body.to_data() for e in bob.events if e.seq > last]
    assert bodies[0]["kind"] == "timed-out" and bodies[0]["phase"] == "challenge"
    await settle()
    assert bob.view["counts"][1] == 7


async def test_catch_inside_the_window_costs_two_cards(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "R2"], ["B5", "B6", "B7"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    assert 0 in bob.view["exposed"]

    reply = await play(lobby, bob, Catch(0))
    assert reply.__class__.__name__ == "Ok"
    caught = [e.body.to_data() for e in bob.events if e.body.kind == "caught"]
    assert caught[-1]["seat"] == 0 and caught[-1]["by"] == 1 and caught[-1]["penalty"] == 2
    assert ann.view["counts"][0] == 3 and len(ann.view["hand"]) == 3


async def test_catch_after_the_window_is_rejected(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0, catch_grace_ms=1500)
    match = rigged(table, hands=[["R1", "R2"], ["B5", "B6", "B7"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    await play(lobby, bob, Draw())  # the next seat's first command
    autojump_clock.jump(2.0)  # past the grace
    digest = match.state_digest()

    reply = await play(lobby, bob, Catch(0))
    assert reply.code == RejectCode.CATCH_TOO_LATE  # type: ignore[union-attr]
    assert match.state_digest() == digest and len(match.hand(0)) == 1


async def test_pause_stops_the_clock_and_resume_restarts_it(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=5)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    last = table.broadcast.last_seq
    assert await refused(lobby, bob, lambda i: PauseTable(id=i)) == LobbyRejectCode.NOT_HOST
    await ok(lobby, ann, lambda i: PauseTable(id=i))
    assert ann.state.state is TableStatus.PAUSED and bob.view["phase"] == "paused"
    reply = await play(lobby, ann, Draw())
    assert reply.code == RejectCode.PAUSED  # type: ignore[union-attr]

    autojump_clock.jump(600.0)
    await settle()
    assert kinds_after(ann, last) == ["paused"]

    await ok(lobby, ann, lambda i: ResumeTable(id=i))
    await ann.wait_for(lambda: "timed-out" in kinds_after(ann, last))
    assert kinds_after(ann, last)[:3] == ["paused", "resumed", "timed-out"]


async def test_ready_people_start_the_next_round_without_waiting(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await two_players(
        nursery, turn_seconds=0, round_pause_seconds=3600, target_score=500
    )
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    assert ann.state.state is TableStatus.BETWEEN_ROUNDS
    last = table.broadcast.last_seq

    await ok(lobby, ann, lambda i: Ready(id=i))
    assert ann.state.seats[0].ready and kinds_after(ann, last) == []
    await ok(lobby, bob, lambda i: Ready(id=i))
    assert "round-started" in kinds_after(ann, last)
    assert ann.state.state is TableStatus.PLAYING
    assert not any(seat.ready for seat in ann.state.seats)


async def test_a_newcomer_takes_a_bots_seat_between_rounds(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, cat = FakePeer("Ann"), FakePeer("Cat")
    table = await create(lobby, ann, seats=2, turn_seconds=0, round_pause_seconds=3600)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    tid = table.table_id
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    assert ann.state.state is TableStatus.BETWEEN_ROUNDS
    code = await refused(lobby, cat, lambda i: TakeBotSeat(id=i, table_id=tid, seat=0))
    assert code == LobbyRejectCode.NOT_A_BOT
    await ok(lobby, cat, lambda i: TakeBotSeat(id=i, table_id=tid, seat=1))
    assert cat.seat == 1 and cat.token is not None
    assert cat.view["seat"] == 1 and cat.view["phase"] == "round-over"
    assert ann.state.seats[1].name == "Cat" and not ann.state.seats[1].bot


async def test_rematch_numbers_events_on_from_the_last_match(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=2, turn_seconds=0, target_score=10)
    await ok(lobby, ann, lambda i: AddBot(id=i, strategy="basic"))
    await ok(lobby, ann, lambda i: Start(id=i))
    assert await refused(lobby, ann, lambda i: Rematch(id=i)) == "wrong-table-state"
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    assert ann.state.state is TableStatus.OVER
    last = table.broadcast.last_seq

    await ok(lobby, ann, lambda i: Rematch(id=i))
    first_new = next(e for e in ann.events if e.seq > last)
    assert first_new.seq == last + 1 and first_new.body.kind == "dealer-chosen"
    assert ann.state.state is TableStatus.PLAYING
    assert_gap_free(ann)
    assert table.game.matches_played == 2


async def test_kicked_person_loses_the_seat_to_a_bot_mid_match(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["Y4", "Y5", "R6"]], top="R9", current=0)
    assert await refused(lobby, bob, lambda i: Kick(id=i, seat=0)) == LobbyRejectCode.NOT_HOST
    assert await refused(lobby, ann, lambda i: Kick(id=i, seat=0)) == LobbyRejectCode.BAD_SEAT

    await ok(lobby, ann, lambda i: Kick(id=i, seat=1))
    assert lobby.location(bob) is None
    assert ann.state.seats[1].bot and ann.state.seats[1].name != "Bob"
    before = table.broadcast.last_seq
    await play(lobby, ann, Play(card("R1")))
    # The server's bot answers for seat 1 after its think delay.
    await ann.wait_for(lambda: ann.view["to_act"] == 0)
    assert any(isinstance(e.body.body, Played) and e.body.body.seat == 1 for e in ann.events)
    assert not [e for e in bob.events if e.seq > before]


async def test_leaving_mid_match_hands_the_seat_to_a_bot(nursery: trio.Nursery) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    await ok(lobby, bob, lambda i: Leave(id=i))
    assert ann.state.seats[1].bot and bob.token is not None
    assert not table.holds_token(bob.token)  # a left seat cannot be resumed
    assert ann.state.state is TableStatus.PLAYING


async def test_a_challenge_shows_the_hand_to_the_challenger_alone(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob, cat, sue = FakePeer("Ann"), FakePeer("Bob"), FakePeer("Cat"), FakePeer("Sue")
    table = await create(lobby, ann, seats=3, turn_seconds=0)
    for peer in (bob, cat):
        await ok(lobby, peer, lambda i: Join(id=i, table_id=table.table_id))
    await ok(lobby, sue, lambda i: Spectate(id=i, table_id=table.table_id))
    await ok(lobby, ann, lambda i: Start(id=i))
    hands = [["W+4", "R5", "G7"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]]
    rigged(table, hands=hands, top="R3", current=0)
    await play(lobby, ann, Play(card("W+4"), color=Color.GREEN))  # a bluff: Ann holds R5
    await play(lobby, bob, Challenge())

    def challenged(peer: FakePeer) -> dict[str, Any]:
        return next(e.body.to_data() for e in peer.events if e.body.kind == "challenged")

    assert challenged(bob)["hand"] == ["R5", "G7"] and challenged(bob)["guilty"] is True
    for other in (ann, cat, sue):
        assert "hand" not in challenged(other)
        assert challenged(other)["guilty"] is True
    await settle()
    assert bob.view["counts"][0] == 6 and bob.view["to_act"] == 1


async def test_the_server_seed_fixes_every_shuffle(nursery: trio.Nursery) -> None:
    async def first_deal(seed: int) -> list[Any]:
        lobby = await open_lobby(nursery, seed=seed)
        ann = FakePeer("Ann")
        await create(lobby, ann, seats=2, turn_seconds=0)
        await ok(lobby, ann, lambda i: AddBot(id=i, strategy="random"))
        await ok(lobby, ann, lambda i: Start(id=i))
        await settle()
        return [event.body.to_data() for event in ann.events[:4]] + [ann.view["hand"]]

    assert await first_deal(5) == await first_deal(5)
    assert await first_deal(5) != await first_deal(6)


async def test_the_fast_path_answers_a_move_at_once_and_never_overtakes_the_inbox(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(nursery, turn_seconds=0)
    rigged(table, hands=[["R1", "G2", "B3"], ["R4", "Y5", "Y6"]], top="R9", current=0)
    await settle()
    # The task is parked on an empty inbox: Ann's move is handled in her own step.
    seen = len(ann.events)
    move = Game(id=ann.next_id(), command=Play(card("R1")))
    await lobby.handle(ann, move)
    assert [e.cause for e in ann.events[seen:]] and ann.events[seen].cause == move.id
    assert ann.reply(move.id) is None  # the reply waits for the views
    await settle()
    assert isinstance(ann.reply(move.id), Ok) and isinstance(ann.received[-1], Ok)

    # Something queued first (Ann's chat) keeps a later move (Bob's) behind it.
    chat = Chat(id=ann.next_id(), text="after you")
    answer = Game(id=bob.next_id(), command=Play(card("R4")))
    await lobby.handle(ann, chat)
    await lobby.handle(bob, answer)
    assert not [e for e in bob.events if e.cause == answer.id]  # not handled inline
    await settle()
    said = next(
        i for i, m in enumerate(bob.received) if isinstance(m, ChatMessage) and m.text == chat.text
    )
    moved = next(i for i, m in enumerate(bob.received) if getattr(m, "cause", None) == answer.id)
    assert said < moved


async def test_a_rematch_waits_for_the_guests_until_the_round_break_runs_out(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    lobby, table, ann, bob = await two_players(
        nursery, turn_seconds=0, round_pause_seconds=30, target_score=1
    )
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    last = table.broadcast.last_seq
    assert await refused(lobby, bob, lambda i: Rematch(id=i)) == LobbyRejectCode.NOT_HOST

    await ok(lobby, ann, lambda i: Rematch(id=i))
    assert bob.state.state is TableStatus.OVER and bob.state.rematch_asked
    assert [seat.ready for seat in bob.state.seats] == [True, False]
    assert kinds_after(bob, last) == []
    assert await refused(lobby, ann, lambda i: Rematch(id=i)) == "wrong-table-state"
    await trio.sleep(29)
    assert kinds_after(bob, last) == []  # the clock still runs

    await bob.wait_for(lambda: bob.state.state is TableStatus.PLAYING)
    assert kinds_after(bob, last)[0] == "dealer-chosen" and not bob.state.rematch_asked
    assert table.game.matches_played == 2


async def test_a_rematch_starts_once_the_only_guest_not_ready_leaves(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(
        nursery, turn_seconds=0, round_pause_seconds=3600, target_score=1
    )
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await play(lobby, ann, Play(card("R1")))
    await ok(lobby, ann, lambda i: Rematch(id=i))
    assert ann.state.rematch_asked and ann.state.state is TableStatus.OVER

    await ok(lobby, bob, lambda i: Leave(id=i))
    assert ann.state.state is TableStatus.PLAYING and not ann.state.rematch_asked
    assert ann.state.seats[1].bot  # the seat plays on as a bot's


async def test_a_rematch_does_not_wait_for_a_seat_the_match_marked_away(
    nursery: trio.Nursery,
) -> None:
    lobby, table, ann, bob = await two_players(
        nursery, turn_seconds=0, round_pause_seconds=3600, target_score=1
    )
    rigged(table, hands=[["R1"], ["Y4", "Y5", "Y6"]], top="R9", current=0)
    await ok(lobby, ann, lambda i: Chat(id=i, text="the rigged deal is in place"))
    table.game.set_away(1, True)  # as three expired clocks would; Bob is still connected
    await play(lobby, ann, Play(card("R1")))
    assert bob.state.seats[1].away and bob.state.state is TableStatus.OVER

    await ok(lobby, ann, lambda i: Rematch(id=i))
    assert bob.state.state is TableStatus.PLAYING and not bob.state.rematch_asked
