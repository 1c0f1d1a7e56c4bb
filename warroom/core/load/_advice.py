"""What ``warroom validate`` advises beyond reading the file: warnings about a drill that loads, each at the field it
is about (``path:line:col: warning: ...``) and under its rule (docs/authoring.md, "What the loader accepts").

- ``briefing-hint``: briefing text or a domain tag that hints at the answer
  (:func:`warroom.core.model.briefing_hints`);
- ``no-habit``: a fault drill whose answer key names no ``habit`` (the habit that would have caught the fault, which
  the debrief shows in its own place);
- ``twin``: a twin that may not say what was meant: it changes none of the events that show the fault, or replaces
  one with the same content, or its healthy run releases another number of events than the fault drill at a moment
  up to the deadline (:func:`warroom.core.rules.twin_warnings`).

The author mode (``warroom annotate``) shows the same warnings after a save. Reads the file once more for the
positions, only when there is something to say.
"""

from __future__ import annotations

import os
from typing import Any

from warroom.core.load._problems import Problem

#: The warning of a fault drill whose answer key has no habit.
NO_HABIT = (
    "the answer key has no `habit`: add the habit that would have caught the fault, in a sentence or two that hold "
    "for any drill like this one (the debrief shows it in its own place; docs/authoring.md, \"The answer key\")"
)


def drill_advice(path: str | os.PathLike[str], drill: Any) -> list[Problem]:
    """The advice warnings of the loaded ``drill`` read from the file at ``path``, in field order."""
    from warroom.core.load._yaml.pos import position_of
    from warroom.core.model import briefing_hints
    from warroom.core.rules import twin_warnings

    found = [(hint.loc, hint.message, "briefing-hint") for hint in briefing_hints(drill)]
    key = getattr(drill, "answer_key", None)
    if key is not None and not (key.habit or "").strip():
        found.append((("answer_key",), NO_HABIT, "no-habit"))
    found += [(issue.loc, issue.message, "twin") for issue in twin_warnings(drill)]
    out = []
    for loc, message, rule in found:
        line, column = position_of(path, loc)
        out.append(Problem(os.fspath(path), line, column, message, "warning", rule))
    return out
