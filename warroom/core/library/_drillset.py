"""The drills of a drill set (docs/drill-sets.md) looked up and loaded: each a drill id (in the --drills folders, then
the bundled library) or a drill file path relative to the set file (:func:`resolve_set_drills`), and every problem of
a set file at once, its own and its drills' (:func:`drill_set_problems`), with drills of one healthy run
(:func:`same_run_problems`: an error in an assessment set, a warning in a practice set). Reading the set file itself is
:func:`warroom.core.load.load_drill_set`; the adaptive chooser is :mod:`warroom.core.library._adaptive`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from warroom.core.files import broken_link, unicode_twin, unicode_twin_message
from warroom.core.library._cache import Stamp, file_stamp
from warroom.core.load import (
    Adaptive,
    DrillLoadError,
    DrillSet,
    DrillSetError,
    Problem,
    is_drill_set_file,
    load_drill,
    load_drill_set,
    set_problem_at,
)


def drill_set_problems(path: str | os.PathLike[str], extra_dirs: Iterable[Path] = (), *,
                       warnings: bool = False) -> list[Problem]:
    """Every problem of the drill set file at ``path``, all at once, in file order: the file's own
    (:func:`load_drill_set`) and those of the drills it names (:func:`resolve_set_drills`), which are looked up
    whenever `drills` is a list, even when another key or some of its items are wrong (each other item is looked
    up). Empty for a usable set. With
    ``warnings``, a practice set's warnings too (severity "warning": drills of one healthy run,
    :func:`same_run_problems`)."""
    try:
        drill_set = load_drill_set(path)
        drills, problems = resolve_set_drills(drill_set, path, extra_dirs)
        if warnings and drill_set.mode != "assessment":
            problems += same_run_problems(drills, set_problem_at(path), drill_set.mode)
        return problems
    except DrillSetError as exc:
        if exc.drills is None:
            return list(exc.problems)
        # (an item with a problem of its own is None: resolve_set_drills passes over it)
        fields: dict[str, Any] = {"set": "", "title": "", "drills": exc.drills, "adaptive": None}
        partial = DrillSet.model_construct(**fields)
        more = resolve_set_drills(partial, path, extra_dirs)[1]
        return DrillSetError([*exc.problems, *more]).problems


@dataclass(frozen=True)
class SetDrill:
    """One drill of a set: the ``name`` written in the set (an id or a path), the drill ``path`` it names, the
    loaded ``drill`` (None when it did not load) and its ``problems`` (``path:line:col: message`` lines); ``stamp``:
    the file's :data:`~warroom.core.library._cache.Stamp` just before the set read it (None: it could not be
    stat'ed): a file whose stamp differs now changed since (the app refuses to start it until it is read again)."""

    name: str
    path: Path | None
    drill: Any = None
    problems: tuple[str, ...] = ()
    stamp: Stamp | None = None


def _is_path(name: str) -> bool:
    return "/" in name or "\\" in name or name.endswith((".yaml", ".yml"))


def resolve_set_drills(
    drill_set: DrillSet, set_path: str | os.PathLike[str], extra_dirs: Iterable[Path] = (), *,
    assessment: bool = False,
) -> tuple[list[SetDrill], list[Problem]]:
    """Find and load each drill the set names: a path (relative to the set file's folder) or a drill id (in
    ``extra_dirs``, then the bundled library). Returns the drills in the set's order and the problems, each at the
    drill's line of the set file: a drill that is not found or does not load, one named twice (by id), in an
    assessment (an assessment set, or any set played as one: ``assessment``) a drill of the same healthy run as an
    earlier one (:func:`same_run_problems`), and an adaptive set whose pool lacks the drills its ``all_clear_rate``
    needs."""
    from warroom.core.library._library import resolve_drill

    base = Path(set_path).parent
    out: list[SetDrill] = []
    problems: list[Problem] = []
    at = set_problem_at(set_path)
    seen: dict[str, int] = {}
    found: dict[str, Any] = {}  # each name looked up once, each drill file loaded once (a name repeated 999 times)
    loaded_files: dict[str, Any] = {}
    for i, name in enumerate(drill_set.drills):
        if name is None:  # an item with a problem of its own (a set that did not validate: drill_set_problems)
            continue
        try:
            path = _once(found, name, lambda n: (base / n) if _is_path(n) else resolve_drill(n, extra_dirs))
            if path.is_dir():
                raise FileNotFoundError(f"{name} is a folder, not a drill file: name one drill file or drill id")
            if not path.exists():  # a FIFO or a device exists: the loader says what it is (and never opens it)
                raise FileNotFoundError(_why_no_drill_file(name, path))
        except FileNotFoundError as exc:
            problems.append(at(("drills", i), f"{exc.args[0] if exc.args else exc}"))
            out.append(SetDrill(name, None, None, (str(problems[-1]),)))
            continue
        try:
            stamp, drill = _load_once(path, loaded_files)
        except DrillLoadError as exc:
            first = str(exc).splitlines()[0] if str(exc) else os.fspath(path)
            message = f"the drill {name!r} does not load: {first}"
            if is_drill_set_file(path):
                message = f"{name!r} is a drill set, not a drill: a set names drills, never another set"
            problems.append(at(("drills", i), message))
            out.append(SetDrill(name, path, None, (str(problems[-1]),)))
            continue
        if drill.id in seen:
            problems.append(
                at(("drills", i), f"the drill {drill.id!r} is already item {seen[drill.id] + 1} of `drills`")
            )
        seen.setdefault(drill.id, i)
        out.append(SetDrill(name, path, drill, stamp=stamp))
    if assessment or drill_set.mode == "assessment":  # one run twice in what counts: refused (docs/drill-sets.md)
        problems += same_run_problems(out, at, "assessment")
        problems += [at(("drills", i), TUTORIAL_IN_ASSESSMENT) for i, d in enumerate(out) if _is_tutorial(d.path)]
    loaded = [d.drill for d in out if d.drill is not None]
    if drill_set.adaptive is not None and loaded and len(loaded) == len(out):
        problems += _adaptive_problems(drill_set, loaded, at)
    return out, problems


def _adaptive_problems(drill_set: DrillSet, loaded: list[Any], at: Callable[..., Problem]) -> list[Problem]:
    """The problems of an adaptive set whose drills all load: a pool without the drills its ``all_clear_rate``
    needs, and a ``length`` longer than the sessions its ``attempts`` allow."""
    assert drill_set.adaptive is not None
    problems = [at(("adaptive", "all_clear_rate"), message) for message in _pool_problems(drill_set.adaptive, loaded)]
    most = drill_set.attempts * len(loaded) if drill_set.attempts is not None else None
    if most is not None and most < drill_set.adaptive.length:
        problems.append(at(("adaptive", "length"), (
            f"`length` is {drill_set.adaptive.length} sessions, but a trainee can play at most {most} in this set "
            f"({drill_set.attempts} attempt{'s' if drill_set.attempts != 1 else ''} on each of its {len(loaded)} "
            f"drills), so the set could never be complete: make `length` at most {most}, raise `attempts`, or add "
            "drills")))
    return problems


#: Why an assessment set may not name the bundled tutorial (docs/drill-sets.md).
TUTORIAL_IN_ASSESSMENT = (
    "the drill 'tutorial' is the guided tutorial: it is played with its lessons and stored in the mode `tutorial`, "
    "which no figure and no gradebook counts, so an assessment set cannot count it: leave it out (`warroom tutorial` "
    "plays it), or name a drill of your own"
)


def _is_tutorial(path: Path | None) -> bool:
    """Whether ``path`` is the bundled tutorial's drill file (a copy elsewhere is an ordinary drill)."""
    from warroom.core.files import real_path
    from warroom.core.library._library import TUTORIAL_ID, bundled_drills_dir

    return path is not None and real_path(path) == real_path(bundled_drills_dir() / f"{TUTORIAL_ID}.yaml")


def same_run_problems(drills: Sequence[SetDrill], at: Callable[[tuple[Any, ...], str], Problem],
                      mode: str) -> list[Problem]:
    """A problem for each healthy run of which a set holds more than one drill (one run by a near match:
    :func:`~warroom.core.library._runs.run_groups`; a drill named twice is a problem of its own, not counted here),
    at the `drills` entry of its second drill, naming the others after it (an assessment set of 300 projections of
    one run is refused in one message, not 299): an error in an ``"assessment"`` set (``mode``), a warning (rule
    ``same-run``) in a practice set. ``at`` places a message at a data path of the set file
    (:func:`set_problem_at`)."""
    from warroom.core.library._runs import run_events, run_fingerprint, run_groups

    counted: list[tuple[int, Any]] = []  # (item index, drill) of each drill counted, in order
    ids: set[str] = set()
    for i, entry in enumerate(drills):
        if entry.drill is None or entry.drill.id in ids:
            continue
        ids.add(entry.drill.id)
        counted.append((i, entry.drill))
    runs: dict[int, list[tuple[int, str]]] = {}  # run (its first drill) -> (item index, drill id) of its drills
    for group, (i, drill) in zip(run_groups([run_events(d) for _, d in counted]), counted, strict=True):
        runs.setdefault(group, []).append((i, drill.id))
    out = []
    for group, of_run in runs.items():
        if len(of_run) < 2:
            continue
        (j, other), (i, drill_id), *more = of_run
        run = run_fingerprint(counted[group][1])  # the run is named by its first drill's fingerprint
        problem = at(("drills", i), _same_run_message(drill_id, j + 1, other, run, mode, more))
        out.append(problem if mode == "assessment" else replace(problem, severity="warning", rule="same-run"))
    return sorted(out, key=lambda p: (p.line, p.column))


#: Later drills of one run a same-run problem names one by one (the others are counted).
SAME_RUN_NAMED = 3


def _same_run_message(drill_id: str, item: int, other: str, run: str, mode: str,
                      more: Sequence[tuple[int, str]] = ()) -> str:
    also = ""
    if more:
        named = ", ".join(f"item {k + 1} {d!r}" for k, d in more[:SAME_RUN_NAMED])
        rest = len(more) - SAME_RUN_NAMED
        also = (f", and so {'is' if len(more) == 1 else 'are'} {named}"
                + (f" and {rest:,} more" if rest > 0 else ""))
    what = (f"the drill {drill_id!r} is from the same healthy run as item {item}, {other!r}{also} (run {run}: "
            "most of its events the same, apart from where a fault was put): a trainee who has played one of them, "
            "or its noise trial, finds the other's fault by the event that differs, without reading it; ")
    if mode == "assessment":
        return what + ("a set played as an assessment holds at most one drill of each run: keep one here and play "
                       "the others in a practice set")
    return what + "keep one in a set that counts and play the others for practice"


def _once(done: dict[str, Any], key: str, work: Callable[[str], Any]) -> Any:
    """``work(key)``'s result, or the OSError or DrillLoadError it raised (raised again), computed on the first call
    for ``key`` and kept in ``done``."""
    if key not in done:
        try:
            done[key] = work(key)
        except (OSError, DrillLoadError) as exc:
            done[key] = exc
    result = done[key]
    if isinstance(result, (OSError, DrillLoadError)):
        raise result.with_traceback(None)  # raised again for each naming: no traceback growing with each
    return result


def _load_once(path: Path, loaded: dict[str, Any]) -> tuple[Stamp | None, Any]:
    """The file's stamp and the drill at ``path``, loaded once per file (by its real path: the same file named by id
    and by path loads once); its DrillLoadError raised again for each naming. The stamp is taken before the file is
    read: an edit made while it is read changes it."""
    stamp, drill = _once(loaded, os.path.realpath(path), lambda _real: (file_stamp(path), load_drill(path)))
    return stamp, drill


def _pool_problems(adaptive: Adaptive, pool: Sequence[Any]) -> list[str]:
    """What an adaptive set's pool (its loaded drills) lacks for its ``all_clear_rate``: all-clear controls to mix
    in, or drills with a fault."""
    controls = sum(1 for d in pool if d.is_all_clear)
    out = []
    if adaptive.all_clear_rate > 0 and controls == 0:
        out.append("all_clear_rate is above 0 but `drills` has no all-clear drill")
    if adaptive.all_clear_rate < 1 and controls == len(pool):
        out.append("all_clear_rate is below 1 but `drills` has only all-clear drills")
    return out


def _why_no_drill_file(name: str, path: Path) -> str:
    """Why the set's drill ``name`` (at ``path``) is not there: a symbolic link to nothing or in a loop, a name on
    disk in another Unicode form or letter case, else no such file."""
    try:
        os.stat(path)
    except OSError as exc:
        if (link := broken_link(path, exc)) is not None:
            return f"drill file {os.fspath(path)!r} is {link}"
    twin = unicode_twin(path)
    return unicode_twin_message(name, twin) if twin is not None else f"no drill file {os.fspath(path)!r}"
