"""What every importer names its drills: one rule for a drill id made of the importer's prefix and the file name."""

from __future__ import annotations

import hashlib
import re
import unicodedata

#: Most characters in an imported drill's id (its file name is the id and ``.yaml``).
MAX_ID_CHARS = 80
_NOT_ID = re.compile(r"[^A-Za-z0-9_.-]+")


def drill_id(prefix: str, stem: str, index: int | None = None, *, blank: str = "trace") -> str:
    """The id of a drill imported from the file named ``stem`` (its name without the suffix): ``<prefix>-<stem>``,
    with ``-<index>`` added for a file's index-th trace or record (``otel-legacy-1``).

    A stem that already starts with ``prefix`` (in any case, as a whole word: followed by ``-``, ``_``, ``.`` or
    nothing) is not prefixed again: ``langsmith-planner-executor`` gives ``langsmith-planner-executor``, not
    ``langsmith-langsmith-planner-executor`` (the prefix is then written as given: ``LangSmith-export`` gives
    ``langsmith-export``). Accented and other letters with an ASCII form are written in ASCII (``März`` gives
    ``Marz``); other characters than ASCII letters, digits, ``-``, ``_`` and ``.`` become ``-``; a stem left with
    none is ``blank``. A stem with characters that have no ASCII form (``事件``) gets ``-`` and six hex digits of
    its SHA-256 before the index, so that two such names give two ids (``chat-trace-3c5e1f``). The id has at most
    :data:`MAX_ID_CHARS` characters (the stem is shortened, the tag and index kept) and does not end in ``-``,
    ``_`` or ``.`` before them. Returns the id (text); never raises.
    """
    plain = _latin(stem)
    clean = _NOT_ID.sub("-", plain).strip("-._") or blank
    head = clean[: len(prefix)]
    rest = clean[len(prefix):]
    if head.lower() == prefix.lower() and rest[:1] in ("", "-", "_", "."):
        name = prefix + rest
    else:
        name = f"{prefix}-{clean}"
    suffix = "" if index is None else f"-{index}"
    if not plain.isascii():  # letters with no ASCII form (事件): a tag keeps two such names apart
        suffix = f"-{hashlib.sha256(stem.encode('utf-8', 'surrogatepass')).hexdigest()[:6]}{suffix}"
    return name[: MAX_ID_CHARS - len(suffix)].rstrip("-._") + suffix


def _latin(text: str) -> str:
    """``text`` with each character that has an ASCII form written so (NFKD without its accents: ``März`` is
    ``Marz``, ``ﬁ`` is ``fi``, full-width ``ＡＢ`` is ``AB``); other characters (``事件``) are kept."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
