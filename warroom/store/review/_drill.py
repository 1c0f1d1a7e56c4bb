"""The drill a session is played on or scored with: finding its file, checking its bytes, loading it.

A session records its drill's id, path and the SHA-256 of the file's bytes when it starts. Recovery and re-scoring
find the file again with a :data:`DrillResolver` (:func:`default_drill_resolver`: the recorded path if it is still
there, else the id in the drill folders and the bundled library) and load it with :func:`resolve_session_drill`,
which says whether the file changed since the session was played.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.model import Drill
    from warroom.store.results import SessionInfo

#: ``drills_resolver(drill_id, drill_path) -> Path``: the drill file to score a recovered session with.
DrillResolver = Callable[[str, str | None], Path]


class DrillUnavailable(WarroomError):
    """The drill a stored session was played on cannot be found or loaded; the message says why."""


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes. Raises OSError if it cannot be read."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
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
    ``drill_dirs`` and the bundled library. The returned function raises FileNotFoundError when neither exists."""
    dirs = tuple(Path(d) for d in drill_dirs)

    def resolve(drill_id: str, drill_path: str | None) -> Path:
        from warroom.core.library import resolve_drill

        if drill_path and Path(drill_path).is_file():
            return Path(drill_path)
        return resolve_drill(drill_id, dirs)

    return resolve


@dataclass(frozen=True)
class SessionDrill:
    """The drill file a stored session is scored with: its ``path`` (resolved), the loaded ``drill``, the file's
    ``sha256`` and whether it ``changed`` since the session was played (its SHA-256 differs from the recorded one)."""

    path: Path
    drill: Drill
    sha256: str
    changed: bool


def resolve_session_drill(
    info: SessionInfo, resolver: DrillResolver, cache: dict[Path, Drill] | None = None
) -> SessionDrill:
    """Find, read and load the drill of a session (``info``: its recorded drill id, path and SHA-256) with
    ``resolver``; ``cache`` (path -> drill) saves loading one file twice. A session with a variant seed gets the
    variant it played (:func:`warroom.core.variants.apply_variant`). Raises :class:`DrillUnavailable` with a
    clear message when the file is not found, cannot be read or does not load."""
    from warroom.core.files import real_path

    try:
        path = real_path(resolver(info.drill_id, info.drill_path))  # a symbolic link loop: unreadable, below
    except FileNotFoundError as exc:
        raise DrillUnavailable(
            f"the drill {info.drill_id!r} of session {info.session_id} is not found (was {info.drill_path}): {exc}"
        ) from None
    try:
        sha = file_sha256(path)
    except OSError as exc:
        raise DrillUnavailable(f"cannot read the drill file {path}: {exc.strerror or exc}") from None
    if cache is not None and path in cache:
        drill = cache[path]
    else:
        drill = load_drill_file(path)
        if cache is not None:
            cache[path] = drill
    if info.seed is not None:  # the session played this variant: score and review that one
        from warroom.core.variants import VariantError, apply_variant

        try:
            drill = apply_variant(drill, info.seed)
        except VariantError as exc:
            raise DrillUnavailable(
                f"the variant (seed {info.seed}) of drill {info.drill_id!r} for session {info.session_id} cannot be "
                f"made from {path}: {exc}"
            ) from None
    return SessionDrill(path, drill, sha, bool(info.drill_sha256) and sha != info.drill_sha256)
