"""How drill files are read as YAML: YAML 1.2 core-schema meanings, editor line numbers, alias positions.

- **YAML 1.2 core schema** (:func:`loader_class`): an unquoted value is a boolean only when it is ``true`` or
  ``false`` (also ``True``/``TRUE``...), null only for ``null``, ``~`` or nothing, a number only in the 1.2 forms
  (``42``, ``-3``, ``0x1F``, ``0o17``, ``2.5``, ``1e3``, ``.inf``, ``.nan``). Everything else is text: ``no``, ``off``,
  ``yes``, ``12:30``, ``1_150``, ``2026-11-20``. PyYAML itself implements YAML 1.1, where those are booleans,
  base-60 numbers and dates; :func:`yaml11_value` gives that older reading so the loader can warn where the two
  differ. Merge keys (``<<: *defaults``) are kept.
- **Line numbers as editors show them** (:func:`hide_unusual_breaks`): YAML 1.1 (and PyYAML) treats U+0085, U+2028
  and U+2029 as line breaks; YAML 1.2 and editors such as VS Code do not (they break lines at LF, CRLF and a lone
  CR only). Those three characters are swapped for private-use stand-ins before parsing, so they stay ordinary
  characters of the text and every later line number matches the editor, then put back into the values.
- **Where an alias is used** (:class:`AliasMarks`): PyYAML's composer returns the anchored node for an alias and
  forgets where the alias was written; the loader's composer records it, so that a problem reached through an
  alias is reported where the alias is, not at the anchor.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from functools import cache
from typing import Any, cast

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser

TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (TAG + t for t in ("str", "int", "float", "bool", "null"))
TIMESTAMP, MERGE, SEQ, MAP = (TAG + t for t in ("timestamp", "merge", "seq", "map"))

#: The YAML 1.2 core schema's forms, by tag (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
CORE_NULL = re.compile(r"(?:null|Null|NULL|~|)\Z")
CORE_BOOL = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
CORE_INT = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
CORE_FLOAT = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)
#: Most digits of a whole number read as a number (Python refuses to convert longer ones).
MAX_INT_DIGITS = 4000


class _CoreResolver(yaml.resolver.Resolver):
    """PyYAML's resolver with the YAML 1.2 core schema's implicit tags (plus merge keys) instead of YAML 1.1's."""

    # PyYAML's own per-class table (its stubs declare it as an attribute, so no ClassVar here)
    yaml_implicit_resolvers: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {}  # noqa: RUF012


for _tag, _regexp, _first in (
    (BOOL, CORE_BOOL, "tTfF"),
    (INT, CORE_INT, "-+0123456789"),
    (FLOAT, CORE_FLOAT, "-+.0123456789"),
    (NULL, CORE_NULL, ["n", "N", "~", ""]),
    (MERGE, re.compile(r"<<\Z"), "<"),
):
    _CoreResolver.add_implicit_resolver(_tag, _regexp, list(_first))


def core_tag(value: str) -> str:
    """The tag the YAML 1.2 core schema gives the unquoted (plain) scalar ``value``."""
    return str(_CoreResolver().resolve(ScalarNode, value, (True, False)))  # type: ignore[no-untyped-call]


class ScalarError(ValueError):
    """A scalar's text does not fit its tag (``!!int x``, ``!!bool maybe``)."""


def construct_core(tag: str, value: str) -> Any:
    """The Python value of a scalar with ``tag`` and text ``value`` under the YAML 1.2 core schema.

    Booleans, null, whole numbers (decimal, ``0x``, ``0o``) and floats (``.inf``, ``.nan`` too); any other tag
    returns the text. Raises :class:`ScalarError` when the text is not of the tag's form (an explicit tag such as
    ``!!int x``), or a whole number has more than :data:`MAX_INT_DIGITS` digits.
    """
    if tag == STR:
        return value
    if tag == NULL:
        if not CORE_NULL.match(value):
            raise ScalarError("null is written null, ~ or nothing")
        return None
    if tag == BOOL:
        if not CORE_BOOL.match(value):
            raise ScalarError("YAML 1.2 booleans are true and false")
        return value.lower() == "true"
    if tag == INT:
        if not CORE_INT.match(value):
            raise ScalarError("a whole number is digits, 0x... or 0o...")
        if len(value) > MAX_INT_DIGITS:
            raise ScalarError(f"a whole number has at most {MAX_INT_DIGITS:,} digits")
        if value.startswith(("0x", "0o")):
            return int(value[2:], 16 if value[1] == "x" else 8)
        return int(value)
    if tag == FLOAT:
        if not (CORE_FLOAT.match(value) or CORE_INT.match(value)):
            raise ScalarError("a number is written like 2.5, 1e3, .inf or .nan")
        if CORE_INT.match(value) and value.startswith(("0x", "0o")):
            return float(construct_core(INT, value))
        low = value.lower()
        if low.endswith(".inf"):
            return -math.inf if low.startswith("-") else math.inf
        if low.endswith(".nan"):
            return math.nan
        return float(value)
    return value


_YAML11_RESOLVER = yaml.resolver.Resolver()


def yaml11_value(value: str) -> Any:
    """What a YAML 1.1 reader (PyYAML's ``safe_load``) makes of the plain scalar ``value``; the text if unsure."""
    tag = _YAML11_RESOLVER.resolve(ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    if tag in (STR, TIMESTAMP):
        return value  # text, or a date: text to warroom, a date object to YAML 1.1; not worth a warning
    node = ScalarNode(tag, value)
    try:
        return yaml.constructor.SafeConstructor().construct_object(node, deep=True)
    except Exception:
        return value


def same_value(a: Any, b: Any) -> bool:
    """True when two scalars read from YAML are the same value of the same type (NaN equals NaN)."""
    return type(a) is type(b) and repr(a) == repr(b)


def describe_value(value: Any, text: str, yaml11: bool = False) -> str:
    """How to name a scalar's value in a message: "the boolean false", "the number 1.1", "null (no value)",
    "text"; with ``yaml11``, a YAML 1.1 base-60 or octal number is named so ("the base-60 number 750")."""
    if value is None:
        return "null (no value)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if yaml11 and isinstance(value, int) and ":" in text:
        return f"the base-60 number {value:,}"
    if yaml11 and isinstance(value, int) and re.fullmatch(r"[-+]?0[0-7]+", text):
        return f"the octal number {value:,}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return "text"


# ---------------------------------------------------------------------------------------------------------------
# Line breaks editors do not show
# ---------------------------------------------------------------------------------------------------------------

#: Characters YAML 1.1 (PyYAML) reads as line breaks but YAML 1.2 and editors do not: NEL, LINE and PARAGRAPH
#: SEPARATOR.
UNUSUAL_BREAKS = "\x85\u2028\u2029"


def hide_unusual_breaks(text: str) -> tuple[str, dict[str, str]]:
    """``text`` with each of :data:`UNUSUAL_BREAKS` replaced by a private-use character that ``text`` does not
    contain, and the map from stand-in back to the original (empty when there was nothing to replace). Raises
    ValueError in the absurd case of a text that holds every private-use character."""
    found = [c for c in UNUSUAL_BREAKS if c in text]
    if not found:
        return text, {}
    present = set(text)  # one pass, however many private-use characters the text already holds
    private = itertools.chain(range(0xE000, 0xF900), range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))
    free = (chr(cp) for cp in private if chr(cp) not in present)
    stand_ins: list[str] = []
    for _ in found:
        stand_in = next(free, None)
        if stand_in is None:
            raise ValueError("the text uses every private-use character")
        stand_ins.append(stand_in)
    back = dict(zip(stand_ins, found, strict=True))
    for stand_in, original in back.items():
        text = text.replace(original, stand_in)
    return text, back


def restore_unusual_breaks(root: Node, back: dict[str, str]) -> None:
    """Put the characters :func:`hide_unusual_breaks` replaced back into every scalar of the tree at ``root``."""
    if not back:
        return
    table = str.maketrans(back)
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            node.value = node.value.translate(table)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, MappingNode):
            for k, v in node.value:
                stack.extend((k, v))


def line_col(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of character ``index`` of ``text``, lines broken at LF, CRLF and a lone CR."""
    before = text[:index]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    start = max(before.rfind("\n"), before.rfind("\r")) + 1
    return line, index - start + 1


# ---------------------------------------------------------------------------------------------------------------
# The loader class: core schema, and the composer that remembers where aliases are used
# ---------------------------------------------------------------------------------------------------------------


def placed_at(node: Node, mark: Any) -> Node:
    """``node``, or a shallow copy of it placed at ``mark`` (where the alias that led to it is written); ``mark``
    None: ``node`` itself."""
    if mark is None:
        return node
    moved = copy.copy(node)
    moved.start_mark = mark
    return moved


class AliasMarks(Composer):
    """A composer that records where each alias is used: ``alias_marks[(id(parent), index)]`` is the
    :class:`yaml.Mark` of an alias used as an item of a list (``index`` its position), as a mapping value
    (``index`` the id of its key node) or as a mapping key (``index`` is ``("key", n)`` for the n-th pair).
    """

    def __init__(self) -> None:
        Composer.__init__(self)
        self.alias_marks: dict[tuple[int, Any], Any] = {}
        self._keys_seen: dict[int, int] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if parent is None:
            return Composer.compose_node(self, parent, index)
        if index is None:  # a mapping key: count the pairs to know which one this is
            n = self._keys_seen.get(id(parent), 0)
            self._keys_seen[id(parent)] = n + 1
            where: Any = ("key", n)
        else:
            where = index if isinstance(index, int) else id(index)
        parser = cast(Parser, self)  # mixed into a PyYAML loader, which is also the parser
        mark = parser.peek_event().start_mark if parser.check_event(AliasEvent) else None  # type: ignore[no-untyped-call]
        node = Composer.compose_node(self, parent, index)
        if mark is not None:
            self.alias_marks[(id(parent), where)] = mark
        return node


@cache
def loader_class(base: type, track_aliases: bool) -> type:
    """A subclass of the PyYAML loader ``base`` (C or pure Python) that resolves tags with the YAML 1.2 core
    schema and, with ``track_aliases``, composes with :class:`AliasMarks` (in Python, so somewhat slower)."""
    attrs = {"yaml_implicit_resolvers": _CoreResolver.yaml_implicit_resolvers}
    if not track_aliases:
        return type(f"Core{base.__name__}", (base,), attrs)

    def __init__(self: Any, stream: str) -> None:
        base.__init__(self, stream)  # type: ignore[misc]  # the loader class given, not an instance's
        AliasMarks.__init__(self)

    return type(f"CoreAlias{base.__name__}", (AliasMarks, base), {**attrs, "__init__": __init__})
