"""Which importer reads a file, by its content: the one place that recognises the trace formats, so that a file
given to the wrong importer (or to ``warroom annotate``) is named with the importer that reads it.

:func:`file_values` reads the JSON values a file starts with (one document, JSON Lines, or objects written one
after another, as the OpenTelemetry SDK's console exporter does; a value cut off at the end is left out), within
the largest limit an importer has; each registered importer says whether they are of its format
(:meth:`~warroom.importers.kit.Importer.recognises`); :func:`refusal` adds to an importer's refusal of a file the
importer that reads it: ``...; it looks like LangSmith runs (`run_type`, `inputs`, `outputs`): `warroom import
langsmith` reads them``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from warroom.importers.kit._importer import Importer
from warroom.importers.kit._reading import SIZE_LIMIT_WORDS, bounded_int, multipart_parts, read_head, read_text
from warroom.importers.kit._registry import importers

#: Most bytes of a file read to recognise it: the largest file any importer reads (a chat transcript, an export).
MAX_RECOGNISED_BYTES = 64 * 1024 * 1024
#: Most JSON values read to recognise a file (the first lines of JSON Lines say what the file is).
MAX_RECOGNISED_VALUES = 1000
#: Most bytes read to recognise a file its importer refused for its size: its head only (the first lines of JSON
#: Lines, the first objects written one after another; a single larger document is not recognised). Reading a 54 MiB
#: file whole to name its format took 320 MB of memory, to say what the size refusal had said.
MAX_HEAD_BYTES = 4 * 1024 * 1024


def file_values(path: Path, *, head: bool = False) -> list[Any]:
    """The JSON values the file at ``path`` starts with, at most :data:`MAX_RECOGNISED_VALUES`: one for a JSON
    document, one per line for JSON Lines, one per object for objects written one after another; reading stops at
    the first text that is not JSON (a line cut off). Empty when the file holds no JSON value, or cannot be read
    as text within :data:`MAX_RECOGNISED_BYTES` (not a regular file, too large, not UTF-8). With ``head``, only the
    values within its first :data:`MAX_HEAD_BYTES` (read without reading the rest). Never raises for the file's
    content."""
    try:
        text = read_head(path, MAX_HEAD_BYTES) if head else read_text(path, MAX_RECOGNISED_BYTES)
    except (ValueError, OSError):
        return []
    parts = multipart_parts(text)  # a captured multipart/form-data body of JSON parts: one object of them by name
    if parts is not None:
        return [parts]
    decoder = json.JSONDecoder(parse_int=bounded_int)  # a number of 5,000 digits is still a number
    values: list[Any] = []
    at = 0
    while len(values) < MAX_RECOGNISED_VALUES:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            break
        try:
            value, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            break
        values.append(value)
    return values


def _is_drill(value: Any) -> bool:
    """Whether ``value`` is a drill written as JSON (no trace format has a ``schema_version`` beside a ``plan``)."""
    return isinstance(value, dict) and ("schema_version" in value or "plan" in value)


def recognise_values(values: Sequence[Any]) -> Importer | None:
    """The importer that reads a file whose JSON values are ``values``, or None when no importer's format has
    this shape (or it is a drill). The formats' shapes do not overlap: when several importers answered, the first
    by name would be taken (tests/unit/test_import_recognise.py checks that each fixture has exactly one)."""
    if not values or _is_drill(values[0]):
        return None
    shared = RecognisedValues(values)  # what one importer's test finds out (the spans' convention), others reuse
    return next((i for i in importers().values() if i.recognises(shared)), None)


class RecognisedValues(list[Any]):
    """A file's JSON values while the importers each test them (:func:`recognise_values`): a list that also holds
    what a test worked out about them for the next test to reuse (``otlp.span_convention``, which three importers
    ask and which reads every span: three times over a 50,000-span file), gone with the list."""


def recognise(path: Path, *, head: bool = False) -> Importer | None:
    """The importer that reads the file at ``path``, by its content (see :func:`file_values`; ``head``: by its
    first bytes only), or None."""
    return recognise_values(file_values(Path(path), head=head))


def looks_like(importer: Importer) -> str:
    """``it looks like TITLE (SHAPE): `warroom import NAME` reads it`` (``them`` for a plural title)."""
    them = "it" if importer.title.startswith(("a ", "an ")) else "them"
    shape = f" ({importer.shape})" if importer.shape else ""
    return f"it looks like {importer.title}{shape}: `warroom import {importer.name}` reads {them}"


def _records(value: Any) -> list[Any]:
    """An annotation file's records: a list, ``{"data": [...]}``, or one record."""
    if isinstance(value, dict) and isinstance(value.get("data"), list):
        return list(value["data"])
    return list(value) if isinstance(value, list) else [value]


def _is_ground_truth(records: list[Any]) -> bool:
    """AgentRx-style ground truth: records naming a run (``trajectory_id``) with its ``failures``."""
    return bool(records) and all(isinstance(r, dict) and "trajectory_id" in r and isinstance(r.get("failures"), list)
                                 for r in records)


def _is_trail(records: list[Any]) -> bool:
    """TRAIL-style span annotations: records whose ``errors`` each name a span (``location``)."""
    return bool(records) and all(
        isinstance(r, dict) and isinstance(r.get("errors"), list) and r["errors"]
        and all(isinstance(e, dict) and "location" in e for e in r["errors"]) for r in records)


#: The start of a drill written as YAML: its format version or id at the start of a line, and a ``trace``.
_YAML_DRILL_KEYS = ("schema_version:", "trace:")


#: What reads each kind of annotation file: (what it is, the importers whose --ground-truth reads it).
GROUND_TRUTH_READER = ("failure-attribution ground truth (`trajectory_id`, `failures`), not a run: `warroom import "
                       "chat RUNS... --ground-truth FILE` reads it", ("chat",))
TRAIL_READER = ("TRAIL-style span annotations (`errors` with span `location`s), not a trace: `warroom import "
                "otel|openinference TRACES... --ground-truth FILE` reads it", ("otel", "openinference"))


def annotation_kind(path: Path, *, head: bool = False) -> tuple[str, tuple[str, ...]] | None:
    """``(what the file is, the importers that read it with --ground-truth)`` for an annotation file (AgentRx-style
    ground truth, TRAIL-style span annotations), else None (``head``: see :func:`file_values`). Never raises for the
    file's content."""
    values = file_values(path, head=head)
    records = _records(values[0]) if len(values) == 1 else []
    if _is_ground_truth(records):
        return GROUND_TRUTH_READER
    if _is_trail(records):
        return TRAIL_READER
    return None


def not_a_trace(path: Path, *, head: bool = False) -> str | None:
    """What the file at ``path`` is when it is no importer's trace but another file warroom reads: an annotation
    file (given with ``--ground-truth``) or a drill; None otherwise (``head``: see :func:`file_values`). Never raises
    for the file's content."""
    kind = annotation_kind(path, head=head)
    if kind is not None:
        return f"it is {kind[0]}"
    values = file_values(path, head=head)
    if (values and _is_drill(values[0])) or (not values and _yaml_drill(path)):
        return "it is a warroom drill, not a trace: `warroom validate FILE` checks it and `warroom --drills` plays it"
    return None


def annotation_refusal(importer: Importer, path: Path, message: str) -> str:
    """``importer``'s refusal of the annotation file at ``path`` (given with ``--ground-truth``) as
    ``PATH:LINE:COL: message``, with what reads the file when that is another importer's --ground-truth, or
    another importer's trace (a trace given as the annotations)."""
    for prefix in (f"{path}: ", f"{path.name}: "):
        message = message.removeprefix(prefix)
    kind = annotation_kind(path)
    other = recognise(path)
    if kind is not None and importer.name not in kind[1]:
        message += f"; it is {kind[0]}"
    elif kind is None and other is not None:
        message += f"; {looks_like(other)} as a trace (give it as PATH, not as --ground-truth)"
    from warroom.importers.kit._report import refusal_position

    line, col, message = refusal_position(message)
    return f"{path}:{line}:{col}: {message}"


def _yaml_drill(path: Path) -> bool:
    lines = read_head(Path(path), 64 * 1024).splitlines()  # a FIFO or a device is never read: it could block
    return all(any(line.startswith(key) for line in lines) for key in _YAML_DRILL_KEYS)


def refusal(importer: Importer, path: Path, message: str) -> str:
    """``message`` (``importer``'s refusal of the file at ``path``) with the importer that reads the file added
    (``; it looks like ...``) when that is another one and the message does not name it already; for a file that
    is no importer's but one warroom reads otherwise (an annotation file, a drill), what reads it
    (:func:`not_a_trace`). A file refused for its size is recognised by its head only (:data:`MAX_HEAD_BYTES`),
    never read whole."""
    head = SIZE_LIMIT_WORDS in message
    other = recognise(path, head=head)
    if other is None:
        what = None if "--ground-truth" in message else not_a_trace(path, head=head)
        return message if what is None else f"{message}; {what}"
    if other.name == importer.name or f"`warroom import {other.name}` reads" in message:
        return message
    return f"{message}; {looks_like(other)}"
