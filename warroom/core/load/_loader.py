"""Load a drill file (YAML) into a validated :class:`~warroom.core.model.Drill`, with precise, actionable errors.

How it works, in one pass over the text:

1. **Read** the file (at most :data:`MAX_FILE_BYTES`), decode it as UTF-8 (a leading byte-order mark is allowed).
2. **Compose** the YAML node tree once with PyYAML's C loader (``CSafeLoader``; the pure-Python ``SafeLoader``
   where libyaml is missing), with **YAML 1.2 core-schema** meanings (:mod:`warroom.core.load._yaml.core`): ``no``,
   ``off``, ``12:30``, ``1_150`` are text, not booleans or numbers. Only safe, plain data: no Python objects.
   Line numbers are those an editor shows (lines break at LF, CRLF and CR only).
3. **Build** plain Python values (dicts, lists, str, int, float, bool, None) from the nodes
   (:mod:`warroom.core.load._yaml.build`), reading each unquoted scalar as the place it is written at expects: free text
   as written, tool data with numbers kept as written. While building, we report duplicate keys, unsupported
   tags, too-deep nesting, runaway alias expansion, and *warnings*: values other YAML readers read differently,
   text cut short by a `` #`` comment. Every mapping key is text; dates stay text; merge keys work.

4. **Validate** the values with ``Drill.model_validate`` (types) and :func:`warroom.core.rules.validate_drill`
   (rules that relate fields: ids, references, times, the deadline).

Every problem (YAML syntax, types, rules) becomes a :class:`Problem` with the 1-based line and column of the YAML
node it concerns: pydantic's error location (``loc``) is mapped back to the node, lazily, only for values that
have errors. All problems in a file are reported together, sorted by line and column.

Limits (each a clear error, never a crash or a hang; :mod:`warroom.core.load.limits`):

- file size: :data:`MAX_FILE_BYTES` (64 MiB);
- nesting depth: :data:`MAX_DEPTH` levels of mappings and lists (libyaml itself stops at 1000);
- aliases: anchors (``&name``) and aliases (``*name``) are allowed, but an alias reused so often that the drill
  would grow by more than :data:`MAX_ALIAS_EXPANSION` values (a "billion laughs" file) is rejected as soon as the
  count passes the limit, without expanding it; a recursive alias (a value that contains itself) is rejected too.

Where each part lives: this module runs the steps (orchestration); :mod:`warroom.core.load._problems` holds
:class:`Problem` and :class:`DrillLoadError`; :mod:`warroom.core.load._yaml.pos` maps data paths back to YAML nodes;
:mod:`warroom.core.load._typeerrors` (with :mod:`warroom.core.load._loctypes` and :mod:`warroom.core.load._yaml.hints`)
turns
pydantic's errors into problems; :mod:`warroom.core.load._fast.load` is the fast path for valid files.
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING, Any

from yaml.nodes import MappingNode, Node, SequenceNode

from warroom.core.files import (
    compression_of,
    unicode_twin,
    unicode_twin_message,
    wide_encoding_message,
    wide_encoding_of,
)
from warroom.core.load import limits
from warroom.core.load._loctypes import walk_loc
from warroom.core.load._problems import DrillLoadError, DrillReadError, Problem, fail, problem_at, sorted_problems
from warroom.core.load._typeerrors import pydantic_problems
from warroom.core.load._yaml import core as yc
from warroom.core.load._yaml.build import Abort, Builder
from warroom.core.load._yaml.pos import ALIAS_MARKS, compose_text, locate, named_top_key
from warroom.core.load._yaml.shape import drill_shape

if TYPE_CHECKING:
    from warroom.core.model import Drill
    from warroom.core.rules import Issue


# ---------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------


def reader_versions() -> list[str]:
    """The versions of the YAML readers drill files go through (PyYAML, yaml-rs), for caches keyed by them."""
    import yaml

    from warroom.core.load._fast import yamlrs

    return [yaml.__version__, yamlrs.version()]


def load_drill(path: str | os.PathLike[str]) -> Drill:
    """Load and validate the drill file at ``path``.

    Returns the :class:`~warroom.core.model.Drill`. Raises :class:`DrillLoadError` listing every problem found
    (also for a missing file, a folder, a file over :data:`MAX_FILE_BYTES`, unreadable or non-UTF-8 bytes;
    :class:`DrillReadError`, a subclass, for a file that exists but cannot be read). Warnings are dropped;
    :func:`load_drill_with_warnings` returns them.
    """
    return load_drill_with_warnings(path)[0]


def load_drill_with_warnings(path: str | os.PathLike[str]) -> tuple[Drill, list[Problem]]:
    """Load and validate the drill file at ``path``: ``(drill, warnings)``, the warnings sorted by position.

    Raises :class:`DrillLoadError` as :func:`load_drill` does (its ``warnings`` holds those found on the way).
    """
    from warroom.core.files import SpecialFile, TooLarge, read_limited

    shown = os.fspath(path)
    limit = limits.MAX_FILE_BYTES // 1048576
    try:  # opened without waiting and checked open: a file swapped for a FIFO after a look would block for ever
        data = read_limited(path, limits.MAX_FILE_BYTES)
    except SpecialFile as e:
        if e.kind == "a folder":
            fail(shown, "this is a folder, not a drill file (`warroom validate FOLDER` checks every drill in it)")
        fail(shown, f"this is {e.kind}, not a drill file (only regular files are read)")
    except TooLarge as e:
        if e.size > limits.MAX_FILE_BYTES + 1:  # its size, known before a byte was read
            fail(shown, f"the file is {e.size / 1048576:.1f} MiB; drill files are limited to {limit} MiB")
        fail(shown, f"the file is larger than {limit} MiB, the limit for drill files")  # it grew while read
    except FileNotFoundError:
        if os.path.islink(path):  # listed in its folder, but it points at nothing
            from warroom.core.text import clean_name

            fail(shown, f"a symbolic link to {clean_name(os.readlink(path))}, which does not exist: point it at a "
                        "drill file or remove it")  # fmt: skip
        twin = unicode_twin(path)
        fail(shown, unicode_twin_message(os.fspath(path), twin) if twin is not None else "no such file")
    except PermissionError:
        raise DrillReadError(shown, [Problem(shown, 1, 1, "cannot read the file: permission denied")]) from None
    except OSError as e:
        why = f"cannot read the file: {e.strerror or e}"
        if e.errno == errno.ELOOP:  # a link to itself, or links that lead to each other
            why = "a symbolic link that leads round in a loop, to no file: point it at a drill file or remove it"
        raise DrillReadError(shown, [Problem(shown, 1, 1, why)]) from None
    text = decode_drill_bytes(data, shown)
    del data  # the bytes are not needed once decoded: a big drill should not hold both while it loads
    return load_drill_text_with_warnings(text, shown)


def decode_drill_bytes(data: bytes, path: str = "<string>") -> str:
    """The text of a drill file's bytes (UTF-8, a byte order mark dropped). Raises :class:`DrillLoadError` at the
    line and column of the first byte that is not UTF-8, naming it (``path`` names the file), or at 1:1 for a
    UTF-16 or UTF-32 file (saying so) or a compressed file (by its first bytes: a stored zip archive's may all be
    valid UTF-8, but its header holds NULs)."""
    compressed = compression_of(data)
    wide = wide_encoding_of(data)
    if wide is not None:  # else: a byte that is not UTF-8, or a NUL control character, at the second byte
        raise DrillLoadError(path, [Problem(path, 1, 1, wide_encoding_message(wide))])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        if compressed is None:
            before = data[: e.start]
            line, _ = yc.line_col(before.decode("latin-1"), len(before))
            last = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
            column = len(before[last:].decode("utf-8", errors="replace")) + 1
            message = f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} here); save it as UTF-8"
            raise DrillLoadError(path, [Problem(path, line, column, message)]) from None
    else:
        if compressed is None or b"\x00" not in data[:64]:
            return text
    assert compressed is not None
    message = (f"compressed ({compressed[0]}), not a drill's YAML text: decompress it first (`{compressed[1]} "
               "FILE`) and give the file it holds")
    raise DrillLoadError(path, [Problem(path, 1, 1, message)])


def load_drill_text(text: str, path: str = "<string>") -> Drill:
    """Load and validate a drill from YAML ``text``; ``path`` is only used in the problems' ``path``.

    Returns the :class:`~warroom.core.model.Drill`; raises :class:`DrillLoadError` listing every problem found.
    """
    return load_drill_text_with_warnings(text, path)[0]


def load_drill_text_with_warnings(text: str, path: str = "<string>") -> tuple[Drill, list[Problem]]:
    """Load and validate a drill from YAML ``text``: ``(drill, warnings)``. Raises :class:`DrillLoadError`."""
    from pydantic import ValidationError

    from warroom.core.load._fast.load import fast_drill

    fast = fast_drill(text)  # a valid file with nothing to warn about, read quickly; None: read it with positions
    if fast is not None:
        return fast, []

    from warroom.core.model import Drill
    from warroom.core.rules import validate_drill

    root, data, problems, warnings = _parse(text, path)
    try:
        drill = Drill.model_validate(data)
    except ValidationError as e:
        _neither(path, root, warnings)
        blocked = _type_problems(path, root, data, e.errors(include_url=False), problems)
        raise DrillLoadError(path, problems, warnings, blocked) from None
    problems.extend(_issue_problems(path, root, validate_drill(drill)))
    if problems:
        raise DrillLoadError(path, problems, warnings)
    return drill, sorted_problems(warnings)


def _neither(path: str, root: MappingNode, warnings: list[Problem]) -> None:
    """For a file that does not load as a drill and has none of a drill's own top-level keys (its keys, not its
    layout, tell): one problem, that it is a drill set (a ``set`` key) or neither a drill nor a drill set, instead
    of every required key it lacks. Raises that :class:`DrillLoadError`; returns for anything else."""
    from warroom.core.load._drillset import DRILL_KEYS, SET_WRITTEN_AS_ID, id_key, mapping_keys, set_written_as_id
    from warroom.core.text import shown_path

    keys = mapping_keys(root)  # a merge key's too (``<<: {set: w1}``)
    if set_written_as_id(keys):  # an `id:` made it read as a drill
        raise DrillLoadError(path, [problem_at(path, id_key(root), SET_WRITTEN_AS_ID)], warnings)
    if keys & DRILL_KEYS:
        return
    if "set" in keys:
        shown = shown_path(path)  # on the problem's line: a file name holding a newline forges no line
        message = (f"this file is a drill set, not a drill (its top-level `set` key): check it with `warroom validate "
                   f"{shown}`, play it with `warroom --set {shown}` (docs/drill-sets.md)")  # fmt: skip
    else:
        message = (f"this file is neither a drill (it has none of the keys {', '.join(sorted(DRILL_KEYS))}) nor a "
                   f"drill set (no `set` key): a drill starts with `schema_version: 2` and `id: ...` (`warroom new` "
                   f"writes one), a drill set with `set: ID` (docs/drill-sets.md)")  # fmt: skip
    raise DrillLoadError(path, [problem_at(path, root, message)], warnings)


def _issue_problems(path: str, root: MappingNode, issues: list[Issue]) -> list[Problem]:
    """The semantic :class:`~warroom.core.rules.Issue` list as problems at their nodes."""
    out = []
    for issue in issues:
        node = locate(root, issue.loc)[0] if issue.loc else named_top_key(root, issue.message)
        message = issue.message
        if issue.related is not None:
            mark = locate(root, issue.related)[0].start_mark
            same_line = mark.line == node.start_mark.line
            message += f" (see line {mark.line + 1}" + (f", column {mark.column + 1})" if same_line else ")")
        out.append(problem_at(path, node, message))
    return out


def _type_problems(path: str, root: MappingNode, data: Any, errors: list[Any], problems: list[Problem]) -> list[str]:
    """Add pydantic's ``errors`` to ``problems``, then the semantic rules that can run on what did load.

    One typo is one problem: an unknown key that is a likely typo of a required key missing from the same mapping
    (``evidnce`` for ``evidence``) stands for both. Returns the notes of the rules that could not run.
    """
    from warroom.core.rules import validate_data

    # A value the builder already reported (e.g. an unsupported tag) needs no second, type-level problem.
    taken = {(p.line, p.column) for p in problems}
    paths = [walk_loc(tuple(err["loc"]))[0] for err in errors]
    found = pydantic_problems(path, root, data, errors)
    extra = {dp: i for i, (dp, err) in enumerate(zip(paths, errors, strict=True)) if err["type"] == "extra_forbidden"}
    by_parent: dict[tuple[Any, ...], list[int]] = {}
    for dp, i in extra.items():
        by_parent.setdefault(dp[:-1], []).append(i)
    problem_of: dict[tuple[Any, ...], Problem] = {}
    for i, (dp, err) in enumerate(zip(paths, errors, strict=True)):
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
    bad = [dp for dp, err in zip(paths, errors, strict=True) if err["type"] != "extra_forbidden"]
    issues, blocked = validate_data(data, bad, extra)
    problems.extend(_issue_problems(path, root, issues))
    from warroom.core.text import shown_path

    notes, shown = [], shown_path(path)  # the path stays on its line (a name holding a newline would forge one)
    for b in blocked:
        if not b.loc:  # a rule that waits for the whole drill to be type-valid, not for one value
            notes.append(f"{shown}: not checked until the problems above are fixed: {b.rule}")
            continue
        cause = problem_of.get(b.loc)
        if cause is None:  # a rule waiting for a whole item (a trace event) names the line of its problem
            cause = next((p for dp, p in problem_of.items() if dp[: len(b.loc)] == b.loc and p is not None), None)
        line = cause.line if cause is not None else locate(root, b.loc)[0].start_mark.line + 1
        notes.append(f"{shown}: not checked until the problem on line {line} is fixed: {b.rule}")
    return notes


def load_yaml_text(text: str, path: str = "<string>") -> dict[str, Any]:
    """The plain data of a drill's YAML ``text``, built as the loader builds it, before any validation.

    Returns a dict of JSON-like values (keys and dates as text, see the module docstring). Raises
    :class:`DrillLoadError` for YAML syntax errors, duplicate keys, unsupported tags, the limits, or a top level
    that is not a mapping.

    A file the fast path is sure of (:func:`warroom.core.load._fast.load.fast_data`: the very data this path would
    build, with no problem) is read by yaml-rs: a 20,000-event drill in a second rather than fifteen, which the
    author mode (``warroom annotate``) waited for before it opened.
    """
    from warroom.core.load._fast.load import fast_data

    fast = fast_data(text)
    if fast is not None:
        return fast
    _, data, problems, warnings = _parse(text, path)
    if problems:
        raise DrillLoadError(path, problems, warnings)
    return data


def _only_markers(text: str) -> bool:
    """Whether ``text`` holds nothing but blank lines, comments and the document markers ``---`` and ``...`` (read
    line by line up to the first line with anything else, so a real drill costs a line or two)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and stripped.split(" #")[0].strip() not in ("---", "..."):
            return False
    return True


def _parse(text: str, path: str) -> tuple[MappingNode, dict[str, Any], list[Problem], list[Problem]]:
    """Compose ``text`` and build its data: ``(root node, data, problems, warnings)`` found while building.

    Raises :class:`DrillLoadError` when nothing useful can be built (syntax errors, limits, an empty file, a top
    level that is not a mapping).
    """
    if len(text) > limits.MAX_FILE_BYTES:
        fail(path, f"the text is larger than {limits.MAX_FILE_BYTES // 1048576} MiB, the limit for drill files")
    if text.startswith("\ufeff"):
        text = text[1:]
    empty = "the file is empty: a drill needs schema_version, id, title, plan, trace... (try `warroom new`)"
    if _only_markers(text):  # comments and document markers (`---`, `...`) only: nothing a drill could be
        fail(path, empty)
    root, alias_marks = compose_text(text, path)
    if root is None:
        fail(path, empty)
    if not isinstance(root, MappingNode):
        what = "a list" if isinstance(root, SequenceNode) else "a single value"
        message = f"a drill file must be a mapping of keys (schema_version: 2, id: ..., ...), but this one is {what}"
        raise DrillLoadError(path, [problem_at(path, root, message)])
    if alias_marks:
        ALIAS_MARKS[root] = alias_marks
    found: list[Problem] = []

    def report(node: Node, message: str, severity: str, rule: str) -> None:
        found.append(problem_at(path, node, message, severity, rule))

    builder = Builder(
        text, report, max_depth=limits.MAX_DEPTH, max_expansion=limits.MAX_ALIAS_EXPANSION, alias_marks=alias_marks
    )
    try:
        data = builder.build(root, 0, drill_shape())
    except Abort:
        raise DrillLoadError(path, [p for p in found if p.severity == "error"]) from None
    problems = [p for p in found if p.severity == "error"]
    return root, data, problems, [p for p in found if p.severity != "error"]
