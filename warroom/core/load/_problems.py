"""Problems in a drill file (``path:line:col: message``) and the error that carries them."""

from __future__ import annotations

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


def problem_at(path: str, node: Node | None, message: str, severity: str = "error") -> Problem:
    """A :class:`Problem` at the start of the YAML ``node`` (line 1, column 1 when there is none)."""
    if node is None:
        return Problem(path, 1, 1, message, severity)
    mark = node.start_mark
    return Problem(path, mark.line + 1, mark.column + 1, message, severity)
