"""A rejection names its case (issue 29, protocol 1.3): a real uno-server refuses a table
whose options do not go together, a card its player does not hold and a table over the
address's limit, and says which option, which card and what limit in fields that a 1.3
client turns into its own sentence; a 1.2 client gets the words it always got, and no
field."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from e2e_client import Hub, Player, seat_table
from e2e_server import ServerProcess

from client import i18n
from client.session import connect, rejection_case
from client.ui.model import Model, apply_reply, case_words
from client.ui.sentences import coded
from protocol.cards import Card
from protocol.errors import LobbyRejectCode
from protocol.messages import CreateTable, Rejected
from protocol.options import TableOptions
from protocol.rejections import RejectCode

pytestmark = pytest.mark.e2e

_TEAMS_OF_THREE = {"scoring": "teams", "seats": 3}
_EVERY_NUMBER_CARD = [f"{color}{number}" for color in "RYGB" for number in range(10)]


@pytest.fixture
def in_german() -> object:
    i18n.choose("de")
    yield
    i18n.choose("en")


def _said(refused: Rejected) -> str:
    """What the terminal client shows for ``refused``, from its code and fields."""
    fields = case_words(rejection_case(refused))
    return coded("rejected", refused.code, refused.message, **fields)


async def _create(player: Player, options: dict[str, object]) -> Rejected:
    reply = await player.request(
        lambda id_: CreateTable(id=id_, name="x", options=TableOptions.parse(options))
    )
    assert isinstance(reply, Rejected), reply
    return reply


@pytest.mark.usefixtures("in_german")
async def test_bad_options_name_the_option_and_an_older_client_reads_the_words(
    uno_server: ServerProcess,
) -> None:
    # The terminal client's own session, speaking 1.3 and then only 1.2.
    replies, lines = [], []
    with trio.fail_after(60):
        for versions in (("1.3",), ("1.2",)):
            async with connect("127.0.0.1", uno_server.port, "ann", versions=versions) as ann:
                options = TableOptions.parse(_TEAMS_OF_THREE)
                reply = await ann.request(CreateTable(id=ann.next_id(), name="x", options=options))
            assert not reply.ok and reply.code == LobbyRejectCode.BAD_OPTIONS
            replies.append(reply)
            model = Model(name="ann")
            apply_reply(
                model, CreateTable.TYPE, reply.ok, reply.code, reply.message, case=reply.case
            )
            lines.append(model.message)
    new, old = replies
    assert new.case == {"option": "scoring"} and old.case == {}
    assert old.message == new.message  # the 1.2 client gets the words it always got
    assert lines[0].endswith("die Optionen des Tisches passen nicht zusammen: prüfe Wertung")
    assert lines[1].endswith("die Optionen des Tisches passen nicht zusammen")


async def test_a_card_not_in_hand_is_named_to_a_new_client_only(
    uno_server: ServerProcess,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            (new, old), _ = await seat_table(
                uno_server.port,
                nursery,
                ["new", "old"],
                options={"jump_in": True},  # a card may be sent out of turn too
                versions=[("1.3",), ("1.2",)],
            )
            for player in (new, old):
                missing = next(code for code in _EVERY_NUMBER_CARD if code not in player.hand)
                refused = await player.game({"type": "play", "card": missing})
                assert isinstance(refused, Rejected)
                assert refused.code == RejectCode.CARD_NOT_IN_HAND
                assert refused.message == f"{missing} is not in your hand"
                if player is new:
                    assert refused.card == Card.parse(missing)
                    assert _said(refused) == f"{missing} is not in your hand"
                else:
                    assert refused.card is None
                    assert _said(refused) == "that card is not in your hand"
            nursery.cancel_scope.cancel()


@pytest.mark.usefixtures("in_german")
async def test_a_table_over_the_limit_says_the_limit_in_its_plural(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--max-tables-per-address", "1")
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                hub = Hub()
                ann, bob, old = [
                    await Player.connect(server.port, name, hub, versions=(version,))
                    for name, version in (("ann", "1.3"), ("bob", "1.3"), ("old", "1.2"))
                ]
                for player in (ann, bob, old):
                    nursery.start_soon(player.read_forever)
                await ann.ok(
                    lambda id_: CreateTable(id=id_, name="ann", options=TableOptions.parse({}))
                )
                refused = await _create(bob, {})
                assert refused.lobby_code is LobbyRejectCode.TOO_MANY_TABLES
                assert refused.limit == 1
                assert (
                    _said(refused)
                    == "von deiner Adresse darf nur 1 Tisch offen sein; setz dich dorthin"
                )
                older = await _create(old, {})
                assert older.limit is None and older.message == refused.message
                nursery.cancel_scope.cancel()
    finally:
        server.stop()
