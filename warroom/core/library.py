"""Where drills live: the bundled drill library and folders the user names.

The bundled drills are the repository's top-level ``drills/`` folder; a wheel ships them inside the package as
``warroom/drills`` (see pyproject.toml), so an installed warroom finds them from any directory.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

DRILL_SUFFIXES = (".yaml", ".yml")


def bundled_drills_dir() -> Path:
    """The folder of the bundled drill library: inside the installed package, else the source checkout's ``drills/``."""
    here = Path(__file__).resolve().parent.parent  # the warroom package
    packaged = here / "drills"
    if packaged.is_dir():
        return packaged
    return here.parent / "drills"


def find_drill_files(paths: Iterable[Path]) -> list[Path]:
    """Drill files under ``paths``: files as given, folders searched recursively for ``*.yaml`` / ``*.yml``.

    Returns paths sorted within each folder, in the order the arguments were given, without duplicates.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        p = Path(p)
        found = sorted(f for f in p.rglob("*") if f.suffix in DRILL_SUFFIXES and f.is_file()) if p.is_dir() else [p]
        for f in found:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def resolve_drill(path_or_id: str, extra_dirs: Iterable[Path] = ()) -> Path:
    """The drill file named by a path, or by a drill id (file stem) in ``extra_dirs`` or the bundled library.

    Raises FileNotFoundError with the places searched when there is no such drill.
    """
    p = Path(path_or_id).expanduser()
    if p.is_file():
        return p
    dirs = [*extra_dirs, bundled_drills_dir()]
    for d in dirs:
        for f in find_drill_files([d]) if Path(d).is_dir() else []:
            if f.stem == path_or_id:
                return f
    where = ", ".join(str(d) for d in dirs)
    raise FileNotFoundError(f"no drill file or drill id {path_or_id!r} (searched {where})")
