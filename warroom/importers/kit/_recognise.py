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
from warroom.importers.kit._reading import bounded_int, multipart_parts, read_text
from warroom.importers.kit._registry import importers

#: Most bytes of a file read to recognise it: the largest file any importer reads (a chat transcript, an export).
MAX_RECOGNISED_BYTES = 64 * 1024 * 1024
#: Most JSON values read to recognise a file (the first lines of JSON Lines say what the file is).
MAX_RECOGNISED_VALUES = 1000


def file_values(path: Path) -> list[Any]:
    """The JSON values the file at ``path`` starts with, at most :data:`MAX_RECOGNISED_VALUES`: one for a JSON
    document, one per line for JSON Lines, one per object for objects written one after another; reading stops at
    the first text that is not JSON (a line cut off). Empty when the file holds no JSON value, or cannot be read
    as text within :data:`MAX_RECOGNISED_BYTES` (not a regular file, too large, not UTF-8). Never raises for the
    file's content."""
    try:
        text = read_text(path, MAX_RECOGNISED_BYTES)
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
    return next((i for i in importers().values() if i.recognises(values)), None)


def recognise(path: Path) -> Importer | None:
    """The importer that reads the file at ``path``, by its content (see :func:`file_values`), or None."""
    return recognise_values(file_values(Path(path)))


def looks_like(importer: Importer) -> str:
    """``it looks like TITLE (SHAPE): `warroom import NAME` reads it`` (``them`` for a plural title)."""
    them = "it" if importer.title.startswith(("a ", "an ")) else "them"
    shape = f" ({importer.shape})" if importer.shape else ""
    return f"it looks like {importer.title}{shape}: `warroom import {importer.name}` reads {them}"


def refusal(importer: Importer, path: Path, message: str) -> str:
    """``message`` (``importer``'s refusal of the file at ``path``) with the importer that reads the file added
    (``; it looks like ...``) when that is another one and the message does not name it already."""
    other = recognise(path)
    if other is None or other.name == importer.name or f"`warroom import {other.name}` reads" in message:
        return message
    return f"{message}; {looks_like(other)}"
