"""Running one ``warroom import NAME``: the importer's options made (the redaction asked for as a
:class:`~warroom.importers.kit.Redactor`), the import run with its progress printed as it goes (each file's
warnings and failures, each drill written with ``-v``, a live count on a terminal), then the summary, what was
redacted, the hint to mark up drills without an answer key, and the exit status."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.common import say
from warroom.core.text import clean_name, shown_path

if TYPE_CHECKING:
    from warroom.importers.kit import Importer, ImportReport, ImportResult, Redactor


def run_import(importer: Importer, paths: tuple[Path, ...], out_dir: Path | None, given: Mapping[str, Any], *,
               redact: bool, redact_names: Path | None, force: bool, verbose: bool) -> None:
    """Run ``importer`` on ``paths`` into ``out_dir`` with its options ``given`` (by name), printing a ``path:
    message`` line per failed file and a ``path:line: warning: message`` line per warning as it goes (and the
    progress, on a terminal), then the summary (with the number of warnings), what was redacted and, for drills
    without an answer key, how to mark them up; exit 1 if any file failed or a folder could not be read (warnings
    alone leave it 0), 2 on a usage error.

    ``out_dir`` None (``--out -``): the drill is written on stdout and everything else on stderr; an import that
    makes more than one drill is a usage error, with nothing written."""
    import tempfile

    _check_needs(importer)
    try:  # a --ground-truth file that is not this importer's annotations: named, before any trace is read
        options = importer.make_options(given, make_redactor(redact, redact_names))
    except ValueError as e:
        raise click.UsageError(clean_name(e)) from None
    to_stdout = out_dir is None
    with tempfile.TemporaryDirectory(prefix="warroom-import-") if to_stdout else nullcontext(str(out_dir)) as folder:
        report = _import(importer, paths, Path(folder), options, force=force, verbose=verbose, to_stdout=to_stdout)
        unreadable = _unreadable_folders(paths, importer)
        if not report.results:
            kinds = ", ".join(f"*{s}" for s in importer.suffixes)
            raise click.UsageError(f"no {importer.unit} files ({kinds}) found in "
                                   + ", ".join(map(shown_path, paths)))
        if to_stdout:
            _write_one_drill(report)
    _summarise(importer, report, unreadable, options.redactor, keyed=getattr(options, "ground_truth", None) is not None)
    if report.failed or unreadable:
        raise SystemExit(1)


def _import(importer: Importer, paths: tuple[Path, ...], out_dir: Path, options: Any, *, force: bool,
            verbose: bool, to_stdout: bool = False) -> ImportReport:
    """The import run of :func:`run_import` (its progress printed, on stderr alone with ``to_stdout``); a usage
    error when the output folder cannot be made."""
    from warroom.core.text import clean
    from warroom.importers.kit import import_files

    progress = ImportProgress(verbose, to_stderr=to_stdout)
    try:
        report = import_files(importer, paths, out_dir, options, force=force, progress=progress)
    except (FileNotFoundError, NotADirectoryError, FileExistsError, PermissionError) as e:
        if e.filename is None:  # the kit's own message, its path named already
            raise click.UsageError(clean(e)) from None
        raise click.UsageError(f"{shown_path(e.filename)}: {clean(e.strerror or e)}") from None  # a system error
    except OSError as e:
        raise click.UsageError(f"{shown_path(e.filename or out_dir)}: {clean(e.strerror or e)}") from None
    finally:
        progress.finish()
    if to_stdout:
        report.where = "standard output"
    return report


def _write_one_drill(report: ImportReport) -> None:
    """Print the one drill of ``report`` (made in a temporary folder) on stdout; more than one is a usage error."""
    from warroom.cli.common import emit
    from warroom.core.text import plural

    drills = [r.output for r in report.imported if r.output is not None]
    if len(drills) > 1:
        files = len({r.source for r in report.imported})
        raise click.UsageError(f"--out -: this import makes {plural(len(drills), 'drill')} (from "
                               f"{plural(files, 'file')}) and standard output holds one; nothing was written: name "
                               "a folder (--out DIR), or import one trace (--trace-id) or one file")
    if drills:
        emit(_terminal_safe(drills[0].read_text(encoding="utf-8")), None)


def _terminal_safe(drill: str) -> str:
    """The drill file's text ``drill`` as standard output shows it, holding the same drill: where a text holds a
    character :func:`~warroom.core.text.clean` escapes (a bidirectional override, a C1 control), which YAML keeps
    raw in a plain, quoted or block scalar, its body is written again with every character outside ASCII as a
    double-quoted escape (``"\\u202e"``), which reads back as the character; cleaning the raw text instead wrote
    ``\\u202e`` into a block scalar, six characters of text that the drill written into a folder did not hold. The
    ``#`` header is clean already."""
    import yaml

    from warroom.core.text import clean

    if clean(drill) == drill:
        return drill
    lines = drill.splitlines(keepends=True)
    start = next((n for n, line in enumerate(lines) if line.strip() and not line.startswith("#")), len(lines))
    body = yaml.safe_load("".join(lines[start:]))
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return "".join(lines[:start]) + yaml.dump(body, Dumper=dumper, sort_keys=False, allow_unicode=False, width=120)


def _check_needs(importer: Importer) -> None:
    """A usage error saying what to install when the importer needs a package of the ``import`` extra that is not
    installed."""
    import importlib.util

    if importer.needs is None:
        return
    module, what = importer.needs
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module half imported
        found = False
    if not found:
        raise click.UsageError(f"`warroom import {importer.name}` needs {what}: pip install 'warroom[import]'")


def _summarise(importer: Importer, report: ImportReport, unreadable: list[OSError], redactor: Redactor | None,
               keyed: bool = False) -> None:
    """Print the run's summary line (per record when each file is one drill with its answer key, else per drill
    and file), what was redacted, and the hint to mark up drills that have no answer key (``keyed``: the drills
    were keyed from a ground-truth file: the hint to check them instead)."""
    from warroom.core.text import plural

    err = report.where is not None  # the drill went to stdout: the rest goes to stderr
    line = report.summary() if importer.answer_key else report.drills_summary()
    say(line + (f"; {plural(len(unreadable), 'folder')} could not be read" if unreadable else ""), err=err)
    if redactor is not None:
        say(redactor.summary(), err=err)
    if report.imported and keyed and err:
        say(f"The drill is keyed from the ground truth and passed `warroom check`. {_NO_HABIT}", err=True)
    elif report.imported and keyed:
        say(f"Each drill is keyed from the ground truth and passed `warroom check`; play them with `warroom --drills "
            f"{report.out_dir}`. {_NO_HABIT}")
    elif report.imported and not importer.answer_key:
        say(annotate_hint([] if err else [r.output for r in report.imported if r.output is not None]), err=err)


#: A keyed drill's answer key has no habit (a ground truth says what went wrong, not what would have caught it), so
#: `warroom validate` warns on each: said once, with what to do, where the import says the drills are ready.
_NO_HABIT = ("Ground truth gives no habit that would have caught the fault, so `warroom validate` warns until you "
             "add one (`h` in `warroom annotate FILE`, then `s`).")


def annotate_hint(written: list[Path]) -> str:
    """The closing hint after an import wrote the drill files ``written``: mark each up with ``warroom annotate``
    (naming the file, shell-quoted, when there is one), then ``warroom validate``."""
    import shlex

    from warroom.core.text import clean

    one = len(written) == 1  # a file name with a newline stays on the hint's line
    what = f"`warroom annotate {clean_name(shlex.quote(str(written[0])))}`" if one else "`warroom annotate FILE`"
    return clean(f"Each drill has no answer key yet: mark up the incident with {what} (the war room's author mode, "
                 "docs/importing.md), then `warroom validate`.")


def _unreadable_folders(paths: tuple[Path, ...], importer: Importer) -> list[OSError]:
    """The folders under ``paths`` that could not be listed (their files were not imported), each reported on
    stderr as ``folder: cannot read this folder (permission denied)``."""
    from warroom.core.library import find_drill_files

    errors: list[OSError] = []
    find_drill_files(paths, importer.suffixes, errors=errors)
    for e in errors:
        why = "permission denied" if isinstance(e, PermissionError) else (e.strerror or str(e))
        say(f"{shown_path(e.filename)}: cannot read this folder ({why}); its {importer.unit}s were not imported",
            err=True)
    return errors


def make_redactor(redact: bool, names_file: Path | None) -> Redactor | None:
    """The redactor ``--redact`` / ``--redact-names FILE`` ask for, or None. A names file that cannot be read is a
    usage error (``FILE: reason``)."""
    if not redact and names_file is None:
        return None
    from warroom.importers.kit import Redactor, read_names

    names: list[str] = []
    if names_file is not None:
        try:
            names = read_names(names_file)
        except OSError as e:
            shown = shown_path(names_file)
            raise click.UsageError(f"{shown}: cannot read the names file: {clean_name(e.strerror or e)}") from None
        except ValueError as e:
            raise click.UsageError(clean_name(e)) from None
    return Redactor(names)


class ImportProgress:
    """What ``warroom import`` prints as it goes (a :data:`~warroom.importers.kit.Progress`): each
    file's warnings as ``path:line: warning: message`` and failures as ``path:line:col: message`` on stderr and, with
    ``verbose``, each drill written as ``path -> drill`` on stdout, as soon as the file is done; and, when stderr
    is a terminal (``live``), a ``N of M files`` line on stderr that the next line replaces, so that a large batch
    is never silent until its summary."""

    def __init__(self, verbose: bool, *, live: bool | None = None, to_stderr: bool = False) -> None:
        self.verbose = verbose
        self.to_stderr = to_stderr  # the drill itself goes to stdout (--out -)
        self.live = sys.stderr.isatty() if live is None else live
        self._shown = False

    def __call__(self, done: int, total: int, results: list[ImportResult]) -> None:
        shown = [r for r in results if r.error is not None or r.warnings or self.verbose]
        if shown:
            self.finish()
        for r in shown:  # paths and messages quoting a record: control characters shown as \xNN
            source = shown_path(r.source)  # a file name with a newline never makes a line of its own
            for w in r.warnings:  # before the file's error: a cut-off last line may be why it failed
                say(w.at(source), err=True)
            if r.error is not None:
                say(r.error_at(source), err=True)
            elif self.verbose:
                say(f"{source} -> {'standard output' if self.to_stderr else shown_path(r.output)}", err=self.to_stderr)
        if self.live and done < total:  # the count only grows: "\r" overwrites the line before
            self._write(f"\r{done:,} of {total:,} files")
            self._shown = True

    def finish(self) -> None:
        """Erase the ``N of M files`` line, if one is shown."""
        if self._shown:
            self._write("\r\x1b[K")  # back to the line's start, erase to its end
            self._shown = False

    @staticmethod
    def _write(text: str) -> None:
        sys.stderr.write(text)  # not click.echo, which drops the erase sequence when it thinks it is no terminal
        sys.stderr.flush()
