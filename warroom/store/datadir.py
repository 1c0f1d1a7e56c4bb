"""The data directory: where its results store and journals are, and checks that it can be used, with messages that
say what to do.

Layout of a data directory::

    DATA_DIR/results.sqlite3            the results store (SQLite, WAL mode), unless --store names another
    DATA_DIR/journals/ID.jsonl          journals of sessions being played (or killed mid-drill)
    DATA_DIR/journals/done/ID.jsonl     journals of finished or recovered sessions (kept; removed only by a delete)
    DATA_DIR/journals/unreadable/       journals without a readable start line (kept for a human to look at)
    DATA_DIR/journals/quarantine/       journals that can never be recovered as they are, with ID.jsonl.why.txt

Every command that opens the store (the picker, ``run``, ``scores``, ``review``) goes through
:func:`data_dir_problem` (and :meth:`~warroom.store.results.ResultsStore.verify`), so a data directory that is a file,
that belongs to another user, or a damaged database is one clear sentence naming the file, never a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from warroom.core.text import shown_path

#: File name of the SQLite results database inside the data directory.
DB_NAME = "results.sqlite3"
#: What to do about a data directory that cannot be used, added to each message.
CHOOSE_ANOTHER = "or choose another data directory (--data-dir, or the WARROOM_DATA_DIR environment variable)"


def _can(path: Path, mode: int) -> bool:
    """``os.access`` (a function of its own so tests running as root can simulate a refusal)."""
    return os.access(path, mode)


def _owner(st: os.stat_result) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(st.st_uid).pw_name} (uid {st.st_uid})"
    except (ImportError, KeyError):
        return f"uid {st.st_uid}"


def _me() -> str:
    try:
        import getpass

        return f"{getpass.getuser()} (uid {os.geteuid()})"
    except (OSError, KeyError, AttributeError):  # pragma: no cover - no user name, or Windows
        return "this user"


def _read_only_system(path: Path) -> bool:
    """True when the file system holding ``path`` is mounted read-only."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # gone meanwhile, or no statvfs (Windows)
        return False


def _access_problem(path: Path, st: os.stat_result, folder: bool) -> str | None:
    """Why this process cannot read and write ``path`` (a folder needs search too), or None when it can."""
    need = [("read", os.R_OK), ("write", os.W_OK)] + ([("open", os.X_OK)] if folder else [])
    missing = [word for word, mode in need if not _can(path, mode)]
    if not missing or not os.path.lexists(path):  # gone meanwhile: SQLite removes its -wal file at the last close
        return None
    kind = "folder" if folder else "file"
    if missing == ["write"] and _read_only_system(path):  # no owner or mode to change (the advice below said so)
        return (
            f"cannot write the {kind} {shown_path(path)}: its file system is mounted read-only (on purpose, or by "
            f"the system after a disk error): remount it read-write, {CHOOSE_ANOTHER}"
        )
    return (
        f"cannot {' or '.join(missing)} the {kind} {shown_path(path)}: it belongs to {_owner(st)}, mode "
        f"{stat.filemode(st.st_mode)}, and warroom runs as {_me()}. Ask its owner for access (chmod/chown), "
        f"{CHOOSE_ANOTHER}"
    )


def data_dir_problem(data_dir: Path) -> str | None:
    """Why ``data_dir`` cannot hold warroom's data, or None when it can (or does not exist yet: it is created).

    Looks at the folder itself, ``results.sqlite3`` (with its ``-wal`` and ``-shm`` files) and the ``journals``
    folders, without opening any of them: a path that is not a folder (a file, a FIFO), or one this user cannot
    read and write (another user's folder, ``chmod 000``)."""
    data_dir = Path(data_dir)
    try:
        st = os.stat(data_dir)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot use the data directory {shown_path(data_dir)}: {_os_problem(exc, 'a folder')}"
    if not stat.S_ISDIR(st.st_mode):
        return (
            f"the data directory {shown_path(data_dir)} is a file, not a folder: move that file away (warroom then "
            f"creates the folder), {CHOOSE_ANOTHER}"
        )
    problem = _access_problem(data_dir, st, folder=True)
    if problem:
        return problem
    for name, folder in (
        (DB_NAME, False),
        (DB_NAME + "-wal", False),
        (DB_NAME + "-shm", False),
        ("journals", True),
        ("journals/done", True),
    ):
        path = data_dir / name
        try:
            st = os.stat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"cannot use {shown_path(path)}: {_os_problem(exc, 'a folder' if folder else 'a file')}"
        if folder != stat.S_ISDIR(st.st_mode) or not (folder or stat.S_ISREG(st.st_mode)):
            what = "a folder" if folder else "a regular file"
            return f"{shown_path(path)} is not {what}: move it away, {CHOOSE_ANOTHER}"
        problem = _access_problem(path, st, folder)
        if problem:
            return problem
    return None


def _os_problem(exc: OSError, what: str) -> str:
    """Why a path of the data directory that is ``what`` (``a file``, ``a folder``) could not be looked at
    (``exc``), and what to do: a symbolic link in a loop is named so (the system's "Too many levels of symbolic
    links" was said with nothing to do but choose another data directory)."""
    if exc.errno == errno.ELOOP:
        return f"it is a symbolic link that leads round in a loop: point it at {what} or remove it, {CHOOSE_ANOTHER}"
    return f"{exc.strerror or exc}; {CHOOSE_ANOTHER}"


#: Folder names inside the data directory.
JOURNALS = "journals"
DONE = "done"


def journals_dir(data_dir: Path) -> Path:
    """``DATA_DIR/journals``: journals of live (or killed) sessions."""
    return Path(data_dir) / JOURNALS


def journal_files(jdir: Path) -> list[Path]:
    """The journals in the folder ``jdir`` (``*.jsonl``; not the hidden ones, a journal's temporary copies),
    sorted; none when it is missing."""
    return sorted(p for p in jdir.glob("*.jsonl") if not p.name.startswith("."))


def done_dir(data_dir: Path) -> Path:
    """``DATA_DIR/journals/done``: journals of finished or recovered sessions."""
    return journals_dir(data_dir) / DONE
