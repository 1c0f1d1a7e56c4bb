"""The drill picker's cache: what it shows of each drill file (a :class:`~warroom.core.library.DrillCard`, or the
file's problems), kept between starts so that a big library is not read and validated on every ``warroom``.

One JSON file per drill folder, ``picker-<hash of the folder>.json`` in the cache directory
(:func:`warroom.core.settings.resolve_cache_dir`). Each drill file's record is used only while the file is what it
was: the same path, size, modification time, change time and inode (:func:`file_stamp`); and the whole cache file
only when it was written by this warroom version, in this cache format, for this folder. Anything else (a changed
file, another version's cache, a cache that is corrupt, truncated, unreadable, not a regular file or not warroom's)
is a miss: the drill file is read again, and the cache rewritten when the folder's records changed. A cache that
cannot be written (a read-only folder) is left as it is: the picker works without it.

Writes go to a temporary file in the cache directory, renamed over the cache file (``os.replace``): two warrooms
starting at once each write a whole file, the last one wins, and no reader ever sees half of one. JSON only: a
cache file is data, never code.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Strict, with_config

from warroom import __version__
from warroom.core.files import replace_file
from warroom.core.library._card import DrillCard, Text, json_reader
from warroom.core.model import SCHEMA_VERSION

#: The layout of a cache file; bump it when a record or a card changes (an older file is then a miss).
CACHE_FORMAT = 1
#: Largest cache file read, in bytes (a library of 10,000 drills writes a few MB); a bigger file is not warroom's.
MAX_CACHE_BYTES = 64 * 1024 * 1024
#: A file modified this recently (nanoseconds) is not cached: an edit within the file system's timestamp
#: granularity, right after it was read, could leave its size and times as they were.
RECENT_NS = 2_000_000_000

#: What identifies a drill file's content without reading it: (size, mtime_ns, ctime_ns, inode).
Stamp = tuple[int, int, int, int]
#: A whole number as a record holds it: a JSON integer only (a boolean or a float in a cache file is refused).
_Int = Annotated[int, Strict()]


def file_stamp(path: Path) -> Stamp | None:
    """The :data:`Stamp` of ``path`` (symbolic links followed), or None when it cannot be stat'ed or is not a regular
    file (such a file is never cached: the loader says what is wrong with it every time)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def settled(stamp: Stamp, now_ns: int | None = None) -> bool:
    """True when the file of ``stamp`` was last modified (or changed) more than :data:`RECENT_NS` before ``now_ns``
    (default: now), so that its record may be cached."""
    now = time.time_ns() if now_ns is None else now_ns
    return now - max(stamp[1], stamp[2]) > RECENT_NS


@with_config(ConfigDict(extra="forbid"))
@dataclass(frozen=True)
class CachedFile:
    """One drill file's record: ``path`` as the picker found it, its :data:`Stamp`, and its card (None when it did
    not load) with its ``path:line:col: message`` problems."""

    path: Text
    stamp: tuple[_Int, _Int, _Int, _Int]
    card: DrillCard | None
    problems: tuple[Text, ...]

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data."""
        return dict(json_reader(CachedFile).dump_python(self, mode="json"))

    @classmethod
    def from_json(cls, data: object) -> CachedFile:
        """The record ``data`` holds; raises ValueError for anything :meth:`to_json` does not write."""
        record = json_reader(CachedFile).validate_python(data)
        if record.card is None and not record.problems:
            raise ValueError("cached drill file: neither a card nor problems")
        return record


def _header(folder: str) -> dict[str, Any]:
    """What a cache file must say of itself to be used: its format, warroom's version, the drill format this
    warroom reads, the code that reads drills (:func:`code_stamp`) and the folder it is about."""
    return {
        "warroom_picker_cache": CACHE_FORMAT, "warroom": __version__, "schema": SCHEMA_VERSION,
        "code": code_stamp(), "folder": folder,
    }


@functools.cache
def code_stamp() -> str:
    """A digest of the size and modification time of every module of ``warroom.core`` (the loader, the model, the
    validation rules and the card are all there), and of the Python and the libraries the loader runs on (Python's
    version, with its Unicode tables; PyYAML's, yaml-rs', pydantic's and pydantic-core's): a checkout updated in
    place (``git pull`` into an editable install), where warroom's version number does not change, or the same
    checkout run by another virtualenv, still makes older caches a miss. Read once per process (about 100 ``stat``
    calls; the libraries are those the loader imports anyway)."""
    import pydantic
    import pydantic_core

    from warroom.core.load import reader_versions

    digest = hashlib.sha256()
    versions = [*reader_versions(), pydantic.VERSION, pydantic_core.__version__]
    digest.update(f"python:{sys.version}\n{versions}\n".encode())
    for path in sorted(Path(__file__).resolve().parents[1].rglob("*.py")):  # all of warroom.core
        with contextlib.suppress(OSError):
            st = path.stat()
            digest.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _mine(st: os.stat_result) -> bool:
    """True when the file of ``st`` belongs to the user running warroom (always, where there are no user ids)."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or st.st_uid == getuid()


class FolderCache:
    """The cache file of one drill folder (or one drill file given as a folder) in ``cache_dir``.

    Args:
        cache_dir: the cache directory (created when first written).
        folder: the drill folder, as given; the cache is keyed by its resolved path.
    """

    def __init__(self, cache_dir: Path, folder: Path) -> None:
        try:
            self.folder = str(Path(folder).resolve())
        except (OSError, RuntimeError):  # a folder that cannot be resolved: keyed by its absolute spelling
            self.folder = os.path.abspath(folder)
        digest = hashlib.sha256(self.folder.encode("utf-8", "surrogateescape")).hexdigest()[:24]
        self.path = Path(cache_dir) / f"picker-{digest}.json"

    def read(self) -> dict[str, CachedFile]:
        """The records of the cache file by path (as the picker found it); empty when there is no usable cache file
        (missing, unreadable, not a regular file, over :data:`MAX_CACHE_BYTES`, not JSON, another version's, format's
        or folder's, or any record malformed). Never raises."""
        try:
            text = self._text()
            data = json.loads(text) if text is not None else None
            if not isinstance(data, dict) or {k: data.get(k) for k in _header(self.folder)} != _header(self.folder):
                return {}
            files = data.get("files")
            if not isinstance(files, list):
                return {}
            records = [CachedFile.from_json(record) for record in files]
        except (OSError, ValueError, RecursionError, MemoryError):
            return {}
        return {r.path: r for r in records}

    def _text(self) -> str | None:
        """The cache file's text, or None when it is missing, not a regular file, too big or (POSIX) owned by another
        user (a file planted in a shared ``WARROOM_CACHE_DIR``, such as ``/tmp``, whose previews would be shown as
        the drills'). Opened without blocking, so that a FIFO in its place cannot hang the picker; raises OSError or
        UnicodeDecodeError (a ValueError) for one that cannot be read."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CACHE_BYTES or not _mine(st):
                return None
            return f.read(MAX_CACHE_BYTES + 1).decode("utf-8")

    def write(self, records: Iterable[CachedFile]) -> bool:
        """Replace the cache file with ``records``: written to a temporary file beside it, then renamed over it.
        Returns False, leaving any cache file as it was, when the directory or the file cannot be written (read-only,
        full, not a folder); never raises for that."""
        data = {**_header(self.folder), "files": [r.to_json() for r in records]}
        text = json.dumps(data, separators=(",", ":"))  # ASCII: a path's undecodable bytes round-trip as \udcXX
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            replace_file(self.path, text.encode("ascii"), mode=0o600)
            return True
        except (OSError, ValueError):
            return False
