"""Where drills live: the bundled drill library and folders the user names, and the :class:`DrillLibrary` that
resolves a drill id or path and loads the drill (every command that takes drills goes through it).

The bundled drills are the repository's top-level ``drills/`` folder; a wheel ships them inside the package as
``warroom/drills`` (see pyproject.toml), so an installed warroom finds them from any directory.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from warroom.core.files import expand_home, real_path, unicode_twin, unicode_twin_message
from warroom.core.text import clean_name, natural_key, shown_path
from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.load import Problem
    from warroom.core.model import Drill

DRILL_SUFFIXES = (".yaml", ".yml")
#: The id (and file stem) of the tutorial's drill, bundled as drills/tutorial.yaml: the one drill played in the
#: ``tutorial`` mode (``warroom tutorial``), whose sessions no figure counts.
TUTORIAL_ID = "tutorial"


def bundled_drills_dir() -> Path:
    """The folder of the bundled drill library: inside the installed package, else the source checkout's ``drills/``."""
    here = Path(__file__).resolve().parents[2]  # the warroom package
    packaged = here / "drills"
    if packaged.is_dir():
        return packaged
    return here.parent / "drills"


#: How deep below a folder named the search for drill files goes (folders in folders), and how many files and
#: folders one search looks at: a folder named by mistake (``warroom validate /``, a home folder) is refused after
#: that many with what to do (:class:`FolderTooLarge`), never walked whole. The bundled library is 2 levels and
#: about 100 files. Looked up at call time, so a test may lower one.
MAX_WALK_DEPTH = 32
MAX_WALK_ENTRIES = 100_000
#: How many folders that could not be read a "no such drill" refusal names (then ``and N more could not be read``).
UNREAD_SHOWN = 3


class FolderTooLarge(WarroomError, OSError):
    """A folder whose search for drill files passed :data:`MAX_WALK_DEPTH` or :data:`MAX_WALK_ENTRIES`: nothing
    under it is used. ``filename`` is the folder, ``strerror`` what was passed and what to do; ``str()`` is
    ``FOLDER: reason`` with FOLDER's control characters escaped."""

    def __init__(self, folder: Path, why: str,
                 advice: str = "name the folder that holds the drills (or a file), not a folder above them") -> None:
        super().__init__(errno.EFBIG, f"{why}: {advice}", os.fspath(folder))

    def __str__(self) -> str:
        return f"{shown_path(self.filename)}: {self.strerror}"


def _walk(folder: Path, wanted: tuple[str, ...], errors: list[OSError] | None) -> list[Path]:
    """Every non-folder entry under ``folder`` (recursively, symbolic links to folders followed once) whose name ends
    in one of ``wanted``: regular files, and FIFOs or sockets too, so that the loader reports them instead of
    their being skipped in silence. A sub-folder that cannot be listed is added to ``errors`` as an OSError (and
    skipped). Raises :class:`FolderTooLarge` as soon as the walk passes :data:`MAX_WALK_DEPTH` or
    :data:`MAX_WALK_ENTRIES`."""

    def failed(exc: OSError) -> None:
        if errors is not None:
            errors.append(exc)

    found: list[Path] = []
    inside = os.path.realpath(folder)
    seen = {inside}
    out: list[str] = []  # symbolic links under the folder to folders outside it, as followed
    top, looked_at, limit = os.fspath(folder).rstrip(os.sep).count(os.sep), 0, MAX_WALK_ENTRIES
    for root, dirs, files in os.walk(folder, onerror=failed, followlinks=True):
        looked_at += len(dirs) + len(files)
        if looked_at > limit:
            raise FolderTooLarge(folder, f"more than {limit:,} files and folders under it (the search for drill "
                                         "files stops there)", *_leads_out(out))  # fmt: skip
        if dirs and root.rstrip(os.sep).count(os.sep) - top >= MAX_WALK_DEPTH:
            raise FolderTooLarge(folder, f"folders nested more than {MAX_WALK_DEPTH} deep under it (at "
                                         f"{shown_path(os.path.join(root, dirs[0]))})")  # fmt: skip
        # Symbolic links to folders are followed (a shared drill folder linked in), each real folder once: a link
        # loop cannot make the walk run for ever.
        keep = []
        for d in dirs:
            real = os.path.realpath(os.path.join(root, d))
            if real not in seen:
                seen.add(real)
                keep.append(d)
                if os.path.commonpath([real, inside]) != inside and os.path.islink(os.path.join(root, d)):
                    out.append(f"{os.path.join(root, d)} -> {real}")
        dirs[:] = keep
        found.extend(Path(root, name) for name in files if Path(name).suffix in wanted)
    return found


def _leads_out(links: list[str]) -> tuple[str, ...]:
    """FolderTooLarge's advice when the walk followed symbolic links out of the folder named (a link to ``/`` or a
    home folder inside a drill folder): the first of them, escaped, and what to do; else the usual advice."""
    if not links:
        return ()
    return (f"the symbolic link {shown_path(links[0])} in it leads out of it: move that link away, or link the "
            "folder that holds the drills instead",)


def find_drill_files(
    paths: Iterable[Path],
    suffixes: Iterable[str] = DRILL_SUFFIXES,
    *,
    natural: bool = False,
    errors: list[OSError] | None = None,
    aliases: dict[Path, Path] | None = None,
) -> list[Path]:
    """Files under ``paths``: files as given, folders searched recursively for files ending in one of ``suffixes``
    (drill files ``*.yaml`` / ``*.yml`` by default; the Who&When importer asks for ``.json``).

    Returns paths sorted within each folder (by name, or with ``natural`` in :func:`natural_key` order of their
    paths), in the order the arguments were given, without duplicates. Entries that are not regular files (a FIFO
    named ``x.yaml``) are returned too, for the loader to refuse by name. A folder that cannot be
    listed (permission denied) is appended to ``errors`` (an OSError whose ``filename`` is the folder) when a list
    is given; its files are left out either way. Raises :class:`FolderTooLarge` for a folder too large or too deep
    to search (see :data:`MAX_WALK_ENTRIES`). ``aliases`` (when a dict is given) gets each file left out as another
    name of one returned (a symbolic link to it: ``other.yaml`` -> ``drill.yaml``), mapped to the name returned;
    one spelled again (``./drill.yaml`` beside ``drill.yaml``) is no other name.
    """
    wanted = tuple(suffixes)
    out: list[Path] = []
    seen: dict[Path, Path] = {}
    spelled: set[str] = set()
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found = _walk(p, wanted, errors)
            found.sort(key=(lambda f: natural_key(f.as_posix())) if natural else None)
        else:
            found = [p]
        for f in found:
            key = real_path(f)
            if key not in seen:
                seen[key] = f
                out.append(f)
            elif aliases is not None and os.path.abspath(f) not in spelled and f not in aliases:
                aliases[f] = seen[key]
            spelled.add(os.path.abspath(f))
    return out


class DrillIsAFolder(WarroomError, FileNotFoundError):
    """A folder named where one drill file is needed (``warroom run FOLDER``); the message says what to do."""


class UnknownDrill(WarroomError, FileNotFoundError):
    """A name that is no drill file (or folder, where one may be named) and no drill id of the library.

    ``str()`` names it, the folders searched (and those that could not be read) and, when one drill id is a likely
    typo of it, `` (did you mean `id`?)`` (:func:`warroom.core.text.did_you_mean`); ``suggestion`` is that hint or
    ``""``."""

    def __init__(self, message: str, suggestion: str = "") -> None:
        super().__init__(message + suggestion)
        self.suggestion = suggestion

    def __str__(self) -> str:
        return str(self.args[0])


class LoadedDrill(NamedTuple):
    """A drill file and the drill loaded from it (``(path, drill)``, as :func:`cross_file_problems` takes)."""

    path: Path
    drill: Drill


@dataclass(frozen=True)
class DrillLibrary:
    """The drills a command can name, and their loading: one object for drill-id resolution and loading.

    ``extra_dirs`` are the ``--drills`` folders, searched in order before the bundled library
    (:func:`bundled_drills_dir`); a drill id is a drill file's name without ``.yaml`` / ``.yml``, the first file of
    that name winning. The index of drill ids is built on first use and kept (the folders are read once).
    """

    extra_dirs: tuple[Path, ...] = ()
    _index: dict[str, Path] = field(default_factory=dict, init=False, repr=False, compare=False)
    _unread: list[OSError] = field(default_factory=list, init=False, repr=False, compare=False)

    @property
    def dirs(self) -> tuple[Path, ...]:
        """The folders searched for drill ids: the ``--drills`` folders, then the bundled library."""
        return (*self.extra_dirs, bundled_drills_dir())

    def _ids(self) -> dict[str, Path]:
        if not self._index:
            for d in self.dirs:
                unread: list[OSError] = []
                try:
                    found = find_drill_files([d], errors=unread) if Path(d).is_dir() else []
                except FolderTooLarge as exc:  # named alone, as a folder that cannot be read is: nothing under it is
                    self._unread.append(exc)  # used, so the sub-folders the walk met unreadable are not named
                    continue
                self._unread.extend(unread)
                for f in found:
                    self._index.setdefault(f.stem, f)
        return self._index

    def drill_ids(self) -> list[str]:
        """Every drill id in the library, in natural order (``ww-2`` before ``ww-10``)."""
        return sorted(self._ids(), key=natural_key)

    def find(self, drill_id: str) -> Path | None:
        """The drill file of ``drill_id``, or None when no folder holds one."""
        return self._ids().get(drill_id)

    def by_id(self, drill_id: str) -> Path:
        """The drill file of ``drill_id`` in the library's folders, never a path: a stored session's drill id is its
        row's word, and a file of that name where the command runs (or a path written as an id) is no drill of the
        library. Raises :class:`UnknownDrill` (a FileNotFoundError) naming the folders searched."""
        found = self.find(drill_id)
        if found is None:
            raise self._unknown(f"no drill id {drill_id!r}", "searched", drill_id)
        return found

    def _unknown(self, what: str, searched: str, name: str) -> UnknownDrill:
        """``what (searched FOLDERS)`` with the folders that could not be read, and a did-you-mean for ``name``."""
        from warroom.core.text import did_you_mean

        where = ", ".join(str(d) for d in self.dirs)
        shown = self._unread[:UNREAD_SHOWN]
        unread = "".join(f"; {shown_path(e.filename)} could not be read ({e.strerror or e})" for e in shown)
        if len(self._unread) > len(shown):
            unread += f"; and {len(self._unread) - len(shown):,} more could not be read"
        return UnknownDrill(f"{what} ({searched} {where}{unread})", did_you_mean(name, self._ids()))

    def resolve(self, path_or_id: str) -> Path:
        """The drill file named by a path, or by a drill id of the library.

        A path that exists and is not a folder is returned as it is (the loader refuses a FIFO or a device by name);
        a drill id wins over a folder of the same name. Raises :class:`DrillIsAFolder` for a folder that is no
        drill id (``warroom run FOLDER``), :class:`UnknownDrill` (a FileNotFoundError) naming the folders searched
        and any likely drill id when there is no such drill.
        """
        p = _lookable(expand_home(path_or_id))
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            return p
        found = self.find(path_or_id)
        if found is not None:
            return found
        if p.is_dir():
            raise DrillIsAFolder(
                f"{path_or_id} is a folder, not a drill file: name one drill file or drill id in it, or pick from "
                f"the folder's drills with `warroom --drills {path_or_id}`"
            )
        _no_unicode_twin(p, path_or_id)
        raise self._unknown(f"no drill file or drill id {path_or_id!r}", "searched", path_or_id)

    def path(self, name: str | Path) -> Path:
        """What ``warroom validate`` and ``warroom check`` take: an existing file or folder as given (a folder is
        searched later with :func:`find_drill_files`), else the drill file of a drill id.

        Raises :class:`UnknownDrill` (a FileNotFoundError) naming ``name``, the folders searched and any likely
        drill id."""
        p = _lookable(expand_home(name))
        if p.exists() or p.is_symlink():  # a link that leads nowhere (dangling, a loop): the loader says which
            return p
        found = self.find(str(name))
        if found is None:
            _no_unicode_twin(p, str(name))
            raise self._unknown(f"no file, folder or drill id {str(name)!r}", "drill ids searched in", str(name))
        return found

    def load(self, path_or_id: str | Path) -> LoadedDrill:
        """The drill a path or drill id names, loaded and validated (:func:`warroom.core.load.load_drill`).

        Raises what :meth:`resolve` raises, and :class:`~warroom.core.load.DrillLoadError` (its ``problems``
        are ``path:line:col: message``) for a drill that does not load."""
        from warroom.core.load import load_drill

        path = self.resolve(str(path_or_id))
        return LoadedDrill(path, load_drill(path))

    @staticmethod
    def load_or_problems(path: Path) -> tuple[Drill | None, list[Problem]]:
        """Load the drill file ``path``: ``(drill, [])``, or ``(None, problems)`` where each problem has ``path``,
        ``line``, ``column``, ``message``, ``to_dict()`` and ``str()`` = ``path:line:col: message``."""
        from warroom.core.load import DrillLoadError, load_drill

        try:
            return load_drill(path), []
        except DrillLoadError as exc:
            return None, list(exc.problems)


def _no_unicode_twin(path: Path, typed: str) -> None:
    """Raise :class:`UnknownDrill` saying so when ``path`` is on disk with a name in another Unicode form."""
    twin = unicode_twin(path)
    if twin is not None:
        raise UnknownDrill(unicode_twin_message(typed, twin))


def _lookable(path: Path) -> Path:
    """``path``, once a look at it (``lstat``) raised nothing but "no such file": a name the system refuses to look
    at (longer than its limits: ENAMETOOLONG, which ``Path.exists`` raises, not False) is an :class:`UnknownDrill`
    saying why, never a traceback."""
    try:
        path.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return path  # no such file: a name to look up among the drill ids
    except OSError as e:
        if e.errno == errno.ENAMETOOLONG:
            raise UnknownDrill(f"{shown_path(path)}: the name is too long for the system ({len(os.fsencode(path)):,} "
                               "bytes): name a shorter path (a link, or a folder nearer the file)") from None
        if e.errno != errno.ELOOP:  # a link loop is a name to look up (and the loader names it); anything else:
            raise UnknownDrill(f"{shown_path(path)}: cannot look at it: {e.strerror or e}") from None  # EACCES...
    return path


def resolve_drill(path_or_id: str, extra_dirs: Iterable[Path] = ()) -> Path:
    """:meth:`DrillLibrary.resolve` in a library of the ``extra_dirs`` folders and the bundled drills."""
    return DrillLibrary(tuple(extra_dirs)).resolve(path_or_id)


def cross_file_problems(entries: Iterable[Any]) -> dict[Path, list[Problem]]:
    """Rules that concern more than one file, or a drill and its file name, for drills that loaded.

    ``entries`` are ``(path, drill)`` pairs, or objects with ``path`` and ``drill`` attributes; only the drill's
    ``id`` is read, so a :class:`~warroom.core.library.DrillCard` may stand for the drill (the picker passes its
    entries' cards). An entry whose ``drill`` is None (it did not load) is skipped, and a file given twice counts
    once. The rules:

    - a drill's ``id`` equals its file name without ``.yaml`` / ``.yml`` (``warroom run ID``, ``warroom new ID``
      and the picker find a drill by its file name);
    - no two of the files share a drill ``id``: the second one (in the order given) gets a problem naming the
      first.

    Returns ``{path: [Problem, ...]}`` (each problem at the file's ``id:`` value, ``str()`` is
    ``path:line:col: message``) for the paths with problems only; an empty dict when all is well. Never raises for
    loaded drills. :func:`warroom.core.load.load_drill` does not check these rules (a drill can be loaded from a
    file of any name); ``warroom validate``, ``warroom check`` and the picker do.
    """
    from warroom.core.load import Problem, position_of
    from warroom.core.text import is_valid_id

    out: dict[Path, list[Problem]] = {}
    first_with_id: dict[str, Path] = {}
    seen: set[Path] = set()

    def add(path: Path, message: str) -> None:
        line, column = position_of(path, ("id",))
        out.setdefault(path, []).append(Problem(str(path), line, column, message))

    for entry in entries:
        path, drill = entry if isinstance(entry, tuple) else (entry.path, entry.drill)
        if drill is None:
            continue
        path = Path(path)
        key = real_path(path)
        if key in seen:
            continue
        seen.add(key)
        if drill.id != path.stem:
            or_id = f" or change the id to `{path.stem}`" if is_valid_id(path.stem) else ""
            add(
                path,
                f"drill id `{drill.id}` does not match the file name `{clean_name(path.name)}`: rename the file to "
                f"{drill.id}{path.suffix}{or_id} (warroom run and the picker find a drill by its file name)",
            )
        first = first_with_id.setdefault(drill.id, path)
        if first is not path:
            line, _ = position_of(first, ("id",))
            add(
                path,
                f"drill id `{drill.id}` is already the id of {shown_path(first)} (line {line}): two drills cannot "
                "share an id; change one of them",
            )
    return out
