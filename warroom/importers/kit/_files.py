"""The import loop every importer runs: the input files found under the paths given, each file read whole (all its
drills, or none), each drill redacted, checked and written atomically as ``<out>/<drill id>.yaml``; one result per
drill, or one error per file, whatever the file holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warroom.core.files import read_only_mode, real_path, replace_files
from warroom.core.text import clean_name, shown_path
from warroom.importers.kit._drillfile import writable_values
from warroom.importers.kit._importer import DrillData, Importer, Options, Refused
from warroom.importers.kit._reading import collect_warnings
from warroom.importers.kit._recognise import refusal
from warroom.importers.kit._report import ImportReport, ImportResult, Progress


def convert(importer: Importer, path: Path, options: Options | None = None) -> list[DrillData]:
    """The drills ``importer`` makes of the file at ``path`` (``options``: its defaults when None), before they are
    redacted and checked. Raises the importer's error (one line), naming the importer that reads the file when it
    is another one (:func:`~warroom.importers.kit.refusal`), and for a record it refuses (``where: reason``)."""
    out: list[DrillData] = []
    for made in _read(importer, Path(path), options):
        if isinstance(made, Refused):
            raise importer.error(f"{made.where}: {made.reason}")
        out.append(made)
    return out


def _read(importer: Importer, path: Path, options: Options | None) -> Sequence[DrillData | Refused]:
    """What ``importer`` makes of the file at ``path``: its drills and the records it refuses on their own."""
    try:
        return importer.read(path, options if options is not None else importer.make_options({}, None))
    except importer.error as e:
        raise importer.error(refusal(importer, path, str(e))) from None


def import_files(importer: Importer, paths: Iterable[Path], out_dir: Path, options: Options | None = None, *,
                 force: bool = False, progress: Progress | None = None) -> ImportReport:
    """Convert every input file of ``importer`` under ``paths`` (files as given, folders searched for its
    suffixes) and write each drill as ``<out_dir>/<id>.yaml``.

    A file's drills are all made and checked (:meth:`~warroom.importers.kit.Importer.finish`) before any is
    written, so a bad file writes nothing. An existing drill file is overwritten only with ``force``. With
    ``options.redactor``, every text of each drill and its header is redacted before it is checked and written (its
    counts cover the drills written). ``progress`` is told after each file. Raises FileNotFoundError for a missing
    input path, NotADirectoryError when ``out_dir`` is a file, OSError when it cannot be created.
    """
    options = options if options is not None else importer.make_options({}, None)
    truth = getattr(options, "ground_truth", None)  # a folder's ground-truth file is no trace of it
    files = [f for f in find_input_files(paths, importer.suffixes)
             if truth is None or f.resolve() != Path(truth).resolve()]
    run = _Run(importer, options, prepare_out_dir(out_dir), force)
    report = ImportReport(out_dir=run.out_dir)
    for i, f in enumerate(files, 1):
        results = run.import_one(f)
        report.results.extend(results)
        if progress is not None:
            progress(i, len(files), results)
    return report


@dataclass
class _Run:
    """One import run: its importer and options, where it writes, and the drill ids written so far (with the file
    each came from)."""

    importer: Importer
    options: Options
    out_dir: Path
    force: bool
    written: dict[str, Path] = field(default_factory=dict)

    def import_one(self, f: Path) -> list[ImportResult]:
        """Import the file ``f``: one result per drill written, or one result with the file's error; the first
        result carries the warnings made while reading the file (:func:`~warroom.importers.kit.warn`), kept when
        it fails too (a cut-off last line may be why it holds no trace)."""
        with collect_warnings() as warnings:
            results = self._results(f)
        if warnings:
            results[0] = dataclasses.replace(results[0], warnings=tuple(warnings))
        return results

    def _results(self, f: Path) -> list[ImportResult]:
        """The results of importing ``f`` (without its warnings): see :meth:`import_one`."""
        redactor = self.options.redactor
        if redactor is not None:
            redactor.discard()  # replacements in a file that failed are not counted
        try:
            drills, refused = self._prepare(f)
            # all or none; links kept; without --force never over a drill another process wrote since the check
            replace_files([(real_path(target), text) for _, target, text in drills], create=not self.force)
            for drill_id, _, _ in drills:
                self.written[drill_id] = f
            if redactor is not None:
                redactor.commit()
            return ([ImportResult(source=f, drill_id=drill_id, output=target) for drill_id, target, _ in drills]
                    + [ImportResult(source=f, error=f"{r.where}: {r.reason}") for r in refused])
        except self.importer.error as e:
            return [ImportResult(source=f, error=str(e))]
        except FileExistsError as e:  # written by another process since drill_target looked
            return [ImportResult(source=f, error=f"{shown_path(e.filename)} already exists (use --force to overwrite "
                                                 "it)")]
        except OSError as e:
            where = f" {shown_path(e.filename)}" if e.filename else " the drill"
            return [ImportResult(source=f, error=f"cannot write{where}: {e.strerror or e}")]
        except (ValueError, TypeError, RecursionError, MemoryError) as e:  # a file the checks missed: this one only
            return [ImportResult(source=f, error=f"cannot import this {self.importer.unit} ({type(e).__name__}: "
                                                 f"{str(e)[:200]})")]

    def _prepare(self, f: Path) -> tuple[list[tuple[str, Path, str]], list[Refused]]:
        """The drills of ``f`` as ``(drill id, target, file text)``, every one redacted and checked, and the records
        refused on their own (a keyed drill that fails its check is one: its annotation cannot give a fair drill);
        raises the importer's error."""
        error, redactor = self.importer.error, self.options.redactor
        out: list[tuple[str, Path, str]] = []
        refused: list[Refused] = []
        for made in _read(self.importer, f, self.options):
            if isinstance(made, Refused):
                refused.append(made)
                continue
            data, header = made
            data = writable_values(data)
            reading = getattr(self.options, "reading_time", None)
            if reading and "answer_key" not in data:
                stretch_for_reading(data, reading)
            if redactor is not None:
                data, header = redactor.data(data), redactor.text(header)
            drill_id = data["id"]
            # ids that differ only in case (Run.json, run.json) name one file where names ignore case (macOS,
            # Windows): the second would overwrite the first, or be refused as a file that already exists
            same = next((d for d in [*self.written, *(d for d, _, _ in out)] if d.casefold() == drill_id.casefold()),
                        None)
            if same is not None:
                first = clean_name(self.written.get(same, f))
                what = (f"was already imported from {first} in this run (the two files' names make the same id)"
                        if same == drill_id else f"differs only in case from {same!r}, imported from {first} in this "
                        "run (file names that differ only in case are one file on macOS and Windows)")
                raise error(f"drill id {drill_id!r} {what}: rename one of them, or import it into another --out folder")
            target = drill_target(self.out_dir, drill_id, self.force, error)
            try:
                text = self.importer.finish(data, header)
            except error as e:
                if "answer_key" not in data:
                    raise
                refused.append(Refused(drill_id, str(e)))
                continue
            _check_size(text, error)
            out.append((drill_id, target, text))
        if not out and not refused:
            raise error(f"no {self.importer.unit} in this file")
        if not out and len(refused) == 1:
            raise error(refused[0].reason)
        return out, refused


def stretch_for_reading(data: dict[str, Any], seconds: float) -> None:
    """``--reading-time``: the drill ``data`` re-timed by :func:`~warroom.core.author.stretch_reading`, its
    ``source`` saying what was stretched."""
    from warroom.core.author import retimed_note, stretch_reading
    from warroom.core.text import plural

    gaps, added = stretch_reading(data["trace"], seconds)
    if gaps:
        data["source"] += retimed_note(
            f"{plural(gaps, 'gap')} after a tool result or a model output stretched to {seconds:g} s (--reading-time), "
            f"{added:g} s added in all")


def _check_size(text: str, error: type[ValueError]) -> None:
    """Raise ``error`` when the drill's YAML is over the drill loader's file limit (``limits.MAX_FILE_BYTES``): a
    trace within its own limit can still make one, since YAML escapes what JSON writes raw (an emoji is 4 bytes in
    the trace and 10 in the drill) and some text is in the drill twice (the request as the goal and the first
    event)."""
    from warroom.core.load import limits

    size = len(text.encode("utf-8"))
    if size > limits.MAX_FILE_BYTES:
        raise error(f"the drill would be {size / 1048576:.1f} MiB; drill files are limited to "
                    f"{limits.MAX_FILE_BYTES / 1048576:g} MiB")


def find_input_files(paths: Iterable[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """An importer's input files under ``paths``: files as given, folders searched recursively for ``suffixes`` (in
    natural order), no duplicates. Raises FileNotFoundError for a path that does not exist."""
    from warroom.core.library import find_drill_files

    paths = [Path(p) for p in paths]
    for p in paths:
        if not p.exists():
            raise FileNotFoundError(f"{shown_path(p)}: no such file or folder")
    return find_drill_files(paths, suffixes, natural=True)


def drill_target(out_dir: Path, drill_id: str, force: bool, error: type[Exception]) -> Path:
    """Where the drill ``drill_id`` is written: ``<out_dir>/<drill_id>.yaml`` (a symbolic link there is written
    through, into the file it points to). Raises ``error`` when that file exists and ``force`` is False, and when it
    is a folder or read-only (with ``force`` too)."""
    target = out_dir / f"{drill_id}.yaml"
    if target.is_dir():  # even with --force: a folder is never replaced by a drill
        raise error(f"{shown_path(target)} is a folder, not a drill file: move it away or import into another --out "
                    "folder")
    if target.exists() and not force:
        raise error(f"{shown_path(target)} already exists (use --force to overwrite it)")
    mode = read_only_mode(target)  # with --force: a read-only drill is refused, as `annotate` and `migrate` do
    if mode is not None:
        raise error(f"{shown_path(target)} is read-only (mode {mode}): make it writable (chmod u+w) to overwrite it, "
                    "or import into another --out folder")
    return target


def prepare_out_dir(out_dir: Path) -> Path:
    """``out_dir`` as a folder that exists (created with its parents when missing), for an importer's drills.

    Raises NotADirectoryError when it is a file, OSError when it cannot be created."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(f"{shown_path(out_dir)}: exists and is not a folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir
