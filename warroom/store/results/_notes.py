"""A facilitator's notes on stored sessions (schema version 15): the table ``facilitator_notes``, one row per note,
numbered 1, 2, ... per session (``seq``), with who wrote it and when.

A facilitator writes a note in the console's review of a session (``warroom serve``, docs/serve.md); the trainee
reads it in their own review (``warroom review``, and the console's "your sessions" page), under the facilitator's
name. Deleting a session deletes its notes (a foreign key, ``ON DELETE CASCADE``). On a PostgreSQL store secured by
``warroom store secure`` a trainee's role reads the notes of its own sessions only, and only a facilitator writes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from warroom.core.text import BIDI_CONTROLS
from warroom.store.errors import SessionNotFound, StoreError
from warroom.store.results._connection import guarded

if TYPE_CHECKING:
    from warroom.store.results._connection import StoreConnection

#: The table of the notes.
NOTES_TABLE = "facilitator_notes"
#: Its columns, in the order of :class:`FacilitatorNote`'s fields.
NOTE_COLUMNS: tuple[str, ...] = ("session_id", "seq", "written_at", "author", "text")
#: The longest note, in characters.
MAX_NOTE_CHARS = 4000


@dataclass(frozen=True)
class FacilitatorNote:
    """One note on session ``session_id``: its number ``seq`` (1, 2, ... per session), when it was written
    (``written_at``, ISO 8601 UTC), by whom (``author``: the facilitator's roster name) and its ``text`` (shown
    literally)."""

    session_id: str
    seq: int
    written_at: str
    author: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict."""
        return {k: getattr(self, k) for k in NOTE_COLUMNS}

    def __str__(self) -> str:
        return f"Note from {self.author} ({self.written_at[:16].replace('T', ' ')} UTC): {self.text}"


def note_problem(text: str) -> str | None:
    """Why ``text`` cannot be a note (empty or only invisible characters, too long, a control character other than
    a line break, CR LF as browsers send it, or a tab, a bidirectional control), or None when it can. Its length is
    counted with each CR LF as one line break, as the note is stored (a browser's form sends a textarea's line
    breaks as CR LF, and counts them as one)."""
    text = text.replace("\r\n", "\n")
    if all(c.isspace() or unicodedata.category(c) == "Cf" for c in text):  # a zero-width space or a BOM alone was
        # stored, and shown to the trainee as an empty note
        return "the note is empty (it holds only spaces or invisible characters)"
    if len(text) > MAX_NOTE_CHARS:
        return f"the note is {len(text):,} characters long; at most {MAX_NOTE_CHARS:,} are kept"
    if any((ord(c) < 0x20 and c not in "\r\n\t") or 0x7F <= ord(c) < 0xA0 for c in text):
        return "the note holds a control character"
    if re.search(f"[{BIDI_CONTROLS}]", text):
        return ("the note holds a bidirectional control character (U+202A to U+202E, U+2066 to U+2069, U+061C, U+200E "
                "or U+200F), which would show its words in another order than written; remove it")
    return None


@guarded
def add_note(db: StoreConnection, session_id: str, *, author: str, text: str, at: str) -> FacilitatorNote:
    """Store a note on the session ``session_id`` (its exact id) by ``author`` at ``at``, in one transaction, and
    return it. Raises :class:`SessionNotFound` when no session has that id, :class:`StoreError` for a text
    :func:`note_problem` refuses or a store that cannot be written."""
    problem = note_problem(text)
    if problem is not None:
        raise StoreError(problem)
    text = text.replace("\r\n", "\n").strip()
    conn = db.conn

    def write() -> FacilitatorNote:
        # the session's row locked until the commit (PostgreSQL): two hosts' facilitators noting one session at once
        # both read the same max(seq), and the second note was refused on the duplicate key
        sql = f"SELECT 1 FROM sessions WHERE session_id = ?{db.dialect.for_update}"
        if conn.execute(sql, (session_id,)).fetchone() is None:
            raise SessionNotFound(f"no stored session {session_id}")
        row = conn.execute(f"SELECT max(seq) FROM {NOTES_TABLE} WHERE session_id = ?", (session_id,)).fetchone()
        note = FacilitatorNote(session_id, int(row[0] or 0) + 1, at, author, text)
        sql = f"INSERT INTO {NOTES_TABLE} ({', '.join(NOTE_COLUMNS)}) VALUES (?, ?, ?, ?, ?)"
        conn.execute(sql, tuple(note.to_dict()[c] for c in NOTE_COLUMNS))
        return note

    return db.write(write)


@guarded
def facilitator_notes(db: StoreConnection, session_ids: list[str]) -> dict[str, list[FacilitatorNote]]:
    """Session id -> its notes, oldest first, for these exact session ids (those without a note are left out)."""
    if not session_ids:
        return {}
    marks = ", ".join("?" for _ in session_ids)
    sql = f"SELECT {', '.join(NOTE_COLUMNS)} FROM {NOTES_TABLE} WHERE session_id IN ({marks}) ORDER BY session_id, seq"
    out: dict[str, list[FacilitatorNote]] = {}
    for row in db.conn.execute(sql, list(session_ids)):
        note = FacilitatorNote(*(tuple(row)))
        out.setdefault(note.session_id, []).append(note)
    return out
