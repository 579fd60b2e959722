"""A stored note on a match reads back as its code (server/match_notes.py), so a
``match-list`` carries the code of every note this server writes."""

from __future__ import annotations

from protocol.messages import MatchNote
from server.journal import UNWRITTEN_NOTE
from server.match_notes import NOTE_WORDS, note_code


def test_every_note_code_has_words_and_reads_back_from_them() -> None:
    assert set(NOTE_WORDS) == set(MatchNote)
    for code, words in NOTE_WORDS.items():
        assert note_code(words) is code
        assert note_code(words + " (and particulars)") is code
    assert note_code(UNWRITTEN_NOTE) is MatchNote.JOURNAL_UNWRITTEN


def test_no_note_or_an_older_servers_words_have_no_code() -> None:
    assert note_code("") is None
    assert note_code("cut short for reasons of its own") is None
