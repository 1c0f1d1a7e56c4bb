"""What the span classifiers (``otel``, ``openinference``) share: a span's :class:`Step` begun, and marked as an
agent or a tool call from the values their conventions name.

Each classifier reads its own attribute names and hands the values here, so that the two conventions fill a step
the same way: a name missing from the span falls back to the span's own name, an empty id is None.
"""

from __future__ import annotations

import re
from typing import Any

from warroom.importers.otlp.spans import Span
from warroom.importers.otlp.steps import AGENT, TOOL, Step, as_text, count_unknown, exception_text


def begin_step(span: Span, known: frozenset[str], prefixes: tuple[str, ...] = (),
               pattern: re.Pattern[str] | None = None) -> Step:
    """The :class:`Step` of ``span`` before its kind is known: its count of attributes neither in ``known``, nor
    under one of ``prefixes``, nor matching ``pattern`` (:func:`~warroom.importers.otlp.steps.count_unknown`), and
    its exception text ("" when it raised none)."""
    return Step(span, unknown=count_unknown(span, known, prefixes, pattern=pattern), error=exception_text(span))


def mark_agent(step: Step, span: Span, name: Any, inputs: str) -> None:
    """Make ``step`` an agent named ``name`` (as text; the span's name when empty) whose input is ``inputs``."""
    step.kind = AGENT
    step.name = as_text(name) or span.name
    step.inputs = inputs


def mark_tool(step: Step, span: Span, tool: Any, call_id: Any) -> None:
    """Make ``step`` a call of tool ``tool`` (as text; the span's name when empty) with the tool-call id
    ``call_id`` (as text; None when empty). The caller sets its arguments and result."""
    step.kind = TOOL
    step.tool = as_text(tool) or span.name
    step.call_id = as_text(call_id) or None
