"""Deleting stored sessions: their rows in the results store, then their journals in ``journals/done/``."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.core.text import shown_path
from warroom.store.datadir import done_dir

if TYPE_CHECKING:
    from warroom.store.results import ResultsStore


@dataclass(frozen=True)
class DeleteResult:
    """What :func:`delete_sessions` did: how many rows it ``deleted``, the ``journals`` it removed from
    ``journals/done/``, and ``problems`` (a journal that could not be removed; the rows are deleted anyway)."""

    deleted: int
    journals: list[Path]
    problems: list[str]


def delete_sessions(data_dir: Path, store: ResultsStore, session_ids: Iterable[str]) -> DeleteResult:
    """Delete stored sessions (exact ids) from ``store`` (one transaction), then their journals in
    ``journals/done/``. Journals elsewhere (``journals/``, ``quarantine/``, ``unreadable/``) are left alone, and
    anything in ``done/`` that is not a regular file is never touched. Raises StoreError when the rows cannot be
    deleted (then no journal is removed)."""
    import stat

    ids = list(dict.fromkeys(session_ids))
    deleted = store.delete(ids)
    removed: list[Path] = []
    problems: list[str] = []
    done = done_dir(data_dir)
    for sid in ids:
        if not sid or "/" in sid or "\\" in sid or sid.startswith("."):
            continue  # not a name a journal can have
        path = done / f"{sid}.jsonl"
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                problems.append(f"{shown_path(path)} is not a regular file; it was left as it is")
                continue
            path.unlink()
            removed.append(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            problems.append(f"cannot remove the journal {shown_path(path)}: {exc.strerror or exc}")
    if removed:
        from warroom.store.journal._file import fsync_dir

        fsync_dir(done)
    return DeleteResult(deleted, removed, problems)
