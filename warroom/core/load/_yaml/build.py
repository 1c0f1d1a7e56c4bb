"""Build plain Python values from a composed YAML node tree, reading each scalar as the drill format expects.

:class:`Builder` walks the node tree once, guided by the format's shapes (:mod:`warroom.core.load._yaml.shape`), and
records problems (errors) and warnings as it goes:

- errors: duplicate keys (PyYAML would keep the last one silently), unsupported tags, an explicit tag whose text
  does not fit it (``!!int x``, ``!!bool maybe``), a number with a leading zero where a number is expected
  (octal in YAML 1.1, decimal in 1.2), a flow-mapping entry with no ``:`` (a comma inside unquoted text), too-deep
  nesting and runaway alias expansion;
- warnings: an unquoted scalar in free text or tool data that some YAML reader would read differently (YAML 1.1,
  or a plain YAML 1.2 reader where warroom keeps the text as written), and unquoted text cut short by a `` #``
  comment on its line.

Values are JSON-like: mapping keys are always text, dates stay text, merge keys (``<<: *defaults``) work.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, cast

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warroom.core.load._yaml import core as yc
from warroom.core.load._yaml.hints import PLAIN_STYLES, folded
from warroom.core.load._yaml.shape import DATA, TEXT, TYPED, Shape, field_shape

_IN_PROGRESS = object()
_SAME = object()
_TIMESTAMP_FORM = re.compile(r"\d{4}-\d\d?-\d\d?([Tt ]|\s+)?(\d\d?:\d\d:\d\d(\.\d*)?)?\s*(Z|[-+]\d\d?(:\d\d)?)?\Z")

#: ``report(node, message, severity, rule)``: a problem (severity ``error``, rule ``""``) or a warning (``warning``,
#: and the rule it falls under: repeated warnings of one rule are grouped, warroom.core.load.group_warnings).
Report = Callable[[Node, str, str, str], None]


class Abort(Exception):
    """Stop building: a limit was hit (the problem is already recorded)."""


def short_tag(tag: str) -> str:
    """``!!int`` for ``tag:yaml.org,2002:int``; other tags as they are."""
    return "!!" + tag[len(yc.TAG) :] if tag.startswith(yc.TAG) else tag


def _reading_kind(value: Any) -> str:
    """What another YAML reader makes of a value, as a word of a warning's rule: ``number``, ``boolean``, ``null``,
    ``text`` or ``date`` (a rule groups repeated warnings, warroom.core.load.group_warnings)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "text" if isinstance(value, str) else "date"


def is_plain(node: Node, text: str) -> bool:
    """True for an unquoted scalar without an explicit tag (``!!str 1.10`` and ``"1.10"`` are not plain)."""
    if node.__class__ is not ScalarNode or node.style not in PLAIN_STYLES:
        return False
    start = node.start_mark.index
    return not (0 <= start < len(text) and text[start] in "!&") or _implicit_after_anchor(text, start)


def _implicit_after_anchor(text: str, start: int) -> bool:
    match = re.match(r"&\S+\s+", text[start : start + 200])
    return match is not None and text[start + match.end() : start + match.end() + 1] != "!"


class Builder:
    """Builds plain values from nodes; ``report(node, message, severity, rule)`` receives each problem and
    warning."""

    def __init__(
        self, text: str, report: Report, *, max_depth: int, max_expansion: int, alias_marks: dict[Any, Any]
    ) -> None:
        self.text = text
        self.alias_marks = alias_marks
        self.report = report
        self.max_depth = max_depth
        self.max_expansion = max_expansion
        # Alias bookkeeping only when the text has an anchor at all ("&" appears): (id(node), shape) -> value, size.
        self._memo: dict[tuple[int, Any], Any] | None = {} if "&" in text else None
        self._count = 0
        self._expanded = 0
        #: The value of ``{...}`` a comma cut short (its error says to quote the whole text): no warning of its own.
        self._cut_text: Node | None = None

    def error(self, node: Node, message: str) -> None:
        self.report(node, message, "error", "")

    def warn(self, node: Node, message: str, rule: str) -> None:
        if node is not self._cut_text:
            self.report(node, message, "warning", rule)

    def build(self, node: Node, depth: int, shape: Shape) -> Any:
        """The plain value of ``node`` read as ``shape`` expects. Raises :class:`Abort` past a limit."""
        if node.__class__ is ScalarNode:
            self._count += 1
            return self._scalar(node, shape)
        if depth >= self.max_depth:
            self.error(
                node, f"nested too deeply: drill files allow at most {self.max_depth} levels of mappings and lists"
            )
            raise Abort
        if self._memo is None:
            return self._collection(node, depth, shape)
        key = (id(node), _hashable(shape))
        seen = self._memo.get(key)
        if seen is not None:
            if seen is _IN_PROGRESS:
                self.error(node, "a recursive alias: this value contains an alias (*name) to itself")
                raise Abort
            value, size = seen
            self._expanded += size
            self._count += size
            if self._expanded > self.max_expansion:
                self.error(
                    node,
                    f"aliases (*name) of the anchor here expand the drill by more than {self.max_expansion:,} "
                    "values (a 'billion laughs' file?); it was not loaded. Copy values instead of nesting aliases",
                )
                raise Abort
            return value
        self._memo[key] = _IN_PROGRESS
        start = self._count
        value = self._collection(node, depth, shape)
        self._memo[key] = (value, self._count - start)
        return value

    # -- collections -----------------------------------------------------------------------------------------

    def _collection(self, node: Node, depth: int, shape: Shape) -> Any:
        self._count += 1
        if node.tag not in (yc.MAP, yc.SEQ):
            self._unsupported_tag(node)
        if node.__class__ is SequenceNode:
            item = shape[1] if isinstance(shape, tuple) and shape[0] == "list" else _inner(shape)
            return [self.build(child, depth + 1, item) for child in node.value]
        return self._mapping(cast(MappingNode, node), depth, shape)

    def _mapping(self, node: MappingNode, depth: int, shape: Shape) -> dict[str, Any]:
        out: dict[str, Any] = {}
        key_nodes: dict[str, Node] = {}
        merges: list[Node] = []
        shape = _pick_member(node, shape)
        previous: Node | None = None
        for i, (key_node, value_node) in enumerate(node.value):
            if key_node.__class__ is not ScalarNode:
                self.error(key_node, "a key must be plain text, not a mapping or a list")
                continue
            if key_node.tag == yc.MERGE:
                if merges:  # a key given twice, as YAML and the author mode's reader (ruamel.yaml) say
                    self.error(key_node, "duplicate key `<<`: a mapping has one merge key; merge several mappings "
                                         "with one list, `<<: [*first, *second]`")  # fmt: skip
                merges.append(value_node)
                continue
            key = key_node.value
            if node.flow_style:
                self._check_flow_entry(key_node, value_node, previous)
            previous = value_node
            used = yc.placed_at(key_node, self.alias_marks.get((id(node), ("key", i))))
            if key in out:
                first, this = key_nodes[key].start_mark, used.start_mark
                where = (
                    f"on line {first.line + 1} (this one is on line {this.line + 1})" if first.line != this.line
                    else f"at column {first.column + 1} of this line"
                )
                again = ""
                if node.value[0][0].value == key and first.line != this.line and not node.flow_style:
                    again = "; if this line starts another item of a list, begin it with `- `"
                self.error(used, f"duplicate key `{key}`: it is already {where}; keep only one{again}")
                continue
            key_nodes[key] = used
            if node.flow_style and i + 1 < len(node.value) and self._comma_cut(*node.value[i + 1]):
                self._cut_text = value_node
            out[key] = self.build(value_node, depth + 1, _child(shape, key))
            self._cut_text = None
        for merge in merges:
            sources = merge.value if merge.__class__ is SequenceNode else [merge]
            for source in sources:
                if source.__class__ is not MappingNode:
                    self.error(source, "a merge key (<<) needs a mapping or a list of mappings, e.g. <<: *defaults")
                    continue
                merged = self.build(source, depth + 1, shape)
                for k, v in merged.items():
                    out.setdefault(k, v)
        return out

    def _comma_cut(self, key_node: Node, value_node: Node) -> bool:
        """Whether an entry of ``{...}`` has no colon: a plain key with no value (usually the rest of a text that
        a comma cut)."""
        if not (value_node.__class__ is ScalarNode and value_node.value == "" and value_node.style in PLAIN_STYLES):
            return False
        if key_node.__class__ is not ScalarNode or key_node.style not in PLAIN_STYLES:
            return False
        return not self.text[key_node.end_mark.index : key_node.end_mark.index + 200].lstrip(" \t").startswith(":")

    def _check_flow_entry(self, key_node: Node, value_node: Node, previous: Node | None) -> None:
        """An entry of ``{...}`` without a colon: usually a comma inside unquoted text that split it."""
        if not self._comma_cut(key_node, value_node):
            return
        if previous is None or previous.__class__ is not ScalarNode or previous.style not in PLAIN_STYLES:
            self.error(
                key_node,
                f"`{_cut(key_node.value)}` has no value: inside {{...}} each entry is `key: value` and a comma "
                "separates entries; if it belongs to the text before it, put that text in quotes",
            )
            return
        written = self.text[previous.start_mark.index : key_node.end_mark.index]
        if "\n" in written or "\r" in written:
            written = f"{previous.value}, {key_node.value}"
        written = _cut(written)
        self.error(
            key_node,
            f"`{_cut(key_node.value)}` has no value: inside {{...}} a comma separates entries, so the text "
            f"`{written}` was cut at the comma into `{_cut(previous.value)}` and a key `{_cut(key_node.value)}`; "
            f'put text with a comma in quotes: "{written}"',
        )

    # -- scalars ---------------------------------------------------------------------------------------------

    def _scalar(self, node: ScalarNode, shape: Shape) -> Any:
        tag = node.tag
        plain = is_plain(node, self.text)
        if tag == yc.STR:
            if plain and shape in (TEXT, DATA):
                self._check_comment(node)
                self._check_readings(node, node.value, shape)
            if shape in (TEXT, DATA) and node.style in (*PLAIN_STYLES, '"', "'"):
                self._check_indicator(node)
            return node.value
        if tag == yc.TIMESTAMP:  # an explicit !!timestamp: dates and times stay as written (drills are JSON-like)
            if not _TIMESTAMP_FORM.match(node.value):
                self.error(node, f"`{node.value}` is not a valid !!timestamp; remove the tag or fix the value")
            return node.value
        if tag == yc.MERGE and plain:  # `<<` as a value, not a key: just the text
            return node.value
        if tag not in (yc.NULL, yc.BOOL, yc.INT, yc.FLOAT):
            self._unsupported_tag(node)
            return node.value
        try:
            value = yc.construct_core(tag, node.value)
        except yc.ScalarError as e:
            if plain:  # only a number too long to convert
                self.error(node, f"`{_cut(node.value)}` is too long: {e}")
            else:
                self.error(
                    node, f"`{_cut(node.value)}` is not a valid {short_tag(tag)} ({e}); remove the tag or fix the value"
                )
            return node.value
        if not plain:
            return value
        return self._plain_value(node, value, shape)

    def _plain_value(self, node: ScalarNode, value: Any, shape: Shape) -> Any:
        """An unquoted null, boolean or number, read as the place it is written at expects."""
        text = node.value
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if shape == TEXT and value is not None:
            self._check_comment(node)
            self._check_readings(node, text, shape, core=value)
            return text
        if shape == DATA and is_number and _loses_writing(value, text):
            self._check_readings(node, text, shape, core=value)
            return text
        if shape == DATA:
            self._check_readings(node, value, shape)
        elif isinstance(value, int) and is_number and re.match(r"[-+]?0[0-9]", text):
            self.error(
                node,
                f"`{_cut(text)}` has a leading zero: YAML 1.1 reads it as {_octal(text)}, YAML 1.2 as the number "
                f"{value:,}; write {value} without the leading zero",
            )
            return text
        if isinstance(value, float) and value == 0 and underflows(text):
            return math.copysign(math.ulp(0.0), value)  # never a silent 0: a price's check then refuses it
        return value

    def _check_readings(self, node: ScalarNode, value: Any, shape: Shape, core: Any = _SAME) -> None:
        """Warn when YAML 1.1, or a plain YAML 1.2 reader, reads the unquoted ``node`` otherwise than warroom
        (``value``; ``core`` is the YAML 1.2 reading when warroom keeps the text as written instead)."""
        text = node.value
        core = value if core is _SAME else core
        old = yc.yaml11_value(text)
        differs11, differs12 = not yc.same_value(old, value), not yc.same_value(core, value)
        if differs11 and not differs12 and isinstance(old, str) and not isinstance(value, str):
            differs11 = False  # a YAML 1.2 number (1e3, 0o17) that YAML 1.1 reads as text: quotes would not help
        if not (differs11 or differs12):
            return
        if differs11 and differs12 and yc.same_value(old, core):
            readings = f"YAML 1.1 and 1.2 read it as {yc.describe_value(core, text, yaml11=True)}"
        else:
            parts = [f"YAML 1.1 reads it as {yc.describe_value(old, text, yaml11=True)}"] if differs11 else []
            if differs12:
                parts.append(f"YAML 1.2 reads it as {yc.describe_value(core, text)}")
            readings = ", ".join(parts)
        where = "free text" if shape == TEXT else "tool data"
        other = core if differs12 else old
        rule = f"yaml-{'text' if shape == TEXT else 'data'}-{_reading_kind(other)}"
        if isinstance(value, str):
            kept = f'is read as the text "{_cut(text)}"' + (", as written" if differs12 else "")
        else:
            kept = f"is read as {yc.describe_value(value, text)}"
        self.warn(
            node,
            f"`{_cut(text)}` in {where} {kept}, but {readings}: write \"{_cut(text)}\" in quotes so that every "
            "YAML reader agrees",
            rule,
        )

    def _check_comment(self, node: ScalarNode) -> None:
        """Warn when a `` #`` comment follows unquoted text on its line after a single space or tab: YAML drops it
        from the text (``title: Report to #ar-team``). A comment set off by two or more blanks is taken as meant
        (``title: no   # shown in the picker``), as the skeleton writes its comments."""
        end = node.end_mark.index
        rest = self.text[end : end + 400]
        stripped = rest.lstrip(" \t")
        if not stripped.startswith("#") or len(rest) - len(stripped) != 1:
            return
        comment = re.split(r"[\r\n]", stripped, maxsplit=1)[0].rstrip()
        whole = f"{node.value} {comment}"
        self.warn(
            node,
            f"the text stops before `{_cut(comment)}`: an unquoted ` #` starts a comment, so this is "
            f"`{_cut(node.value)}`; if the rest belongs to the text, put it all in quotes: \"{_cut(whole)}\"",
            "comment-cut",
        )

    def _check_indicator(self, node: ScalarNode) -> None:
        """Warn when unquoted text starts with an anchor nothing refers to (``title: &Co replies`` is "replies") or
        YAML's bare ``!`` tag (``title: ! urgent`` is "urgent"): the text lost its first word without a word said.
        Before quoted text too (``title: &Co "replies"`` is "replies"): the text to write joins them in quotes."""
        start = node.start_mark.index
        found = re.match(r"(&([^\s,\[\]{}]+)|!)[ \t]+", self.text[start:start + 200])
        if found is None:
            return
        line = _written(self.text, node) if node.style in PLAIN_STYLES else f"{found[1]} {node.value}"
        name = found[2]
        if name is not None:
            if re.search(rf"\*{re.escape(name)}(?![^\s,\]}}])", self.text):
                return
            why = f"`&{_cut(name)}` is an anchor (a name an alias `*{_cut(name)}` refers to) and nothing refers to it"
        else:
            why = "a `!` before a value is a YAML tag"
        self.warn(node, f"`{_cut(line)}` is read as `{_cut(node.value)}`: {why}; if it belongs to the text, put it "
                        f"all in quotes: {_cut(json.dumps(line, ensure_ascii=False), 80)}", "indicator-cut")

    def _unsupported_tag(self, node: Node) -> None:
        quote = ""
        if isinstance(node, ScalarNode) and node.style in PLAIN_STYLES:
            line = _written(self.text, node)
            quoted = _cut(json.dumps(line, ensure_ascii=False), 80)
            quote = f", or, if it belongs to the text, put it all in quotes: {quoted}"
        self.error(
            node, f"the tag `{short_tag(node.tag)}` is not supported in drill files; remove it (drills are plain "
                  f"data){quote}"
        )


# ---------------------------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------------------------


def underflows(text: str) -> bool:
    """Whether the number written ``text`` is not 0 but too small for a float (``1e-400``, reads as 0.0): it is
    read as the smallest float of its sign (5e-324) where a number is expected, so that a price's check refuses it
    (docs/authoring.md) instead of a model becoming free without a word."""
    mantissa = re.split(r"[eE]", text, maxsplit=1)[0]
    return re.search(r"[1-9]", mantissa) is not None and float(text) == 0


def _written(text: str, node: ScalarNode) -> str:
    """The unquoted value of ``node`` as written, with its anchor or tag, to its end: not the `,`, `}` or `]` of a
    flow collection after it, nor a comment; a value over several lines on one line, as YAML folds it (its lines
    joined by a space, a blank line between two of them a line break), so that quoting it gives the whole value."""
    start = node.start_mark.index
    end = min(node.end_mark.index, start + 2000)
    return folded(re.split(r"\r\n|[\r\n]", text[start:end]))


def _cut(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _octal(text: str) -> str:
    """How YAML 1.1 reads a whole number with a leading zero: "the octal number 2,315", or "text" (``09``)."""
    digits = text.lstrip("+-")
    if not re.fullmatch(r"[0-7]+", digits):
        return "text (it is not a valid octal number)"
    value = int(digits, 8)
    return f"the octal number {-value if text.startswith('-') else value:,}"


def _loses_writing(value: Any, text: str) -> bool:
    """True when showing the number ``value`` (read from ``text``) would lose something the author wrote: a leading
    zero (``04413``), a trailing zero of the fraction (``1.10``, ``48391.40``), a ``+``, a ``0x``/``0o`` base, or
    an infinity/NaN (JSON has none). Another notation of the same number (``3.0e-5``, ``0.00003``) loses nothing."""
    body = text.lstrip("-")
    if body.startswith("+"):
        return True
    if isinstance(value, int):
        return body.startswith(("0x", "0o")) or (len(body) > 1 and body[0] == "0")
    if not math.isfinite(value):
        return True
    whole, _, fraction = re.split("[eE]", body)[0].partition(".")
    return (len(whole) > 1 and whole[0] == "0") or (len(fraction) > 1 and fraction.endswith("0"))


def _hashable(shape: Shape) -> Any:
    if isinstance(shape, tuple) and shape[0] == "union":
        return ("union", tuple(sorted(shape[1])))
    return shape if not isinstance(shape, tuple) else (shape[0], _hashable(shape[1]))


def _inner(shape: Shape) -> Shape:
    """The shape of an item of a collection where ``shape`` does not expect one."""
    return DATA if shape == DATA else TYPED


def _pick_member(node: MappingNode, shape: Shape) -> Shape:
    """The trace event model a mapping is, by its ``kind``, for a union shape; other shapes unchanged."""
    if not (isinstance(shape, tuple) and shape[0] == "union"):
        return shape
    for key_node, value_node in node.value:
        if key_node.__class__ is ScalarNode and key_node.value == "kind" and value_node.__class__ is ScalarNode:
            model = shape[1].get(value_node.value)
            return ("model", model) if model is not None else TYPED
    return TYPED


def _child(shape: Shape, key: str) -> Shape:
    if isinstance(shape, tuple):
        if shape[0] == "model":
            return field_shape(shape[1], key)
        if shape[0] == "dict":
            return shape[1]
    return _inner(shape)
