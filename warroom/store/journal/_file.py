"""The session journal: an append-only JSON Lines file, flushed and fsynced line by line.

One journal per session, ``DATA_DIR/journals/SESSION_ID.jsonl``. Every line is one JSON object with a ``type``:

- ``start`` (always the first line): ``format`` (:data:`JOURNAL_FORMAT`), ``session_id``, ``trainee``,
  ``drill_id``, ``drill_version``, ``drill_sha256`` (SHA-256 of the drill file's bytes, hex), ``drill_path``,
  ``all_clear`` (bool), ``scoring_version`` (str or null), ``started_at`` (ISO 8601 UTC), ``mode``
  (``practice`` or ``assessment``), ``set_id`` (the drill set's id or null), ``seed`` (int or null),
  ``played_as`` (``signal`` or ``noise``: the trial; absent in a journal written before, read as noise for an
  all-clear drill, else signal), ``pid``, and in a session played in a browser through ``warroom serve``, ``tab``
  (the server's id of the browser tab);
- ``action``: ``seq`` (1, 2, ...), ``at`` (wall-clock ISO 8601 UTC) and ``action`` (an
  :class:`~warroom.core.model.Action` as JSON: ``t`` in seconds of drill time, ``kind``, ...);
- ``end`` (last line of a finished session): ``ended_at``, ``outcome``, ``total`` and ``scorecard`` (the
  scorecard's ``to_dict()``).

A writer appends each line with a single ``write`` followed by ``flush`` and ``os.fsync`` before returning, so a
process killed with SIGKILL loses at most a line being written at that instant, which a reader sees as a truncated
last line: reported and skipped, never fatal. A line that does not parse in the middle of a journal is reported as
corrupt (with its line number) and skipped, and the lines after it are still read.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.text import clean_name, shown_path
from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.model import Action

#: Version of the journal line format written by this code.
JOURNAL_FORMAT = 1
#: Largest journal file read, in bytes (checked before reading): a session of a drill's longest allowed length with
#: an action every drill second fits many times over.
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
#: Longest journal line read, in bytes: an action with the longest note and the most citations fits in a quarter of
#: it; a longer line is reported as corrupt and skipped.
MAX_LINE_BYTES = 1024 * 1024


class JournalError(WarroomError):
    """A journal that cannot be read at all (missing, unreadable, or without a start line)."""


class NotRegularFile(JournalError):
    """A journal path that is not a regular file (a FIFO, a symbolic link, a device, a folder): never opened for
    reading, since a FIFO would block for ever."""


def open_regular(path: Path) -> int:
    """Open ``path`` for reading only if it is a regular file: checked with ``os.lstat`` before opening (so a FIFO
    or a device is never opened) and with ``os.fstat`` after (opened without blocking and without following a
    symbolic link). Returns the file descriptor; raises :class:`NotRegularFile`, or OSError when it cannot be
    opened."""
    import stat

    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise NotRegularFile(f"{shown_path(path)}: not a regular file (a FIFO, a link or a device?); it was not opened")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # pragma: no cover - replaced between the two checks
        os.close(fd)
        raise NotRegularFile(f"{shown_path(path)}: not a regular file; it was not opened")
    return fd


def start_line(path: Path) -> dict[str, Any] | None:
    """A journal's start line (its first line, read up to 64 KiB) as an object, or None when it cannot be read (not
    a regular file, unreadable, not a start line)."""
    from warroom.core.files import record_json

    try:
        fd = open_regular(path)
        with os.fdopen(fd, "rb") as f:
            first = f.read(65536).split(b"\n", 1)[0]
        start = record_json(first.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except (OSError, WarroomError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    return start if isinstance(start, dict) and start.get("type") == "start" else None


def queue_order(start: dict[str, Any]) -> int:
    """Where a journal's session stands among those waiting in its data directory: its start line's ``order`` (one
    more than the highest of the journals waiting when it started: :func:`next_queue_order`), which no clock sets;
    0 for a start line without one (a journal of an older warroom: delivered first, as then, by name)."""
    order = start.get("order")
    return order if isinstance(order, int) and not isinstance(order, bool) and 0 < order < 2**53 else 0


def next_queue_order(jdir: Path) -> int:
    """The ``order`` of a session starting now in the journal folder ``jdir``: after every journal waiting there
    (live, killed or queued for a shared store that is out of reach), whatever the clock says."""
    from warroom.store.datadir import journal_files

    return 1 + max((queue_order(start_line(p) or {}) for p in journal_files(jdir)), default=0)


@dataclass(frozen=True)
class JournalProblem:
    """One line of a journal that could not be used: 1-based ``line`` number and what was wrong."""

    path: Path
    line: int
    message: str
    truncated: bool = False
    #: The 1-based column of the problem in the line, when one place is wrong (a JSON error: a key given twice).
    column: int | None = None

    def __str__(self) -> str:
        at = f":{self.column}" if self.column is not None else ""
        return f"{clean_name(self.path)}:{self.line}{at}: {self.message}"


@dataclass
class JournalContents:
    """What a journal holds, as read by :func:`read_journal`.

    ``start`` is the start line's object; ``actions`` the recorded actions in order (as
    :class:`~warroom.core.model.Action`); ``end`` the end line's object or None for an unfinished session;
    ``problems`` the lines that were skipped (a truncated last line, corrupt lines); ``action_times`` the wall-clock
    time (ISO 8601 text, the line's ``at``; None when missing) of each action in ``actions``.
    """

    path: Path
    start: dict[str, Any]
    actions: list[Action] = field(default_factory=list)
    end: dict[str, Any] | None = None
    problems: list[JournalProblem] = field(default_factory=list)
    action_times: list[str | None] = field(default_factory=list)

    @property
    def session_id(self) -> str:
        """The session's id, from the start line."""
        return str(self.start["session_id"])

    @property
    def finished(self) -> bool:
        """True when the journal has an end line."""
        return self.end is not None


class JournalWriter:
    """Appends lines to one journal file, each flushed and fsynced before :meth:`append` returns.

    Opened with :meth:`create` (a new file; fails if it exists). Holds an exclusive advisory lock
    (``fcntl.flock``) on the file while open, so :func:`warroom.store.journal.recover_unfinished` in another
    process never takes a live session for a killed one; the operating system drops the lock when the process dies.
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def create(cls, path: Path) -> JournalWriter:
        """Create ``path`` (exclusively: FileExistsError if it exists), lock it and return a writer for it."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        try:
            lock_exclusive(fd, blocking=False)
        except BlockingIOError:  # pragma: no cover - a file we just created exclusively cannot be locked by others
            os.close(fd)
            raise
        fsync_dir(path.parent)
        return cls(path, fd)

    def append(self, obj: dict[str, Any]) -> None:
        """Append one JSON object as one line, then flush it to disk (``os.fsync``).

        Raises ValueError if the writer is closed, OSError if the disk write fails.
        """
        if self._fd is None:
            raise ValueError(f"journal {clean_name(self.path)} is closed")
        data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        os.fsync(self._fd)

    def move_to(self, dest: Path) -> None:
        """Move the journal file to ``dest`` (same file system; the folder is created), keeping it open and locked."""
        move_file(self.path, dest)
        self.path = dest

    def close(self) -> None:
        """Close the file (which drops the lock). Safe to call twice."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)


def lock_exclusive(fd: int, *, blocking: bool) -> None:
    """Take an exclusive advisory lock on an open file (POSIX ``flock``).

    Raises BlockingIOError when ``blocking`` is False and another open file holds the lock. On platforms without
    ``fcntl`` this does nothing.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))


def move_file(src: Path, dest: Path) -> None:
    """``os.replace(src, dest)`` (same file system; ``dest``'s folder is created), both folders' entries then flushed
    to disk; when both are links of one file (a hard link: ``rename`` then does nothing and ``src`` would stay, to be
    recovered again at every start), ``src`` is unlinked: ``dest`` holds the same bytes."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        same = os.path.samefile(src, dest)
    except OSError:
        same = False
    if same:
        os.unlink(src)
    else:
        os.replace(src, dest)
    fsync_dir(dest.parent)
    fsync_dir(src.parent)


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (a created or moved file) to disk, where the platform allows it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def read_journal(path: Path) -> JournalContents:
    """Read a journal file.

    Returns the :class:`JournalContents`: the start line, every readable action in order, the end line (if any)
    and the problems met. A last line without its newline or that does not parse is a truncated write (the process
    died mid-line): reported with ``truncated=True`` and skipped. A line in the middle that is not valid JSON, is
    not an object, has an unknown ``type``, or whose values do not fit the store's models
    (:class:`~warroom.store.results.ActionRecord`, :class:`~warroom.store.results.EndRecord`: an action time of
    ``1e308``, a text total) is reported as corrupt and skipped. The start line's values are checked when the
    session is recovered (:meth:`~warroom.store.results.SessionInfo.from_dict`).

    Raises :class:`NotRegularFile` for anything but a regular file (never opened), :class:`JournalError` when the
    file cannot be read or has no start line (then nothing can be attributed to a session).
    """
    path = Path(path)
    try:
        fd = open_regular(path)
        with os.fdopen(fd, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_JOURNAL_BYTES:
                raise JournalError(
                    f"{shown_path(path)}: the journal is {size:,} bytes, over the limit of {MAX_JOURNAL_BYTES:,}: it "
                    "was not read"
                )
            raw = f.read(MAX_JOURNAL_BYTES + 1)
            if len(raw) > MAX_JOURNAL_BYTES:
                raise JournalError(f"{shown_path(path)}: the journal grew past {MAX_JOURNAL_BYTES:,} bytes while read")
    except OSError as exc:
        raise JournalError(f"{shown_path(path)}: cannot read the journal: {exc.strerror or exc}") from exc
    if raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark, as an editor that saved the journal may add: not data
        raw = raw[3:]
    lines = raw.split(b"\n")
    complete_last = raw.endswith(b"\n")
    if complete_last:
        lines.pop()  # the empty string after the final newline
    contents: JournalContents | None = None
    problems: list[JournalProblem] = []
    for i, line in enumerate(lines, start=1):
        obj = _parse_line(path, i, line, i == len(lines) and not complete_last, i == len(lines), problems)
        if obj is None:
            continue
        if contents is None:
            if obj.get("type") != "start" or "session_id" not in obj:
                raise JournalError(f"{shown_path(path)}:{i}: the journal does not begin with a session start line")
            contents = JournalContents(path=path, start=obj)
            continue
        _add_line(contents, i, obj, problems, line)
    if contents is None:
        detail = f" ({problems[0].message})" if problems else " (the file is empty)"
        raise JournalError(f"{shown_path(path)}: no session start line{detail}")
    contents.problems = problems
    return contents


def _parse_line(
    path: Path, i: int, line: bytes, unterminated: bool, is_last: bool, problems: list[JournalProblem]
) -> dict[str, Any] | None:
    """Line ``i`` of a journal as a JSON object, or None (an empty or unparsable line, reported in ``problems``
    unless it is the empty last line). ``unterminated``: the last line, without its newline (a truncated write)."""
    if not line.strip():
        if not is_last:
            problems.append(JournalProblem(path, i, "empty line (skipped)"))
        return None
    if len(line) > MAX_LINE_BYTES:
        problems.append(JournalProblem(path, i, f"corrupt line, longer than {MAX_LINE_BYTES:,} bytes; skipped"))
        return None
    from warroom.core.files import record_json

    try:
        obj = record_json(line.decode("utf-8"))  # numbers out of range are refused by the line's model (_add_line)
        if not isinstance(obj, dict):
            raise ValueError("not a JSON object")
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # RecursionError: JSON nested too deeply
        if isinstance(exc, RecursionError):
            exc = ValueError("nested too deeply")
        if unterminated:
            problems.append(
                JournalProblem(path, i, "truncated last line (the process stopped mid-write; skipped)", True)
            )
        elif isinstance(exc, json.JSONDecodeError):  # the place in the line, and the error without it
            message = f"corrupt line, not valid JSON ({exc.msg}); skipped"
            problems.append(JournalProblem(path, i, message, column=exc.colno))
        else:
            problems.append(JournalProblem(path, i, f"corrupt line, not valid JSON ({exc}); skipped"))
        return None
    return obj


def _add_line(
    contents: JournalContents, i: int, obj: dict[str, Any], problems: list[JournalProblem], line: bytes
) -> None:
    """Add line ``i`` (after the start line; its bytes ``line``) to ``contents``: an action or the end line, checked
    with the store's models; anything else, or a value that does not fit, is reported in ``problems`` (at the
    column of the key of the value refused) and skipped."""
    from pydantic import ValidationError

    from warroom.store.results import ActionRecord, EndRecord, describe, error_column

    path = contents.path
    kind = obj.get("type")
    if kind == "action":
        try:
            record = ActionRecord.model_validate(obj)
            contents.actions.append(record.action)
            contents.action_times.append(record.at)
        except ValidationError as exc:
            col = error_column(line.decode("utf-8"), exc)
            problems.append(JournalProblem(path, i, f"corrupt action line ({describe(exc)}); skipped", column=col))
    elif kind == "end" and contents.end is not None:
        problems.append(JournalProblem(path, i, "a second end line (skipped: a session ends once)"))
    elif kind == "end":
        try:
            EndRecord.model_validate(obj)
        except ValidationError as exc:
            problems.append(
                JournalProblem(path, i, f"corrupt end line ({describe(exc)}); the session is scored from its actions")
            )
        else:
            contents.end = obj
    elif kind == "start":
        problems.append(JournalProblem(path, i, "a second session start line (skipped)"))
    else:
        problems.append(JournalProblem(path, i, f"unknown line type {kind!r} (skipped)"))
