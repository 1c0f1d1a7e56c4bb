"""Load a drill file (YAML) into a validated :class:`~warroom.core.model.Drill`, with precise, actionable errors.

How it works, in one pass over the text:

1. **Read** the file (at most :data:`MAX_FILE_BYTES`), decode it as UTF-8 (a leading byte-order mark is allowed).
2. **Compose** the YAML node tree once with PyYAML's C loader (``CSafeLoader``; the pure-Python ``SafeLoader``
   where libyaml is missing), with **YAML 1.2 core-schema** meanings (:mod:`warroom.core.yamlcore`): ``no``,
   ``off``, ``12:30``, ``1_150`` are text, not booleans or numbers. Only safe, plain data: no Python objects.
   Line numbers are those an editor shows (lines break at LF, CRLF and CR only).
3. **Build** plain Python values (dicts, lists, str, int, float, bool, None) from the nodes
   (:mod:`warroom.core.yamlbuild`), reading each unquoted scalar as the place it is written at expects: free text
   as written, tool data with numbers kept as written. While building, we report duplicate keys, unsupported
   tags, too-deep nesting, runaway alias expansion, and *warnings*: values other YAML readers read differently,
   text cut short by a `` #`` comment. Every mapping key is text; dates stay text; merge keys work.

4. **Validate** the values with ``Drill.model_validate`` (types) and :func:`warroom.core.validation.validate_drill`
   (rules that relate fields: ids, references, times, the deadline).

Every problem (YAML syntax, types, rules) becomes a :class:`Problem` with the 1-based line and column of the YAML
node it concerns: pydantic's error location (``loc``) is mapped back to the node, lazily, only for values that
have errors. All problems in a file are reported together, sorted by line and column.

Limits (each a clear error, never a crash or a hang):

- file size: :data:`MAX_FILE_BYTES` (64 MiB);
- nesting depth: :data:`MAX_DEPTH` levels of mappings and lists (libyaml itself stops at 1000);
- aliases: anchors (``&name``) and aliases (``*name``) are allowed, but an alias reused so often that the drill
  would grow by more than :data:`MAX_ALIAS_EXPANSION` values (a "billion laughs" file) is rejected as soon as the
  count passes the limit, without expanding it; a recursive alias (a value that contains itself) is rejected too.
"""

from __future__ import annotations

import copy
import difflib
import functools
import os
import re
import types
import typing
import weakref
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warroom.core import yamlcore as yc
from warroom.core.errors import WarroomError
from warroom.core.format import clean
from warroom.core.model import TEXT_PATTERN
from warroom.core.yamlbuild import Abort, Builder
from warroom.core.yamlread import YamlSyntaxError, compose
from warroom.core.yamlshape import drill_shape
from warroom.core.ids import shown_id

if TYPE_CHECKING:
    from warroom.core.model import Drill

try:  # libyaml's parser: about ten times faster than the pure-Python one
    from yaml import CSafeLoader as _YamlLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _YamlLoader  # type: ignore[assignment]

#: Largest drill file accepted, in bytes: 64 MiB, about 300,000 trace events in block style (see docs/authoring.md).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Deepest nesting of mappings and lists accepted (the drill's own structure uses about 6 levels).
MAX_DEPTH = 64
#: Most values that aliases (``*name``) may add to a drill by repeating what their anchor names.
MAX_ALIAS_EXPANSION = 100_000

_STR, _INT, _FLOAT, _BOOL, _NULL = yc.STR, yc.INT, yc.FLOAT, yc.BOOL, yc.NULL
_MERGE = yc.MERGE
_PLAIN_STYLES = (None, "")  # libyaml reports a plain scalar's style as "", PyYAML as None


# ---------------------------------------------------------------------------------------------------------------
# Problems
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in a drill file, at a 1-based ``line`` and ``column``. ``str()`` gives ``path:line:col: message``
    for an error and ``path:line:col: warning: message`` for a warning (``severity`` is "error" or "warning").

    A warning never stops a drill from loading: it flags text that other YAML readers read differently, or that
    lost a part to a `` #`` comment. File-level problems (a missing file, a file too large) are at line 1, column 1.
    """

    path: str
    line: int
    column: int
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        label = "warning: " if self.severity == "warning" else ""
        return f"{self.path}:{self.line}:{self.column}: {label}{self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The problem as a JSON-ready mapping: ``path``, ``line``, ``column``, ``severity``, ``message``."""
        return {
            "path": self.path, "line": self.line, "column": self.column, "severity": self.severity,
            "message": self.message,
        }


class DrillLoadError(WarroomError):
    """A drill file could not be loaded. ``problems`` lists every error found, sorted by position; ``warnings``
    the warnings found before loading stopped (possibly none).

    ``str(error)`` is one ``path:line:col: message`` line per problem (errors only).
    """

    def __init__(
        self, path: str, problems: list[Problem], warnings: list[Problem] | None = None,
        blocked: list[str] | None = None,
    ) -> None:
        self.path = path
        self.problems = _sorted(problems)
        self.warnings = _sorted(warnings or [])
        #: Rules that could not run because a value they need has a problem: one ``path: not checked ...`` line
        #: each (notes, not problems: they are not counted and go away when the problems named are fixed).
        self.blocked = list(blocked or [])
        super().__init__("\n".join(str(p) for p in self.problems))


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems), key=lambda p: (p.line, p.column, p.message))


# ---------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------


def load_drill(path: str | os.PathLike[str]) -> Drill:
    """Load and validate the drill file at ``path``.

    Returns the :class:`~warroom.core.model.Drill`. Raises :class:`DrillLoadError` listing every problem found
    (also for a missing file, a folder, a file over :data:`MAX_FILE_BYTES`, unreadable or non-UTF-8 bytes).
    Warnings are dropped; :func:`load_drill_with_warnings` returns them.
    """
    return load_drill_with_warnings(path)[0]


def load_drill_with_warnings(path: str | os.PathLike[str]) -> tuple[Drill, list[Problem]]:
    """Load and validate the drill file at ``path``: ``(drill, warnings)``, the warnings sorted by position.

    Raises :class:`DrillLoadError` as :func:`load_drill` does (its ``warnings`` holds those found on the way).
    """
    from warroom.core.library import special_file_kind

    shown = os.fspath(path)
    p = Path(path)
    try:
        if p.is_dir():
            _fail(shown, "this is a folder, not a drill file (`warroom validate FOLDER` checks every drill in it)")
        kind = special_file_kind(p)  # before opening: reading a FIFO would block for ever
        if kind is not None:
            _fail(shown, f"this is {kind}, not a drill file (only regular files are read)")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            limit = MAX_FILE_BYTES // 1048576
            _fail(shown, f"the file is {size / 1048576:.1f} MiB; drill files are limited to {limit} MiB")
        with p.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        _fail(shown, "no such file")
    except PermissionError:
        _fail(shown, "cannot read the file: permission denied")
    except OSError as e:
        _fail(shown, f"cannot read the file: {e.strerror or e}")
    if len(data) > MAX_FILE_BYTES:  # the file grew while we read it
        _fail(shown, f"the file is larger than {MAX_FILE_BYTES // 1048576} MiB, the limit for drill files")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line, _ = yc.line_col(before.decode("latin-1"), len(before))
        last = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
        column = len(before[last:].decode("utf-8", errors="replace")) + 1
        message = f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} here); save it as UTF-8"
        raise DrillLoadError(shown, [Problem(shown, line, column, message)]) from None
    del data  # the bytes are not needed once decoded: a big drill should not hold both while it loads
    return load_drill_text_with_warnings(text, shown)


def load_drill_text(text: str, path: str = "<string>") -> Drill:
    """Load and validate a drill from YAML ``text``; ``path`` is only used in the problems' ``path``.

    Returns the :class:`~warroom.core.model.Drill`; raises :class:`DrillLoadError` listing every problem found.
    """
    return load_drill_text_with_warnings(text, path)[0]


def load_drill_text_with_warnings(text: str, path: str = "<string>") -> tuple[Drill, list[Problem]]:
    """Load and validate a drill from YAML ``text``: ``(drill, warnings)``. Raises :class:`DrillLoadError`."""
    from pydantic import ValidationError

    from warroom.core.fastload import fast_drill

    fast = fast_drill(text)  # a valid file with nothing to warn about, read quickly; None: read it with positions
    if fast is not None:
        return fast, []

    from warroom.core.model import Drill
    from warroom.core.validation import validate_drill

    root, data, problems, warnings = _parse(text, path)
    try:
        drill = Drill.model_validate(data)
    except ValidationError as e:
        blocked = _type_problems(path, root, data, e.errors(include_url=False), problems)
        raise DrillLoadError(path, problems, warnings, blocked) from None
    problems.extend(_issue_problems(path, root, validate_drill(drill)))
    if problems:
        raise DrillLoadError(path, problems, warnings)
    return drill, _sorted(warnings)


def _issue_problems(path: str, root: Node, issues: list[Any]) -> list[Problem]:
    """The semantic :class:`~warroom.core.validation.Issue` list as problems at their nodes."""
    out = []
    for issue in issues:
        node = _locate(root, issue.loc)[0] if issue.loc else _named_top_key(root, issue.message)
        message = issue.message
        if issue.related is not None:
            mark = _locate(root, issue.related)[0].start_mark
            same_line = mark.line == node.start_mark.line
            message += f" (see line {mark.line + 1}" + (f", column {mark.column + 1})" if same_line else ")")
        out.append(_at(path, node, message))
    return out


def _type_problems(path: str, root: Node, data: Any, errors: list[Any], problems: list[Problem]) -> list[str]:
    """Add pydantic's ``errors`` to ``problems``, then the semantic rules that can run on what did load.

    One typo is one problem: an unknown key that is a likely typo of a required key missing from the same mapping
    (``evidnce`` for ``evidence``) stands for both. Returns the notes of the rules that could not run.
    """
    from warroom.core.validation import validate_data

    # A value the builder already reported (e.g. an unsupported tag) needs no second, type-level problem.
    taken = {(p.line, p.column) for p in problems}
    paths = [_walk_loc(tuple(err["loc"]))[0] for err in errors]
    found = [_pydantic_problem_safely(path, root, data, err) for err in errors]
    extra = {dp: i for i, (dp, err) in enumerate(zip(paths, errors)) if err["type"] == "extra_forbidden"}
    by_parent: dict[tuple[Any, ...], list[int]] = {}
    for dp, i in extra.items():
        by_parent.setdefault(dp[:-1], []).append(i)
    problem_of: dict[tuple[Any, ...], Problem] = {}
    for i, (dp, err) in enumerate(zip(paths, errors)):
        if err["type"] == "missing" and dp:
            hint = f"did you mean `{dp[-1]}`? "
            typo = next((j for j in by_parent.get(dp[:-1], ()) if hint in found[j].message), None)
            if typo is not None:
                p = found[typo]
                found[typo] = Problem(p.path, p.line, p.column, p.message.replace(
                    hint, f"{hint}(`{dp[-1]}` is required and missing, so this is the one to fix); "))
                problem_of[dp] = found[typo]
                found[i] = None  # type: ignore[call-overload]
                continue
        problem_of[dp] = found[i]
    for problem in found:
        if problem is not None and (problem.line, problem.column) not in taken:
            problems.append(problem)
    bad = [dp for dp, err in zip(paths, errors) if err["type"] != "extra_forbidden"]
    issues, blocked = validate_data(data, bad, extra)
    problems.extend(_issue_problems(path, root, issues))
    notes = []
    for b in blocked:
        cause = problem_of.get(b.loc)
        line = cause.line if cause is not None else _locate(root, b.loc)[0].start_mark.line + 1
        notes.append(f"{path}: not checked until the problem on line {line} is fixed: {b.rule}")
    return notes


def load_yaml_text(text: str, path: str = "<string>") -> dict[str, Any]:
    """The plain data of a drill's YAML ``text``, built as the loader builds it, before any validation.

    Returns a dict of JSON-like values (keys and dates as text, see the module docstring). Raises
    :class:`DrillLoadError` for YAML syntax errors, duplicate keys, unsupported tags, the limits, or a top level
    that is not a mapping.
    """
    _, data, problems, warnings = _parse(text, path)
    if problems:
        raise DrillLoadError(path, problems, warnings)
    return data


def position_of(path: str | os.PathLike[str], loc: tuple[str | int, ...]) -> tuple[int, int]:
    """The 1-based ``(line, column)`` of the value at data path ``loc`` (keys and list indexes, e.g. ``("id",)``)
    in the drill file at ``path``, as the loader reports problems there.

    For rules that need more than one file (see :func:`warroom.core.library.cross_file_problems`). Reads the file
    again; returns ``(1, 1)`` when it cannot be read or parsed, or the value is not there. Never raises.
    """
    try:
        text = Path(path).read_bytes()[: MAX_FILE_BYTES + 1].decode("utf-8-sig")
        root = _compose(text, os.fspath(path))[0]
        if root is None:
            return 1, 1
        node = _locate(root, tuple(loc))[0]
    except (OSError, UnicodeDecodeError, DrillLoadError):
        return 1, 1
    return node.start_mark.line + 1, node.start_mark.column + 1


# ---------------------------------------------------------------------------------------------------------------
# Reading and composing
# ---------------------------------------------------------------------------------------------------------------


def _parse(text: str, path: str) -> tuple[MappingNode, dict[str, Any], list[Problem], list[Problem]]:
    """Compose ``text`` and build its data: ``(root node, data, problems, warnings)`` found while building.

    Raises :class:`DrillLoadError` when nothing useful can be built (syntax errors, limits, an empty file, a top
    level that is not a mapping).
    """
    if len(text) > MAX_FILE_BYTES:
        _fail(path, f"the text is larger than {MAX_FILE_BYTES // 1048576} MiB, the limit for drill files")
    if text.startswith("\ufeff"):
        text = text[1:]
    root, alias_marks = _compose(text, path)
    if root is None:
        _fail(path, "the file is empty: a drill needs schema_version, id, title, plan, trace... (try `warroom new`)")
    if not isinstance(root, MappingNode):
        what = "a list" if isinstance(root, SequenceNode) else "a single value"
        message = f"a drill file must be a mapping of keys (schema_version: 1, id: ..., ...), but this one is {what}"
        raise DrillLoadError(path, [_at(path, root, message)])
    if alias_marks:
        _ALIAS_MARKS[root] = alias_marks
    found: list[Problem] = []

    def report(node: Node, message: str, severity: str) -> None:
        found.append(_at(path, node, message, severity))

    builder = Builder(text, report, max_depth=MAX_DEPTH, max_expansion=MAX_ALIAS_EXPANSION, alias_marks=alias_marks)
    try:
        data = builder.build(root, 0, drill_shape())
    except Abort:
        raise DrillLoadError(path, [p for p in found if p.severity == "error"]) from None
    problems = [p for p in found if p.severity == "error"]
    return root, data, problems, [p for p in found if p.severity != "error"]


def _named_top_key(root: MappingNode, message: str) -> Node:
    """Where a problem of the whole drill is reported: at a top-level key written with a null value that the message
    names (``answer_key: null`` for "the drill needs an answer_key"), else at the start of the drill."""
    for key_node, value_node in root.value:
        if (
            isinstance(key_node, ScalarNode)
            and isinstance(value_node, ScalarNode)
            and value_node.tag == _NULL
            and re.search(rf"\b{re.escape(key_node.value)}\b", message)
        ):
            return key_node
    return root


def _fail(path: str, message: str) -> typing.NoReturn:
    raise DrillLoadError(path, [Problem(path, 1, 1, message)])


def _at(path: str, node: Node | None, message: str, severity: str = "error") -> Problem:
    if node is None:
        return Problem(path, 1, 1, message, severity)
    mark = node.start_mark
    return Problem(path, mark.line + 1, mark.column + 1, message, severity)


def _compose(text: str, path: str) -> tuple[Node | None, dict[tuple[int, Any], Any]]:
    try:
        return compose(text, _YamlLoader)
    except YamlSyntaxError as e:
        raise DrillLoadError(path, [Problem(path, e.line, e.column, e.message)]) from None
    except RecursionError:  # the pure-Python composer on absurdly deep nesting
        _fail(path, f"the YAML is nested too deeply (more than {MAX_DEPTH} levels)")


# ---------------------------------------------------------------------------------------------------------------
# Mapping locations back to nodes
# ---------------------------------------------------------------------------------------------------------------


def _key_index(node: MappingNode) -> tuple[dict[str, tuple[Node, Node]], list[Node]]:
    """A mapping node's own keys (the first of each, as text) and its merge values, indexed once per node so that
    locating many values in one big mapping stays linear."""
    index = getattr(node, "_warroom_keys", None)
    if index is None:
        own: dict[str, tuple[Node, Node]] = {}
        merges: list[Node] = []
        for k, v in node.value:
            if k.__class__ is not ScalarNode:
                continue
            if k.tag == _MERGE:
                merges.append(v)
            else:
                own.setdefault(k.value, (k, v))
        index = (own, merges)
        node._warroom_keys = index  # type: ignore[attr-defined]
    return index


def _mapping_pair(node: MappingNode, key: str, seen: set[int] | None = None) -> tuple[Node, Node] | None:
    """The (key node, value node) of ``key`` in a mapping node: its own keys first, then merged mappings."""
    if len(node.value) <= 16:  # a scan beats building an index
        merges = []
        for k, v in node.value:
            if k.__class__ is not ScalarNode:
                continue
            if k.tag == _MERGE:
                merges.append(v)
            elif k.value == key:
                return k, v
    else:
        own, merges = _key_index(node)
        if key in own:
            return own[key]
    seen = seen if seen is not None else set()
    for merge in merges:
        for source in merge.value if merge.__class__ is SequenceNode else [merge]:
            if source.__class__ is MappingNode and id(source) not in seen:
                seen.add(id(source))
                found = _mapping_pair(source, key, seen)
                if found:
                    return found
    return None


def _locate(root: Node, loc: tuple[Any, ...], want_key: bool = False, block_key: bool = True) -> tuple[Node, int]:
    """The node at data path ``loc`` (keys and list indexes), or the deepest node on the way that exists.

    Returns ``(node, depth)`` where ``depth`` is how many elements of ``loc`` were followed. With ``want_key``, a
    final mapping key is located at the key itself rather than its value. A block mapping or list that is the value
    of a key is located at its key (``briefing:``), which is where an author looks for it (unless ``block_key`` is
    false). A node reached through an alias (``*name``) is located where that alias is written, not at its anchor.
    """
    marks = _ALIAS_MARKS.get(root, {})
    node: Node = root
    key_node: Node | None = None
    via = None
    depth = 0
    for depth, el in enumerate(loc):  # noqa: B007 - depth is used after the loop
        if isinstance(node, MappingNode) and isinstance(el, str):
            pair = _mapping_pair(node, el)
            if pair is None:
                return _at_alias((_block_at_key(node, key_node) if block_key else node), via), depth
            if want_key and depth == len(loc) - 1:
                return _at_alias(pair[0], via), depth + 1
            via = marks.get((id(node), id(pair[0])), _merge_alias(node, pair[0], marks, via))
            key_node, node = pair
        elif isinstance(node, SequenceNode) and isinstance(el, int) and 0 <= el < len(node.value):
            via = marks.get((id(node), el), via)
            key_node, node = None, node.value[el]
        else:
            return _at_alias((_block_at_key(node, key_node) if block_key else node), via), depth
    return _at_alias((_block_at_key(node, key_node) if block_key else node), via), len(loc)


def _merge_alias(node: MappingNode, key: Node, marks: dict[tuple[int, Any], Any], via: Any) -> Any:
    """Where the alias is written (``<<: *defaults``) through which ``key`` was merged into ``node``; ``via`` when
    ``key`` is written in ``node`` itself or was not merged through an alias."""
    if not marks or any(k is key for k, _ in node.value):
        return via
    for k, v in node.value:
        if k.__class__ is not ScalarNode or k.tag != _MERGE:
            continue
        sources = list(enumerate(v.value)) if v.__class__ is SequenceNode else [(None, v)]
        for i, source in sources:
            if source.__class__ is MappingNode and _mapping_pair(source, key.value) is not None:
                mark = marks.get((id(node), id(k))) if i is None else marks.get((id(v), i))
                return mark if mark is not None else via
    return via


#: The alias marks of each composed drill (see :class:`warroom.core.yamlcore.AliasMarks`), by root node.
_ALIAS_MARKS: weakref.WeakKeyDictionary[Node, dict[tuple[int, Any], Any]] = weakref.WeakKeyDictionary()


def _at_alias(node: Node, mark: Any) -> Node:
    """``node``, or a copy of it placed at ``mark`` (where the alias that led to it is written)."""
    if mark is None:
        return node
    moved = copy.copy(node)
    moved.start_mark = mark
    return moved


def _block_at_key(node: Node, key_node: Node | None) -> Node:
    if key_node is not None and isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style:
        return key_node
    return node


def _unwrap(tp: Any) -> Any:
    """Strip ``Annotated`` and ``| None`` from a type annotation."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
                continue
        return tp


def _union_members(tp: Any) -> list[Any]:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [_unwrap(a) for a in typing.get_args(tp) if a is not type(None)]
    return []


def _kind_of(model: Any) -> str | None:
    field = getattr(model, "model_fields", {}).get("kind")
    if field is not None and typing.get_origin(field.annotation) is typing.Literal:
        return typing.get_args(field.annotation)[0]
    return None


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and hasattr(tp, "model_fields")


def _walk_loc(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[Any]]:
    """Split a pydantic ``loc`` into the data path (union tags stripped) and the type expected at each step.

    Returns ``(data_path, types)``: ``types[i]`` is the (unwrapped) type that holds ``data_path[i]``, and
    ``types[-1]`` the type expected at the end of the path. The type walk is cached by the loc's shape (list
    indexes do not change types), so thousands of errors cost one walk per shape.
    """
    names = _model_names()
    shape = tuple((el if el in names or "[" in el else "\0") if isinstance(el, str) else 0 for el in loc)
    kept, owners = _walk_shape(shape)
    return tuple(loc[i] for i in kept), list(owners)


@functools.lru_cache(maxsize=1)
def _model_names() -> frozenset[str]:
    """Every field name, kind tag and model name of the drill models: the only keys that change a type walk (any
    other key, e.g. an unknown one or a key of a tool's arguments, walks the same, so it shares a cache entry)."""
    from warroom.core.model import Drill

    names: set[str] = set()
    todo: list[Any] = [Drill]
    seen: set[int] = set()
    while todo:
        tp = todo.pop()
        if id(tp) in seen:
            continue
        seen.add(id(tp))
        if _is_model(tp):
            names.add(tp.__name__)
            names.update(tp.model_fields)
            names.add(_kind_of(tp) or "")
            todo.extend(f.annotation for f in tp.model_fields.values())
        todo.extend(typing.get_args(tp))
    return frozenset(names - {""})


@functools.lru_cache(maxsize=1024)
def _walk_shape(loc: tuple[Any, ...]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """:func:`_walk_loc` for a loc whose indexes are all 0: the positions kept in the data path, and the types."""
    from warroom.core.model import Drill

    tp: Any = Drill
    path: list[int] = []
    owners: list[Any] = []
    for pos, el in enumerate(loc):
        tp = _unwrap(tp)
        members = _union_members(tp)
        if members:
            match = next((m for m in members if _kind_of(m) == el), None)
            if match is not None:  # a discriminated union's tag: not part of the data
                tp = match
                continue
            member_names = {getattr(m, "__name__", str(m)) for m in members}
            if isinstance(el, str) and (el in member_names or "[" in el):  # a plain union's member name
                continue
        owners.append(tp)
        path.append(pos)
        if _is_model(tp):
            field = tp.model_fields.get(el) if isinstance(el, str) else None
            tp = field.annotation if field is not None else Any
        elif typing.get_origin(tp) in (list, tuple):
            tp = (typing.get_args(tp) or (Any,))[0]
        elif typing.get_origin(tp) is dict:
            tp = (typing.get_args(tp) or (Any, Any))[-1]
        else:
            tp = Any
    owners.append(_unwrap(tp))
    return tuple(path), tuple(owners)


# ---------------------------------------------------------------------------------------------------------------
# Pydantic errors as problems
# ---------------------------------------------------------------------------------------------------------------

_ITEM_NAMES = {
    "plan": "plan step",
    "trace": "trace event",
    "replan": "re-plan event",
    "entries": "damage entry",
    "distractors": "distractor",
    "evidence": "evidence item",
    "cascade": "cascade item",
    "tags": "tag",
}


def _num(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if isinstance(x, int):
        return f"{x:,}" if abs(x) >= 10_000 else str(x)
    return f"{x:g}" if isinstance(x, float) else str(x)


#: What an upper bound of the format limits, by the key of the value (shown with the limit).
_LIMITS = {
    "input_tokens": "tokens in one model call",
    "output_tokens": "tokens in one model call",
    "input_usd_per_mtok": "a price, in USD per million tokens",
    "output_usd_per_mtok": "a price, in USD per million tokens",
    "t": "drill time, in seconds",
    "deadline": "drill time, in seconds",
    "duration_ms": "one tool call's duration, in milliseconds",
    "amount": "one damage amount",
    "version": "a drill revision",
}


def _label(data: Any, path: tuple[Any, ...]) -> str:
    """A human name for the value at ``path``.

    E.g. "the drill", "`briefing`", "trace event `e04`", "`usage.input_tokens` of trace event `e04`",
    "`models.planner.input_usd_per_mtok`".
    """
    if not path:
        return "the drill"
    last_index = max((i for i, el in enumerate(path) if isinstance(el, int)), default=-1)
    if 0 <= last_index < len(path) - 1:
        keys = ".".join(str(el) for el in path[last_index + 1 :])
        return f"`{keys}` of {_item_label(data, path[: last_index + 1])}"
    if last_index == len(path) - 1:
        return _item_label(data, path)
    return "`" + ".".join(str(el) for el in path) + "`"


def _item_label(data: Any, path: tuple[Any, ...]) -> str:
    """A human name for the list item at ``path`` (whose last element is an index)."""
    value: Any = data
    for el in path:
        try:
            value = value[el]
        except (KeyError, IndexError, TypeError):
            value = None
            break
    last = path[-1]
    if isinstance(last, int):
        parent = path[-2] if len(path) > 1 and isinstance(path[-2], str) else ""
        noun = _ITEM_NAMES.get(parent, f"item of `{parent}`" if parent else "item")
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            return f"{noun} `{value['id']}`"
        return f"{noun} #{last + 1}"
    return f"`{last}`"


def _model_label(model: Any) -> str:
    kind = _kind_of(model)
    if kind:
        return f"{'an' if kind[0] in 'aeiou' else 'a'} `{kind}` event"
    return ""


def _show(node: Node | None, value: Any) -> str:
    """The offending value as the author wrote it (shortened), control characters shown as ``\\xNN`` (a message
    is printed to a terminal: a quoted value must not retitle it or change its colours)."""
    if isinstance(node, ScalarNode):
        text = node.value
        if text == "":
            return "nothing (the value is empty)" if node.style in _PLAIN_STYLES else 'an empty text ("")'
        if len(text) > 60:
            text = text[:57] + "..."
        text = clean(text.replace("\n", "\\n").replace("\t", "\\t"))
        return f"`{text}`" if node.style in _PLAIN_STYLES else f"the text `{text}`"
    if isinstance(node, MappingNode) or isinstance(value, dict):
        return "a mapping (key: value lines)"
    if isinstance(node, SequenceNode) or isinstance(value, list):
        return "a list"
    return f"`{value!r}`"


def _yaml_hint(node: Node | None) -> str:
    """A hint when an unquoted scalar was read (YAML 1.2 core schema) as something other than text, else ""."""
    if not isinstance(node, ScalarNode) or node.style not in _PLAIN_STYLES:
        return ""
    if node.tag not in (_BOOL, _INT, _FLOAT, _NULL):
        return ""
    try:
        value = yc.construct_core(node.tag, node.value)
    except yc.ScalarError:  # an explicit tag that does not fit its text (already reported by the builder)
        return ""
    if value is None and node.value == "":
        return ""
    v = _cut(node.value)
    read = "a number" if isinstance(value, int) and not isinstance(value, bool) else yc.describe_value(value, v)
    return f"; YAML reads an unquoted `{v}` as {read}: write \"{v}\" in quotes if you meant the text"


#: Unquoted forms that were numbers or booleans in YAML 1.1 but are text in YAML 1.2.
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?")
_UNDERSCORED = re.compile(r"[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?)")
_YAML11_BOOLS = {"yes": "true", "no": "false", "on": "true", "off": "false"}


def _number_hint(node: Node | None) -> str:
    """A hint when a number or boolean was expected and the value is text that YAML 1.1 read as one (``yes``,
    ``1:30``, ``1_150``) or a quoted number, else ""."""
    if not isinstance(node, ScalarNode):
        return ""
    v = node.value
    if node.style in _PLAIN_STYLES and node.tag == _STR:
        word = _YAML11_BOOLS.get(v.lower())
        if word:
            return (
                f"; `{v}` is text in YAML 1.2, which warroom reads (YAML 1.1 read it as the boolean {word}): "
                "write true or false for a boolean"
            )
        old = yc.yaml11_value(v)
        if _SEXAGESIMAL.fullmatch(v) and isinstance(old, (int, float)) and not isinstance(old, bool):
            return (
                f"; `{_cut(v)}` is text in YAML 1.2, which warroom reads (YAML 1.1 read it as the base-60 number "
                f"{old:,}): write {old} if you meant that number"
            )
        if "_" in v and _UNDERSCORED.fullmatch(v) and isinstance(old, (int, float)) and not isinstance(old, bool):
            return (
                f"; YAML 1.2 numbers have no `_` (YAML 1.1 read `{_cut(v)}` as {old!r}): write {old!r} without "
                "the underscores"
            )
    if node.style not in _PLAIN_STYLES and re.fullmatch(r"[-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?", v.strip()):
        return "; remove the quotes to write a number"
    return ""


def _cut(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "\\n").replace("\t", "\\t")
    return clean(text if len(text) <= limit else text[: limit - 3] + "...")


_TYPE_WORDS = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "dict_type": "a mapping (key: value lines)",
    "model_type": "a mapping (key: value lines)",
    "model_attributes_type": "a mapping (key: value lines)",
    "list_type": "a list",
    "finite_number": "a finite number",
}


def _closest(word: Any, choices: list[str]) -> str:
    if not isinstance(word, str) or len(word) > 200:  # bounded work per problem: choices are few, words short
        return ""
    match = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`? " if match else ""


def _pydantic_problem_safely(path: str, root: Node, data: Any, err: dict[str, Any]) -> Problem:
    """:func:`_pydantic_problem`, or a plainer message at the same place should building the message fail: a
    drill file must never lead to "internal error"."""
    try:
        return _pydantic_problem(path, root, data, err)
    except Exception:  # noqa: BLE001 - a message helper tripped on an input nobody foresaw; say what pydantic says
        data_path, _ = _walk_loc(tuple(err.get("loc", ())))
        node, _ = _locate(root, data_path)
        return _at(path, node, f"{_label(data, data_path)}: {clean(str(err.get('msg', err.get('type'))))}")


def _pydantic_problem(path: str, root: Node, data: Any, err: dict[str, Any]) -> Problem:
    """One pydantic error as a Problem at the node it concerns."""
    etype: str = err["type"]
    loc = tuple(err["loc"])
    data_path, owners = _walk_loc(loc)
    ctx = err.get("ctx") or {}

    if etype == "missing":
        parent_path = data_path[:-1]
        node, _ = _locate(root, parent_path)
        label = _label(data, parent_path)
        kind = _kind_of(owners[-2]) if len(owners) > 1 else None
        where = f"{label} (`{kind}` event)" if kind and "event" in label else label
        return _at(path, node, f"{where} is missing the required key `{data_path[-1]}`")

    if etype == "extra_forbidden":
        node, _ = _locate(root, data_path, want_key=True)
        owner = owners[-2] if len(owners) > 1 else None
        allowed = sorted(owner.model_fields) if _is_model(owner) else []
        kind = _model_label(owner)
        where = f" in {kind}" if kind else f" in {_label(data, data_path[:-1])}"
        key = data_path[-1]
        msg = f"unknown key {shown_id(key)}{where}; {_closest(key, allowed)}allowed keys: {', '.join(allowed)}"
        return _at(path, node, msg)

    if etype in ("union_tag_invalid", "union_tag_not_found"):
        expected = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",") if t.strip()]
        if not expected:
            members = _union_members(_unwrap(owners[-1]))
            expected = [k for k in (_kind_of(m) for m in members) if k]
        label = _label(data, data_path)
        if etype == "union_tag_not_found":
            node, _ = _locate(root, data_path)
            return _at(path, node, f"{label} has no `kind`; add one of: {', '.join(expected)}")
        node, _ = _locate(root, (*data_path, "kind"))
        tag = node.value if isinstance(node, ScalarNode) else None
        shown = f"`{tag}`" if tag is not None else _show(node, None)
        msg = f"unknown event kind {shown} in {label}; {_closest(tag, expected)}the kinds are: {', '.join(expected)}"
        return _at(path, node, msg)

    node, _ = _locate(root, data_path)
    value_node, _ = _locate(root, data_path, block_key=False)
    value = err.get("input")
    label = _label(data, data_path)
    shown = _show(value_node, value)

    if etype in ("enum", "literal_error"):
        expected_text = str(ctx.get("expected", ""))
        choices = [c.strip().strip("'") for c in expected_text.replace(" or ", ", ").split(",") if c.strip()]
        target = _unwrap(owners[-1])
        if isinstance(target, type) and issubclass(target, Enum):
            choices = [m.value for m in target]
        if data_path == ("schema_version",):
            msg = f"schema_version must be {expected_text}, got {shown} (this warroom reads format version 1)"
            msg += _number_hint(value_node)
            return _at(path, node, msg)
        # "unknown value `done`", never "unknown value the text `done`", however the value was quoted
        word = f"`{_cut(value_node.value)}`" if isinstance(value_node, ScalarNode) and value_node.value else shown
        if data_path[-2:] == ("fault", "kind"):
            msg = f"unknown fault kind {word}; {_closest(value, choices)}the fault kinds are: {', '.join(choices)}"
        else:
            msg = f"unknown value {word} for {label}; {_closest(value, choices)}allowed: {', '.join(choices)}"
        if isinstance(value_node, ScalarNode) and value_node.value in choices:  # e.g. an unquoted `no` meant as text
            msg += _yaml_hint(value_node)
        else:
            msg += _number_hint(value_node)
        return _at(path, node, msg)

    if etype in _TYPE_WORDS:
        hint = _yaml_hint(value_node) if etype == "string_type" else _number_hint(value_node)
        return _at(path, node, f"{label} must be {_TYPE_WORDS[etype]}, got {shown}{hint}")

    if etype == "string_pattern_mismatch" and ctx.get("pattern") == TEXT_PATTERN:
        return _at(path, node, f"{label} must not be blank: write some text, not only spaces or line breaks")
    if etype == "string_pattern_mismatch":
        which = "" if data_path[-1] == "id" else f" for {label}"
        if isinstance(value, str) and len(value) <= 200 and not (value.isascii() and value.isprintable()):
            shown = shown_id(value)  # a look-alike letter or an invisible character, escaped and named
        return _at(
            path, node,
            f"{shown} is not a valid id{which}: use letters, digits, `-`, `_` and `.`, starting with a letter or digit",
        )
    if etype == "string_too_short":
        return _at(path, node, f"{label} must not be empty")
    if etype == "string_too_long":
        return _at(path, node, f"{label} is too long: at most {ctx.get('max_length')} characters")
    if etype == "too_short":
        return _at(path, node, f"{label} needs at least {ctx.get('min_length')} item(s)")
    bounds = {
        "greater_than_equal": ("at least", "ge"),
        "greater_than": ("greater than", "gt"),
        "less_than_equal": ("at most", "le"),
        "less_than": ("less than", "lt"),
    }
    if etype in bounds:
        words, key = bounds[etype]
        limit = _num(ctx.get(key))
        what = _LIMITS.get(str(data_path[-1])) if key in ("le", "lt") and data_path else None
        if what:
            limit += f" (the drill format's limit for {what})"
        return _at(path, node, f"{label} must be {words} {limit}, got {shown}")
    return _at(path, node, f"{label}: {err.get('msg', etype)}, got {shown}")
