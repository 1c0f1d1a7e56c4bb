"""Files replaced whole or not at all: the one way warroom writes a file that a reader may open at any moment (a
drill, a roster, the picker's cache, an export).

The bytes go to a hidden temporary file beside the target (``.<name>.<random>.tmp``, created exclusively), are
flushed to disk (``fsync``), get their mode, and the temporary file is renamed over the target (``os.replace``,
atomic on one file system): a reader sees the old file or the new one, never half of one. When any step fails the
temporary file is removed and the target is as it was. A file that must not exist yet (``warroom new``) is made
the same way and hard-linked into place instead of renamed (:func:`create_file`), so it is never written over.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from warroom.errors import WarroomError

#: Attempts at a free random temporary name before giving up (each name has 48 random bits).
_NAME_TRIES = 100


def _new_file_mode() -> int:
    """The mode a new file gets here (0o666 minus the umask), read without changing the umask for long."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _mode_for(path: Path, mode: int | None) -> int:
    """``mode`` if given, else the mode of the file at ``path`` when there is one, else a new file's mode."""
    if mode is not None:
        return mode
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return _new_file_mode()


def _new_temporary(target: Path) -> tuple[Path, int]:
    """A new hidden temporary file next to ``target`` (created exclusively, mode 0600): its path and descriptor."""
    for _ in range(_NAME_TRIES):
        tmp = target.parent / f".{target.name}.{secrets.token_hex(6)}.tmp"
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file next to {target}")  # pragma: no cover - all 100 taken


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, mode: int | None = None) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into, as it comes (an export too large to hold in memory): a
    hidden temporary file beside it, flushed to disk and renamed over ``path`` when the block ends, removed (and
    ``path`` left as it was) when the block raises or is interrupted (Ctrl-C). Raises OSError naming ``path``."""
    target = Path(path)
    wanted = _mode_for(target, mode)
    tmp, fd = _new_temporary(target)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, wanted)
        os.replace(tmp, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OSError(e.errno, e.strerror or str(e), str(target)) from None
    except BaseException:
        with contextlib.suppress(OSError):  # the original error (or interruption) matters
            os.unlink(tmp)
        raise


def write_temporary(path: str | os.PathLike[str], data: str | bytes, *, mode: int | None = None) -> Path:
    """Write ``data`` (text as UTF-8, line ends as given) to a new hidden temporary file next to ``path``, flushed to
    disk, with ``mode`` (None: the mode of the file at ``path``, else a new file's), and return its path: renamed
    over ``path`` it is the file, whole. Raises OSError when it cannot be written (nothing is left behind then)."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    wanted = _mode_for(target, mode)
    tmp, fd = _new_temporary(target)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())  # the bytes are on disk before the rename makes them the file
        os.chmod(tmp, wanted)
    except BaseException:
        with contextlib.suppress(OSError):  # the original error matters
            os.unlink(tmp)
        raise
    return tmp


def replace_file(path: str | os.PathLike[str], data: str | bytes, *, mode: int | None = None) -> None:
    """Put ``data`` in the file ``path`` whole or not at all (see the module docstring); ``mode`` as for
    :func:`write_temporary`. Raises OSError naming ``path`` when any step fails; ``path`` is then as it was."""
    replace_files([(path, data)], mode=mode)


def replace_files(files: Iterable[tuple[str | os.PathLike[str], str | bytes]], *, mode: int | None = None,
                  create: bool = False) -> None:
    """Put each ``(path, data)`` in its file, all or none as far as a file system allows: every temporary file is
    written first, then each is renamed over its target, so that one that cannot be written (a full disk, a
    read-only folder) leaves none of them written and no temporary file. With ``create``, no file is put over
    anything already there (as :func:`create_file`, even one another process created a moment before): one target
    taken raises FileExistsError and removes the files this call created. Raises OSError naming the target (not its
    temporary file)."""
    temps: list[tuple[Path, Path]] = []
    created: list[Path] = []
    target = Path()
    try:
        for path, data in files:
            target = Path(path)
            temps.append((write_temporary(target, data, mode=mode), target))
        for tmp, target in temps:
            if create:
                _put_new(tmp, target)
                created.append(target)
            else:
                os.replace(tmp, target)
    except OSError as e:
        _remove([tmp for tmp, _ in temps] + created)
        raise OSError(e.errno, e.strerror or str(e), str(target)) from None  # FileExistsError for EEXIST
    except BaseException:
        _remove([tmp for tmp, _ in temps] + created)
        raise
    if create:
        _remove([tmp for tmp, _ in temps])  # each is linked at its target now


def _put_new(tmp: Path, target: Path) -> None:
    """Hard-link the temporary file ``tmp`` at ``target``, which fails when anything is there; where the file system
    has no hard links, ``target`` is created exclusively (``O_EXCL``) and written."""
    try:
        os.link(tmp, target, follow_symlinks=False)
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        with open(target, "xb") as f:  # no hard links here (a FAT or FUSE folder): created exclusively
            f.write(tmp.read_bytes())


def create_file(path: str | os.PathLike[str], data: str | bytes, *, mode: int | None = None) -> None:
    """Create the file ``path`` holding ``data`` whole or not at all, never over anything already there (a file, a
    symbolic link, even one pointing nowhere, a folder): the bytes go to a temporary file beside it
    (:func:`write_temporary`, flushed to disk), which is hard-linked at ``path`` (``os.link`` fails when anything is
    there, even when another process created it a moment before) and then removed. Where the file system has no
    hard links, the file is created exclusively (``O_EXCL``) and written (an interruption may then leave part of
    it). Raises FileExistsError when ``path`` exists, OSError naming ``path`` when it cannot be written."""
    target = Path(path)
    try:
        tmp = write_temporary(target, data, mode=mode)
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), str(target)) from None
    try:
        _put_new(tmp, target)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), str(target)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _remove(temps: list[Path]) -> None:
    for tmp in temps:
        with contextlib.suppress(OSError):  # renamed already, or gone: the original error matters
            os.unlink(tmp)


class ReadOnlyFile(WarroomError, PermissionError):
    """A file refused for writing because it is read-only (:func:`writing`): this user may not open it for writing,
    or its mode has no write bit (``chmod 444``, refused even for root); ``mode`` is its mode as ``ls -l`` shows it."""

    def __init__(self, path: str | os.PathLike[str], mode: str) -> None:
        super().__init__(f"the file is read-only (mode {mode})")
        self.path, self.mode = os.fspath(path), mode


class NotAnExportFile(WarroomError, OSError):
    """A file refused for writing an export or a report over it because it holds results (:func:`writing`): a SQLite
    database (a results store), its write-ahead log, or a session's journal. ``kind`` says which."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        why = f"it is {kind}, which an export or a report never replaces: nothing was written; name another file"
        super().__init__(errno.EEXIST, why)
        self.path, self.kind = os.fspath(path), kind


#: The first bytes of the files :func:`writing` never replaces, and what each is: a SQLite database (every one starts
#: so), the two magic numbers of its write-ahead log (``-wal``: the transactions not yet in the database), and the
#: start line of a session's journal (a session being played, or one waiting for its recovery).
_RESULTS_FILES: tuple[tuple[bytes, str], ...] = (
    (b"SQLite format 3\x00", "a SQLite database (a results store?)"),
    (b"\x37\x7f\x06\x82", "a SQLite write-ahead log (a results store's -wal file)"),
    (b"\x37\x7f\x06\x83", "a SQLite write-ahead log (a results store's -wal file)"),
    (b'{"type":"start",', "a session's journal"),
)


def _results_file_kind(target: Path, written: os.stat_result) -> str | None:
    """What results the regular file at ``target`` (``written``: the ``fstat`` of the file opened for writing) holds,
    by its first bytes (:data:`_RESULTS_FILES`), or None. Read through a descriptor of its own, only when it is the
    same file; a file this user may not read is not looked into."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags)
    except OSError:
        return None
    try:
        seen = os.fstat(fd)
        if (seen.st_dev, seen.st_ino) != (written.st_dev, written.st_ino):
            return None
        head = os.read(fd, 32)
    except OSError:
        return None
    finally:
        os.close(fd)
    return next((kind for magic, kind in _RESULTS_FILES if head.startswith(magic)), None)


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into, decided from the file itself, never from a look at the
    path before writing it: the path is resolved once (a symbolic link is written through, and stays a link), the
    file there is opened for writing without following a link, without waiting and without truncating
    (``O_NOFOLLOW``, ``O_NONBLOCK``), and ``os.fstat`` of the open file says what it is. A regular file is replaced
    whole (:func:`replacing`: a temporary file renamed over it, its mode kept); none there, one is made the same way;
    a FIFO (with a reader) or a device is written through the descriptor opened. The rename never follows a link,
    so a path swapped meanwhile is replaced or refused, never written through.

    A file holding results (:data:`_RESULTS_FILES`: a SQLite database, its write-ahead log, a session's journal) is
    never replaced: ``-o results.sqlite3`` of an export, a slip of tab completion, replaced a store's every session.

    Raises :class:`ReadOnlyFile` for a read-only file, :class:`NotAnExportFile` for a file holding results, and
    OSError naming ``path``: ELOOP when the file became a link after the path was resolved, EISDIR for a folder,
    ENXIO for a FIFO that no process reads."""
    import stat

    from warroom.core.files._regular import read_only_mode, real_path, special_mode_kind

    target = real_path(path)
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        fd = -1  # a new file
    except PermissionError:
        shown = read_only_mode(target)  # for the message only: the open already refused it
        if shown is not None:
            raise ReadOnlyFile(path, shown) from None
        raise
    if fd < 0:
        with replacing(target) as f:
            yield f
        return
    with os.fdopen(fd, "wb") as opened:
        mode = os.fstat(fd).st_mode
        if special_mode_kind(mode) is not None:  # a FIFO (a reader is there, or the open failed) or a device
            os.set_blocking(fd, True)
            yield opened
            return
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):  # chmod 444: refused even for root
            raise ReadOnlyFile(path, stat.filemode(stat.S_IFREG | (mode & 0o7777)))
        kind = _results_file_kind(target, os.fstat(fd))
        if kind is not None:
            raise NotAnExportFile(path, kind)
        with replacing(target, mode=mode & 0o7777) as f:  # the rename replaces a link, never follows it
            yield f
