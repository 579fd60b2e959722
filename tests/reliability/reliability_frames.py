"""Hostile frames for a live server: Hypothesis strategies, a byte mutator, and the answer
the server owes each one.

A ``Script`` is everything one fuzzing connection sends. A bad frame ends its connection,
so a script carries many frames the server accepts first (a hello, then valid requests it
refuses or answers, pings, unknown optional fields) and exactly one hostile frame last:

- ``random-bytes`` / ``random-body``: bytes with no frame structure, or a correct header
  around a random body;
- ``not-a-map``, ``bad-keys``, ``unknown-type``, ``wrong-types``: msgpack that decodes but
  is no message (a list, integer keys, a type nobody sends, a field of the wrong type);
- ``truncated``: a valid frame cut short (the connection then ends inside it), or a header
  that swallows the next frame;
- ``oversized``: a header announcing 0 bytes or more than the 64 KiB limit;
- ``deep-nesting``: arrays or maps nested past the depth limit, up to the frame size;
- ``extension``: msgpack extension types, timestamps, binary and floats in a message;
- ``huge-count``: 16- and 32-bit array, map, string, binary and extension headers that
  announce far more than the frame holds;
- ``mutated``: a valid frame with bytes flipped, replaced, inserted, deleted or repeated;
- ``second-hello``, ``before-hello``, ``bad-version``: the handshake done wrong.

``expected_answer`` says what the server must answer, by feeding the same bytes to the
project's own sans-IO ``ServerConnection``: the live server must agree with it (its session,
lobby and tables may add nothing but replies). ``mutate`` makes new scripts from old ones
with a seeded ``random.Random``: it is how the long soak reaches a million frames without
asking Hypothesis for a million examples.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgpack
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from protocol_strategies import plain_values, records

from protocol.connection import ConnectionState, ServerConnection
from protocol.errors import RemoteProtocolError
from protocol.framing import HEADER_SIZE
from protocol.limits import MAX_DEPTH, MAX_FRAME_BODY
from protocol.messages import (
    AddBot,
    Chat,
    Game,
    Hello,
    Join,
    Kick,
    Leave,
    ListTables,
    Message,
    PauseTable,
    Ping,
    Pong,
    Ready,
    Rejected,
    Rematch,
    RemoveBot,
    Request,
    ResumeSeat,
    ResumeTable,
    Spectate,
    Start,
    TakeBotSeat,
    Welcome,
)

__all__ = [
    "HOSTILE_KINDS",
    "MAX_ACCEPTED",
    "Expected",
    "Outcome",
    "Script",
    "endless",
    "expected_answer",
    "generate_scripts",
    "mutate",
    "scripts",
]

MAX_ACCEPTED = 12
"""Most accepted frames before the hostile one (well under the 64 unanswered commands a
connection may have, so the limit on those never decides an answer)."""

# Requests the server refuses or answers without changing anything anyone else sees: no
# table is created, and every table the fuzzed server plays has a password.
_HARMLESS: tuple[type[Message], ...] = (
    ListTables,
    Join,
    Spectate,
    Leave,
    Ready,
    Start,
    AddBot,
    RemoveBot,
    Chat,
    Kick,
    PauseTable,
    ResumeTable,
    Rematch,
    TakeBotSeat,
    ResumeSeat,
    Game,
    Ping,
    Pong,
)

_RECORDS = {cls: records(cls) for cls in _HARMLESS}

_SERVER_ONLY: tuple[str, ...] = (
    "welcome",
    "error",
    "ok",
    "rejected",
    "table-list",
    "table-state",
    "joined",
    "event",
    "view",
    "left",
    "closing",
)


@dataclass(frozen=True, slots=True)
class Script:
    """What one connection sends: ``accepted`` frames (the hello among them), then
    ``hostile``, the frame of kind ``kind`` that should end the connection."""

    kind: str
    accepted: tuple[bytes, ...]
    hostile: bytes

    @property
    def data(self) -> bytes:
        """Every byte, in order."""
        return b"".join(self.accepted) + self.hostile

    @property
    def greeted(self) -> bool:
        """Whether the script starts with a hello (then its first accepted frame)."""
        return bool(self.accepted)

    @property
    def frames(self) -> int:
        """Frames sent, the hostile one (whole or not) included."""
        return len(self.accepted) + 1


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a connection may end: the typed ``code`` of the server's ``error`` (None: no
    error), and whether the bytes stop inside a frame (``cut``), which the server hears only
    when the client ends its side: then an error (``malformed-frame``) or a bare close."""

    code: str | None
    cut: bool = False


@dataclass(frozen=True, slots=True)
class Expected:
    """What the server owes a script.

    Usually one outcome. Two when timing decides: a command id used again is a duplicate
    only while the first command with it waits for its reply, and whether the server has
    replied by then is up to its scheduler (a table answers later than the lobby).
    """

    outcomes: frozenset[Outcome]
    requests: Counter[int]
    """How many commands with each id were decoded: no id may get more replies."""

    @property
    def codes(self) -> set[str | None]:
        """The error codes of the outcomes."""
        return {outcome.code for outcome in self.outcomes}

    @property
    def cut(self) -> bool:
        """Whether some outcome ends inside a frame."""
        return any(outcome.cut for outcome in self.outcomes)


_WELCOME = Welcome(version="1.0", server_name="oracle", server_id="0", server_version="0")


def _oracle(data: bytes, *, answer_at_once: bool) -> tuple[Outcome, Counter[int]]:
    """How the project's own ServerConnection ends ``data``, with every command answered
    at once or none of them answered."""
    conn = ServerConnection()
    conn.receive_data(data)
    ids: Counter[int] = Counter()
    try:
        while (message := conn.next_message()) is not None:
            if isinstance(message, Hello):
                conn.send(dataclasses.replace(_WELCOME, version=conn.version or ""))
            elif isinstance(message, Request):
                ids[message.id] += 1
                if answer_at_once:
                    conn.send(Rejected(id=message.id, code="oracle"))
    except RemoteProtocolError as error:
        return Outcome(error.code.value), ids
    cut = conn.state is not ConnectionState.CLOSED and conn.partial_frame > 0
    return Outcome(None, cut=cut), ids


def expected_answer(data: bytes) -> Expected:
    """The answers the project's own protocol code allows for ``data`` on a new connection."""
    waiting, _ = _oracle(data, answer_at_once=False)
    answered, ids = _oracle(data, answer_at_once=True)
    return Expected(frozenset({waiting, answered}), ids)


# --- building blocks ---------------------------------------------------------------------


def _frame(body: bytes) -> bytes:
    """A header and ``body``, whatever its size (``encode_frame`` refuses bad sizes)."""
    return len(body).to_bytes(HEADER_SIZE, "big") + body


def _pack(data: Any) -> bytes:
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def _str(text: str) -> bytes:
    return _pack(text)


def _renumbered(data: dict[str, Any], number: int) -> dict[str, Any]:
    if "id" in data:
        data = {**data, "id": number}
    return data


_escapes = st.sampled_from(
    ["\x1b[2J", "\x1b]0;owned\x07", "\x1b[31m", "\x9b1;1H", "\x07", "\r", "\u202e", "\x00"]
)
_names = st.one_of(
    st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=16),
    st.lists(st.one_of(_escapes, st.text(min_size=1, max_size=4)), min_size=1, max_size=5).map(
        "".join
    ),
)


@st.composite
def _hello(draw: st.DrawFn) -> bytes:
    token = draw(st.none() | st.text(min_size=1, max_size=40))
    hello: dict[str, Any] = {"type": "hello", "versions": ["1.0"], "name": draw(_names)}
    if token is not None:
        hello |= {"resume_token": token, "last_seq": draw(st.integers(0, 2**20))}
    return _frame(_pack(hello))


@st.composite
def _harmless_data(draw: st.DrawFn) -> dict[str, Any]:
    """One valid client message of the harmless kinds, maybe with unknown extra fields."""
    cls = draw(st.sampled_from(_HARMLESS))
    data = draw(_RECORDS[cls]).to_data()
    extra = draw(st.dictionaries(st.sampled_from(["zz", "later", "_x"]), plain_values, max_size=2))
    return {**extra, **data}


_harmless = _harmless_data().map(lambda data: _frame(_pack(data)))


# --- hostile frames ----------------------------------------------------------------------

_WITH_FIELDS: tuple[type[Message], ...] = (*_HARMLESS, Hello)
_FIELDS = {cls.TYPE: [field.name for field in dataclasses.fields(cls)] for cls in _WITH_FIELDS}


@st.composite
def _wrong_types(draw: st.DrawFn) -> bytes:
    cls = draw(st.sampled_from([cls for cls in _HARMLESS if _FIELDS[cls.TYPE]]))
    data = draw(_RECORDS[cls]).to_data()
    name = draw(st.sampled_from(_FIELDS[cls.TYPE]))
    # Not nil: a field with a default takes nil for "absent", which is no breach.
    wrong = draw(
        plain_values.filter(
            lambda value: value is not None and type(value) is not type(data.get(name))
        )
    )
    return _frame(_pack({**data, name: wrong}))


@st.composite
def _unknown_type(draw: st.DrawFn) -> bytes:
    wire_type = draw(st.sampled_from(_SERVER_ONLY) | st.text(max_size=70) | plain_values)
    fields = draw(st.dictionaries(st.text(max_size=6), plain_values, max_size=4))
    return _frame(_pack({**fields, "type": wire_type}))


@st.composite
def _truncated(draw: st.DrawFn) -> bytes:
    whole = draw(_harmless)
    if draw(st.booleans()):
        return whole[: draw(st.integers(1, len(whole) - 1))]
    # A header announcing more than its body: it swallows the frame after it.
    short = whole[HEADER_SIZE : HEADER_SIZE + draw(st.integers(1, len(whole) - HEADER_SIZE))]
    following = draw(_harmless)
    return (len(short) + len(following)).to_bytes(HEADER_SIZE, "big") + short + following


@st.composite
def _oversized(draw: st.DrawFn) -> bytes:
    length = draw(st.just(0) | st.integers(MAX_FRAME_BODY + 1, 2**32 - 1))
    return length.to_bytes(HEADER_SIZE, "big") + draw(st.binary(max_size=200))


@st.composite
def _deep_nesting(draw: st.DrawFn) -> bytes:
    depth = draw(st.integers(MAX_DEPTH, MAX_DEPTH + 10) | st.integers(MAX_DEPTH, 60_000))
    opener = draw(st.sampled_from([b"\x91", b"\x81\xa1k"]))
    # A chat whose text is nested ``depth`` levels deep (the map itself is level 1).
    head = b"\x83" + _str("type") + _str("chat") + _str("id") + b"\x00" + _str("text")
    body = head + opener * depth + b"\xc0"
    return _frame(body[:MAX_FRAME_BODY])


_EXTENSIONS = st.one_of(
    st.builds(
        lambda code, data: b"\xd4" + code + data,
        st.binary(min_size=1, max_size=1),
        st.binary(min_size=1, max_size=1),
    ),
    st.builds(lambda data: b"\xd6\xff" + data, st.binary(min_size=4, max_size=4)),  # timestamp
    st.builds(lambda data: b"\xd7\xff" + data, st.binary(min_size=8, max_size=8)),
    st.builds(lambda data: b"\xc7" + bytes([len(data)]) + b"\x05" + data, st.binary(max_size=30)),
    st.builds(lambda data: b"\xc4" + bytes([len(data)]) + data, st.binary(max_size=30)),  # bin
    st.builds(lambda data: b"\xca" + data, st.binary(min_size=4, max_size=4)),  # float32
    st.builds(lambda data: b"\xcb" + data, st.binary(min_size=8, max_size=8)),  # float64
)


@st.composite
def _extension(draw: st.DrawFn) -> bytes:
    value = draw(_EXTENSIONS)
    key = draw(st.sampled_from(["text", "nonce", "zz"]))
    wire_type = "ping" if key == "nonce" else "chat"
    body = b"\x83" + _str("type") + _str(wire_type) + _str("id") + b"\x01" + _str(key) + value
    return _frame(body)


_COUNT_HEADERS = (b"\xdc", b"\xdd", b"\xde", b"\xdf", b"\xda", b"\xdb", b"\xc5", b"\xc6")


@st.composite
def _huge_count(draw: st.DrawFn) -> bytes:
    header = draw(st.sampled_from((*_COUNT_HEADERS, b"\xc9")))
    wide = header in (b"\xdd", b"\xdf", b"\xdb", b"\xc6", b"\xc9")
    count = draw(st.integers(5000, 2**32 - 1 if wide else 2**16 - 1))
    announced = header + count.to_bytes(4 if wide else 2, "big")
    if header == b"\xc9":
        announced += b"\x01"  # ext32's type byte
    tail = draw(st.binary(max_size=40))
    at_top = draw(st.booleans())
    if at_top:
        return _frame(announced + tail)
    head = b"\x82" + _str("type") + _str("chat") + _str("text")
    return _frame(head + announced + tail)


def _apply_mutation(data: bytearray, rng: random.Random) -> None:
    """One byte-level change to ``data`` (which is never left empty)."""
    where = rng.randrange(len(data))
    match rng.randrange(6):
        case 0:
            data[where] ^= 1 << rng.randrange(8)
        case 1:
            data[where] = rng.randrange(256)
        case 2:
            data[where:where] = rng.randbytes(rng.randint(1, 8))
        case 3:
            if len(data) > 1:
                del data[where : where + rng.randint(1, min(8, len(data) - 1))]
        case 4:
            data[where:where] = data[where : where + rng.randint(1, 16)]
        case _:
            data[where] = rng.choice((0x00, 0x7F, 0x80, 0xC1, 0xFF, 0xDD, 0xDF, 0x91))


def _mutated_frame(frame: bytes, rng: random.Random) -> bytes:
    """``frame`` with 1 to 4 changes; usually the body changes and the header follows it."""
    keep_header = rng.random() < 0.7
    data = bytearray(frame[HEADER_SIZE:] if keep_header else frame)
    for _ in range(rng.randint(1, 4)):
        _apply_mutation(data, rng)
    if keep_header:
        return _frame(bytes(data)) if data else _frame(b"\xc1")
    return bytes(data)


_HELLO = _hello()
_harmless_or_hello = _harmless | _HELLO


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    frame = draw(_harmless_or_hello)
    return _mutated_frame(frame, random.Random(draw(st.integers(0, 2**32))))


HOSTILE_KINDS: dict[str, st.SearchStrategy[bytes]] = {
    "random-bytes": st.binary(min_size=1, max_size=300),
    "random-body": st.binary(min_size=1, max_size=300).map(_frame),
    "not-a-map": plain_values.filter(lambda value: not isinstance(value, dict)).map(
        lambda value: _frame(_pack(value))
    ),
    "bad-keys": st.dictionaries(
        st.integers(-5, 5) | st.booleans() | st.none(), plain_values, min_size=1, max_size=3
    ).map(lambda data: _frame(_pack({"type": "ping", **data}))),
    "unknown-type": _unknown_type(),
    "wrong-types": _wrong_types(),
    "truncated": _truncated(),
    "oversized": _oversized(),
    "deep-nesting": _deep_nesting(),
    "extension": _extension(),
    "huge-count": _huge_count(),
    "mutated": _mutated(),
    "second-hello": _HELLO,
    "before-hello": _harmless,
    "bad-version": st.lists(
        st.text(max_size=6).filter(lambda v: not v.startswith("1.")), min_size=1, max_size=4
    ).map(lambda versions: _frame(_pack({"type": "hello", "versions": versions, "name": "v"}))),
}
"""Each kind of hostile frame, by name (see the module docstring)."""

_NO_HELLO = frozenset({"before-hello", "bad-version"})


@st.composite
def scripts(draw: st.DrawFn, max_accepted: int = MAX_ACCEPTED) -> Script:
    """One connection's bytes: maybe a hello and accepted frames, then a hostile frame."""
    kind = draw(st.sampled_from(sorted(HOSTILE_KINDS)))
    accepted: list[bytes] = []
    if kind not in _NO_HELLO and draw(st.integers(0, 9)) > 0:
        accepted.append(draw(_HELLO))
        messages = draw(st.lists(_harmless_data(), max_size=max_accepted))
        accepted.extend(
            _frame(_pack(_renumbered(data, number))) for number, data in enumerate(messages)
        )
    return Script(kind, tuple(accepted), draw(HOSTILE_KINDS[kind]))


def generate_scripts(count: int, seed: int, max_accepted: int = MAX_ACCEPTED) -> list[Script]:
    """``count`` scripts drawn by Hypothesis from ``seed`` (the same seed, the same list)."""
    found: list[Script] = []

    @hypothesis_seed(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(script=scripts(max_accepted))
    def collect(script: Script) -> None:
        found.append(script)

    collect()
    return found


def mutate(script: Script, rng: random.Random) -> Script:
    """A new script from ``script``: its hostile frame mutated, or one accepted frame
    mutated and made the hostile one (what follows it is dropped)."""
    if script.accepted and rng.random() < 0.3:
        index = rng.randrange(len(script.accepted))
        frame = _mutated_frame(script.accepted[index], rng)
        return Script("mutated", script.accepted[:index], frame)
    data = bytearray(script.hostile)
    for _ in range(rng.randint(1, 3)):
        _apply_mutation(data, rng)
    return Script(script.kind + "+mutated", script.accepted, bytes(data))


def endless(corpus: list[Script], rng: random.Random) -> Iterator[Script]:
    """The corpus once as drawn, then mutants of it for as long as they are asked for."""
    yield from corpus
    while True:
        yield mutate(rng.choice(corpus), rng)
