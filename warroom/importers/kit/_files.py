"""Importing trace files: each file converted whole (all its traces, or none) and each drill written atomically as
``<out>/<drill id>.yaml``; one result per drill, or one error per file."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.files import replace_files
from warroom.importers.kit._drillfile import check_unmarked, dump_unmarked, finite_numbers
from warroom.importers.kit._reading import collect_warnings
from warroom.importers.kit._report import ImportReport, ImportResult, Progress
from warroom.importers.kit._rules import TraceError

if TYPE_CHECKING:
    from warroom.importers.kit._redact import Redactor

#: A converter: a trace file to its drills, each ``(plain drill data, header comment)``; raises TraceError.
Converter = Callable[[Path], list[tuple[dict[str, Any], str]]]


def import_files(paths: Iterable[Path], out_dir: Path, convert: Converter, *, suffixes: tuple[str, ...] = (".json",),
                 force: bool = False, redactor: Redactor | None = None, progress: Progress | None = None
                 ) -> ImportReport:
    """Convert every trace file under ``paths`` with ``convert`` and write each drill as ``<out_dir>/<id>.yaml``.

    A file's drills are all made and checked (:func:`check_unmarked`) before any is written, so a bad file writes
    nothing. An existing drill file is overwritten only with ``force``. With ``redactor``, every text of each drill
    and its header is redacted before it is checked and written (its counts cover the drills written).
    ``progress`` is told after each file (:data:`~warroom.importers.who_and_when.files.Progress`). Raises
    FileNotFoundError for a missing input path, NotADirectoryError when ``out_dir`` is a file, OSError when it
    cannot be created.
    """
    files = find_input_files(paths, suffixes)
    out_dir = prepare_out_dir(out_dir)
    report = ImportReport(out_dir=out_dir)
    written: dict[str, Path] = {}
    for i, f in enumerate(files, 1):
        results = _import_one(f, out_dir, convert, force, written, redactor)
        report.results.extend(results)
        if progress is not None:
            progress(i, len(files), results)
    return report


def _prepare(f: Path, out_dir: Path, convert: Converter, force: bool, written: dict[str, Path],
             redactor: Redactor | None) -> list[tuple[str, Path, str]]:
    """The drills of ``f`` as ``(drill id, target, YAML text)``, every one redacted and checked; raises TraceError."""
    out: list[tuple[str, Path, str]] = []
    for data, header in convert(f):
        data = finite_numbers(data)
        if redactor is not None:
            data, header = redactor.data(data), redactor.text(header)
        drill_id = data["id"]
        if drill_id in written or any(drill_id == d for d, _, _ in out):
            raise TraceError(f"drill id {drill_id!r} was already imported from {written.get(drill_id, f)} in this run")
        target = drill_target(out_dir, drill_id, force, TraceError)
        check_unmarked(data)
        text = dump_unmarked(data, header)
        _check_size(text)
        out.append((drill_id, target, text))
    if not out:
        raise TraceError("no trace in this file")
    return out


def _check_size(text: str) -> None:
    """Raise TraceError when the drill's YAML is over the drill loader's file limit (``limits.MAX_FILE_BYTES``): a
    trace within its own limit can still make one, since YAML escapes what JSON writes raw (an emoji is 4 bytes in
    the trace and 10 in the drill) and some text is in the drill twice (the request as the goal and the first
    event)."""
    from warroom.core.load import limits

    size = len(text.encode("utf-8"))
    if size > limits.MAX_FILE_BYTES:
        raise TraceError(f"the drill would be {size / 1048576:.1f} MiB; drill files are limited to "
                         f"{limits.MAX_FILE_BYTES / 1048576:g} MiB")


def _import_one(f: Path, out_dir: Path, convert: Converter, force: bool, written: dict[str, Path],
                redactor: Redactor | None = None) -> list[ImportResult]:
    """Import the trace file ``f``: one result per drill written, or one result with the file's error; the first
    result carries the warnings made while reading the file (:func:`~warroom.importers.reading.warn`), kept when
    it fails too (a cut-off last line may be why it holds no trace)."""
    with collect_warnings() as warnings:
        results = _results(f, out_dir, convert, force, written, redactor)
    if warnings:
        results[0] = dataclasses.replace(results[0], warnings=tuple(warnings))
    return results


def _results(f: Path, out_dir: Path, convert: Converter, force: bool, written: dict[str, Path],
             redactor: Redactor | None) -> list[ImportResult]:
    """The results of importing ``f`` (without its warnings): see :func:`_import_one`."""
    if redactor is not None:
        redactor.discard()  # replacements in a file that failed are not counted
    try:
        drills = _prepare(f, out_dir, convert, force, written, redactor)
        results = []
        for drill_id, target in _write_all(drills):
            written[drill_id] = f
            results.append(ImportResult(source=f, drill_id=drill_id, output=target))
        if redactor is not None:
            redactor.commit()
        return results
    except TraceError as e:
        return [ImportResult(source=f, error=str(e))]
    except OSError as e:
        where = f" {e.filename}" if e.filename else " the drill"
        return [ImportResult(source=f, error=f"cannot write{where}: {e.strerror or e}")]
    except (ValueError, RecursionError, MemoryError) as e:  # a trace the checks missed: this file only
        return [ImportResult(source=f, error=f"cannot import this trace ({type(e).__name__}: {str(e)[:200]})")]


def _write_all(drills: list[tuple[str, Path, str]]) -> list[tuple[str, Path]]:
    """Write every drill of one file, each ``(drill id, target, YAML text)``, all or none
    (:func:`warroom.core.files.replace_files`): a drill that cannot be written (a full disk, a read-only folder)
    leaves none of the file's drills written and no temporary file. Returns each ``(drill id, target)``. Raises
    OSError naming the drill file that could not be written."""
    replace_files([(target, text) for _, target, text in drills])
    return [(drill_id, target) for drill_id, target, _ in drills]


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


def prepare_out_dir(out_dir: Path) -> Path:
    """``out_dir`` as a folder that exists (created with its parents when missing), for an importer's drills.

    Raises NotADirectoryError when it is a file, OSError when it cannot be created."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(f"{out_dir}: exists and is not a folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir
