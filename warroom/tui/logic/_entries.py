"""The drill picker's entries: one :class:`DrillEntry` per drill file, loaded (a Drill and its card), listed from the
picker's cache (its card only), or broken (its problems); loading a file into one (:func:`load_entry`) and the rules
across files (:func:`with_cross_file_problems`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.core.library import DrillCard
from warroom.core.text import shown_path
from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.model import Drill


@dataclass(frozen=True)
class DrillEntry:
    """One drill offered by the picker: its file, the loaded drill (None when it did not load, or when the entry
    comes from the picker's cache), what the picker shows of it, and the problems that stop it loading or being
    played.

    ``card`` is the :class:`~warroom.core.library.DrillCard` (made from ``drill`` when not given; None for a file
    that did not load). An entry from the picker's cache has a card and no drill: the drill is loaded from its file
    when it is opened (:meth:`warroom.tui.logic.Services.open_entry`), never played from the cache.

    ``problems`` are ``path:line:col: message`` lines: why the file did not load (``card`` is None), or a rule
    across files it breaks although it loaded (its id differs from its file name, or another file has the same id).

    ``lasting`` is False when the problems may not last although the file does not change (it could not be read:
    an I/O error, too many open files; or the loader failed unexpectedly, out of memory): such an entry is never
    kept, in the picker's cache or by the process, so the next start (or ``r``) reads the file again.
    """

    path: Path
    drill: Drill | None
    problems: tuple[str, ...] = ()
    card: DrillCard | None = None
    lasting: bool = True

    def __post_init__(self) -> None:
        if self.card is None and self.drill is not None:
            object.__setattr__(self, "card", DrillCard.from_drill(self.drill))

    @property
    def ok(self) -> bool:
        """True when the drill loaded (or its file did, when the entry is from the cache) and has no problems: it
        can be opened."""
        return self.card is not None and not self.problems


class DrillProblem(WarroomError):
    """A drill file that cannot be loaded; ``problems`` holds its ``path:line:col: message`` lines, ``lasting`` is
    False when they may not last although the file does not change (it could not be read)."""

    def __init__(self, path: Path, problems: Iterable[str], lasting: bool = True) -> None:
        self.path = Path(path)
        self.problems = tuple(problems) or (f"{shown_path(path)}: cannot load this drill",)
        self.lasting = lasting
        super().__init__("\n".join(self.problems))


def load_drill(path: Path) -> Drill:
    """Load and validate one drill file.

    Returns the :class:`~warroom.core.model.Drill`; raises :class:`DrillProblem` with ``path:line:col: message``
    lines for a missing, unreadable, malformed or invalid file (never another exception for bad input).
    """
    from warroom.core.load import DrillLoadError, DrillReadError
    from warroom.core.load import load_drill as core_load

    path = Path(path)
    try:
        return core_load(path)
    except DrillLoadError as exc:  # a missing or unreadable file is one too
        raise DrillProblem(path, str(exc).splitlines(), lasting=not isinstance(exc, DrillReadError)) from None


def load_entry(path: Path) -> DrillEntry:
    """A :class:`DrillEntry` for ``path``: the loaded drill and its card, or its problems.

    Never raises for a file's content: a loader failure of any kind (an overflowing number, a recursion limit, a
    bug) becomes a ``path:1:1: message`` problem, so the picker lists the drill as broken and keeps running; such an
    entry, and one of a file that could not be read, is not ``lasting``."""
    try:
        return DrillEntry(Path(path), load_drill(path))
    except DrillProblem as exc:
        return DrillEntry(Path(path), None, exc.problems, lasting=exc.lasting)
    except (Exception, RecursionError) as exc:
        detail = " ".join(str(exc).split())[:300] or type(exc).__name__
        problem = f"{shown_path(path)}:1:1: cannot load this drill ({type(exc).__name__}: {detail})"
        return DrillEntry(Path(path), None, (problem,), lasting=False)


def with_cross_file_problems(entries: list[DrillEntry]) -> list[DrillEntry]:
    """``entries`` with the rules across files applied (:func:`warroom.core.library.cross_file_problems`, on each
    entry's card): a drill whose id is not its file stem, or whose id an earlier entry already has, gets
    ``path:line:col: message`` problems (it keeps its drill and card, so the picker can still show what it is)."""
    from warroom.core.library import cross_file_problems

    found = cross_file_problems((entry.path, entry.card) for entry in entries)
    if not found:
        return entries
    out = []
    for entry in entries:
        problems = found.get(entry.path)
        if problems:
            entry = DrillEntry(entry.path, entry.drill, (*entry.problems, *(str(p) for p in problems)), entry.card)
        out.append(entry)
    return out
