"""The results of an import run: one per drill written or file refused, and the report of the run."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from warroom.core.text import clean_name, plural
from warroom.importers.kit._reading import ReadWarning


@dataclass(frozen=True)
class ImportResult:
    """What happened to one input file (or one drill of it): ``output`` written (with ``drill_id``), or ``error``
    (one line); and what the importer left out of the file or read otherwise than recorded (``warnings``, on the
    file's first result only, so that each is reported and counted once)."""

    source: Path
    drill_id: str | None = None
    output: Path | None = None
    error: str | None = None
    warnings: tuple[ReadWarning, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the drill was written."""
        return self.error is None

    def error_at(self, path: Path | str) -> str:
        """The refusal as the import commands print it, ``path:line:col: message`` (as ``warroom validate`` prints
        a drill's problems): the place in the file the message names (:func:`refusal_position`), else ``1:1``, the
        file's start, for a refusal of the whole file or of a value in it named by its JSON path."""
        line, col, message = refusal_position(self.error or "")
        return f"{path}:{line}:{col}: {message}"


#: A refusal's JSON Lines line, at its start or after one clause (``not LangSmith runs: line 3: ...``).
_LINE = re.compile(r"^(?P<head>[^:]*: )?line (?P<line>\d+): ")
#: Where a JSON or UTF-8 error is inside the text it read (the file, or one line of JSON Lines).
_JSON_AT = re.compile(r"^(?:[^;]*?: )?not JSON: [^;]*?(?P<at> at line (?P<line>\d+) column (?P<col>\d+))")
#: Where a key given twice stands (said before the key itself, whose text the file's writer chose).
_TWICE_AT = re.compile(r"^(?:[^;]*?: )?not [^:;]*? one can read one way"
                       r"(?P<at> at line (?P<line>\d+) column (?P<col>\d+)):")
_UTF8_AT = re.compile(r"^not UTF-8 text: [^;]*?(?P<at> \(line (?P<line>\d+), column (?P<col>\d+)\))")


def refusal_position(message: str) -> tuple[int, int, str]:
    """``(line, column, message)`` of an importer's one-line refusal: the JSON Lines line it names (``line 3:``),
    the line and column of a JSON syntax error or of a byte that is not UTF-8 (within that line, for JSON Lines),
    each taken out of the message; else ``(1, 1, message)``."""
    line, col = 1, 1
    found = _LINE.match(message)
    if found:
        line = int(found["line"])
        message = (found["head"] or "") + message[found.end():]
    at = _JSON_AT.match(message) or _TWICE_AT.match(message) or _UTF8_AT.match(message)
    if at:  # the place moves to the front: the message keeps what is wrong there
        line, col = line + int(at["line"]) - 1, int(at["col"])
        message = message[:at.start("at")] + message[at.end("at"):]
    return line, col, message


#: Told after each input file: ``(files done, files in all, that file's results)`` (``warroom import`` prints its
#: failures and its progress as it goes, not only at the end).
Progress = Callable[[int, int, list[ImportResult]], None]


@dataclass
class ImportReport:
    """The results of one import run, in input order (``where``: how the summaries name where the drills went,
    when not ``out_dir``: ``standard output``)."""

    out_dir: Path
    results: list[ImportResult] = field(default_factory=list)
    where: str | None = None

    def _where(self) -> str:
        return self.where if self.where is not None else clean_name(self.out_dir)

    @property
    def imported(self) -> list[ImportResult]:
        """Records whose drill was written."""
        return [r for r in self.results if r.ok]

    @property
    def failed(self) -> list[ImportResult]:
        """Records that could not be imported."""
        return [r for r in self.results if not r.ok]

    @property
    def warnings(self) -> list[tuple[Path, ReadWarning]]:
        """Every warning of the run with the file it is about, in input order."""
        return [(r.source, w) for r in self.results for w in r.warnings]

    def summary(self) -> str:
        """One line for an import of one drill per file (Who&When records): how many records were imported, where
        to, and how many failed."""
        n = len(self.results)
        return (
            f"{len(self.imported)} of {plural(n, 'record')} imported into {self._where()}, "
            f"{len(self.failed)} failed"
        )

    def drills_summary(self) -> str:
        """One line for an import of traces (a file may hold several): how many drills were written, where to, from
        how many files, how many files failed, and how many warnings there were."""
        failed = len({r.source for r in self.failed})
        files = len({r.source for r in self.results})
        warned = f", {plural(len(self.warnings), 'warning')}" if self.warnings else ""
        return (f"{plural(len(self.imported), 'drill')} imported into {self._where()} from "
                f"{plural(files, 'file')}, "
                f"{failed} failed{warned}")
