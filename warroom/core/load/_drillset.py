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
    noise_rate: 0.3             # optional: share of noise trials (a drill's healthy twin); default 0.25
    adaptive:                   # optional: the drills above are a pool; the next one is chosen for the trainee
      seed: 7
      length: 6                 # sessions a trainee plays in the set
      all_clear_rate: 0.2       # share of all-clear controls mixed in
      start_level: 2            # assumed difficulty level before the first result

This module holds the model (:class:`DrillSet`) and the loader (:func:`load_drill_set`, with ``path:line:col:
message`` problems found with the drill loader's YAML machinery, and :func:`set_problem_at` for problems of a set's
drills at their line); the set's drills are looked up and loaded by
:func:`warroom.core.library.resolve_set_drills`, and the adaptive chooser is
:func:`warroom.core.library.choose_next`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warroom.core.load._problems import DrillLoadError, Problem
from warroom.core.load._problems import problem_at as _at
from warroom.core.load._yaml.build import Abort, Builder
from warroom.core.load._yaml.hints import show_value
from warroom.core.load._yaml.pos import ALIAS_MARKS
from warroom.core.load._yaml.pos import compose_text as _compose
from warroom.core.load._yaml.pos import locate as _locate
from warroom.core.load.limits import MAX_DEPTH
from warroom.core.model import TEXT_PATTERN
from warroom.core.text import ID_PATTERN, clean_name
from warroom.errors import WarroomError

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
    noise_rate: Annotated[float, Field(strict=True, ge=0, le=1, allow_inf_nan=False)] | None = Field(
        default=None,
        description=(
            "The probability that a session of a drill with a twin is a noise trial (its healthy twin) rather than "
            "a signal trial (its fault), 0 to 1; none: 0.25 (docs/authoring.md, \"Twins: signal and noise "
            "trials\")."
        ),
    )

    @field_validator("due")
    @classmethod
    def _due_is_a_date(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                date.fromisoformat(value)
            except ValueError:
                if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):  # written right: the day does not exist
                    raise ValueError(f"`due` must be a date written YYYY-MM-DD that exists: {value} is written so "
                                     "but is no day of the calendar") from None
                raise ValueError(f"`due` must be a date written YYYY-MM-DD, got {_shown_input(value)}") from None
            if len(value) != 10:
                raise ValueError(f"`due` must be a date written YYYY-MM-DD, got {_shown_input(value)}")
        return value

    @property
    def due_date(self) -> date | None:
        """The due date, or None."""
        return date.fromisoformat(self.due) if self.due else None


class DrillSetError(WarroomError):
    """A drill set file that cannot be used; ``problems`` lists every problem (``path:line:col: message``)."""

    def __init__(self, problems: Sequence[Problem], drills: Sequence[str | None] | None = None) -> None:
        """``drills``: the set's `drills` list when it is a list though the set did not validate, so the drills can
        still be looked up (see :func:`drill_set_problems`): each item that has a problem of its own is None; else
        None."""
        self.problems = sorted(problems, key=lambda p: (p.path, p.line, p.column))
        self.drills = None if drills is None else list(drills)
        super().__init__("\n".join(str(p) for p in self.problems))


_MERGE = "tag:yaml.org,2002:merge"


#: The problem of a drill set written with ``id:`` for ``set:`` (:func:`set_written_as_id`), whichever loader finds it.
SET_WRITTEN_AS_ID = ("this file looks like a drill set (a `drills` list) without its `set` key: a drill set names "
                     "itself with `set: ID`, not `id: ID` (docs/drill-sets.md)")


def set_written_as_id(keys: set[str]) -> bool:
    """Whether a file of top-level ``keys`` (:func:`mapping_keys`) is a drill set with ``id:`` written for ``set:``:
    a ``drills`` list and an ``id``, no ``set`` and no other key only a drill has."""
    return keys & DRILL_KEYS == {"id"} and "drills" in keys and "set" not in keys


def id_key(root: MappingNode) -> Node:
    """The ``id`` key of the mapping ``root`` (where :data:`SET_WRITTEN_AS_ID` is reported), else ``root`` itself
    (an ``id`` brought in by a merge key)."""
    return next((k for k, _ in root.value if isinstance(k, ScalarNode) and k.tag != _MERGE and k.value == "id"),
                root)


def mapping_keys(root: MappingNode) -> set[str]:
    """The keys of the mapping ``root``, its own and those a merge key brings in (``<<: {set: w1, title: W1}``,
    ``<<: *defaults``, ``<<: [*a, *b]``, merged mappings' merges too), as the loader builds them: a drill set whose
    ``set`` key came through a merge was "neither a drill nor a drill set"."""
    keys: set[str] = set()
    seen: set[int] = set()
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        if not isinstance(node, MappingNode) or id(node) in seen:
            continue
        seen.add(id(node))
        for key, value in node.value:
            if isinstance(key, ScalarNode) and key.tag == _MERGE:
                todo.extend(value.value if isinstance(value, SequenceNode) else [value])
            elif isinstance(key, ScalarNode):
                keys.add(key.value)
    return keys


def is_drill_set_text(text: str) -> bool:
    """True when YAML ``text`` is a drill set: its top-level mapping has a ``set`` key (drills have none), whatever
    the layout: block style, a flow mapping (``{set: week-1, drills: [...]}``), indented, the key quoted. A byte
    order mark is ignored, as the loader ignores it; text that is not YAML is a set when a ``set`` key came before
    its first error. Read with libyaml's parser, nothing built, and only when the text could hold that key."""
    text = text.removeprefix("\ufeff")
    if "set" not in text and "\\" not in text:  # no `set` key can be written without the word but by an escape
        return False
    keys = set(_top_level_keys(text))
    if "set" not in keys and "<<" in keys:  # a merge key may bring it in: the mapping composed (nothing built)
        return "set" in _merged_top_level_keys(text)
    return "set" in keys


def _merged_top_level_keys(text: str) -> set[str]:
    """:func:`mapping_keys` of the top-level mapping of YAML ``text``; nothing when it does not compose."""
    import yaml

    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return set()
    return mapping_keys(root) if isinstance(root, MappingNode) else set()


def _top_level_keys(text: str) -> Iterator[str]:
    """The keys of the top-level mapping of the YAML ``text``'s first document, as they read (quotes and escapes
    resolved), up to its end or its first syntax error; nothing when its top level is not a mapping. Parser events
    only: no value is built, no alias expanded, no tag resolved."""
    import yaml
    from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, MappingStartEvent, ScalarEvent

    depth, is_key = 0, True
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, (ScalarEvent, AliasEvent, CollectionStartEvent)):
                if depth == 0 and not isinstance(event, MappingStartEvent):
                    return
                if depth == 1:
                    if is_key and isinstance(event, ScalarEvent):
                        yield event.value
                    is_key = not is_key
                depth += isinstance(event, CollectionStartEvent)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
                if depth == 0:
                    return
    except yaml.YAMLError:
        return


def _read(path: Path) -> str:
    from warroom.core.files import SpecialFile, TooLarge, read_limited, why_missing

    shown = os.fspath(path)
    try:
        data = read_limited(path, MAX_SET_BYTES)  # the size is checked before a byte is read, on the open file
    except SpecialFile as exc:  # a folder, a FIFO, a socket, a device: named, never read
        raise DrillSetError([Problem(shown, 1, 1, f"this is {exc.kind}, not a drill set file (only regular files are "
                                                  "read)")]) from None  # fmt: skip
    except TooLarge as exc:
        raise DrillSetError([Problem(shown, 1, 1, f"the file is {exc.size:,} bytes; a drill set file is at most "
                                                  f"{MAX_SET_BYTES // 1024} KiB")]) from None  # fmt: skip
    except OSError as exc:
        why = why_missing(path, exc, shown) or ("no such file" if isinstance(exc, FileNotFoundError) else
                                                f"cannot read the file: {exc.strerror or exc}")
        raise DrillSetError([Problem(shown, 1, 1, why)]) from None
    from warroom.core.load._loader import decode_drill_bytes

    try:  # a byte that is not UTF-8 is named where it is, as in a drill file (not at 1:1 by its offset)
        return decode_drill_bytes(data, shown)
    except DrillLoadError as exc:
        raise DrillSetError(exc.problems) from None


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
    if len(loc) == 2 and loc[0] == "drills" and isinstance(loc[1], int):  # not `drills.1`, got None (Python's)
        got = show_value(node if isinstance(node, Node) else None, err.get("input"))
        return _at(path, node, f"item #{loc[1] + 1} of `drills` must be a drill id or a drill file's path, got {got}: "
                               "write one, or remove the item")
    msg = err["msg"]
    return _at(path, node, f"{name}: {msg[:1].lower() + msg[1:]}, got {_shown_input(err.get('input'))}")


def _shown_input(value: object) -> str:
    """A value a problem quotes, as Python writes it (control characters escaped), cut to 80 characters: a list of
    20,000 drills or a title of a megabyte is named, not echoed in a line of that size."""
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


#: Top-level keys that only a drill has: a file holding one and no ``set`` key is a drill, not a drill set.
DRILL_KEYS = frozenset({"id", "schema_version", "plan", "trace", "answer_key", "all_clear", "briefing"})


def load_drill_set(path: str | os.PathLike[str]) -> DrillSet:
    """Load and validate the drill set file at ``path`` (its drills are not looked up: see
    :func:`resolve_set_drills`). Raises :class:`DrillSetError` listing every problem with its line and column."""
    shown = os.fspath(path)
    text = _read(Path(path))
    try:
        root, alias_marks = _compose(text.removeprefix("\ufeff"), shown)
    except DrillLoadError as exc:
        raise DrillSetError(exc.problems) from None
    if not isinstance(root, MappingNode):
        node_problem = _at(shown, root, "a drill set file must be a mapping of keys (set: ID, title: ..., drills: ...)")
        raise DrillSetError([node_problem])
    keys = mapping_keys(root)
    if set_written_as_id(keys):
        raise DrillSetError([_at(shown, id_key(root), SET_WRITTEN_AS_ID)])
    if "set" not in keys and keys & DRILL_KEYS:  # a drill given where a set is expected: say so, once
        message = (f"this file is a drill, not a drill set (no `set:` key): play it with `warroom run "
                   f"{clean_name(shown)}`")  # on the problem's line: a name holding a newline forges no line
        raise DrillSetError([_at(shown, root, message)])
    if alias_marks:  # a node reached through an alias is located where the alias is written
        ALIAS_MARKS[root] = alias_marks
    found: list[Problem] = []
    builder = Builder(
        text, lambda n, m, s, r: found.append(_at(shown, n, m, s, r)), max_depth=MAX_DEPTH, max_expansion=10_000,
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
        problems = [_error_problem(shown, root, e) for e in details]
        raise DrillSetError(problems, _names_to_look_up(data, details)) from None


def _names_to_look_up(data: Any, details: list[Any]) -> list[str | None] | None:
    """The `drills` of a set that did not validate, to look up all the same (every problem at once): each item
    that is text and has no problem of its own, None in place of each that has one (so the others keep their
    places); None when `drills` itself is not a list of at least one item or has a problem of its own."""
    names = data.get("drills") if isinstance(data, dict) else None
    locs = [tuple(e["loc"]) for e in details if tuple(e["loc"])[:1] == ("drills",)]
    if not isinstance(names, list) or not names or ("drills",) in locs:
        return None
    bad = {loc[1] for loc in locs if len(loc) > 1}
    return [n if isinstance(n, str) and i not in bad else None for i, n in enumerate(names)]


def is_drill_set_file(path: str | os.PathLike[str]) -> bool:
    """True when the file at ``path`` (which did not load as a drill) is a drill set file: its first
    :data:`MAX_SET_BYTES` hold a top-level ``set`` key (:func:`is_drill_set_text`, bytes that are not UTF-8
    replaced). Opened without waiting and checked open: a FIFO or a folder is no set."""
    from warroom.core.files import open_regular

    try:
        with open_regular(Path(path)) as f:
            head = f.read(MAX_SET_BYTES)
    except OSError:
        return False
    return is_drill_set_text(head.decode("utf-8", errors="replace"))


def set_problem_at(path: str | os.PathLike[str]) -> Callable[[tuple[Any, ...], str], Problem]:
    """A function giving the :class:`Problem` of a message about the value at a data path (``("drills", 2)``) of
    the drill set file at ``path``, at that value's line and column (line 1 when the file does not read as YAML).
    Reads the file once."""
    shown = os.fspath(path)
    try:
        root: Node | None = _compose(_read(Path(path)).removeprefix("\ufeff"), shown)[0]
    except (DrillSetError, WarroomError):
        root = None

    def at(loc: tuple[Any, ...], message: str) -> Problem:
        if root is None:
            return Problem(shown, 1, 1, message)
        return _at(shown, _locate(root, loc)[0], message)

    return at
