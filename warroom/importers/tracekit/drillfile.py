"""The unmarked drill: its id, its YAML text with a header that shows the author what to add, and the check that
the only thing ``warroom validate`` finds missing is the answer key."""

from __future__ import annotations

import re
from typing import Any

from warroom.importers.tracekit.rules import TraceError
from warroom.importers.who_and_when.drill import dump_drill_yaml

#: What ``warroom validate`` says about an imported drill until it is marked up (warroom.core.validation).
MISSING_KEY = (
    "the drill needs an answer_key (the hidden fault), or all_clear for a control drill with no fault"
)

_MARKUP = """\
No answer key: a real trace does not say what went wrong, and the importer does not guess. Until you add one,
`warroom validate` reports exactly that. Mark up the incident by adding, at the end of this file:

answer_key:
  fault: {origin_step: STEP, kind: KIND, summary: WHAT WENT WRONG, IN ONE SENTENCE}
  evidence: [EVENT]                 # the trace event(s) that show the fault
  cascade: []                       # the later plan steps it spoils
  damage: {unit: UNIT, entries: [{event: EVENT, amount: 1}]}
  deadline: SECONDS                 # or {event: EVENT, after: SECONDS}
  debrief: WHAT THE TRAINEE SHOULD HAVE SEEN, AND WHEN

or, for a healthy run, `all_clear: {debrief: WHY IT WAS HEALTHY}`. Then run `warroom validate` and
`warroom check` (docs/importing.md, "Marking up an imported trace")."""


def drill_id(prefix: str, stem: str, index: int | None = None) -> str:
    """A drill id ``<prefix>-<stem>`` (``-<index>`` added for a file's index-th trace), made of id characters and
    at most 80 of them."""
    clean = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-._") or "trace"
    suffix = "" if index is None else f"-{index}"
    return f"{prefix}-{clean}"[: 80 - len(suffix)].rstrip("-._") + suffix


def dump_unmarked(data: dict[str, Any], header: str) -> str:
    """``data`` (a drill without ``answer_key``) as YAML text, with ``header`` and the mark-up instructions as a
    ``#`` comment at the top."""
    return dump_drill_yaml(data, f"{header}\n\n{_MARKUP}")


def check_unmarked(text: str, path: str) -> None:
    """Load the drill ``text`` with the drill loader and make sure its only problem is the missing answer key.

    ``path`` is the file name the problems would name (the drill id + ``.yaml``: validate checks they match).
    Raises TraceError with the first other problem (``line N: message``) if there is any.
    """
    from warroom.core.loader import DrillLoadError, load_drill_text

    try:
        load_drill_text(text, path=path)
    except DrillLoadError as e:
        others = [p for p in e.problems if getattr(p, "message", None) != MISSING_KEY]
        if others:
            first = others[0]
            where = f"line {first.line}: " if getattr(first, "line", None) else ""
            raise TraceError(f"the drill made from this trace does not validate: {where}"
                             f"{getattr(first, 'message', first)}") from None
        return
    raise TraceError("the drill made from this trace has an answer key; the importer never writes one")
