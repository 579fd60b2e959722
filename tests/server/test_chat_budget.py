"""The chat budget: one address cannot make the server repeat its lines without end."""

from __future__ import annotations

import trio
from test_table_rig import FakePeer, call, create, open_lobby

from protocol.errors import LobbyRejectCode
from protocol.messages import Chat, ChatMessage, Join, Ok, Rejected
from server.chat_budget import ChatBudget


def test_a_line_costs_one_delivery_per_listener_and_the_bucket_refills() -> None:
    budget = ChatBudget(rate=10, burst=30)
    assert budget.spend("a", 20, now=0.0)
    assert not budget.spend("a", 20, now=0.0)  # 10 left: refused, nothing spent
    assert budget.spend("a", 10, now=0.0)
    assert budget.spend("b", 30, now=0.0)  # another address has its own bucket
    assert not budget.spend("a", 1, now=0.0)
    assert budget.spend("a", 20, now=2.0)  # two seconds bring back twenty


async def test_a_lobby_flood_is_refused_and_reaches_nobody(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    listeners = [FakePeer(f"l{n}", address=f"10.0.0.{n}") for n in range(10)]
    for listener in listeners:
        await lobby.handle(listener, Chat(id=listener.next_id(), text="hi"))
    flooder = FakePeer("spam", address="10.0.0.99")
    answers = [await call(lobby, flooder, lambda i: Chat(id=i, text="buy now")) for _ in range(100)]
    refused = [a for a in answers if isinstance(a, Rejected)]
    assert refused and {a.code for a in refused} == {LobbyRejectCode.SLOW_DOWN}
    heard = [m for m in listeners[0].of(ChatMessage) if m.text == "buy now"]
    assert len(heard) == sum(1 for a in answers if isinstance(a, Ok)) < 100


async def test_table_chat_has_the_same_budget(nursery: trio.Nursery) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann", address="10.0.0.1"), FakePeer("Bob", address="10.0.0.2")
    table = await create(lobby, ann, seats=2)
    await call(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    answers = [await call(lobby, bob, lambda i: Chat(id=i, text="la")) for _ in range(500)]
    assert any(isinstance(a, Rejected) and a.code == LobbyRejectCode.SLOW_DOWN for a in answers)
    said = sum(1 for a in answers if isinstance(a, Ok))
    assert len([m for m in ann.of(ChatMessage) if m.text == "la"]) == said
