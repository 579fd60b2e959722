"""The history's notes on matches that ended without a winner, and their codes.

The journal keeps a note in words (``close_unfinished``); a ``match-list`` sends those
words and, since 1.3, the note's code (``MatchNote``), so a client says it in its own
words. Every note the server writes begins with its code's words here, which is how a
stored note is read back as its code without a column of its own.
"""

from __future__ import annotations

from protocol.messages import MatchNote

__all__ = ["NOTE_WORDS", "note_code"]

NOTE_WORDS: dict[MatchNote, str] = {
    MatchNote.HOST_CLOSED_AFTER_RESTART: "not finished: its host closed it after a server restart",
    MatchNote.CLOSED_FOR_NEW_TABLE: "not finished: closed for a new table after no move",
    MatchNote.JOURNAL_UNWRITTEN: "not finished: the server could not write its journal",
    MatchNote.SERVER_UPGRADED: "not finished: the server was upgraded",
}
"""The words every note of each code begins with (some go on with particulars)."""


def note_code(note: str) -> MatchNote | None:
    """The code of a stored note, or None for an empty note or one of other words (an
    older server's)."""
    for code, words in NOTE_WORDS.items():
        if note and note.startswith(words):
            return code
    return None
