"""Files that must be regular files: what a path is when it is not one (a folder, a FIFO, a socket, a device), found
on the open file (opened without waiting, then ``fstat``), and one real path per file."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from warroom.core.text import clean_name, shown_path
from warroom.errors import WarroomError

#: What a file that is not a regular file is, for messages: ``is a FIFO, not a drill file``.
_SPECIAL_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISLNK, "a symbolic link"),  # (only from os.lstat)
)


def special_file_kind(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is when it exists but is not a regular file (``a folder``, ``a FIFO``, ``a socket``, ``a
    character device``, ``a block device``, ``a special file``), found with ``os.stat`` (symbolic links followed)
    without opening it; None for a regular file, or a path that cannot be stat'ed (opening it reports why)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return special_mode_kind(mode)


def special_mode_kind(mode: int) -> str | None:
    """What a file of ``st_mode`` ``mode`` is when it is not a regular file (see :func:`special_file_kind`; from
    ``os.lstat``, also ``a symbolic link``); None for a regular file. For a file already open (``os.fstat``)."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _SPECIAL_KINDS if test(mode)), "a special file")


def expand_home(path: str | os.PathLike[str]) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded (:meth:`Path.expanduser`), or as written when that home
    folder cannot be found (``~nouser/x.yaml``, or ``~`` with no ``HOME`` and no entry for this user): then it is
    an ordinary path that does not exist, reported as such, never a traceback. Never raises."""
    try:
        return Path(path).expanduser()
    except RuntimeError:  # "Could not determine home directory."
        return Path(path)


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute with its symbolic links resolved (:meth:`Path.resolve`), or only made absolute when it
    cannot be resolved (a symbolic link loop, which Python 3.11 and 3.12 report as RuntimeError, or an OSError):
    for telling whether two spellings name one file. Never raises for a path on disk."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def read_only_mode(path: str | os.PathLike[str]) -> str | None:
    """The mode of the file at ``path`` (symbolic links followed) as ``ls -l`` shows it (``-r--r--r--``) when that
    file is read-only: no write bit in its mode (``chmod 444``: "do not change", refused even for root, whose
    writes the OS would allow) or not writable by this user; None when it is writable or is not there (a new file).
    An atomic write renames a new file over the old one, which a folder's write permission allows whatever the old
    file's mode: every writer asks this first, so that a read-only file is refused, not replaced."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) and os.access(path, os.W_OK):
        return None
    return stat.filemode(stat.S_IFREG | (mode & 0o7777))


class TooLarge(WarroomError, OSError):
    """A file over the size limit of what reads it (:func:`read_limited`); ``size`` is how big it is (bytes)."""

    def __init__(self, path: str | os.PathLike[str], size: int, limit: int) -> None:
        super().__init__(f"{clean_name(os.fspath(path))}: {size:,} bytes, over the limit of {limit:,}")
        self.size, self.limit = size, limit


class SpecialFile(WarroomError, OSError):
    """A path that is not a regular file (a folder, a FIFO, a socket, a device), found on the open file
    (:func:`open_regular`); ``kind`` says what it is (``a FIFO``), as :func:`special_mode_kind` does."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(f"{clean_name(os.fspath(path))} is {kind}, not a regular file")
        self.kind = kind


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file ``path`` opened for reading bytes. It is opened first, without waiting (``O_NONBLOCK`` where
    the platform has it: a FIFO with no writer opens at once), and the open file is then checked (``os.fstat``):
    anything but a regular file is closed and refused (:class:`SpecialFile`, naming what it is). Checking the
    path before opening it would not do: the file can be swapped for a FIFO between the look and the open, and a
    FIFO opened for reading waits for a writer for ever. Raises OSError (``FileNotFoundError``, ...) when it cannot
    be opened."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:  # where a folder cannot be opened at all
        raise SpecialFile(path, "a folder") from None
    except OSError as e:  # a socket (or a device with no driver) cannot be opened: ENXIO, "No such device or address"
        kind = special_file_kind(path) if e.errno == errno.ENXIO else None
        if kind is None:
            raise
        raise SpecialFile(path, kind) from None
    try:
        kind = special_mode_kind(os.fstat(fd).st_mode)
    except BaseException:
        os.close(fd)
        raise
    if kind is not None:
        os.close(fd)
        raise SpecialFile(path, kind)
    return os.fdopen(fd, "rb")


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, read only after its size is checked: a file over ``limit`` bytes is
    refused (:class:`TooLarge`) before a byte of it is read, and one that grows past it while read is refused too;
    anything but a regular file (a FIFO, a device, a folder) is refused on the open file, never read
    (:class:`SpecialFile`, from :func:`open_regular`: a file swapped for a FIFO after a look at its path does not
    block). Raises OSError when it cannot be read. Every message it makes names ``path`` with its control
    characters escaped (:func:`warroom.core.text.clean_name`: ``\\x0a``, ``\\x1b``), so a caller printing the
    message prints no raw newline or escape sequence from a file's name; the OS's own errors name it quoted
    (``str(exc)``: ``No such file or directory: 'a\\nb'``) and their ``strerror`` does not name it."""
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise TooLarge(path, size, limit)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(path, len(data), limit)
    return data


def broken_link(path: str | os.PathLike[str], exc: OSError) -> str | None:
    """When ``path`` could not be opened (``exc``) because it is a symbolic link that points at nothing or leads round
    in a loop: that, with what to do (``a symbolic link to /gone, which does not exist: point it at a file or remove
    it``), for a message after ``PATH:1:1: ``, where the OS's "No such file or directory" denied a name its folder
    lists. None for any other cause (the caller says it its own way)."""

    if isinstance(exc, FileNotFoundError):
        try:
            target = os.readlink(path)
        except (OSError, ValueError):
            return None
        return f"a symbolic link to {shown_path(target)}, which does not exist: point it at a file or remove it"
    if exc.errno == errno.ELOOP:  # a link to itself, or links that lead to each other
        return "a symbolic link that leads round in a loop, to no file: point it at a file or remove it"
    return None


def why_missing(path: str | os.PathLike[str], exc: OSError | None = None, typed: str | None = None) -> str | None:
    """Why ``path`` could not be opened (``exc``; None: why it cannot be found now, by ``os.stat``) when the system's
    own words hide it: a symbolic link to nothing or in a loop (:func:`broken_link`), or a name on disk in another
    Unicode form or letter case than typed (:func:`~warroom.core.files.unicode_twin`, the path named as ``typed``,
    by default as given). None for any other cause, or a path that is there (the caller says it its own way)."""
    from warroom.core.files._unicode import unicode_twin, unicode_twin_message

    if exc is None:
        try:
            os.stat(path)
        except OSError as found:
            exc = found
        else:
            return None
    why = broken_link(path, exc)
    if why is None and isinstance(exc, FileNotFoundError) and (twin := unicode_twin(path)) is not None:
        why = unicode_twin_message(os.fspath(path) if typed is None else typed, twin)
    return why
