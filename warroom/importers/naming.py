"""What every importer names its drills: one rule for a drill id made of the importer's prefix and the file name."""

from __future__ import annotations

import re

#: Most characters in an imported drill's id (its file name is the id and ``.yaml``).
MAX_ID_CHARS = 80
_NOT_ID = re.compile(r"[^A-Za-z0-9_.-]+")


def drill_id(prefix: str, stem: str, index: int | None = None, *, blank: str = "trace") -> str:
    """The id of a drill imported from the file named ``stem`` (its name without the suffix): ``<prefix>-<stem>``,
    with ``-<index>`` added for a file's index-th trace or record (``otel-legacy-1``).

    A stem that already starts with ``prefix`` (in any case, as a whole word: followed by ``-``, ``_``, ``.`` or
    nothing) is not prefixed again: ``langsmith-planner-executor`` gives ``langsmith-planner-executor``, not
    ``langsmith-langsmith-planner-executor`` (the prefix is then written as given: ``LangSmith-export`` gives
    ``langsmith-export``). Characters other than letters, digits, ``-``, ``_`` and ``.`` become ``-``; a stem left
    with none is ``blank``. The id has at most :data:`MAX_ID_CHARS` characters (the stem is shortened, the index
    kept) and does not end in ``-``, ``_`` or ``.`` before the index. Returns the id (text); never raises.
    """
    clean = _NOT_ID.sub("-", stem).strip("-._") or blank
    head = clean[: len(prefix)]
    rest = clean[len(prefix):]
    if head.lower() == prefix.lower() and rest[:1] in ("", "-", "_", "."):
        name = prefix + rest
    else:
        name = f"{prefix}-{clean}"
    suffix = "" if index is None else f"-{index}"
    return name[: MAX_ID_CHARS - len(suffix)].rstrip("-._") + suffix
