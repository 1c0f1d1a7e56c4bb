"""A drill file opened for marking up (``warroom annotate``), and what ``validate`` and ``check`` say once saved.

:func:`open_for_annotation` reads a drill file whose answer key is missing, partial or complete: the drill without
its answer key and distractors (so it replays whatever state the key is in), the draft of the key so far, and the
trace order. :func:`findings` is what ``warroom validate`` and ``warroom check`` report on the saved file. No UI.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warroom.core.author._annotation import KeyDraft, draft_from_data
from warroom.core.load import DrillLoadError
from warroom.core.model import Drill
from warroom.errors import WarroomError


@dataclass
class AnnotatedFile:
    """A drill file being marked up: its ``path``, the ``drill`` to replay (without answer key and distractors),
    the ``draft`` of its answer key so far, ``event_order`` (trace event id -> index) and the SHA-256 of the file's
    bytes as read (``sha256``: a save refuses a file that changed on disk since; None: not checked)."""

    path: Path
    drill: Drill
    draft: KeyDraft
    event_order: dict[str, int]
    #: ``warroom annotate --reading-time S``: saving moves the events after the earliest evidence S s after it
    reading_time: float | None = None
    #: the SHA-256 of the file's bytes when it was read or last saved (a save refuses a file changed since)
    sha256: str | None = None

    def step_of(self, event_id: str) -> str:
        """The plan step of trace event ``event_id`` (the first step when the event names none)."""
        ev = self.drill.trace[self.event_order[event_id]]
        return ev.step if ev.step is not None else self.drill.plan[0].id

    def origins_at(self, event_id: str) -> list[tuple[str, str]]:
        """Where a fault marked at trace event ``event_id`` may have happened, as ``(origin, where)`` pairs, the
        likeliest first. In a format-2 drill a planner call offers ``("plan", event_id)`` (its plan or re-plan)
        before its plan step, if it has one, a handoff outside any plan step offers ``("handoff", event_id)`` before
        the first step, and an event outside any plan step before step 1 offers ``("setup", event_id)`` before the
        first step (:func:`warroom.core.model.event_target`); otherwise, and always in
        format 1 (step origins only), ``[("step", the event's plan step)]``."""
        from warroom.core.model import SETUP, event_target

        ev = self.drill.trace[self.event_order[event_id]]
        step = ("step", self.step_of(event_id))
        if self.drill.schema_version < 2:
            return [step]
        if ev.kind == "planner_call":
            return [("plan", event_id)] + ([step] if ev.step is not None else [])
        if ev.kind == "handoff" and ev.step is None:  # a handoff outside any step: itself (origin: handoff)
            return [("handoff", event_id), step]
        if event_target(self.drill, ev) == SETUP:
            return [("setup", event_id), step]
        return [step]


@dataclass
class Findings:
    """What ``warroom validate`` (``problems``, ``warnings``: ``path:line:col: message`` lines) and ``warroom
    check`` (``check``: its problems; ``checked`` False when the drill did not validate, so check could not run)
    say of a file."""

    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    check: list[str] = field(default_factory=list)
    checked: bool = False
    #: What ``warroom check`` warns of without failing the drill (the newest guess over its threshold).
    check_warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the file validates and passes check."""
        return not self.problems and self.checked and not self.check


class AnnotateError(WarroomError):
    """The file cannot be marked up: ``problems`` are its ``path:line:col: message`` lines (or one ``path: ...``)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def open_for_annotation(path: str | os.PathLike[str]) -> AnnotatedFile:
    """Read drill file ``path`` for marking up.

    Returns the :class:`AnnotatedFile`. Raises :class:`AnnotateError` when the file cannot be read (a FIFO or device,
    over the size limit, not UTF-8), is not YAML, is a control drill (``all_clear``: it has no fault to mark up), or
    has problems outside its answer key and distractors (listed by line: the trace must load to be replayed).
    """
    from pydantic import ValidationError

    from warroom.core.rules import MISSING_ANSWER_KEY, validate_drill
    from warroom.core.text import clean_name

    shown = clean_name(os.fspath(path))  # on its line: a file name holding a newline forges no problem line
    text, data, sha = _read(path)
    if "all_clear" in data:
        raise AnnotateError([f"{shown}: this is a control drill (all_clear): it has no fault to mark up; remove "
                             "all_clear first to give it an answer key"])
    # the twin (format 2) is the healthy run of the key being marked up, and the variants shuffle its distractors
    # and jitter within its deadline: both are checked with it once saved, not before
    bare = {k: v for k, v in data.items() if k not in ("answer_key", "distractors", *_CHECKED_WITH_THE_KEY)}
    drill: Drill | None = None
    try:
        drill = Drill.model_validate(bare)
    except ValidationError:
        pass
    if drill is None or any(i.message != MISSING_ANSWER_KEY for i in validate_drill(drill)):
        raise AnnotateError(_problems_besides_the_key(text, shown))
    order = {e.id: i for i, e in enumerate(drill.trace)}
    return AnnotatedFile(Path(path), drill, draft_from_data(data), order, sha256=sha)


def _read(path: str | os.PathLike[str]) -> tuple[str, dict[str, Any], str]:
    """The file's text, its plain YAML data and the SHA-256 of its bytes; raises AnnotateError (as the loader words
    it) when it cannot."""
    import hashlib

    from warroom.core.files import SpecialFile, TooLarge, read_limited, wide_encoding_message, wide_encoding_of
    from warroom.core.load import limits, load_drill, load_yaml_text
    from warroom.core.text import clean_name

    shown = clean_name(os.fspath(path))  # on its line: a file name holding a newline forges no problem line
    try:  # opened without waiting and checked open: a FIFO is refused, never waited on
        raw = read_limited(path, limits.MAX_FILE_BYTES)
        wide = wide_encoding_of(raw)  # UTF-16 without its mark decodes as UTF-8 text full of NULs
        if wide is not None:
            raise AnnotateError([f"{shown}:1:1: {wide_encoding_message(wide)}"])
        text = raw.decode("utf-8-sig")
        return text, load_yaml_text(text, os.fspath(path)), hashlib.sha256(raw).hexdigest()
    except SpecialFile as exc:
        raise AnnotateError([f"{shown}: this is {exc.kind}, not a drill file (only regular files are read)"]) from None
    except TooLarge as exc:
        raise AnnotateError([f"{shown}: the file is {exc.size / 1048576:.1f} MiB; drill files are limited to "
                             f"{limits.MAX_FILE_BYTES // 1048576} MiB"]) from None
    except OSError as exc:
        raise AnnotateError([f"{shown}: cannot read the drill file: {clean_name(exc.strerror or exc)}"]) from None
    except UnicodeDecodeError:  # the loader names the line and column of the first byte that is not UTF-8
        try:
            load_drill(path)
        except DrillLoadError as exc:
            raise AnnotateError([str(p) for p in exc.problems]) from None
        raise AnnotateError([f"{shown}: the file is not UTF-8 text; save it as UTF-8"]) from None
    except DrillLoadError as exc:
        raise AnnotateError([str(p) for p in exc.problems]) from None


#: Top-level sections that refer to the answer key and distractors, so checked with them once saved (a variants
#: section's shuffle group lists distractors: checked without them, each of its events was "not a distractor").
_CHECKED_WITH_THE_KEY = ("twin", "variants")


def _problems_besides_the_key(text: str, shown: str) -> list[str]:
    """The ``path:line:col`` problems of the drill without its answer key and distractors (and none of the sections
    checked with them: :data:`_CHECKED_WITH_THE_KEY`)."""
    from warroom.core.author._keywrite import KeyWriteError, apply_draft
    from warroom.core.load import load_drill_text
    from warroom.core.rules import MISSING_ANSWER_KEY

    try:
        bare = apply_draft(text, KeyDraft(), {}, shown)
        load_drill_text(bare, shown)
    except DrillLoadError as exc:
        skipped = _lines_of(bare, shown, _CHECKED_WITH_THE_KEY)
        return [str(p) for p in exc.problems if MISSING_ANSWER_KEY not in p.message and p.line not in skipped]
    except KeyWriteError as exc:
        return [str(exc)]
    return [f"{shown}: the drill does not validate without its answer key"]


def _lines_of(text: str, shown: str, keys: tuple[str, ...]) -> set[int]:
    """The 1-based lines of drill text ``text`` that the top-level sections ``keys`` span (none when it does not
    compose: its problems are then YAML's, on no such section)."""
    from yaml.nodes import MappingNode, ScalarNode

    from warroom.core.load import compose_text

    try:
        root, _ = compose_text(text.removeprefix("\ufeff"), shown)
    except DrillLoadError:
        return set()
    if not isinstance(root, MappingNode):
        return set()
    lines: set[int] = set()
    for key, value in root.value:
        if isinstance(key, ScalarNode) and key.value in keys:
            end = value.end_mark  # a block section ends at the start of the next key's line: not its own
            lines.update(range(key.start_mark.line + 1, end.line + (2 if end.column else 1)))
    return lines


def findings(path: str | os.PathLike[str]) -> Findings:
    """What ``warroom validate`` and ``warroom check`` say of drill file ``path`` (see :class:`Findings`). Never
    raises for a file that cannot be loaded: its problems are the findings."""
    from warroom.core.author._check import run_checks
    from warroom.core.library import cross_file_problems
    from warroom.core.load import drill_advice, group_warnings, load_drill_with_warnings

    out = Findings()
    try:
        drill, warnings = load_drill_with_warnings(path)
    except DrillLoadError as exc:
        out.problems = [str(p) for p in exc.problems]
        out.warnings = [str(p) for p in group_warnings(exc.warnings)]
        return out
    out.warnings = [str(p) for p in group_warnings([*warnings, *drill_advice(path, drill)])]
    out.problems = [str(p) for p in cross_file_problems([(Path(path), drill)]).get(Path(path), [])]
    out.checked = True
    report = run_checks(drill)
    out.check = list(report.problems)
    if not report.all_clear:
        from warroom.core.author._battery import newest_guess_sentence

        line, warned = newest_guess_sentence(report.newest_guess_share, report.newest_guess)
        out.check_warnings = [line] if warned else []
    return out
