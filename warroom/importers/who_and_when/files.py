"""Importing files: record files found under the paths given, each converted and written atomically as
``<out>/<drill id>.yaml``, one result per record (what ``warroom import who-and-when`` runs and reports)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from warroom.core.files import replace_file
from warroom.core.text import plural
from warroom.importers.reading import ReadWarning
from warroom.importers.who_and_when.drill import convert_record, dump_drill_yaml
from warroom.importers.who_and_when.parse import parse_record, read_record
from warroom.importers.who_and_when.prose import file_header
from warroom.importers.who_and_when.rules import SUBSETS, ImportOptions, RecordError


def find_record_files(paths: Iterable[Path]) -> list[Path]:
    """Record files under ``paths``: files as given, folders searched recursively for ``*.json`` (in natural order:
    ``2.json`` before ``10.json``), no duplicates. Raises FileNotFoundError for a path that does not exist."""
    return find_input_files(paths, (".json",))


def find_input_files(paths: Iterable[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """An importer's input files under ``paths``: files as given, folders searched recursively for ``suffixes`` (in
    natural order), no duplicates. Raises FileNotFoundError for a path that does not exist."""
    from warroom.core.library import find_drill_files

    paths = [Path(p) for p in paths]
    for p in paths:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or folder")
    return find_drill_files(paths, suffixes, natural=True)


def drill_target(out_dir: Path, drill_id: str, force: bool, error: type[Exception]) -> Path:
    """Where the drill ``drill_id`` is written: ``<out_dir>/<drill_id>.yaml``. Raises ``error`` when that file
    exists and ``force`` is False, and when it is a folder (with ``force`` too)."""
    target = out_dir / f"{drill_id}.yaml"
    if target.is_dir():  # even with --force: a folder is never replaced by a drill
        raise error(f"{target} is a folder, not a drill file: move it away or import into another --out folder")
    if target.exists() and not force:
        raise error(f"{target} already exists (use --force to overwrite it)")
    return target


@dataclass(frozen=True)
class ImportResult:
    """What happened to one record file: ``output`` written (with ``drill_id``), or ``error`` (one line); and what
    the importer left out of the file or read otherwise than recorded (``warnings``, on the file's first result
    only, so that each is reported and counted once)."""

    source: Path
    drill_id: str | None = None
    output: Path | None = None
    error: str | None = None
    warnings: tuple[ReadWarning, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the drill was written."""
        return self.error is None


#: Told after each input file: ``(files done, files in all, that file's results)`` (``warroom import`` prints its
#: failures and its progress as it goes, not only at the end).
Progress = Callable[[int, int, list[ImportResult]], None]


@dataclass
class ImportReport:
    """The results of one import run, in input order."""

    out_dir: Path
    results: list[ImportResult] = field(default_factory=list)

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
        """One line: how many records were imported, where to, and how many failed."""
        n = len(self.results)
        return (
            f"{len(self.imported)} of {plural(n, 'record')} imported into {self.out_dir}, "
            f"{len(self.failed)} failed"
        )


def prepare_out_dir(out_dir: Path) -> Path:
    """``out_dir`` as a folder that exists (created with its parents when missing), for an importer's drills.

    Raises NotADirectoryError when it is a file, OSError when it cannot be created."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(f"{out_dir}: exists and is not a folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir




def import_records(
    paths: Iterable[Path], out_dir: Path, options: ImportOptions | None = None, *, force: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Convert every Who&When record under ``paths`` into a drill file ``<out_dir>/<drill id>.yaml``.

    ``out_dir`` is created if missing. An existing drill file is overwritten only with ``force``. A bad record
    (or a file that cannot be written) is reported in its :class:`ImportResult` and the rest still import.
    ``progress`` is told after each record file (:data:`Progress`).

    Raises FileNotFoundError for an input path that does not exist, and OSError (with a readable message) when
    ``out_dir`` cannot be created.
    """
    options = options or ImportOptions()
    files = find_record_files(paths)
    out_dir = prepare_out_dir(out_dir)
    report = ImportReport(out_dir=out_dir)
    written: dict[str, Path] = {}
    for i, f in enumerate(files, 1):
        report.results.append(_import_one(f, out_dir, options, force, written))
        if progress is not None:
            progress(i, len(files), report.results[-1:])
    return report


def _import_one(f: Path, out_dir: Path, options: ImportOptions, force: bool, written: dict[str, Path]) -> ImportResult:
    """Import the record file ``f`` into ``out_dir``; ``written`` maps the drill ids written so far in this run to
    their record files (updated). Every failure is the result's one-line ``error``, never an exception."""
    if options.redactor:
        options.redactor.discard()  # replacements of a record that failed are not counted
    try:
        record = parse_record(read_record(f), f.stem, file=f.name if f.parent.name not in SUBSETS
                              else f"{f.parent.name}/{f.name}")
        data, _ = convert_record(record, options)
        drill_id = data["id"]
        if drill_id in written:
            raise RecordError(f"drill id {drill_id!r} was already imported from {written[drill_id]} in this run")
        target = drill_target(out_dir, drill_id, force, RecordError)
        header = file_header(record)
        replace_file(target, dump_drill_yaml(data, options.redactor.text(header) if options.redactor else header))
        written[drill_id] = f
        if options.redactor:
            options.redactor.commit()
        return ImportResult(source=f, drill_id=drill_id, output=target)
    except RecordError as e:
        return ImportResult(source=f, error=str(e))
    except OSError as e:
        return ImportResult(source=f, error=f"cannot write the drill: {e.strerror or e}")
    except (ValueError, RecursionError, MemoryError) as e:  # a record the checks above missed: this file only
        return ImportResult(source=f, error=f"cannot import this record ({type(e).__name__}: {str(e)[:200]})")
