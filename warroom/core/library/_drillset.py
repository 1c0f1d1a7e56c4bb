"""Drill sets: a facilitator's list of drills for trainees to play, with the mode, attempts and an optional due date.

A drill set is a small YAML file (docs/drill-sets.md has the format)::

    set: week-1                 # the set's id, stored with every session played in it
    title: Week 1 assessment
    mode: assessment            # practice (default) or assessment
    attempts: 2                 # sessions allowed per drill in this set (default: no limit)
    due: 2026-12-15             # optional, shown to trainees
    drills:                     # drill ids or paths (relative to this file), in order
      - duplicate-charge-refunds
      - ../drills/my-drill.yaml
    adaptive:                   # optional: the drills above are a pool; the next one is chosen for the trainee
      seed: 7
      length: 6                 # sessions a trainee plays in the set
      all_clear_rate: 0.2       # share of all-clear controls mixed in
      start_level: 2            # assumed difficulty level before the first result

This module holds the model, the loader (:func:`load_drill_set`, with ``path:line:col: message`` problems found with
the drill loader's YAML machinery) and the set's drills resolved (:func:`resolve_set_drills`); the adaptive chooser
is in :mod:`warroom.core.library._adaptive`. It never imports the UI, the store or the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from yaml.nodes import MappingNode, Node, ScalarNode

from warroom.core.load import ALIAS_MARKS, Abort, Builder, Problem
from warroom.core.load import compose_text as _compose
from warroom.core.load import locate as _locate
from warroom.core.load import problem_at as _at
from warroom.core.load.limits import MAX_DEPTH
from warroom.core.model import TEXT_PATTERN
from warroom.core.text import ID_PATTERN
from warroom.errors import WarroomError

__all__ = [
    "Adaptive",
    "DrillSet",
    "DrillSetError",
    "SetDrill",
    "drill_set_problems",
    "is_drill_set_text",
    "load_drill_set",
    "resolve_set_drills",
]

#: Largest drill set file read, in bytes.
MAX_SET_BYTES = 1024 * 1024
#: Most drills a set may name.
MAX_SET_DRILLS = 1000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Adaptive(_Strict):
    """How an adaptive set chooses each trainee's next drill from its pool (see :func:`choose_next`)."""

    seed: Annotated[int, Field(strict=True, ge=0, le=2**63 - 1)] = Field(
        description="Seed of the choices: the same record and seed always give the same next drill."
    )
    length: Annotated[int, Field(strict=True, ge=1, le=MAX_SET_DRILLS)] = Field(
        description="Sessions a trainee plays in the set (abandoned ones count)."
    )
    all_clear_rate: Annotated[float, Field(strict=True, ge=0, le=1, allow_inf_nan=False)] = Field(
        default=0.0, description="Share of the choices that are all-clear control drills (0 to 1)."
    )
    start_level: Annotated[float, Field(strict=True, ge=1, le=5, allow_inf_nan=False)] = Field(
        default=2.0, description="The trainee's assumed level (a difficulty, 1 to 5) before any result."
    )


class DrillSet(_Strict):
    """A drill set file, validated (docs/drill-sets.md)."""

    set: Annotated[str, Field(pattern=ID_PATTERN, min_length=1, max_length=80)] = Field(
        description="The set's id: stored with every session played in it (`warroom scores --set ID`)."
    )
    title: Annotated[str, Field(pattern=TEXT_PATTERN, max_length=200)] = Field(description="Shown to trainees.")
    mode: Literal["practice", "assessment"] = Field(default="practice", description="How the set's drills are played.")
    attempts: Annotated[int, Field(strict=True, ge=1, le=1000)] | None = Field(
        default=None, description="Sessions allowed per drill in the set (abandoned ones count); none: no limit."
    )
    due: str | None = Field(default=None, description="Due date, YYYY-MM-DD (shown; play is not refused after it).")
    drills: Annotated[list[Annotated[str, Field(min_length=1, max_length=4096)]], Field(min_length=1)] = Field(
        max_length=MAX_SET_DRILLS, description="Drill ids or drill file paths (relative to the set file), in order."
    )
    adaptive: Adaptive | None = Field(default=None, description="Choose each next drill from the trainee's record.")

    @field_validator("due")
    @classmethod
    def _due_is_a_date(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                date.fromisoformat(value)
            except ValueError:
                raise ValueError(f"`due` must be a date written YYYY-MM-DD, got {value!r}") from None
            if len(value) != 10:
                raise ValueError(f"`due` must be a date written YYYY-MM-DD, got {value!r}")
        return value

    @property
    def due_date(self) -> date | None:
        """The due date, or None."""
        return date.fromisoformat(self.due) if self.due else None


class DrillSetError(WarroomError):
    """A drill set file that cannot be used; ``problems`` lists every problem (``path:line:col: message``)."""

    def __init__(self, problems: Sequence[Problem], drills: Sequence[str] | None = None) -> None:
        """``drills``: the set's `drills` list when it was valid though other keys were not (so the drills can
        still be looked up, see :func:`drill_set_problems`), else None."""
        self.problems = sorted(problems, key=lambda p: (p.path, p.line, p.column))
        self.drills = None if drills is None else list(drills)
        super().__init__("\n".join(str(p) for p in self.problems))


def is_drill_set_text(text: str) -> bool:
    """True when YAML ``text`` looks like a drill set: a top-level ``set:`` key on a line of its own (drills have no
    ``set`` key; a byte order mark before the first line is ignored, as the loader ignores it). Cheap; reads no
    YAML."""
    return any(line.startswith("set:") for line in text.removeprefix("\ufeff").splitlines())


def _read(path: Path) -> str:
    shown = os.fspath(path)
    try:
        if not path.is_file():
            raise DrillSetError([Problem(shown, 1, 1, "no such file" if not path.exists() else "not a regular file")])
        data = path.read_bytes()[: MAX_SET_BYTES + 1]
    except OSError as exc:
        raise DrillSetError([Problem(shown, 1, 1, f"cannot read the file: {exc.strerror or exc}")]) from None
    if len(data) > MAX_SET_BYTES:
        raise DrillSetError([Problem(shown, 1, 1, f"a drill set file is at most {MAX_SET_BYTES // 1024} KiB")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DrillSetError(
            [Problem(shown, 1, 1, f"the file is not UTF-8 text (byte {exc.start}); save it as UTF-8")]
        ) from None


def _error_problem(path: str, root: Node, err: Mapping[str, Any]) -> Problem:
    loc = tuple(err["loc"])
    name = "`" + ".".join(str(x) for x in loc) + "`" if loc else "the drill set"
    etype = err["type"]
    if etype == "missing":
        node, _ = _locate(root, loc[:-1])
        where = "`" + ".".join(str(x) for x in loc[:-1]) + "`" if loc[:-1] else "the drill set"
        return _at(path, node, f"{where} is missing the required key `{loc[-1]}`")
    if etype == "extra_forbidden":
        node, _ = _locate(root, loc, want_key=True)
        owner = Adaptive if loc[:1] == ("adaptive",) else DrillSet
        allowed = ", ".join(owner.model_fields)
        return _at(path, node, f"unknown key `{loc[-1]}`; allowed keys: {allowed}")
    node, _ = _locate(root, loc)
    if etype == "value_error":
        return _at(path, node, str(err.get("ctx", {}).get("error", err["msg"])))
    if etype == "string_pattern_mismatch" and loc == ("set",):
        return _at(path, node, "the set id must use letters, digits, `-`, `_` and `.`, starting with a letter or digit")
    if etype == "string_pattern_mismatch" and err.get("ctx", {}).get("pattern") == TEXT_PATTERN:
        return _at(path, node, f"{name} must not be blank: write some text, not only spaces or line breaks")
    msg = err["msg"]
    return _at(path, node, f"{name}: {msg[:1].lower() + msg[1:]}, got {err.get('input')!r}")


#: Top-level keys that only a drill has: a file holding one and no ``set`` key is a drill, not a drill set.
_DRILL_KEYS = frozenset({"id", "schema_version", "plan", "trace", "answer_key", "all_clear", "briefing"})


def load_drill_set(path: str | os.PathLike[str]) -> DrillSet:
    """Load and validate the drill set file at ``path`` (its drills are not looked up: see
    :func:`resolve_set_drills`). Raises :class:`DrillSetError` listing every problem with its line and column."""
    shown = os.fspath(path)
    text = _read(Path(path))
    from warroom.core.load import DrillLoadError

    try:
        root, alias_marks = _compose(text.removeprefix("\ufeff"), shown)
    except DrillLoadError as exc:
        raise DrillSetError(exc.problems) from None
    if not isinstance(root, MappingNode):
        node_problem = _at(shown, root, "a drill set file must be a mapping of keys (set: ID, title: ..., drills: ...)")
        raise DrillSetError([node_problem])
    keys = {k.value for k, _ in root.value if isinstance(k, ScalarNode)}
    if "set" not in keys and keys & _DRILL_KEYS:  # a drill given where a set is expected: say so, once
        message = f"this file is a drill, not a drill set (no `set:` key): play it with `warroom run {shown}`"
        raise DrillSetError([_at(shown, root, message)])
    if alias_marks:  # a node reached through an alias is located where the alias is written
        ALIAS_MARKS[root] = alias_marks
    found: list[Problem] = []
    builder = Builder(
        text, lambda n, m, s: found.append(_at(shown, n, m, s)), max_depth=MAX_DEPTH, max_expansion=10_000,
        alias_marks=alias_marks,
    )  # fmt: skip
    try:
        data = builder.build(root, 0, ("model", DrillSet))
    except Abort:
        data = None
    errors = [p for p in found if p.severity == "error"]
    if errors or data is None:
        raise DrillSetError(errors)
    try:
        return DrillSet.model_validate(data)
    except ValidationError as exc:
        details = exc.errors(include_url=False)
        names = data.get("drills") if isinstance(data, dict) else None
        valid = isinstance(names, list) and bool(names) and all(isinstance(n, str) and n.strip() for n in names)
        drills = names if valid and not any(tuple(e["loc"])[:1] == ("drills",) for e in details) else None
        raise DrillSetError([_error_problem(shown, root, e) for e in details], drills) from None


def drill_set_problems(path: str | os.PathLike[str], extra_dirs: Iterable[Path] = ()) -> list[Problem]:
    """Every problem of the drill set file at ``path``, all at once, in file order: the file's own
    (:func:`load_drill_set`) and those of the drills it names (:func:`resolve_set_drills`), which are looked up
    whenever the `drills` list itself is valid, even when another key is wrong. Empty for a usable set."""
    try:
        return resolve_set_drills(load_drill_set(path), path, extra_dirs)[1]
    except DrillSetError as exc:
        if exc.drills is None:
            return list(exc.problems)
        partial = DrillSet.model_construct(set="", title="", drills=exc.drills, adaptive=None)
        more = resolve_set_drills(partial, path, extra_dirs)[1]
        return DrillSetError([*exc.problems, *more]).problems


@dataclass(frozen=True)
class SetDrill:
    """One drill of a set: the ``name`` written in the set (an id or a path), the drill ``path`` it names, the
    loaded ``drill`` (None when it did not load) and its ``problems`` (``path:line:col: message`` lines)."""

    name: str
    path: Path | None
    drill: Any = None
    problems: tuple[str, ...] = ()


def _is_path(name: str) -> bool:
    return "/" in name or "\\" in name or name.endswith((".yaml", ".yml"))


def resolve_set_drills(
    drill_set: DrillSet, set_path: str | os.PathLike[str], extra_dirs: Iterable[Path] = ()
) -> tuple[list[SetDrill], list[Problem]]:
    """Find and load each drill the set names: a path (relative to the set file's folder) or a drill id (in
    ``extra_dirs``, then the bundled library). Returns the drills in the set's order and the problems, each at the
    drill's line of the set file: a drill that is not found or does not load, one named twice (by id), and an
    adaptive set whose pool lacks the drills its ``all_clear_rate`` needs."""
    from warroom.core.library._library import resolve_drill
    from warroom.core.load import DrillLoadError, load_drill

    shown = os.fspath(set_path)
    base = Path(set_path).parent
    out: list[SetDrill] = []
    problems: list[Problem] = []
    root = _root_of(shown)

    def at(loc: tuple[Any, ...], message: str) -> Problem:
        if root is None:
            return Problem(shown, 1, 1, message)
        return _at(shown, _locate(root, loc)[0], message)

    seen: dict[str, int] = {}
    for i, name in enumerate(drill_set.drills):
        try:
            path = (base / name) if _is_path(name) else resolve_drill(name, extra_dirs)
            if path.is_dir():
                raise FileNotFoundError(f"{name} is a folder, not a drill file: name one drill file or drill id")
            if not path.is_file():
                raise FileNotFoundError(f"no drill file {os.fspath(path)!r}")
        except FileNotFoundError as exc:
            problems.append(at(("drills", i), f"{exc.args[0] if exc.args else exc}"))
            out.append(SetDrill(name, None, None, (str(problems[-1]),)))
            continue
        try:
            drill = load_drill(path)
        except DrillLoadError as exc:
            first = str(exc).splitlines()[0] if str(exc) else os.fspath(path)
            message = f"the drill {name!r} does not load: {first}"
            if _names_a_set(path):
                message = f"{name!r} is a drill set, not a drill: a set names drills, never another set"
            problems.append(at(("drills", i), message))
            out.append(SetDrill(name, path, None, (str(problems[-1]),)))
            continue
        if drill.id in seen:
            problems.append(
                at(("drills", i), f"the drill {drill.id!r} is already item {seen[drill.id] + 1} of `drills`")
            )
        seen.setdefault(drill.id, i)
        out.append(SetDrill(name, path, drill))
    loaded = [d.drill for d in out if d.drill is not None]
    if drill_set.adaptive is not None and loaded and len(loaded) == len(out):
        rate_at = ("adaptive", "all_clear_rate")
        problems += [at(rate_at, message) for message in _pool_problems(drill_set.adaptive, loaded)]
    return out, problems


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


def _names_a_set(path: Path) -> bool:
    """True when the file at ``path`` (which did not load as a drill) is a drill set file."""
    try:
        return is_drill_set_text(_read(path))
    except DrillSetError:
        return False


def _root_of(path: str) -> Node | None:
    try:
        return _compose(_read(Path(path)).removeprefix("\ufeff"), path)[0]
    except (DrillSetError, WarroomError):
        return None
