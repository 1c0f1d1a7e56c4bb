"""What recovery tells a trainee who was not there: a notice box per trainee in the data directory, whose notices
say only what the results store (or the quarantine folder) itself holds about that trainee.

A session killed mid-drill is recovered by whichever warroom starts next in its data directory: the trainee's own
war room, a facilitator's ``warroom scores``, ``warroom serve`` when the session's app process has died. What was
recovered (the trainee, the drill, the score) is the trainee's business only, so it is shown to the trainee concerned
and to nobody else: when someone else's start recovers it, :func:`leave_notice` keeps a pointer to it for that
trainee in ``journals/notices/``, and :func:`take_notices` hands the notice to them at their next start (the war room
shows it and it is gone). A shared data folder's trainees, and every browser of ``warroom serve``, share the folder,
not the notices.

**A box holds no text, only pointers**: a session id, or the name of a journal set aside in ``journals/quarantine/``.
On a data folder shared by the class any trainee can write any file in it, a box included, so a box's word is
worth nothing: :func:`take_notices` writes each notice itself, from the stored session the pointer names when the
store says it is that trainee's and was recovered (a ``warroom_trainee`` role cannot store a session under another
name), or from the quarantined journal whose start line names that trainee; any other pointer is dropped. So a
trainee can repeat or drop another's notices by writing their box, never make one up.

Each trainee's box is one JSON Lines file named after a hash of the trainee's name (any name makes a safe file name;
nobody can tell from the folder whose box is whose without the name), at most :data:`MAX_BOX_BYTES`.

**The boxes' folder is never reached through a link**: on a shared data folder a trainee could replace
``journals/notices`` (or ``journals``) by a symbolic link to another trainee's folder or to a place they read, and
have notices written, moved and deleted there. Each step from the data directory (``journals``, then ``notices``) is
opened as a folder without following a link, and every box is then opened, moved and deleted relative to that folder
(``dir_fd``), so no link in that path, made before or during a start, is ever followed: no notice is kept or taken
then, and recovery says why (:func:`notices_problem`).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.store.datadir import JOURNALS, journals_dir

if TYPE_CHECKING:
    from warroom.store.results import ResultsStore

#: The folder of the notice boxes, in ``journals/``.
NOTICES = "notices"
#: The most a trainee's box holds, in bytes: past it, older notices are kept and newer ones dropped (the sessions
#: themselves are stored; ``warroom scores --mine`` lists them).
MAX_BOX_BYTES = 256 * 1024
#: The most notices shown at one start (a box filled by someone else shows no more than this).
MAX_SHOWN = 20
#: The most pointers of a box looked at (each set-aside journal's is a file read).
MAX_POINTERS = 200


def _is_session_id(text: str) -> bool:
    """Whether ``text`` is a session id as the store's rule has it (the drill format's id, at most 120 characters):
    a pointer names nothing else, and nothing with a path in it."""
    import re

    from warroom.core.text import ID_PATTERN

    return len(text) <= 120 and re.fullmatch(ID_PATTERN, text) is not None


def _box_name(trainee: str) -> str:
    return hashlib.sha256(trainee.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ".jsonl"


#: How each folder of the path to the boxes is opened: as a folder, never through a symbolic link (ELOOP, ENOTDIR).
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _open_folder(data_dir: Path, *, create: bool) -> int:
    """A descriptor of ``journals/notices`` in ``data_dir`` (created when missing and ``create``), each of its two
    folders opened without following a symbolic link (the data directory itself is the user's choice and may be
    one). Raises OSError: ``ELOOP`` for a link, ``ENOTDIR`` for a file, ``ENOENT`` for a folder missing."""
    fd = os.open(data_dir, _FOLDER_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
    try:
        for name in (JOURNALS, NOTICES):
            if create:
                try:
                    os.mkdir(name, dir_fd=fd)
                except FileExistsError:
                    pass
            inner = os.open(name, _FOLDER_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = inner
        return fd
    except BaseException:
        os.close(fd)
        raise


def notices_problem(data_dir: Path) -> str | None:
    """Why no notice can be kept in ``data_dir`` (``journals`` or ``journals/notices`` is a symbolic link or not a
    folder), with what to do; None when they can be (or are missing: they are created)."""
    import errno

    try:
        os.close(_open_folder(Path(data_dir), create=False))
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
            return f"journals/{NOTICES} cannot be opened: {exc.strerror or exc}"
        where = journals_dir(Path(data_dir)) / NOTICES
        return (f"{where} (or the journals folder holding it) is a symbolic link or not a folder, and notices are "
                f"never kept through one: move it away (warroom makes the folder again)")  # fmt: skip
    return None


def leave_notice(data_dir: Path, trainee: str, at: str, *, session: str | None = None,
                 set_aside: str | None = None) -> bool:  # fmt: skip
    """Keep a notice for ``trainee``'s next start (said at ``at``, ISO 8601): of the stored ``session`` (its id),
    or of the journal ``set_aside`` (its file name in ``journals/quarantine/``). Returns False when it could not be
    kept (a full box, a folder that cannot be written, a symbolic link on the way: :func:`notices_problem`);
    nothing is raised."""
    pointer = {"at": at, "session": session} if set_aside is None else {"at": at, "set_aside": set_aside}
    line = (json.dumps(pointer, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
    try:
        folder = _open_folder(Path(data_dir), create=True)  # a link on the way: refused (module docstring)
    except OSError:
        return False
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(_box_name(trainee), flags, 0o600, dir_fd=folder)  # a FIFO: refused at once (ENXIO), or below
    except OSError:
        return False
    finally:
        os.close(folder)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size + len(line) > MAX_BOX_BYTES:
            return False
        os.write(fd, line)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def take_notices(data_dir: Path, trainee: str, store: ResultsStore | None = None) -> list[str]:
    """The notices kept for ``trainee``, oldest first, each written from what ``store`` (else the data directory's
    store, opened here) or the quarantine folder holds (module docstring); the box is emptied (moved aside, read,
    then deleted), so two starts never both show one notice. A box that cannot be checked (the store cannot be
    opened) is left for a later start; unreadable lines and pointers that do not check are dropped; nothing is
    raised."""
    from warroom.store.errors import StoreError
    from warroom.store.results import ResultsStore

    try:
        folder = _open_folder(Path(data_dir), create=False)  # a link on the way: refused (module docstring)
    except OSError:
        return []
    try:
        os.lstat(_box_name(trainee), dir_fd=folder)
        if store is None:
            with ResultsStore(Path(data_dir), create=False) as opened:
                return _take(data_dir, folder, trainee, opened)
        return _take(data_dir, folder, trainee, store)
    except (StoreError, OSError):
        return []
    finally:
        os.close(folder)


def _take(data_dir: Path, folder: int, trainee: str, store: ResultsStore) -> list[str]:
    """The notices of the box's pointers (the first :data:`MAX_POINTERS`), each once. The trainee's recovered
    sessions are read once, with one query, whatever the box holds."""
    recovered: dict[str, Any] | None = None
    out: list[str] = []
    for pointer in _pointers(folder, _box_name(trainee))[:MAX_POINTERS]:
        session, set_aside = pointer.get("session"), pointer.get("set_aside")
        if isinstance(set_aside, str):
            text = _set_aside_notice(data_dir, trainee, set_aside)
        elif isinstance(session, str):
            if recovered is None:
                rows, _ = store.query_readable(trainee=trainee)
                recovered = {r.session_id: r for r in rows if r.recovered and r.trainee == trainee}
            text = _session_notice(recovered.get(session))
        else:
            text = None
        if text is not None and text not in out and len(out) < MAX_SHOWN:
            out.append(text)
    return out


def _pointers(folder: int, box: str) -> list[dict[str, Any]]:
    """The lines of the box named ``box`` in the boxes' ``folder`` (a descriptor) as objects (the box moved aside,
    read and deleted)."""
    from warroom.core.files import record_json

    taken = f".{box.removesuffix('.jsonl')}.{os.getpid()}.taken"
    try:
        os.replace(box, taken, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        return []
    try:
        # a FIFO or a device put in its place is opened without blocking and never read; a link is not followed
        fd = os.open(taken, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), dir_fd=folder)
        with os.fdopen(fd, "rb") as f:
            raw = f.read(MAX_BOX_BYTES + 1) if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else b""
    except OSError:
        return []
    finally:
        try:
            os.unlink(taken, dir_fd=folder)
        except OSError:
            pass
    out = []
    for line in raw.splitlines():
        try:
            value = record_json(line.decode("utf-8"))
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def _session_notice(stored: Any) -> str | None:
    """The notice of a recovered session of the trainee (a :class:`~warroom.store.results.SessionRow`; None: the
    pointer named none), written from its stored row."""
    if stored is None:
        return None
    from warroom.core.model import outcome_label
    from warroom.core.scoring import MAX_TOTAL

    label, session = outcome_label(stored.outcome, stored.all_clear), stored.session_id  # as `scores` says it
    return (f"recovered session {session} ({stored.drill_id}): its warroom stopped mid-drill; recorded as {label} "
            f"({stored.total}/{MAX_TOTAL}); `warroom review {session}` shows it")  # fmt: skip


def _set_aside_notice(data_dir: Path, trainee: str, name: str) -> str | None:
    """The notice of the journal ``name`` set aside in ``journals/quarantine/``, when it is there and its start
    line names ``trainee``; None otherwise."""
    from warroom.store.journal._recovery import QUARANTINE, journal_trainee

    if not name.endswith(".jsonl") or not _is_session_id(name.removesuffix(".jsonl")):
        return None
    path = journals_dir(data_dir) / QUARANTINE / name
    if journal_trainee(path) != trainee:
        return None
    return (f"a session of yours could not be recovered and was set aside, not stored: journals/{QUARANTINE}/{name} "
            f"(the reason is in {name}.why.txt beside it; ask your facilitator)")  # fmt: skip
