"""The empty-table clock on its own: it runs only while nobody is connected."""

from __future__ import annotations

from server.table.empty_clock import EmptyTableClock


def test_the_clock_stops_while_someone_is_connected_and_goes_on_where_it_stopped() -> None:
    clock = EmptyTableClock(60)
    clock.update(anyone_connected=False, now=0)
    assert clock.deadline == 60 and not clock.expired(59)
    clock.update(anyone_connected=True, now=45)
    assert clock.deadline is None and not clock.expired(1000)
    clock.update(anyone_connected=False, now=500)
    assert clock.deadline == 515 and clock.expired(515)


def test_a_move_gives_it_the_full_time_again() -> None:
    clock = EmptyTableClock(60)
    clock.update(anyone_connected=False, now=0)
    clock.update(anyone_connected=True, now=50)
    clock.wind_back()
    clock.update(anyone_connected=False, now=70)
    assert clock.deadline == 130
