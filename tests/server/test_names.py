"""Names that read alike are one name at a table; names that read apart are not."""

from __future__ import annotations

import pytest
import trio
from test_table_rig import FakePeer, create, open_lobby, refused

from protocol.errors import LobbyRejectCode
from protocol.limits import clean_text
from protocol.messages import Join
from server.table.names import name_key, same_name

LOOK_ALIKES_OF_ANN = [
    "Ann\u3164",  # HANGUL FILLER
    "Ann\u115f",  # HANGUL CHOSEONG FILLER
    "\u1160Ann",  # HANGUL JUNGSEONG FILLER
    "Ann\u2800",  # BRAILLE PATTERN BLANK
    "\u0301Ann",  # a combining acute accent with no letter under it
    "\u0410nn",  # CYRILLIC CAPITAL LETTER A
    "\uff21\uff2e\uff2e",  # FULLWIDTH ANN
    "ANN",
    "\U0001d400nn",  # MATHEMATICAL BOLD CAPITAL A
]


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_ANN)
def test_a_look_alike_of_ann_reads_as_ann(name: str) -> None:
    assert same_name(clean_text(name), "Ann")


@pytest.mark.parametrize(
    ("one", "other"), [("Ann", "Anna"), ("Zoë", "Zoe"), ("李雷", "李电"), ("Ann", "Ben")]
)
def test_names_that_read_apart_stay_apart(one: str, other: str) -> None:
    assert not same_name(one, other)


def test_real_scripts_accents_and_emoji_survive_the_cleaning() -> None:
    for name in ["Zoë", "José", "Đorđe", "李雷", "Ольга", "🦊 fox", "नमस्ते"]:
        assert clean_text(name) == name
        assert name_key(name)


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_ANN)
async def test_a_look_alike_is_refused_a_seat_next_to_ann(nursery: trio.Nursery, name: str) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann")
    table = await create(lobby, ann, seats=4)
    impostor = FakePeer(clean_text(name))
    code = await refused(lobby, impostor, lambda i: Join(id=i, table_id=table.table_id))
    assert code == LobbyRejectCode.NAME_TAKEN
