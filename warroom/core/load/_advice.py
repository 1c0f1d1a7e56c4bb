"""What ``warroom validate`` advises beyond reading the file: warnings about a drill that loads, each at the field it
is about (``path:line:col: warning: ...``) and under its rule (docs/authoring.md, "What the loader accepts").

- ``briefing-hint``: briefing text or a domain tag that hints at the answer
  (:func:`warroom.core.model.briefing_hints`).

The author mode (``warroom annotate``) shows the same warnings after a save. Reads the file once more for the
positions, only when there is something to say.
"""

from __future__ import annotations

import os
from typing import Any

from warroom.core.load._problems import Problem

__all__ = ["drill_advice"]


def drill_advice(path: str | os.PathLike[str], drill: Any) -> list[Problem]:
    """The advice warnings of the loaded ``drill`` read from the file at ``path``, in field order."""
    from warroom.core.load._yaml.pos import position_of
    from warroom.core.model import briefing_hints

    found = [(hint.loc, hint.message, "briefing-hint") for hint in briefing_hints(drill)]
    out = []
    for loc, message, rule in found:
        line, column = position_of(path, loc)
        out.append(Problem(os.fspath(path), line, column, message, "warning", rule))
    return out
