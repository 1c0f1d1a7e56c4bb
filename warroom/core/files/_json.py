"""JSON read one way: an object that gives a key twice is refused (JSON leaves its meaning open: Python keeps the
last value, other readers the first), so that two readers of one record, or of one imported file, cannot disagree.
"""

from __future__ import annotations

import json
import re
from typing import Any

from warroom.errors import WarroomError


class _Twice(Exception):  # a signal inside the parser (:func:`_unique_keys`), turned into DuplicateKey
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class DuplicateKey(WarroomError, json.JSONDecodeError):
    """A JSON object holding one key twice (:attr:`key`); a :class:`json.JSONDecodeError` whose position is the
    key's second occurrence."""

    def __init__(self, key: str, doc: str, pos: int) -> None:
        json.JSONDecodeError.__init__(self, f"the key {json.dumps(key, ensure_ascii=True)[:80]} is given twice in one "
                                      "object", doc, pos)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a key twice: which one (the first repeated)
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(key)
            seen.add(key)
    return obj


def record_json(text: str | bytes, **options: Any) -> Any:
    """``text`` (a record: a journal line, an exported line, an action log's line, an imported trace file) parsed as
    JSON, refusing an object that holds a key twice: JSON leaves such an object undefined (Python keeps the last
    value, other readers the first), so two readers could disagree about the record. Raises :class:`DuplicateKey`
    (a :class:`json.JSONDecodeError`) at the key's second occurrence, naming the key, or json's own errors;
    ``options`` are :func:`json.loads`'s."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, **options)
    except _Twice as twice:
        doc = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        raise DuplicateKey(twice.key, doc, _second_key_at(doc, twice.key)) from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACE = re.compile(r"[{}]")
_COLON = re.compile(r"\s*:")


def _second_key_at(doc: str, key: str) -> int:
    """The index in ``doc`` of the second occurrence of ``key`` as a key of one same object (0 when not found):
    strings are JSON's only quoted text, so scanning them left to right, with the braces between them, finds
    each key and its object."""
    stack: list[int] = [0]
    opened = 0
    seen: set[int] = set()
    pos = 0
    for match in _STRING.finditer(doc):
        for brace in _BRACE.finditer(doc, pos, match.start()):
            if brace.group() == "{":
                opened += 1
                stack.append(opened)
            elif len(stack) > 1:
                stack.pop()
        pos = match.end()
        if not _COLON.match(doc, pos):  # matched where the string ends: linear in the document, not quadratic
            continue
        try:
            name = json.loads(match.group())
        except ValueError:
            continue
        if name == key:
            if stack[-1] in seen:
                return match.start()
            seen.add(stack[-1])
    return 0
