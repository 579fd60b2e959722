"""What a 1.0 or 1.1 connection is sent of a 1.2 table (docs/protocol.md section 4)."""

from __future__ import annotations

import dataclasses

from protocol.cards import Card
from protocol.commands import Catch, Play
from protocol.compat import CURRENT, ERROR_CODES_SINCE, EVENTS_SINCE, OPTIONS_SINCE, for_version
from protocol.errors import ErrorCode
from protocol.events import HandsPassed, JumpedIn, Played, SeenEvent
from protocol.messages import (
    Error,
    GameEvent,
    GameView,
    Hello,
    HostReason,
    Left,
    LeftCause,
    LeftReason,
    MatchList,
    MatchNote,
    MatchPlayer,
    MatchRecord,
    Rejected,
    TableList,
    TableState,
    TableStatus,
    TableSummary,
)
from protocol.options import TableConfig, TableOptions, preset_options
from protocol.version import PROTOCOL_VERSION, parse_version
from protocol.views import View
from server.engine import Match


def test_the_current_version_is_the_release_s() -> None:
    assert parse_version(PROTOCOL_VERSION) == CURRENT


def test_event_kinds_new_in_1_2_are_withheld_from_older_versions_only() -> None:
    for body in (JumpedIn(seat=1, overtaken=0), HandsPassed(seat=1, direction=1, counts=(1, 1))):
        event = GameEvent(seq=5, body=SeenEvent(5, body))
        assert for_version(event, (1, 1)) is None and for_version(event, (1, 0)) is None
        assert for_version(event, (1, 2)) is event
    r5 = Card.parse("R5")
    played = GameEvent(seq=6, body=SeenEvent(6, Played(seat=1, card=r5, color=None, count=2)))
    assert for_version(played, (1, 0)) is played
    assert set(EVENTS_SINCE) == {"jumped-in", "hands-passed"}


def test_an_older_view_offers_no_jump_in() -> None:
    legal = (Play(Card.parse("R5")), Catch(target=0))
    shared = Match(TableConfig(seats=3), seed=1).shared_view(0)
    shared = dataclasses.replace(shared, to_act=1)
    off_turn = GameView(seq=9, body=View(seat=2, shared=shared, hand=(), legal=legal))
    older = for_version(off_turn, (1, 1))
    assert isinstance(older, GameView) and older.body.legal == (legal[1],)
    assert off_turn.body.legal == legal  # the 1.2 message is left as it was
    assert for_version(off_turn, (1, 2)) is off_turn
    on_turn = GameView(seq=9, body=View(seat=1, shared=shared, hand=(), legal=legal))
    assert for_version(on_turn, (1, 1)) is on_turn


def test_older_table_state_options_hold_only_that_version_s_fields() -> None:
    options = TableOptions.of(TableConfig.from_data(preset_options("party")))
    state = TableState(
        table_id="t1", name="party", state=TableStatus.LOBBY, seats=(), options=options
    )
    older = for_version(state, (1, 1))
    assert isinstance(older, TableState)
    sent = older.to_data()["options"]
    assert not set(sent) & set(OPTIONS_SINCE)
    assert set(sent) | set(OPTIONS_SINCE) == set(options.to_data())
    config = TableConfig.from_data(sent)  # what a 1.1 client builds from it
    assert config.stack_draw_two and not config.jump_in
    as_12 = for_version(state, (1, 2))
    assert isinstance(as_12, TableState)
    assert set(options.to_data()) - set(as_12.to_data()["options"]) == {"spectators_see_hands"}
    assert for_version(state, (1, 3)) is state


def test_hands_for_spectators_reach_only_a_13_peer() -> None:
    hands = ((Card.parse("R1"),), (Card.parse("G2"), Card.parse("W")))
    shared = Match(TableConfig(seats=2), seed=1).shared_view(0)
    view = GameView(seq=4, body=View(seat=None, shared=shared, hands=hands))
    assert view.body.to_data()["hands"] == [["R1"], ["G2", "W"]]
    assert for_version(view, (1, 3)) is view
    older = for_version(view, (1, 2))
    assert isinstance(older, GameView) and "hands" not in older.body.to_data()
    listed = TableList(
        tables=(
            TableSummary(
                table_id="t",
                name="n",
                state=TableStatus.PLAYING,
                seats=2,
                taken=2,
                spectators_see_hands=True,
            ),
        )
    )
    as_12 = for_version(listed, (1, 2))
    assert isinstance(as_12, TableList) and not as_12.tables[0].spectators_see_hands
    refusal = Rejected(id=3, code="watched-hands", message="you watched")
    assert for_version(refusal, (1, 2)) == Rejected(
        id=3, code="wrong-table-state", message="you watched"
    )


def test_journal_unavailable_reaches_an_older_peer_as_internal_error() -> None:
    refusal = Rejected(id=3, code="journal-unavailable", message="the disk is full")
    assert for_version(refusal, (1, 3)) is refusal
    for older in ((1, 0), (1, 1), (1, 2)):
        sent = for_version(refusal, older)
        assert isinstance(sent, Rejected)
        assert (sent.id, sent.code, sent.message) == (3, "internal-error", "the disk is full")
    other = Rejected(id=4, code="banned")
    assert for_version(other, (1, 0)) is other  # only codes listed are replaced


def test_the_owner_and_the_host_s_reason_reach_1_3_peers_only() -> None:
    state = TableState(
        table_id="t1",
        name="lent",
        state=TableStatus.PLAYING,
        seats=(),
        host_seat=1,
        owner_seat=0,
        host_reason=HostReason.OWNER_AWAY,
    )
    assert for_version(state, (1, 3)) is state
    for older in ((1, 2), (1, 0)):
        sent = for_version(state, older)
        assert isinstance(sent, TableState)
        wire = sent.to_data()
        assert wire["host_seat"] == 1  # the host, lent or not, as older versions know it
        assert "owner_seat" not in wire and "host_reason" not in wire
    assert state.to_data()["host_reason"] == "owner-away"


def test_a_hello_says_bot_only_when_it_is_one_and_older_pages_lose_stand_in_turns() -> None:
    assert "bot" not in Hello(versions=("1.3",), name="ann").to_data()
    assert Hello(versions=("1.3",), name="robo", bot=True).to_data()["bot"] is True
    players = (
        MatchPlayer(name="ann", score=10, stand_in_turns=4),
        MatchPlayer(name="robo", bot=True),
    )
    record = MatchRecord(
        finished_at=1,
        table_id="t1",
        table="t",
        deck="classic",
        options=TableOptions(),
        players=players,
    )
    page = MatchList(matches=(record,))
    assert for_version(page, (1, 3)) is page
    older = for_version(page, (1, 2))
    assert isinstance(older, MatchList)
    sent = older.to_data()["matches"][0]["players"]
    assert [sorted(player) for player in sent] == [["bot", "name", "score"]] * 2
    assert page.to_data()["matches"][0]["players"][0]["stand_in_turns"] == 4


def test_a_match_record_names_its_id_from_1_3_on() -> None:
    record = MatchRecord(
        finished_at=1,
        table_id="1",
        table="Den",
        deck="classic",
        options=TableOptions(),
        players=(MatchPlayer(name="Ann", bot=False, score=5),),
        match_id=42,
    )
    listing = MatchList(matches=(record,), next_cursor="42")
    assert for_version(listing, CURRENT) is listing
    sent = for_version(listing, (1, 2))  # a 1.2 message: older ones never ask
    assert isinstance(sent, MatchList)
    assert "match_id" not in sent.to_data()["matches"][0]
    assert sent.matches[0] == dataclasses.replace(record, match_id=None)
    assert sent.next_cursor == "42"


def test_an_error_code_new_in_1_3_reaches_older_peers_as_the_code_they_know() -> None:
    cut = Error(code=ErrorCode.TOO_MANY_REFUSALS.value, message="slow down")
    assert for_version(cut, (1, 3)) is cut
    for version in ((1, 0), (1, 1), (1, 2)):
        older = for_version(cut, version)
        assert older == Error(code=ErrorCode.RATE_LIMITED.value, message="slow down")
    # Every code older peers get instead is one of theirs.
    for since, instead in ERROR_CODES_SINCE.values():
        assert since == (1, 3) and instead not in ERROR_CODES_SINCE
    plain = Error(code=ErrorCode.TOO_SLOW.value)
    assert for_version(plain, (1, 0)) is plain


def test_the_welcomes_table_defaults_go_only_to_a_1_3_peer() -> None:
    from protocol.messages import Welcome

    party = TableOptions.of(TableConfig.from_data(preset_options("party")))
    welcome = Welcome(
        version="1.3", server_name="Kitchen", server_id="s1", server_version="1",
        web_port=7532, table_defaults=party,
    )  # fmt: skip
    assert for_version(welcome, (1, 3)) == welcome
    older = for_version(welcome, (1, 2))
    assert isinstance(older, Welcome)
    assert older.table_defaults is None and older.web_port is None


def test_a_left_s_cause_and_a_note_s_code_reach_1_3_peers_only() -> None:
    left = Left(
        table_id="1", reason=LeftReason.KICKED, message="Ann asked you to leave",
        cause=LeftCause.ASKED_TO_LEAVE.value, by="Ann", banned=True,
    )  # fmt: skip
    assert for_version(left, (1, 3)) is left
    for version in ((1, 1), (1, 2)):
        older = for_version(left, version)
        assert older == Left(table_id="1", reason=LeftReason.KICKED, message=left.message)
        assert isinstance(older, Left)
        assert sorted(older.to_data()) == ["message", "reason", "table_id", "type"]
    assert for_version(left, (1, 0)) is None  # ``left`` itself came in 1.1
    record = MatchRecord(
        finished_at=1, table_id="1", table="Den", deck="classic", options=TableOptions(),
        players=(MatchPlayer(name="Ann", score=5),), note="not finished: closed",
        note_code=MatchNote.CLOSED_FOR_NEW_TABLE.value,
    )  # fmt: skip
    sent = for_version(MatchList(matches=(record,)), (1, 2))
    assert isinstance(sent, MatchList)
    assert sent.matches[0].note_code is None and sent.matches[0].note == record.note


def test_a_rematch_asked_reaches_1_3_peers_only() -> None:
    state = TableState(
        table_id="t1", name="again", state=TableStatus.OVER, seats=(), rematch_asked=True
    )
    assert for_version(state, (1, 3)) is state
    for older in ((1, 2), (1, 0)):
        sent = for_version(state, older)
        assert isinstance(sent, TableState) and not sent.rematch_asked
    assert state.to_data()["rematch_asked"] is True


def test_a_rejections_case_fields_go_to_1_3_only_and_a_newer_code_still_maps() -> None:
    rejected = Rejected(
        id=3,
        code="bad-options",
        message="teams need four seats",
        option="scoring",
        card=Card.parse("R5"),
        limit=2,
    )
    assert for_version(rejected, (1, 3)) is rejected
    older = for_version(rejected, (1, 2))
    assert older == Rejected(id=3, code="bad-options", message="teams need four seats")
    # A 1.3 code to a 1.2 peer: the fields go and the code still becomes the older one.
    newer = Rejected(id=4, code="watched-hands", message="you watched", limit=1)
    assert for_version(newer, (1, 2)) == Rejected(
        id=4, code="wrong-table-state", message="you watched"
    )
