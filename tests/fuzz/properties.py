"""The properties the fuzzers check, as plain functions (also used by benchmarks/fuzz.py)."""

from __future__ import annotations

import ast
import re
from typing import Any

from warroom.core.load import DrillLoadError, load_drill_text

FORBIDDEN_WORDS = ("internal error", "Traceback")


def forbidden_words(output: str, text: str = "") -> list[str]:
    """The :data:`FORBIDDEN_WORDS` in ``output`` that are not in the input ``text`` (a message may quote the file's
    own text, and a bundled drill's tool output holds a Python traceback)."""
    return [w for w in FORBIDDEN_WORDS if w in output and w not in text]
#: Characters that must never reach a terminal from a file's text: C0 controls but tab and newline, DEL, C1 controls.
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_REFUSED_CHAR = re.compile(r"control character \(('[^']*'|\"[^\"]*\")\)")


def check_problem_positions(text: str, error: DrillLoadError, *, allow_past_end: bool = False) -> None:
    """Every problem of ``error`` is at a position inside ``text``: 1 <= line <= the file's lines (counted at
    ``\\n``, as editors count them), 1 <= column <= that line's length + 1 (the end of a line); its message is
    not empty and never says "internal error".

    ``allow_past_end`` accepts line N+1, column 1 for a file of N lines without a final newline: where a syntax
    error at the end of such a file is reported today (see test_loader_fuzz.py, "past the end").
    """
    assert error.problems, "a DrillLoadError without problems"
    text = text[1:] if text.startswith("\ufeff") else text
    lines = text.split("\n")
    for p in error.problems:
        assert p.path == error.path
        if allow_past_end and not text.endswith("\n") and (p.line, p.column) == (len(lines) + 1, 1):
            continue
        assert 1 <= p.line <= len(lines), f"line {p.line} outside the file's {len(lines)} line(s): {p}"
        assert 1 <= p.column <= len(lines[p.line - 1]) + 1, f"column outside line {p.line}: {p}"
        assert p.message.strip(), f"an empty message: {p!r}"
        assert not forbidden_words(p.message, text), p
        refused = _REFUSED_CHAR.search(p.message)
        if refused:  # a refused character is reported where it is
            char = ast.literal_eval(refused.group(1))
            assert lines[p.line - 1][p.column - 1 : p.column] == char, f"{char!r} is not at {p.line}:{p.column}: {p}"


def check_loader(text: str, *, allow_past_end: bool = False) -> Any:
    """``load_drill_text(text)`` returns a drill or raises a :class:`DrillLoadError` whose problems are all inside
    the file; any other exception propagates (and fails the test). Returns the drill or the error."""
    try:
        return load_drill_text(text, "fuzz.yaml")
    except DrillLoadError as e:
        check_problem_positions(text, e, allow_past_end=allow_past_end)
        return e
