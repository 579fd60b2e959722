"""Table passwords as the server keeps them: salted scrypt hashes, never the words.

A password is hashed with ``hashlib.scrypt`` and these fixed parameters: n = 2**14,
r = 8, p = 1 (128 * n * r bytes: 16 MiB of memory a hash), a 16-byte
salt from the OS's secure random source, a 32-byte key. The stored form names its
parameters, so a later release can change them and still read the old ones::

    scrypt$16384$8$1$<salt, base64>$<key, base64>

Hashing is slow on purpose, so it never runs on the event loop: ``hash_password`` and
``password_matches`` run it in a worker thread within a Trio ``CapacityLimiter`` that the
caller holds (the lobby's lets ``AT_ONCE`` run at a time), so a flood of guesses waits its
turn instead of stalling the server. A guess is compared with ``hmac.compare_digest``, in
time that does not depend on where it differs. ``hash_now`` and ``check_now`` are the
same, synchronous, for the journal's migration and for tests.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

import trio

__all__ = [
    "AT_ONCE",
    "check_now",
    "hash_now",
    "hash_password",
    "is_password_hash",
    "password_matches",
]

SCHEME = "scrypt"
N, R, P = 2**14, 8, 1
SALT_BYTES = 16
KEY_BYTES = 32
_MAX_MEM = 64 * 1024 * 1024  # above the 16 MiB that n and r need (OpenSSL's default is 32)

AT_ONCE = 2
"""Hashes a server computes at once; more wait in line."""


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAX_MEM, dklen=KEY_BYTES
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_now(password: str) -> str:
    """The stored form of ``password`` with a fresh salt (on the calling thread)."""
    salt = secrets.token_bytes(SALT_BYTES)
    key = _scrypt(password, salt, N, R, P)
    return f"{SCHEME}${N}${R}${P}${_b64(salt)}${_b64(key)}"


def _parse(stored: str) -> tuple[int, int, int, bytes, bytes] | None:
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME or not all(x.isdecimal() for x in parts[1:4]):
        return None
    try:
        salt = base64.b64decode(parts[4], validate=True)
        key = base64.b64decode(parts[5], validate=True)
    except (binascii.Error, ValueError):
        return None
    n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
    if n < 2 or n & (n - 1) or not (r and p) or len(salt) < 8 or len(key) != KEY_BYTES:
        return None
    return n, r, p, salt, key


def is_password_hash(stored: str) -> bool:
    """Whether ``stored`` is a hash in the stored form (not a password kept as written, as
    releases before schema 5 kept them)."""
    return _parse(stored) is not None


def check_now(given: str, stored: str) -> bool:
    """Whether ``given`` is the password whose stored form is ``stored`` (on the calling
    thread). A stored form this module cannot read matches nothing."""
    parsed = _parse(stored)
    if parsed is None:
        return False
    n, r, p, salt, key = parsed
    return hmac.compare_digest(_scrypt(given, salt, n, r, p), key)


async def hash_password(password: str, limiter: trio.CapacityLimiter) -> str:
    """``hash_now`` in a worker thread, within ``limiter``."""
    return await trio.to_thread.run_sync(hash_now, password, limiter=limiter)


async def password_matches(given: str | None, stored: str, limiter: trio.CapacityLimiter) -> bool:
    """``check_now`` in a worker thread, within ``limiter``; no password at all matches
    nothing (and costs no hash)."""
    if given is None:
        return False
    return await trio.to_thread.run_sync(check_now, given, stored, limiter=limiter)
