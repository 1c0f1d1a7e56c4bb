"""Problems in a drill file (``path:line:col: message``) and the error that carries them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from yaml.nodes import Node

from warroom.errors import WarroomError


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in a drill file, at a 1-based ``line`` and ``column``. ``str()`` gives ``path:line:col: message``
    for an error and ``path:line:col: warning: message`` for a warning (``severity`` is "error" or "warning").

    A warning never stops a drill from loading: it flags text that other YAML readers read differently, or that
    lost a part to a `` #`` comment. File-level problems (a missing file, a file too large) are at line 1, column 1.
    A warning names its ``rule`` (``yaml-data-number``, ``comment-cut``, ``indicator-cut``, ``briefing-hint``,
    ``no-habit``; see docs/authoring.md, "What the loader accepts"), by which repeated warnings are grouped
    (:func:`group_warnings`).
    """

    path: str
    line: int
    column: int
    message: str
    severity: str = "error"
    rule: str = ""

    def __str__(self) -> str:
        from warroom.core.text import shown_path

        label = "warning: " if self.severity == "warning" else ""
        # the path stays on its line (a file name holding a newline would forge a problem line of its own)
        return f"{shown_path(self.path)}:{self.line}:{self.column}: {label}{self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The problem as a JSON-ready mapping: ``path``, ``line``, ``column``, ``severity``, ``message``, and a
        warning's ``rule``."""
        out: dict[str, Any] = {
            "path": self.path, "line": self.line, "column": self.column, "severity": self.severity,
            "message": self.message,
        }
        if self.rule:
            out["rule"] = self.rule
        return out


#: Places a group of repeated warnings lists (:func:`group_warnings`).
GROUP_PLACES = 3


@dataclass(frozen=True)
class WarningGroup:
    """The warnings of one rule in one file, more than :data:`GROUP_PLACES` of them, shown as one line at the first
    one's place: ``path:40:19: warning: 529 warnings of one kind (yaml-data-number), the first: MESSAGE; also at
    41:19, 42:19, 43:19 and 525 more``."""

    warnings: tuple[Problem, ...]

    @property
    def first(self) -> Problem:
        return self.warnings[0]

    @property
    def line(self) -> int:
        return self.first.line

    @property
    def column(self) -> int:
        return self.first.column

    def __str__(self) -> str:
        from warroom.core.text import shown_path

        first, rest = self.first, self.warnings[1:]
        places = ", ".join(f"{w.line}:{w.column}" for w in rest[:GROUP_PLACES])
        more = f" and {len(rest) - GROUP_PLACES:,} more" if len(rest) > GROUP_PLACES else ""
        return (f"{shown_path(first.path)}:{first.line}:{first.column}: warning: {len(self.warnings):,} warnings "
                f"of one kind ({first.rule}), the first: {first.message}; also at {places}{more}")


def group_warnings(problems: Sequence[Problem], places: int = GROUP_PLACES) -> list[Problem | WarningGroup]:
    """``problems`` (one file's errors and warnings, in the order shown) with the warnings of each rule that occurs
    more than ``places`` times folded into one :class:`WarningGroup` where its first warning was: 529 warnings about
    decimal amounts in a tool result become one line with their count and first places, and the warnings that
    differ (a briefing that hints at the answer, a comment that cuts text short) are not buried among them. Errors,
    warnings without a rule and rules seen ``places`` times or fewer are kept one by one."""
    by_rule: dict[str, list[Problem]] = {}
    for p in problems:
        if p.severity == "warning" and p.rule:
            by_rule.setdefault(p.rule, []).append(p)
    grouped = {rule: ws for rule, ws in by_rule.items() if len(ws) > places}
    out: list[Problem | WarningGroup] = []
    for p in problems:
        ws = grouped.get(p.rule) if p.severity == "warning" else None
        if ws is None:
            out.append(p)
        elif p is ws[0]:
            out.append(WarningGroup(tuple(ws)))
    return out


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
        self.problems = sorted_problems(problems)
        self.warnings = sorted_problems(warnings or [])
        #: Rules that could not run because a value they need has a problem: one ``path: not checked ...`` line
        #: each (notes, not problems: they are not counted and go away when the problems named are fixed).
        self.blocked = list(blocked or [])
        super().__init__("\n".join(str(p) for p in self.problems))


class DrillReadError(DrillLoadError):
    """A drill file that exists but could not be read (permission denied, an I/O error, too many open files): its
    one problem, at line 1, column 1, says nothing of the file's content and may not last, so the drill picker
    never keeps it in its cache (it reads the file again at the next start, or at ``r``)."""


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems), key=lambda p: (p.line, p.column, p.message))


def fail(path: str, message: str) -> NoReturn:
    """Raise :class:`DrillLoadError` with one problem of the whole file (at line 1, column 1)."""
    raise DrillLoadError(path, [Problem(path, 1, 1, message)])


def problem_at(path: str, node: Node | None, message: str, severity: str = "error", rule: str = "") -> Problem:
    """A :class:`Problem` at the start of the YAML ``node`` (line 1, column 1 when there is none); a warning names
    its ``rule``."""
    if node is None:
        return Problem(path, 1, 1, message, severity, rule)
    mark = node.start_mark
    return Problem(path, mark.line + 1, mark.column + 1, message, severity, rule)
