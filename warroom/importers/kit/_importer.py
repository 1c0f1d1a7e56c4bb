"""The importer protocol: what one trace format tells the kit (how to recognise, read and check its files) and the
command line (its ``warroom import NAME`` subcommand: help and options), and the base of the importers of real
traces, whose drills have no answer key.

This module is light on purpose: the registry imports every format's importer to build ``warroom import --help``,
so an importer's reading code (and the packages it needs, such as OpenTelemetry's attribute names) is imported
only when it reads a file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from warroom.core.text import clean_name, cut_value
from warroom.importers.kit._rules import DEFAULT_PRICE, Price, TraceError, TraceOptions

if TYPE_CHECKING:
    from warroom.importers.kit._redact import Redactor
    from warroom.importers.kit._report import ImportReport, Progress

#: One drill an importer makes of a file: its plain data (dicts, lists, text, numbers) and its file's header comment.
DrillData = tuple[dict[str, Any], str]


@dataclass(frozen=True)
class Refused:
    """One record of a file that an importer refuses while it imports the file's others: ``where`` it is in the
    file (``task 55``) and the one-line ``reason`` (an annotation that cannot give a fair drill: docs/importing.md,
    "Annotated failure datasets")."""

    where: str
    reason: str


@dataclass(frozen=True)
class Option:
    """An option of one importer's command beyond those every import takes: its ``flag`` (``--trace-id``), the
    ``metavar`` shown for its value, its ``help``, and ``parse``, which turns the value given into what the
    importer's options take (raising ValueError with a one-line reason for a value it refuses: a usage error)."""

    flag: str
    metavar: str
    help: str
    parse: Callable[[str], object]

    @property
    def name(self) -> str:
        """The key of the option's value in what :meth:`Importer.make_options` is given: ``trace_id``."""
        return self.flag.lstrip("-").replace("-", "_")


class Options(Protocol):
    """What every importer's options hold: the redaction of every drill text (None: none)."""

    @property
    def redactor(self) -> Redactor | None: ...


class Importer(Protocol):
    """One trace format read into drills (docs/importing.md, "Adding an importer").

    ``name`` is its ``warroom import NAME`` subcommand; ``title`` says what a file of its format is in messages
    (``LangSmith runs``, ``a chat transcript``) and ``shape`` how to tell it (the keys that say so; may be empty);
    ``unit`` is what one input is (``trace``, ``record``), ``suffixes`` the files searched for in a folder,
    ``error`` the error its reading raises for a file it refuses; ``answer_key`` says whether its drills carry their
    answer key (else the author marks each up). ``help``, ``out_help`` and ``options`` make its command;
    ``needs`` names the module of the ``import`` extra it needs and what that module gives it, or is None. Each is
    read only (a class attribute does).
    """

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def shape(self) -> str: ...

    @property
    def unit(self) -> str: ...

    @property
    def suffixes(self) -> tuple[str, ...]: ...

    @property
    def error(self) -> type[ValueError]: ...

    @property
    def answer_key(self) -> bool: ...

    @property
    def help(self) -> str: ...

    @property
    def out_help(self) -> str: ...

    @property
    def options(self) -> tuple[Option, ...]: ...

    @property
    def needs(self) -> tuple[str, str] | None: ...

    def recognises(self, values: Sequence[Any]) -> bool:
        """Whether a file whose JSON values are ``values`` (a document: one value; JSON Lines: one per line; never
        empty) is of this format, by its shape alone: the keys and values that say so, not whether it reads
        without error."""
        ...

    def make_options(self, given: Mapping[str, Any], redactor: Redactor | None) -> Options:
        """The options of one import: ``given`` holds each of :attr:`options` by name (None when not given)."""
        ...

    def read(self, path: Path, options: Any) -> Sequence[DrillData | Refused]:
        """The drills of the file at ``path`` (all of them, or :attr:`error` with a one-line reason); a record it
        refuses on its own, the others still imported, is a :class:`Refused`."""
        ...

    def finish(self, data: dict[str, Any], header: str) -> str:
        """The drill file's text for ``data`` (redacted already) with ``header``, checked: raises :attr:`error` when
        the drill would not be what ``warroom validate`` and ``warroom check`` expect of this importer's drills."""
        ...


def _trace_id(value: str) -> str:
    """``--trace-id`` as given; ValueError when it can name no trace: empty, only spaces, or only zeros (OTLP's "no
    trace id")."""
    if not value.strip():
        raise ValueError("is empty; give the id of the trace to import (the ids a file holds are in each drill's "
                         "`source` when you import it without --trace-id)")
    if not value.strip().strip("0"):
        raise ValueError(f"{cut_value(value.strip(), limit=64)} is all zeros, which OTLP uses for no trace id")
    return value


#: ``--price IN/OUT``: the prices of every model of a trace.
PRICE_OPTION = Option("--price", "IN/OUT", "Prices of every model, USD per million input/output tokens (default "
                      f"{DEFAULT_PRICE.input_usd_per_mtok:g}/{DEFAULT_PRICE.output_usd_per_mtok:g}).", Price.parse)
#: ``--trace-id ID``: the one trace to import of a file that holds several.
TRACE_ID_OPTION = Option("--trace-id", "ID", "Import only this trace (its id, as each drill's `source` names it) of "
                         "a file that holds several; without it, every trace is a drill.", _trace_id)


def _reading_time(value: str) -> float:
    """``--reading-time S`` as seconds; ValueError unless it is a number of seconds from 1 to 120."""
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"{cut_value(value)} is not a number of seconds (e.g. 10)") from None
    if not 1 <= seconds <= 120:
        raise ValueError(f"{cut_value(value)}: give a reading time from 1 to 120 seconds")
    return seconds


def _ground_truth(value: str) -> Path:
    """``--ground-truth FILE`` as a path; ValueError when it is not a file: an empty name (never ``.``), a folder,
    a symbolic link to nothing, a name too long for the system (an ``OSError`` the check raised, a traceback)."""
    import stat

    from warroom.core.files import broken_link

    if not value:
        raise ValueError("an empty name names no file: give the dataset's ground-truth file, e.g. ground_truth.json")
    shown = clean_name(value) if len(value) <= 200 else cut_value(value)
    try:
        mode = os.stat(value).st_mode
    except OSError as exc:
        why = broken_link(value, exc) or (exc.strerror or "cannot be read").lower()
        raise ValueError(f"{shown}: {why} (the dataset's ground-truth file, e.g. ground_truth.json)") from None
    if not stat.S_ISREG(mode):
        raise ValueError(f"{shown}: is no file (the dataset's ground-truth file, e.g. ground_truth.json)")
    return Path(value)


#: ``--reading-time S``: after each result and model output, the next event at least S seconds later.
READING_TIME_OPTION = Option("--reading-time", "S", "Re-time the drill for reading: after every tool result and "
                             "model output the next event comes at least S seconds later (later events moved "
                             "with it; the drill's `source` says what was stretched). Default: times as recorded.",
                             _reading_time)
#: ``--ground-truth FILE``: the annotations that key the drills.
GROUND_TRUTH_OPTION = Option("--ground-truth", "FILE", "Key each drill from this annotation file (AgentRx "
                             "`ground_truth.json` for `chat`, TRAIL-style span-level errors for `otel` and "
                             "`openinference`), re-timed for reading; a run the annotation cannot make a fair drill "
                             "of is refused with the reason.", _ground_truth)


class TraceImporter:
    """The base of the importers of real traces (``chat``, ``otel``, ...), which read ``*.json`` and ``*.jsonl``
    files of traces and write drills that are complete but for their answer key: the author marks up the incident
    (:func:`~warroom.importers.kit.check_unmarked` proves it before a drill is written). A subclass names its
    format and implements :meth:`recognises` and :meth:`read`."""

    name: str
    title: str
    help: str
    shape: str = ""
    unit: str = "trace"
    suffixes: tuple[str, ...] = (".json", ".jsonl")
    error: type[ValueError] = TraceError
    answer_key: bool = False
    out_help: str = "Folder for the drill files (created if missing), one <id>.yaml per trace."
    options: tuple[Option, ...] = (PRICE_OPTION, TRACE_ID_OPTION, READING_TIME_OPTION)
    needs: tuple[str, str] | None = None

    def recognises(self, values: Sequence[Any]) -> bool:
        raise NotImplementedError

    def read(self, path: Path, options: TraceOptions) -> Sequence[DrillData | Refused]:
        raise NotImplementedError

    def check_annotations(self, path: Path) -> None:
        """Read the annotation file given with ``--ground-truth``; raises :attr:`error` when it is not one this
        importer reads (an importer that takes the option overrides this)."""
        raise self.error("this importer reads no annotation file")

    def make_options(self, given: Mapping[str, Any], redactor: Redactor | None) -> TraceOptions:
        """:class:`~warroom.importers.kit.TraceOptions` of ``--price`` and ``--trace-id`` (the defaults when not
        given). A ``--ground-truth`` file is read first (:meth:`check_annotations`): one that this importer cannot
        read raises :attr:`error` naming that file and what reads it, before any trace is imported."""
        truth = given.get("ground_truth")
        if truth is not None:
            from warroom.importers.kit._recognise import annotation_refusal

            try:
                self.check_annotations(truth)
            except ValueError as e:
                raise self.error(annotation_refusal(self, truth, str(e))) from None
        return TraceOptions(price=given.get("price") or DEFAULT_PRICE, trace_id=given.get("trace_id"),
                            redactor=redactor, reading_time=given.get("reading_time"),
                            ground_truth=given.get("ground_truth"))

    def finish(self, data: dict[str, Any], header: str) -> str:
        """The unmarked drill's YAML text with ``header`` and the mark-up instructions, once the drill is checked to
        miss only its answer key; a drill keyed from an annotation (``--ground-truth``) is checked to load and pass
        ``warroom check`` instead. Raises TraceError otherwise."""
        from warroom.importers.kit._drillfile import check_unmarked, dump_drill_yaml, dump_unmarked

        if "answer_key" in data:
            from warroom.importers.kit._keyed import checked_drill

            text = dump_drill_yaml(data, header)
            checked_drill(text, data["id"])
            return text
        check_unmarked(data)
        return dump_unmarked(data, header)


def run_import(importer: Importer, paths: Iterable[Path], out_dir: Path, options: Any = None, *, force: bool = False,
               progress: Progress | None = None) -> ImportReport:
    """:func:`~warroom.importers.kit.import_files` with ``importer``, its import loop imported only when called: each
    format's ``import_*`` function (docs/importing.md) is this with the format's importer
    (``import_otel = partial(run_import, IMPORTER)``), so that listing the importers imports none of it."""
    from warroom.importers.kit._files import import_files

    return import_files(importer, paths, out_dir, options, force=force, progress=progress)
