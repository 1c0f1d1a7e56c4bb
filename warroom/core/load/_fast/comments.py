"""Comments on the fast load path: is every `` #`` after text on a line harmless?

The position-tracking path warns when a `` #`` comment follows unquoted text in a free-text field or tool data
(the text stops before it). The fast path (:mod:`warroom.core.load._fast.load`) has no positions, so
:func:`comments_harmless` finds out from the text and a second parse:

- a `` #`` after a key with no value (``entries:  # ...``), a block text header (``content: |  # ...``) or a complete
  quoted text (``id: "a"  # ...``) cuts no unquoted text, unless that line continues an unquoted text of several
  lines: then that text ends with what the line holds, which is looked for in the data;
- a `` #`` after a plain number, ``true``, ``false`` or ``null`` after ``key:`` or ``-`` is a comment that cuts no
  text (or part of a quoted or block text), unless a ``-`` line continues or ends an unquoted text (looked for in
  the data as above); it is decided so only when no other `` #`` needs the second parse below and none follows a
  ``[`` or ``{`` on its line (see ``_continues_text``), else it is marked like the others;
- every other `` #`` is replaced by a character the file lacks (and each ``:`` after it on its line by another)
  and the file parsed again: where a value then
  differs, the `` #`` was a comment after that value, harmless unless the value is text read in a free-text field
  or tool data; where only that character differs, the `` #`` was inside a quoted or block text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from warroom.core.load._yaml.shape import DATA, TEXT, drill_shape, field_shape


def hashes_after_text(text: str) -> Iterator[tuple[int, int]]:
    r"""The ``(start, end)`` of each `` #`` after text on its line (a comment that may cut unquoted text short, or
    part of a quoted or block text) in ``text``, in order, as ``re.finditer(r"(?<=\S) +#", text)`` gives them:
    each `` #`` is found in C (``str.find``) and only the spaces before it are looked at. The expression has no
    literal to look for first, so the regex engine tries it at every character: 56 ms on a 10,000-event drill.
    A match is the whole run of spaces before a ``#`` when a character other than whitespace comes before the run."""
    at = text.find(" #")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1] == " ":
            start -= 1
        if start > 0 and not text[start - 1].isspace():  # re's \s is str.isspace()
            yield start, at + 2
        at = text.find(" #", at + 2)
#: What a line holds before a comment that cuts no unquoted text: a key with no value, a block text header, a
#: quoted text or a ``[...]``/``{...}`` that starts where a token starts (after ``key:``, ``-`` or at the start of the
#: line). ``end`` is what an unquoted text of several lines would end with if the line continued one.
_NO_PLAIN_END = re.compile(
    r"""(?:^|[:\-?] ) *(?P<end>[|>][-+0-9]*|"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[\[{].*[\]}])\Z|(?P<colon>:)\Z""",
    re.M,
)
#: What a line holds before a comment that follows a value certain not to be text (an integer or decimal written
#: plainly, ``true``, ``false``, ``null``) after ``key:`` or ``-``: the comment cuts no text. After ``key:`` (an
#: unquoted text holds no ``: ``) the value is a mapping's; after ``-`` the line may continue an unquoted text of
#: several lines or end one begun on the line (which then ends with ``value``, looked for in the data).
_NOT_TEXT_END = re.compile(r"(?P<indicator>[:\-]) +(?P<value>-?[0-9]+(?:\.[0-9]+)?|true|false|null)\Z")
#: The end of a text that a value of ``_NOT_TEXT_END`` can be the end of.
_TRAILING = re.compile(r"[-.0-9a-z]*\Z")


def comments_harmless(text: str, data: dict[str, Any], parse: Callable[[str], Any]) -> bool:
    """True when no `` #`` after text on a line of ``text`` cuts unquoted free text or tool data short (see the
    module docstring); ``data`` is ``text`` parsed by ``parse``. False when unsure."""
    marked: list[int] = []
    suffixes: list[str] = []
    not_text: list[int] = []  # after a number, true, false or null: see _continues_text
    after_dash: set[str] = set()  # their values after a ``-``
    flow_before = False  # a comment after a ``[`` or ``{`` may hide its closing bracket: see _continues_text
    has_cr = "\r" in text  # else a look back for one would go to the start of the text for every `` #``
    for start, end in hashes_after_text(text):
        line_start = text.rfind("\n", 0, start) + 1
        if has_cr:
            line_start = max(line_start, text.rfind("\r", 0, start) + 1)
        found = _NO_PLAIN_END.search(text, line_start, start)
        if found is not None:
            suffixes.append(found.group("end") or ":")
            flow_before = flow_before or _flow(text, line_start, start)
        elif (number := _NOT_TEXT_END.search(text, line_start, start)) is None or _flow(text, line_start, start):
            marked.append(end - 1)
        else:
            not_text.append(end - 1)
            if number.group("indicator") == "-":
                after_dash.add(number.group("value"))
    if suffixes and any(v.endswith(tuple(suffixes)) for v in _strings(data)):
        return False  # the line may continue an unquoted text of several lines, which the comment cuts
    if not_text and (marked or flow_before or (after_dash and _continues_text(data, after_dash))):
        marked = sorted(marked + not_text)
    if not marked:
        return True
    free = (chr(c) for c in range(0xE000, 0xF900) if chr(c) not in text)
    hash_mark, colon_mark = next(free, None), next(free, None)  # for the `#`, and each `:` after it on its line
    if hash_mark is None or colon_mark is None:
        return False
    pieces: list[str] = []
    last = 0
    for at in marked:
        if at < last:  # a second `#` on a line already marked: a comment again, or text as the first one is
            continue
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        pieces += [text[last:at], hash_mark, text[at + 1 : line_end].replace(":", colon_mark)]
        last = line_end
    other = parse("".join(pieces) + text[last:])
    if other.__class__ is not dict:
        return False
    restore = str.maketrans({hash_mark: "#", colon_mark: ":"})
    return _same_but_comments(data, other, drill_shape(), hash_mark, restore)


def _same_but_comments(value: Any, other: Any, shape: Any, stand_in: str, restore: dict[int, str]) -> bool:
    """True when ``other`` (parsed with the marked ``#``) differs from ``value`` only where a marked ``#`` was inside
    a text, or where a comment followed a value that is not text read as free text or tool data."""
    if value.__class__ is dict:
        if other.__class__ is not dict or value.keys() != other.keys():
            return False
        if isinstance(shape, tuple) and shape[0] == "union":
            kind = value.get("kind")
            model = shape[1].get(kind) if isinstance(kind, str) else None
            shape = ("model", model) if model is not None else None
        return all(_same_but_comments(v, other[k], _child(shape, k), stand_in, restore) for k, v in value.items())
    if value.__class__ is list:
        return (
            other.__class__ is list and len(value) == len(other)
            and all(
                _same_but_comments(v, o, _item(shape), stand_in, restore)
                for v, o in zip(value, other, strict=True)
            )
        )
    if value == other and value.__class__ is other.__class__:
        return True
    if other.__class__ is not str or stand_in not in other:
        return False
    if other.translate(restore) == value:
        return True  # the `#` is inside a quoted or block text
    # A comment followed this value. Only unquoted text is cut (a number, a boolean or null is not text: a field
    # that wants text refuses it anyway); free text and tool data warn about it.
    return value.__class__ is not str or shape not in (TEXT, DATA)


def _flow(text: str, start: int, end: int) -> bool:
    return "[" in text[start:end] or "{" in text[start:end]


def _continues_text(data: dict[str, Any], values: set[str]) -> bool:
    """True when a text in ``data`` ends with one of ``values``: a line ``- 12  # ...`` may then continue an
    unquoted text of several lines (or end one begun on the line), which the comment cuts.

    Why a comment after a number, ``true``, ``false`` or ``null`` is decided without a second parse only when no
    other comment needs one (``marked``) and none follows a ``[`` or ``{`` on its line: only then is every such
    line known to be in block context, a quoted text or a block text (a ``[...]`` or ``{...}`` that spans lines
    passes the fast path's text checks only when a comment hides its closing bracket). There the second parse
    would read the marked ``#`` and the rest of the line as part of the text (a verdict of harmless), or as part of
    an unquoted text after the number: a value that differs from the number and is not text, harmless too.
    Otherwise every comment is marked, as before."""
    last = {value[-1] for value in values}
    for v in _strings(data):
        if v[-1:] in last:
            run = _TRAILING.search(v).group()  # type: ignore[union-attr]  # it matches at the end of any text
            if any(run[i:] in values for i in range(len(run))):
                return True
    return False


def _child(shape: Any, key: str) -> Any:
    if shape == DATA:
        return DATA
    if isinstance(shape, tuple) and shape[0] == "model":
        return field_shape(shape[1], key)
    if isinstance(shape, tuple) and shape[0] == "dict":
        return shape[1]
    return None


def _item(shape: Any) -> Any:
    if shape == DATA:
        return DATA
    return shape[1] if isinstance(shape, tuple) and shape[0] == "list" else None


def _strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        node = stack.pop()
        for v in node.values() if node.__class__ is dict else node:
            if v.__class__ is str:
                yield v
            elif v.__class__ is dict or v.__class__ is list:
                stack.append(v)
