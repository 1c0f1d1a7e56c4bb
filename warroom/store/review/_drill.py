"""The drill a session is played on or scored with: finding its file, checking its bytes, loading it.

A session records its drill's id, path and the SHA-256 of the file's bytes when it starts. Recovery and re-scoring
find the file again with a :data:`DrillResolver` (:func:`default_drill_resolver`: the recorded path if it is still
there, else the id in the drill folders and the bundled library) and load it with :func:`resolve_session_drill`,
which says whether the file changed since the session was played.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.library import DrillLibrary
    from warroom.core.model import Drill
    from warroom.store.results import SessionInfo

#: ``drills_resolver(drill_id, drill_path) -> Path``: the drill file to score a recovered session with.
DrillResolver = Callable[[str, str | None], Path]


class DrillUnavailable(WarroomError):
    """The drill a stored session was played on cannot be found or loaded; the message says why."""


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes. Raises OSError if it cannot be read, and for anything but a regular file
    (:class:`~warroom.core.files.SpecialFile`, an OSError: a FIFO put in a drill file's place is refused at once, never
    waited on for a writer)."""
    from warroom.core.files import open_regular

    digest = hashlib.sha256()
    with open_regular(path) as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def load_drill_file(path: Path) -> Drill:
    """Load and validate a drill file with the core loader.

    Raises :class:`DrillUnavailable` with a clear message for a missing, unreadable or invalid file.
    """
    from warroom.core.load import DrillLoadError, load_drill

    path = Path(path)
    try:
        return load_drill(path)
    except DrillLoadError as exc:  # the loader reports an unreadable file as a DrillLoadError too
        raise DrillUnavailable(f"the drill file {path} does not load:\n{exc}") from None


def default_drill_resolver(drill_dirs: Iterable[Path] = ()) -> DrillResolver:
    """A resolver that finds a session's drill: the recorded drill path if it still exists, else the drill id in
    ``drill_dirs`` and the bundled library (looked up among drill ids only: a drill id that names a file where the
    command runs, or a path stored as a drill id, is never opened). The returned function raises FileNotFoundError
    when neither exists."""
    dirs = tuple(Path(d) for d in drill_dirs)
    libraries: list[DrillLibrary] = []  # the folders read once per resolver (a pass), on its first look-up by id

    def resolve(drill_id: str, drill_path: str | None) -> Path:
        from warroom.core.library import DrillLibrary

        if drill_path and _is_file(drill_path):
            return Path(drill_path)
        if not libraries:
            libraries.append(DrillLibrary(dirs))
        return libraries[0].by_id(drill_id)  # an id, never a path (a row's drill id is its writer's word)

    return resolve


def _is_file(path: str) -> bool:
    """Whether ``path`` (a stored row's or a journal's word) names a regular file; False for anything that cannot
    be asked (a name too long, a folder this user cannot enter): the drill is then found by its id."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


@dataclass(frozen=True)
class SessionDrill:
    """The drill file a stored session is scored with: its ``path`` (resolved), the ``drill`` the session played
    (the file's drill, its variant, or its twin's), the file's ``sha256``, whether it ``changed`` since the session
    was played (its SHA-256 differs from the recorded one) and whether the session played the drill's ``twin`` (a
    noise trial of a fault drill)."""

    path: Path
    drill: Drill
    sha256: str
    changed: bool
    twin: bool = False
    #: For a drill with a twin, the trial (``"signal"`` or ``"noise"``) the session's seed draws at the default noise
    #: rate (:func:`warroom.core.variants.draw_played_as`): what an assessment session outside a drill set played.
    drawn: str | None = None
    #: Whether the session played its events' ids renamed by position (its recorded edition's
    #: :func:`warroom.core.scoring.ids_by_position`), when that changes an id it played; None when it changes none
    #: (a drill without a twin, or one whose authored ids are already its ids by position).
    renamed: bool | None = None


class DrillCache(dict["Path", "Drill"]):
    """What one pass over many sessions (recovery, ``scores rescore``, ``scores verify``) keeps between them, so that
    each drill file is found, hashed, loaded and made into each variant once, not once per session: the drill of
    each file (path -> drill, as a plain dict), the file each (drill id, recorded path) resolved to, each file's
    SHA-256 with the ``os.stat`` it was taken at (a file changed since is hashed and loaded again), each file's twin,
    and each (file, SHA-256, seed, trial) made into the drill played (its variant, or its twin's; the seed only for a
    drill with variants). A dict of drills given instead keeps the drills only."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[tuple[str, str | None], Path] = {}
        #: Each (drill id, recorded path) found nowhere, with why: the folders are searched once per pass, not once
        #: per session (verify looks for each session's drill by its id too).
        self.missing: dict[tuple[str, str | None], str] = {}
        self.hashed: dict[Path, tuple[tuple[int, int, int, int], str]] = {}
        self.played: dict[tuple[Path, str, int | None, str | None, bool], tuple[Drill, bool | None]] = {}
        self.twins: dict[tuple[Path, str], Drill | None] = {}


def _stat_key(path: Path) -> tuple[int, int, int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def found_path(info: SessionInfo, resolver: DrillResolver, cache: dict[Path, Drill] | None) -> Path:
    """The real path of the drill file of ``info`` (``resolver``'s answer, kept in a :class:`DrillCache`)."""
    from warroom.core.files import real_path

    key = (info.drill_id, info.drill_path)
    if isinstance(cache, DrillCache) and key in cache.found:
        return cache.found[key]
    try:
        if isinstance(cache, DrillCache) and key in cache.missing:
            raise FileNotFoundError(cache.missing[key])
        path = real_path(resolver(info.drill_id, info.drill_path))  # a symbolic link loop: unreadable, below
    except FileNotFoundError as exc:
        if isinstance(cache, DrillCache):
            cache.missing[key] = str(exc)
        was = f" (was {info.drill_path})" if info.drill_path else ""  # none: a session handed in, found by its id
        raise DrillUnavailable(f"the drill {info.drill_id!r} of session {info.session_id} is not found{was}: {exc}") \
            from None
    if isinstance(cache, DrillCache):
        cache.found[key] = path
    return path


def _hashed(path: Path, cache: dict[Path, Drill] | None) -> str:
    """The SHA-256 of ``path``'s bytes, hashed again only when its ``os.stat`` changed (a :class:`DrillCache`);
    a file changed since is loaded again too."""
    try:
        if not isinstance(cache, DrillCache):
            return file_sha256(path)
        key = _stat_key(path)
        kept = cache.hashed.get(path)
        if kept is not None and kept[0] == key:
            return kept[1]
        sha = file_sha256(path)
    except OSError as exc:
        raise DrillUnavailable(f"cannot read the drill file {path}: {exc.strerror or exc}") from None
    if kept is not None:  # changed since it was loaded: load it again
        cache.pop(path, None)
    cache.hashed[path] = (key, sha)
    return sha


def resolve_session_drill(
    info: SessionInfo, resolver: DrillResolver, cache: dict[Path, Drill] | None = None
) -> SessionDrill:
    """Find, read and load the drill of a session (``info``: its recorded drill id, path and SHA-256) with
    ``resolver``; ``cache`` (path -> drill; a :class:`DrillCache` keeps more) saves loading one file twice. A
    session gets the drill it played: the twin of a drill for a noise trial of a drill with a twin, and the variant
    of its seed (:func:`warroom.core.variants.session_drill`). Raises :class:`DrillUnavailable` with a
    clear message when the file is not found, cannot be read or does not load."""
    path = found_path(info, resolver, cache)
    sha = _hashed(path, cache)
    if cache is not None and path in cache:
        drill = cache[path]
    else:
        drill = load_drill_file(path)
        if _sha256_now(path) != sha:  # written between the two reads: the drill loaded may not be the SHA-256's
            raise DrillUnavailable(f"the drill file {path} changed while it was read; try again")
        if cache is not None:
            cache[path] = drill
    from warroom.core.scoring import ids_by_position
    from warroom.core.variants import draw_played_as

    twin = info.played_as == "noise" and drill.twin is not None
    by_position = ids_by_position(info.scoring_version)
    drawn = draw_played_as(drill, info.seed).value if drill.twin is not None else None
    seed = info.seed if drill.variants is not None else None  # without variants every seed plays the same drill
    key = (path, sha, seed, info.played_as, by_position)
    if isinstance(cache, DrillCache) and key in cache.played:
        played, renamed = cache.played[key]
    else:
        played, renamed = _played(info, drill, path, by_position, _twin(drill, path, sha, cache))
        if isinstance(cache, DrillCache):
            cache.played[key] = (played, renamed)
    changed = bool(info.drill_sha256) and sha != info.drill_sha256
    return SessionDrill(path, played, sha, changed, twin, drawn, renamed)


def _sha256_now(path: Path) -> str | None:
    try:
        return file_sha256(path)
    except OSError:
        return None


def _twin(drill: Drill, path: Path, sha: str, cache: dict[Path, Drill] | None) -> Drill | None:
    """The twin of ``drill`` (None: it has none, or it cannot be made: :func:`_played` then says why), made once per
    drill file and SHA-256 in a :class:`DrillCache`."""
    from warroom.core.model import TwinError, twin_of

    if drill.twin is None:
        return None
    if isinstance(cache, DrillCache) and (path, sha) in cache.twins:
        return cache.twins[path, sha]
    try:
        twin: Drill | None = twin_of(drill)
    except TwinError:
        twin = None
    if isinstance(cache, DrillCache):
        cache.twins[path, sha] = twin
    return twin


def _played(
    info: SessionInfo, drill: Drill, path: Path, by_position: bool, twin: Drill | None
) -> tuple[Drill, bool | None]:
    """The drill the session ``info`` played on ``drill`` (loaded from ``path``; ``twin``: its twin, made already):
    the variant of its seed, of the twin for a noise trial of a drill with a twin, with the event ids its recorded
    edition played (by position from scoring rules 6 on, for a drill with a twin; authored before); and whether it
    played them renamed by position (None: renaming changes no id of it). The variant is made once, then renamed.
    Raises :class:`DrillUnavailable` when it cannot be made (the drill lost its twin since, or its variants section
    no longer fits)."""
    from warroom.core.model import PlayedAs, id_width
    from warroom.core.variants import VariantError, played_drill

    played_as = PlayedAs(info.played_as) if info.played_as is not None else PlayedAs.SIGNAL
    if drill.is_all_clear:  # an all-clear drill is a noise trial whatever an older row says
        played_as = PlayedAs.NOISE
    try:
        played, authored = played_drill(drill, info.seed, played_as, by_position=by_position, twin=twin)
        if drill.twin is None:
            return played, None
        width = id_width(drill)
        renamed = by_position if authored != [f"e{k:0{width}d}" for k in range(1, len(authored) + 1)] else None
        return played, renamed
    except VariantError as exc:
        what = f"the variant (seed {info.seed}) of" if info.seed is not None else "the"
        trial = f" {played_as.value} trial of" if drill.twin is not None or played_as is PlayedAs.NOISE else ""
        raise DrillUnavailable(
            f"{what}{trial} drill {info.drill_id!r} for session {info.session_id} cannot be made from {path}: {exc}"
        ) from None
