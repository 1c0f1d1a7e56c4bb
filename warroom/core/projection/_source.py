"""The healthy run a projection starts from: a drill file with no fault in it (:func:`read_source`).

A healthy run is an imported trace not yet marked up (no ``answer_key``: ``warroom validate``'s only complaint
is that key missing), an all-clear drill, or a fault drill's twin (its healthy run, built from the ``twin``
section). A fault drill without a twin is refused: its trace holds a fault already. The source's plain data is kept
as it was read (its texts, ids and numbers exactly), for the projected drill to read like it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from warroom.core.model import Drill
from warroom.core.projection._problems import ProjectionError, at

#: The kinds of healthy run a projection starts from.
IMPORTED, ALL_CLEAR, TWIN = "imported trace", "all-clear drill", "twin"


@dataclass(frozen=True)
class HealthySource:
    """A healthy run: ``path`` (as messages name it), its plain ``data`` (no answer key, no all clear), its
    ``drill`` (the same, validated) and ``kind`` (:data:`IMPORTED`, :data:`ALL_CLEAR` or :data:`TWIN`)."""

    path: str
    data: dict[str, Any]
    drill: Drill
    kind: str


def read_source(path: str | os.PathLike[str]) -> HealthySource:
    """The healthy run in the drill file at ``path``. Raises ProjectionError (``path:line:col: message`` lines) when
    the file does not load as a drill (beyond a missing answer key) or holds a fault without a twin."""
    from warroom.core.files import SpecialFile, TooLarge, read_limited, why_missing
    from warroom.core.load import DrillLoadError, decode_drill_bytes, limits
    from warroom.core.text import clean_name

    shown = clean_name(os.fspath(path))  # on its line: a file name holding a newline forges no problem line
    try:  # opened without waiting and checked open: a FIFO is refused, never waited on
        text = decode_drill_bytes(read_limited(path, limits.MAX_FILE_BYTES), shown)  # as `validate` decodes it
    except SpecialFile as exc:
        raise ProjectionError(f"{shown}:1:1: this is {exc.kind}, not a drill file (`--all FOLDER` projects a "
                              "folder)") from None
    except TooLarge as exc:
        raise ProjectionError(f"{shown}:1:1: the file is {exc.size / 1048576:.1f} MiB; drill files are limited to "
                              f"{limits.MAX_FILE_BYTES // 1048576} MiB") from None
    except OSError as exc:
        why = why_missing(path, exc) or ("no such file" if isinstance(exc, FileNotFoundError) else
                                         f"cannot read the file: {exc.strerror or exc}")
        raise ProjectionError(f"{shown}:1:1: {why}") from None
    except DrillLoadError as exc:  # not UTF-8: the byte and its place
        raise ProjectionError("\n".join(str(p) for p in exc.problems)) from None
    return source_of(text, os.fspath(path))


def source_of(text: str, path: str = "<string>") -> HealthySource:
    """The healthy run in drill YAML ``text`` (``path`` names it in messages). Raises ProjectionError as
    :func:`read_source` does."""
    from warroom.core.load import DrillLoadError, load_yaml_text

    try:
        data = load_yaml_text(text, path)
    except DrillLoadError as exc:
        raise ProjectionError("\n".join(str(p) for p in exc.problems)) from None
    if data.get("schema_version") == 1:
        raise ProjectionError(at(path, ("schema_version",), "a format-1 drill: rewrite it as format 2 first "
                                 "(`warroom migrate FILE`), then project it"))
    kind = ALL_CLEAR if data.get("all_clear") is not None else IMPORTED
    if data.get("answer_key") is not None:
        if data.get("twin") is None:
            raise ProjectionError(at(path, ("answer_key",), "this drill has a fault (answer_key) and no twin, so "
                                     "its trace is not a healthy run: project an imported trace with no answer "
                                     "key, an all-clear drill, or a drill with a twin"))
        data, kind = _twin_data(data, text, path), TWIN
    drill = _healthy_drill(data, text, path)
    healthy = {k: v for k, v in data.items() if k not in ("answer_key", "all_clear", "twin")}
    return HealthySource(path, healthy, drill, kind)


def _twin_data(data: dict[str, Any], text: str, path: str) -> dict[str, Any]:
    """The healthy run of a fault drill with a twin (:func:`~warroom.core.model.twin_of`), as plain data; the
    fault drill's problems, if it has any, as ProjectionError at their places."""
    from pydantic import ValidationError

    from warroom.core.model import TwinError, twin_of
    from warroom.core.rules import validate_drill

    try:
        drill = Drill.model_validate(data)
        if not validate_drill(drill):
            return twin_of(drill).model_dump(mode="json", exclude_none=True)
    except (ValidationError, TwinError):
        pass
    _raise_problems(text, path, "the drill with the twin does not validate")
    raise AssertionError  # pragma: no cover - _raise_problems raises


def _healthy_drill(data: dict[str, Any], text: str, path: str) -> Drill:
    """``data`` validated as a drill whose only problem may be its missing answer key; else ProjectionError with
    every problem at its place (as ``warroom validate`` reports them)."""
    from pydantic import ValidationError

    from warroom.core.rules import MISSING_ANSWER_KEY, validate_drill

    try:
        drill = Drill.model_validate(data)
    except ValidationError:
        drill = None
    if drill is not None and all(i.message == MISSING_ANSWER_KEY for i in validate_drill(drill)):
        return drill
    _raise_problems(text, path, "the healthy run does not validate as a drill")
    raise AssertionError  # pragma: no cover - _raise_problems raises


def _raise_problems(text: str, path: str, what: str) -> None:
    """Raise ProjectionError with every problem ``warroom validate`` finds in ``text`` but the missing answer key,
    each at its place (``what``, at line 1, when it finds none)."""
    from warroom.core.load import DrillLoadError, load_drill_text
    from warroom.core.rules import MISSING_ANSWER_KEY

    try:
        load_drill_text(text, path)
    except DrillLoadError as exc:
        lines = [str(p) for p in exc.problems if p.message != MISSING_ANSWER_KEY]
        if lines:
            raise ProjectionError("\n".join(lines)) from None
    from warroom.core.text import shown_path

    raise ProjectionError(f"{shown_path(path)}:1:1: {what}; run `warroom validate` on it")
