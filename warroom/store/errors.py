"""The results store's errors: one tree under :class:`StoreError` (a :class:`~warroom.errors.WarroomError`).

Each message names the file or session and says what to do; the CLI prints it as it is, the terminal UI shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from warroom.errors import WarroomError


@dataclass(frozen=True)
class SessionReason:
    """A message about one session with the session's id kept apart: ``parts`` are the texts between the places of
    the id (``session_id``), so that messages about different sessions for the same reason compare equal
    (:meth:`template`) without replacing text in them."""

    parts: tuple[str, ...]
    session_id: str

    @classmethod
    def of(cls, session_id: str, *pieces: str) -> SessionReason:
        """The reason ``pieces[0] + session_id + pieces[1] + ... + pieces[-1]`` (one piece per place of the id,
        plus the last: "session ", " was not stored" for "session X was not stored")."""
        return cls(tuple(pieces), session_id)

    @property
    def text(self) -> str:
        """The message, the id in its places."""
        return self.session_id.join(self.parts)

    def template(self, mark: str = "S") -> str:
        """The message with ``mark`` in the id's places."""
        return mark.join(self.parts)


class StoreError(WarroomError):
    """The results store cannot be used (not a database, unreadable, locked too long...). :attr:`reason`: for an
    error about one session, its message with the session id apart (None otherwise)."""

    reason: SessionReason | None = None

    @classmethod
    def about(cls, reason: SessionReason, *args: str) -> Self:
        """This error with ``reason``'s message (``args``: the class's other arguments after the message)."""
        error = cls(reason.text, *args)
        error.reason = reason
        return error


class DataDirError(StoreError):
    """The data directory or a file in it cannot be used (a file in place of the folder, another user's folder,
    no read or write access); the message names it and says what to do."""


class DamagedStore(StoreError):
    """The results database is damaged (SQLite reports it malformed) or its ``sessions`` table lacks columns; the
    message names the file and says what to do. The file is never modified."""


class InvalidSession(StoreError):
    """A session whose values do not fit the store (a text total, an unknown outcome, a number out of range): it
    was not written. ``session_id`` names it."""

    def __init__(self, message: str, session_id: str) -> None:
        super().__init__(message)
        self.session_id = session_id


class DuplicateSession(StoreError):
    """Another session (a different trainee, drill or start time) is already stored under this session id."""


class StoreUnreachable(StoreError):
    """A shared (PostgreSQL) store cannot be reached: the server is down, the network failed, or it refused the
    connection. A finished session then stays queued in the local journal folder (see
    :func:`~warroom.store.journal.recover_unfinished`, run by ``warroom store sync`` and at each start)."""


class StoreVersionError(StoreError):
    """The database was written by a newer warroom (a higher schema version); it is left untouched."""


class SessionNotFound(StoreError):
    """No stored session has this id (or id prefix); or a prefix matches several (``matches`` lists them)."""

    def __init__(self, message: str, matches: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.matches = list(matches)


class RescoredMeanwhile(StoreError):
    """A re-score's write refused: the session was re-scored by another process (another ``warroom scores
    rescore``) since its row was read, so the scorecard read is no longer the stored one; nothing was written.
    ``rescored_at`` is when it was re-scored meanwhile."""

    def __init__(self, message: str, rescored_at: str | None) -> None:
        super().__init__(message)
        self.rescored_at = rescored_at


class CorruptSession(StoreError):
    """A stored row that cannot be read back (its scorecard or action log is not valid JSON, or an action does not
    validate). ``session_id`` names it, as stored (text; or, written by SQL, a BLOB: :func:`session_id_text` names
    that one); the row is never modified. ``trainee`` and ``drill_id``: the row's, when they read as text (None
    otherwise): a row whose scorecard or action log cannot be read is still its trainee's attempt at its drill."""

    def __init__(self, message: str, session_id: str, trainee: str | None = None, drill_id: str | None = None) -> None:
        super().__init__(message)
        self.session_id = session_id
        self.trainee, self.drill_id = trainee, drill_id


def session_id_text(value: object) -> str:
    """A stored session id as text for people and JSON: text as it is; a BLOB (``bytes``, written by SQL into a
    SQLite store) as the SQL literal that finds its row (``x'00ff'``: ``DELETE FROM sessions WHERE session_id =
    x'00ff'``); anything else as ``str``. Python cannot sort BLOBs with text, nor JSON hold them."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return f"x'{bytes(value).hex()}'"
    return str(value)


def _shown(path: Path) -> tuple[str, str, str]:
    """The results file ``path``, its name and its folder's done journals, as messages show them: a newline or other
    control character in a name escaped, never a line of its own."""
    from warroom.core.text import clean_name, shown_path

    return shown_path(path), clean_name(path.name), clean_name(path.parent / "journals" / "done")


def damaged_message(path: Path, exc: BaseException) -> str:
    """What to say about a results database SQLite cannot read (``exc`` its error): the file, and what to do."""
    shown, name, done = _shown(path)
    return (
        f"the results store {shown} is damaged ({exc}); warroom cannot use it and did not change it. Move it aside "
        f"with its -wal and -shm files (e.g. rename it to {name}.damaged): warroom then starts a new, empty "
        f"store. `sqlite3 {shown} .recover` may save its rows; the journal of every session stored in it is kept in "
        f"{done}."
    )


def not_a_store_message(path: Path, exc: BaseException) -> str:
    """What to say about a results database file that is not an SQLite database at all (``exc`` SQLite's error):
    another program's file, or one written over; never a store warroom made."""
    shown, name, done = _shown(path)
    return (
        f"the results store {shown} is not an SQLite database ({exc}): another program's file, or one written over; "
        f"warroom did not use or change it. Move it aside (e.g. rename it to {name}.not-a-store) and put back a copy "
        "from a backup, or let warroom start a new, empty store; or give another data directory with --data-dir. "
        f"The journal of every session stored in it is kept in {done}."
    )


def foreign_database_message(path: Path, tables: list[str], version: int = 0, kind: str = "table") -> str:
    """What to say about a results file that is an SQLite database of another program (``tables``: some of its
    tables, or of its other schema objects of ``kind``, ``view``...; no warroom schema version, or the user
    ``version`` another program set and no table of warroom's):
    warroom makes its stores whole, so it never made this one."""
    from warroom.core.text import clean_name

    shown, name, _ = _shown(path)
    named = ", ".join(clean_name(t) for t in tables[:3]) + (", ..." if len(tables) > 3 else "")
    why = f"no sessions table, user version {version}" if version else "no warroom schema version"
    return (
        f"the results store {shown} is an SQLite database of another program (its {kind}s: {named}; {why}): "
        "warroom did not use or change it. Give warroom another data directory with --data-dir, "
        f"or move the file aside (e.g. rename it to {name}.not-a-store) to let warroom start a new, empty store."
    )


def empty_message(path: Path) -> str:
    """What to say about a results database file that is empty (0 bytes): warroom makes a store whole (its tables
    in it before it is in place), so an empty one was cut short or made by another program, never a store to fill."""
    shown, name, done = _shown(path)
    return (
        f"the results store {shown} is an empty file (0 bytes): a store warroom makes always holds its tables, so this "
        "one was cut short (a disk that filled, a copy that stopped) or made by another program; warroom did not use "
        f"or change it. If sessions were stored in it, they are gone from it: move it aside (e.g. rename it to "
        f"{name}.empty) and put back a copy from a backup, or let warroom start a new, empty store; the journal "
        f"of every session stored in it is kept in {done}."
    )


#: Free bytes under which a disk I/O error from SQLite is taken for a full disk.
FULL_DISK_BYTES = 1 << 20


def full_disk_message(path: Path, exc: BaseException) -> str | None:
    """When SQLite's error ``exc`` on the results file ``path`` comes from a full disk (SQLite says "database or disk
    is full", or "disk I/O error" while the folder's file system has less than :data:`FULL_DISK_BYTES` free, as when
    it cannot create its ``-wal`` or ``-shm`` file): what to say, naming the folder and the bytes free; else None."""
    import shutil

    text = str(exc).lower()
    if "disk is full" not in text and "disk i/o error" not in text:
        return None
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return None
    if "disk is full" not in text and free >= FULL_DISK_BYTES:
        return None
    from warroom.core.text import clean_name, shown_path

    return (f"the disk holding {clean_name(path.parent)} is full ({free:,} bytes free), so the results store "
            f"{shown_path(path)} cannot be opened: free some space and run the command again. Nothing is lost: "
            f"sessions not stored yet stay in {clean_name(path.parent / 'journals')} and are stored then")
