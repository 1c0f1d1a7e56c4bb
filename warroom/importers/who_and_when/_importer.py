"""Importing files: record files found under the paths given, each converted and written atomically as
``<out>/<drill id>.yaml``, one result per record (what ``warroom import who-and-when`` runs and reports)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from warroom.core.files import replace_file
from warroom.importers.kit import (
    ImportReport,
    ImportResult,
    Progress,
    drill_target,
    dump_drill_yaml,
    find_input_files,
    prepare_out_dir,
)
from warroom.importers.who_and_when._drill import convert_record
from warroom.importers.who_and_when._parse import parse_record, read_record
from warroom.importers.who_and_when._prose import file_header
from warroom.importers.who_and_when._rules import SUBSETS, ImportOptions, RecordError


def find_record_files(paths: Iterable[Path]) -> list[Path]:
    """Record files under ``paths``: files as given, folders searched recursively for ``*.json`` (in natural order:
    ``2.json`` before ``10.json``), no duplicates. Raises FileNotFoundError for a path that does not exist."""
    return find_input_files(paths, (".json",))


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
