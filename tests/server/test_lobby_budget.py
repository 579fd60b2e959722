"""The lobby budget: one address cannot make the server repeat its lines, churn tables or
read the history without end, and a connection that keeps being refused is cut. The lobby
tests stop the clock (``mock_clock``), so no refill blurs the count."""

from __future__ import annotations

import trio
import trio.testing
from test_table_rig import FakePeer, call, create, ok, open_lobby

from protocol.errors import ErrorCode, LobbyRejectCode
from protocol.messages import Chat, ChatMessage, Join, Leave, Ok, Rejected
from server.lobby_budget import ACTION_COSTS, REFUSALS_BEFORE_CUT, LobbyBudget, Spent
from server.own_addresses import OwnAddresses


def test_a_line_costs_one_delivery_per_listener_and_the_bucket_refills() -> None:
    budget = LobbyBudget(rate=10, burst=30)
    assert budget.spend(1, "10.0.0.1", 20, now=0.0) is Spent.PAID
    assert budget.spend(1, "10.0.0.1", 20, now=0.0) is Spent.REFUSED  # 10 left: nothing spent
    assert budget.spend(1, "10.0.0.1", 10, now=0.0) is Spent.PAID
    assert budget.spend(2, "10.0.0.2", 30, now=0.0) is Spent.PAID  # its own bucket
    assert budget.spend(1, "10.0.0.1", 1, now=0.0) is Spent.REFUSED
    assert budget.spend(1, "10.0.0.1", 20, now=2.0) is Spent.PAID  # two seconds bring twenty


def test_a_connection_refused_too_often_is_cut_and_its_tally_forgotten() -> None:
    budget = LobbyBudget(rate=1, burst=1)
    assert budget.spend(1, "10.0.0.1", 1, now=0.0) is Spent.PAID
    answers = [budget.spend(1, "10.0.0.1", 1, now=0.0) for _ in range(REFUSALS_BEFORE_CUT + 1)]
    assert answers == [Spent.REFUSED] * REFUSALS_BEFORE_CUT + [Spent.CUT]
    # Another connection from the same address is refused, not cut: the tally is its own.
    assert budget.spend(2, "10.0.0.1", 1, now=0.0) is Spent.REFUSED
    # Refusals are forgiven at one a second.
    assert budget.spend(1, "10.0.0.1", 5, now=0.5) is Spent.CUT
    assert budget.spend(1, "10.0.0.1", 5, now=1.5) is Spent.REFUSED
    budget.forget_connection(1)
    budget.forget_connection(2)
    assert budget.tracked == (1, 0)


def test_the_servers_own_machine_pays_nothing() -> None:
    budget = LobbyBudget(rate=1, burst=1, own=OwnAddresses(["192.0.2.2"]))
    for address in ("127.0.0.1", "::1", "192.0.2.2"):
        assert all(budget.spend(1, address, 100, now=0.0) is Spent.PAID for _ in range(50))
    assert budget.spend(1, "127.0.0.2", 100, now=0.0) is Spent.REFUSED  # another loopback
    assert budget.tracked == (1, 1)


def test_quiet_addresses_are_forgotten() -> None:
    budget = LobbyBudget(rate=10, burst=10)
    for number in range(200):
        assert budget.spend(number, f"10.0.{number // 250}.{number % 250}", 5, now=number) is (
            Spent.PAID
        )
    addresses, connections = budget.tracked
    assert addresses <= 64 and connections == 0


async def test_a_lobby_flood_is_refused_reaches_nobody_and_is_cut(
    nursery: trio.Nursery, mock_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery)
    listeners = [FakePeer(f"l{n}", address=f"10.0.0.{n}") for n in range(10)]
    for listener in listeners:
        await lobby.handle(listener, Chat(id=listener.next_id(), text="hi"))
    flooder = FakePeer("spam", address="10.0.0.99")
    answers: list[Ok | Rejected] = []
    while flooder.closed is None:
        chat = Chat(id=flooder.next_id(), text="buy now")
        await lobby.handle(flooder, chat)
        reply = flooder.reply(chat.id)
        if reply is not None:
            answers.append(reply)
    refused = [a for a in answers if isinstance(a, Rejected)]
    assert len(refused) == REFUSALS_BEFORE_CUT
    assert {a.code for a in refused} == {LobbyRejectCode.SLOW_DOWN}
    assert flooder.closed[0] is ErrorCode.TOO_MANY_REFUSALS
    heard = [m for m in listeners[0].of(ChatMessage) if m.text == "buy now"]
    assert len(heard) == sum(1 for a in answers if isinstance(a, Ok)) < len(answers)
    assert all(listener.closed is None for listener in listeners)
    lobby.disconnected(flooder)
    assert lobby.budget.tracked[1] == 0


async def test_joins_spend_the_budget_and_leaving_stays_free(
    nursery: trio.Nursery, mock_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery)
    ann = FakePeer("Ann", address="10.0.0.1")
    table = await create(lobby, ann, seats=4)
    churner = FakePeer("churn", address="10.0.0.2")
    answers: list[str] = []
    # The churner's 400 units pay for 80 joins, each left again for free; 5 more are refused.
    for _ in range(400 // ACTION_COSTS[Join] + 5):
        joined = await call(lobby, churner, lambda i: Join(id=i, table_id=table.table_id))
        answers.append("ok" if isinstance(joined, Ok) else joined.code)
        if isinstance(joined, Ok):
            left = await call(lobby, churner, lambda i: Leave(id=i))
            answers.append("ok" if isinstance(left, Ok) else left.code)
    assert answers.count("ok") == 160 and answers.count("slow-down") == 5
    assert set(answers) == {"ok", "slow-down"}
    assert churner.closed is None  # refused a few times, not yet cut
    # A guest who spent everything at the table can still get up and go.
    stayer = FakePeer("churn", address="10.0.0.2")
    mock_clock.jump(1.0)  # 100 units back
    await ok(lobby, stayer, lambda i: Join(id=i, table_id=table.table_id))
    while isinstance(await call(lobby, stayer, lambda i: Chat(id=i, text="hi")), Ok):
        pass
    assert isinstance(await call(lobby, stayer, lambda i: Leave(id=i)), Ok)
    assert lobby.location(stayer) is None


async def test_table_chat_has_the_same_budget(
    nursery: trio.Nursery, mock_clock: trio.testing.MockClock
) -> None:
    lobby = await open_lobby(nursery)
    ann, bob = FakePeer("Ann", address="10.0.0.1"), FakePeer("Bob", address="10.0.0.2")
    table = await create(lobby, ann, seats=2)
    await call(lobby, bob, lambda i: Join(id=i, table_id=table.table_id))
    answers = [await call(lobby, bob, lambda i: Chat(id=i, text="la")) for _ in range(400 + 10)]
    refused = [a for a in answers if isinstance(a, Rejected)]
    # Bob's join spent 5 of his address's 400 units: 395 lines are heard, 15 refused.
    assert len(refused) == 15 and {a.code for a in refused} == {LobbyRejectCode.SLOW_DOWN}
    said = sum(1 for a in answers if isinstance(a, Ok))
    assert len([m for m in ann.of(ChatMessage) if m.text == "la"]) == said
    assert bob.closed is None
