"""The fuzzer's own parts, without a server: each kind of hostile frame is the breach it is
named after, the mutator keeps making frames, and the judge of answers can say no."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_frames import HOSTILE_KINDS, Expected, Outcome, Script, expected_answer, mutate
from reliability_fuzz import Answer, judge

from protocol.codec import encode_body
from protocol.framing import encode_frame

HELLO = encode_frame(encode_body({"type": "hello", "versions": ["1.0"], "name": "ann"}))

# What the project's own protocol code must answer each kind after a good hello (kinds
# that are random on purpose, such as ``mutated``, may be anything and are left out).
ANSWERS = {
    "bad-keys": {"malformed-frame"},
    "deep-nesting": {"malformed-frame"},
    "extension": {"malformed-frame"},
    "huge-count": {"malformed-frame"},
    "not-a-map": {"malformed-frame"},
    "random-body": {"malformed-frame", "bad-message"},  # b"\x80" is a map: an empty one
    "oversized": {"frame-too-large"},
    "wrong-types": {"bad-message"},
    "unknown-type": {"unknown-message", "bad-message"},
    "second-hello": {"duplicate-hello", "bad-message"},
    "before-hello": {"hello-required"},
    "bad-version": {"unsupported-version", "bad-message"},
}
_NO_HELLO = ("before-hello", "bad-version")


@settings(suppress_health_check=list(HealthCheck))
@given(kind=st.sampled_from(sorted(ANSWERS)), data=st.data())
def test_each_kind_of_hostile_frame_is_the_breach_it_is_named_after(
    kind: str, data: st.DataObject
) -> None:
    frame = data.draw(HOSTILE_KINDS[kind])
    expected = expected_answer(frame if kind in _NO_HELLO else HELLO + frame)
    assert expected.codes <= ANSWERS[kind]


@settings(suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_truncated_frame_is_cut_or_malformed(data: st.DataObject) -> None:
    expected = expected_answer(HELLO + data.draw(HOSTILE_KINDS["truncated"]))
    assert expected.cut or expected.codes <= {None, "malformed-frame", "bad-message"}


def test_mutants_stay_scripts_and_mostly_stay_hostile() -> None:
    rng = random.Random(4)
    base = Script("truncated", (HELLO,), HELLO[:7])
    mutants = [mutate(base, rng) for _ in range(300)]
    assert all(mutant.data for mutant in mutants)
    answers = [expected_answer(mutant.data) for mutant in mutants]
    hostile = [a for a in answers if a.codes != {None} or a.cut]
    assert len(hostile) > len(answers) // 2


def _expected(*outcomes: Outcome, ids: tuple[int, ...] = ()) -> Expected:
    return Expected(frozenset(outcomes), Counter(ids))


def test_the_judge_accepts_the_right_answer_and_refuses_others() -> None:
    error = {"type": "error", "code": "malformed-frame", "message": "no"}
    welcome = {"type": "welcome", "version": "1.0"}
    wanted = _expected(Outcome("malformed-frame"), ids=(3,))
    assert judge(wanted, Answer([welcome, error])) is None
    assert judge(wanted, Answer([welcome])) is not None
    assert judge(wanted, Answer([welcome, {**error, "code": "bad-message"}])) is not None
    assert judge(wanted, Answer([error, welcome])) is not None
    assert judge(wanted, Answer([welcome, error], ending="undecodable")) is not None
    twice = [{"type": "ok", "id": 3}, {"type": "rejected", "id": 3}, error]
    assert judge(wanted, Answer(twice)) is not None
    assert judge(_expected(Outcome("malformed-frame"), ids=(3, 3)), Answer(twice)) is None
    assert judge(wanted, Answer([{"type": "ok", "id": 4}, error])) is not None
    cut = _expected(Outcome(None, cut=True))
    assert judge(cut, Answer([welcome])) is None
    assert judge(cut, Answer([welcome, error])) is None
    assert judge(_expected(Outcome(None)), Answer([welcome, error])) is not None
    either = _expected(Outcome("duplicate-id"), Outcome("frame-too-large"))
    assert judge(either, Answer([welcome, {**error, "code": "frame-too-large"}])) is None
    assert judge(either, Answer([welcome, {**error, "code": "duplicate-id"}])) is None
    assert judge(either, Answer([welcome, error])) is not None


def test_a_reused_command_id_allows_both_answers() -> None:
    ping = encode_frame(encode_body({"type": "list-tables", "id": 5}))
    bad = (70_000).to_bytes(4, "big")
    expected = expected_answer(HELLO + ping + ping + bad)
    assert expected.codes == {"duplicate-id", "frame-too-large"}
    assert expected.requests == Counter({5: 2})
