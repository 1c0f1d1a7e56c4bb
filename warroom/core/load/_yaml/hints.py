"""How a value was written in YAML, for messages: the value as the author wrote it, and hints when YAML 1.2 reads
an unquoted scalar otherwise than the author may have meant (``no``, ``12:30``, ``1_150``, a quoted number)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warroom.core.load._yaml import core as yc
from warroom.core.text import clean

_STR, _INT, _FLOAT, _BOOL, _NULL = yc.STR, yc.INT, yc.FLOAT, yc.BOOL, yc.NULL
#: Styles of a plain (unquoted) scalar: libyaml reports it as "", PyYAML as None.
PLAIN_STYLES = (None, "")


def show_value(node: Node | None, value: Any) -> str:
    """The offending value as the author wrote it (shortened), control characters shown as ``\\xNN`` (a message
    is printed to a terminal: a quoted value must not retitle it or change its colours)."""
    if isinstance(node, ScalarNode):
        text = node.value
        if text == "":
            return "nothing (the value is empty)" if node.style in PLAIN_STYLES else 'an empty text ("")'
        if len(text) > 60:
            text = text[:57] + "..."
        text = clean(text.replace("\n", "\\n").replace("\t", "\\t"))
        return f"`{text}`" if node.style in PLAIN_STYLES else f"the text `{text}`"
    if isinstance(node, MappingNode) or isinstance(value, dict):
        return "a mapping (key: value lines)"
    if isinstance(node, SequenceNode) or isinstance(value, list):
        return "a list"
    return f"`{value!r}`"


def yaml_hint(node: Node | None) -> str:
    """A hint when an unquoted scalar was read (YAML 1.2 core schema) as something other than text, else ""."""
    if not isinstance(node, ScalarNode) or node.style not in PLAIN_STYLES:
        return ""
    if node.tag not in (_BOOL, _INT, _FLOAT, _NULL):
        return ""
    try:
        value = yc.construct_core(node.tag, node.value)
    except yc.ScalarError:  # an explicit tag that does not fit its text (already reported by the builder)
        return ""
    if value is None and node.value == "":
        return ""
    v = cut(node.value)
    read = "a number" if isinstance(value, int) and not isinstance(value, bool) else yc.describe_value(value, v)
    return f"; YAML reads an unquoted `{v}` as {read}: write \"{v}\" in quotes if you meant the text"


#: Unquoted forms that were numbers or booleans in YAML 1.1 but are text in YAML 1.2.
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?")
_UNDERSCORED = re.compile(r"[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?)")
_YAML11_BOOLS = {"yes": "true", "no": "false", "on": "true", "off": "false"}


def number_hint(node: Node | None) -> str:
    """A hint when a number or boolean was expected and the value is text that YAML 1.1 read as one (``yes``,
    ``1:30``, ``1_150``) or a quoted number, else ""."""
    if not isinstance(node, ScalarNode):
        return ""
    v = node.value
    if node.style in PLAIN_STYLES and node.tag == _STR:
        word = _YAML11_BOOLS.get(v.lower())
        if word:
            return (
                f"; `{v}` is text in YAML 1.2, which warroom reads (YAML 1.1 read it as the boolean {word}): "
                "write true or false for a boolean"
            )
        old = yc.yaml11_value(v)
        if _SEXAGESIMAL.fullmatch(v) and isinstance(old, (int, float)) and not isinstance(old, bool):
            return (
                f"; `{cut(v)}` is text in YAML 1.2, which warroom reads (YAML 1.1 read it as the base-60 number "
                f"{old:,}): write {old} if you meant that number"
            )
        if "_" in v and _UNDERSCORED.fullmatch(v) and isinstance(old, (int, float)) and not isinstance(old, bool):
            return (
                f"; YAML 1.2 numbers have no `_` (YAML 1.1 read `{cut(v)}` as {old!r}): write {old!r} without "
                "the underscores"
            )
    if node.style not in PLAIN_STYLES and re.fullmatch(r"[-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?", v.strip()):
        return "; remove the quotes to write a number"
    return ""


def cut(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "\\n").replace("\t", "\\t")
    return clean(text if len(text) <= limit else text[: limit - 3] + "...")


def folded(rows: Iterable[str], first: str = "") -> str:
    """Lines of a plain value joined as YAML folds them, after its ``first`` line: each line stripped, joined to the
    one before by a space, a blank line between two of them a line break (the value goes on past it)."""
    out, breaks = first, 0
    for row in rows:
        if not row.strip():
            breaks += 1
            continue
        out += ("\n" * breaks or " ") * bool(out) + row.strip()
        breaks = 0
    return out
