"""Sessions in progress: the journals in ``journals/`` whose writer lives (docs/sessions.md, "Nothing is lost").

A live session's process holds its journal's lock (:class:`~warroom.store.journal._file.JournalWriter`); a journal
whose lock can be taken is a killed session, which recovery stores. The summary says how many sessions are still
being played, which it cannot count yet.
"""

from __future__ import annotations

import os
from pathlib import Path

from warroom.core.files import open_regular, record_json
from warroom.errors import WarroomError
from warroom.store.datadir import journal_files, journals_dir
from warroom.store.journal._file import lock_exclusive


def sessions_in_progress(data_dir: Path, trainee: str | None = None, drill_id: str | None = None) -> int:
    """How many sessions are being played now from ``data_dir``: journals in ``journals/`` whose lock another open
    file holds (a live writer), of ``trainee`` and of ``drill_id`` when given (their start line's). A journal that
    cannot be opened, or is not a regular file, is not counted."""
    count = 0
    for path in journal_files(journals_dir(Path(data_dir))):
        start = _live_start(path)
        if start is None:
            continue
        if trainee is not None and start.get("trainee") != trainee:
            continue
        if drill_id is not None and start.get("drill_id") != drill_id:
            continue
        count += 1
    return count


def _live_start(path: Path) -> dict[str, object] | None:
    """The start line of ``path`` when a live process holds its lock (None: a killed session's journal, one that
    cannot be read, or not a regular file: :func:`~warroom.core.files.open_regular`). The lock is only tried, never
    kept."""
    try:
        file = open_regular(path)
    except OSError:  # SpecialFile (a FIFO, a folder) is an OSError too
        return None
    with file:
        try:
            lock_exclusive(file.fileno(), blocking=False)
        except BlockingIOError:
            first = os.pread(file.fileno(), 65536, 0).split(b"\n", 1)[0]
            try:
                start = record_json(first.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
            except (WarroomError, ValueError, RecursionError):
                return {}
            return start if isinstance(start, dict) else {}
        return None  # nobody holds it: a killed session (closing the file drops the lock just taken)
