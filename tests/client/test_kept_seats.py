"""The seats kept on this machine between runs (``client.kept_seats``): one private SQLite
file, one slot per client of a name at a server, each slot locked by the client holding it,
also against another process."""

from __future__ import annotations

import stat
import subprocess
import sys
import textwrap
from pathlib import Path

from client.kept_seats import MAX_SLOTS, STORE_NAME, KeptSeat, SeatClaim


def test_a_seat_kept_is_found_by_the_next_claim_and_forgotten_for_good(tmp_path: Path) -> None:
    claim = SeatClaim.claim("server-a", "Ann", tmp_path)
    assert claim is not None and claim.slot == 0
    assert claim.kept() is None
    claim.keep(KeptSeat("token-1", "7"))
    claim.release()
    again = SeatClaim.claim("server-a", "Ann", tmp_path)
    assert again is not None and again.slot == 0
    assert again.kept() == KeptSeat("token-1", "7")
    other_server = SeatClaim.claim("server-b", "Ann", tmp_path)
    other_name = SeatClaim.claim("server-a", "Bob", tmp_path)
    assert other_server is not None and other_server.kept() is None
    assert other_name is not None and other_name.kept() is None
    again.forget()
    assert again.kept() is None
    mode = stat.S_IMODE((tmp_path / STORE_NAME).stat().st_mode)
    assert mode == 0o600


def test_two_clients_of_one_name_hold_two_slots_never_one(tmp_path: Path) -> None:
    first = SeatClaim.claim("server-a", "Ann", tmp_path)
    second = SeatClaim.claim("server-a", "Ann", tmp_path)
    assert first is not None and second is not None
    assert (first.slot, second.slot) == (0, 1)
    first.keep(KeptSeat("first-token", "1"))
    assert second.kept() is None
    held = [SeatClaim.claim("server-a", "Ann", tmp_path) for _ in range(MAX_SLOTS - 2)]
    assert all(claim is not None for claim in held)
    assert SeatClaim.claim("server-a", "Ann", tmp_path) is None  # every slot is held
    first.release()
    back = SeatClaim.claim("server-a", "Ann", tmp_path)
    assert back is not None and back.kept() == KeptSeat("first-token", "1")


def test_a_slot_another_process_holds_is_not_taken(tmp_path: Path) -> None:
    holder = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from client.kept_seats import KeptSeat, SeatClaim
        claim = SeatClaim.claim("server-a", "Ann", Path({str(tmp_path)!r}))
        claim.keep(KeptSeat("theirs", "3"))
        print(claim.slot, flush=True)
        sys.stdin.read()
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "0"
        mine = SeatClaim.claim("server-a", "Ann", tmp_path)
        assert mine is not None and mine.slot == 1 and mine.kept() is None
        mine.release()
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=20)
    after = SeatClaim.claim("server-a", "Ann", tmp_path)
    assert after is not None and after.slot == 0 and after.kept() == KeptSeat("theirs", "3")


def test_the_folder_of_the_tokens_is_private_whatever_the_umask(tmp_path: Path) -> None:
    where = tmp_path / "state" / "uno-lan"
    where.mkdir(parents=True, mode=0o755)
    claim = SeatClaim.claim("server-a", "Ann", where)
    assert claim is not None
    claim.keep(KeptSeat("token-1", "7"))
    assert stat.S_IMODE(where.stat().st_mode) == 0o700
    assert stat.S_IMODE((where / STORE_NAME).stat().st_mode) == 0o600
