"""YAML syntax errors as messages a drill author can act on, at the line and column an editor shows.

:func:`yaml_problem` turns a PyYAML error into ``(line, column, message)``: an unclosed quote is reported at its
opening quote, a key indented deeper than its siblings at that key, a tab at the tab, a control character with how
to write it instead. :func:`compose` reads the text into a node tree with the YAML 1.2 core schema
(:mod:`warroom.core.load._yaml.core`).
"""

from __future__ import annotations

import gc
import json
import re
import unicodedata
from typing import Any

import yaml
from yaml.nodes import Node

from warroom.core.load import limits
from warroom.core.load._yaml.core import hide_unusual_breaks, line_col, loader_class, restore_unusual_breaks
from warroom.core.load._yaml.hints import cut, folded
from warroom.core.text import SURROGATE, SURROGATE_ESCAPE
from warroom.errors import WarroomError

#: The loader whose scanner finds the tokens before a syntax error (libyaml's when PyYAML was built with it).
_SCANNER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: ``%YAML`` directives: the version a document says it is written in.
_DIRECTIVE = re.compile(r"%YAML[ \t]+(\S+)")


class YamlSyntaxError(WarroomError):
    """The text is not YAML warroom can read; ``line``, ``column`` (1-based) and ``message`` say where and why."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(message)
        self.line, self.column, self.message = line, column, message




def compose(text: str, base: type) -> tuple[Node | None, dict[tuple[int, int], Any]]:
    """The node tree of the YAML ``text`` (None for an empty document) and the marks of its aliases' uses (see
    :class:`warroom.core.load._yaml.core.AliasMarks`), composed with a YAML 1.2 core-schema subclass of the PyYAML
    loader ``base``. Raises :class:`YamlSyntaxError` for text that is not YAML, or a ``%YAML`` directive other than
    ``%YAML 1.2``; RecursionError from the pure-Python composer on absurdly deep nesting.
    """
    _check_directives(text)
    surrogate = SURROGATE.search(text)
    if surrogate is not None:  # only from text given as a str (a file decoded as UTF-8 has none); libyaml needs UTF-8
        line, column = line_col(text, surrogate.start())
        raise YamlSyntaxError(
            line, column,
            f"an unpaired surrogate (U+{ord(surrogate.group()):04X}), which is not a character and cannot be saved as "
            "UTF-8: remove it",
        )
    try:
        hidden, back = hide_unusual_breaks(text)
    except ValueError:
        raise YamlSyntaxError(
            1, 1, "the file uses every private-use character and also U+2028, U+2029 or U+0085: remove those"
        ) from None
    loader = None
    enabled = gc.isenabled()
    gc.disable()  # the node tree holds no cycles: collecting while millions of nodes are made only costs time
    try:
        loader = loader_class(base, "&" in hidden and "*" in hidden)(hidden)
        root = loader.get_single_node()
    except yaml.YAMLError as e:
        raise YamlSyntaxError(*yaml_problem(hidden, e)) from None
    finally:
        if enabled:
            gc.enable()
        dispose = getattr(loader, "dispose", None)
        if dispose:
            dispose()
    if root is not None:
        restore_unusual_breaks(root, back)
    return root, getattr(loader, "alias_marks", {})


def _check_directives(text: str) -> None:
    """Refuse a ``%YAML`` directive other than 1.2: drills are read with YAML 1.2 meanings only."""
    if "%" not in text:
        return
    index = 0
    for line in re.split(r"(?<=\n)|(?<=\r)(?!\n)", text):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and not line.startswith("%"):
            return  # directives come before the document
        match = _DIRECTIVE.match(line)
        if match and match.group(1) != "1.2":
            row, _ = line_col(text, index)
            version = match.group(1)
            message = (
                f"`%YAML {version}`: warroom reads drill files as YAML 1.2 only (`%YAML 1.2`, or no directive); "
                "remove the line"
            )
            if version == "1.1":
                message += (
                    " (`warroom validate` then warns about every unquoted value that YAML 1.1 reads differently, "
                    "such as yes/no/on/off)"
                )
            raise YamlSyntaxError(row, 1, message)
        index += len(line)


_CONTROL_NAMES = {0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x0B: "LINE TABULATION", 0x0C: "FORM FEED",
                  0x1B: "ESCAPE", 0x7F: "DELETE"}


def control_character_message(char: str) -> str:
    """What to say about a character YAML does not allow in a file (a control character, e.g. ESC)."""
    code = ord(char)
    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(code, "a control character")
    escape = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return (
        f"the file contains a control character ({char!r}, U+{code:04X} {name}) that YAML does not allow in a file: "
        f'to put it in a text, write it as "{escape}" inside a double-quoted string ("...{escape}..."); '
        "if this is a binary file, it is not a drill"
    )


def yaml_problem(text: str, e: yaml.YAMLError) -> tuple[int, int, str]:
    """One YAML error as ``(line, column, message)`` (1-based) with a message a drill author can act on.

    The position is always inside the file: PyYAML places an error at the end of a file without a final newline
    on the line after the last one, which no editor shows; it is moved to the end of the last line."""
    line, column, message = _yaml_problem(text, e)
    end = line_col(text, len(text))

    def inside(m: re.Match[str]) -> str:
        where = (int(m.group(1)), int(m.group(2)))
        return "line {}, column {}".format(*min(where, end))

    message = re.sub(r"line (\d+), column (\d+)", inside, message)
    return (*end, message) if (line, column) > end else (line, column, message)


def _quoted_problem(text: str, problem: str, cm: Any, index: Any, at: tuple[int, int]) -> tuple[int, int, str]:
    """A YAML error ``problem`` at ``at`` (line, column) inside the quoted text that starts at ``cm``: a quote never
    closed is named where it opens; an escape that is not one says how to write a backslash."""
    if "end of stream" in problem:
        quote = text[cm.index] if 0 <= cm.index < len(text) else '"'
        return (cm.line + 1, cm.column + 1, f"this quoted text is never closed: add the closing {quote}")
    msg = f"{problem} in the quoted text that starts at line {cm.line + 1}, column {cm.column + 1}"
    if "Unicode character escape" in problem:
        msg += _surrogate_hint(text, index)
    elif "escape character" in problem or "hexdecimal number" in problem:
        msg += (": a backslash starts an escape in double quotes; write `\\\\` for a backslash itself, or put the "
                "text in single quotes")
    return (*at, msg)


def _yaml_problem(text: str, e: yaml.YAMLError) -> tuple[int, int, str]:
    if isinstance(e, yaml.reader.ReaderError):
        line, column = line_col(text, e.position)
        char = e.character if isinstance(e.character, str) else chr(e.character)
        return (line, column, control_character_message(char))
    problem = (getattr(e, "problem", None) or str(e)).strip()
    context = (getattr(e, "context", None) or "").strip()
    pm = getattr(e, "problem_mark", None)
    cm = getattr(e, "context_mark", None)
    mark = pm or cm
    if mark is None:  # pragma: no cover - every PyYAML parse error carries a mark
        return (1, 1, f"YAML error: {problem}")
    line, column = mark.line + 1, mark.column + 1
    found = _layout_problem(text, problem, context, mark, cm) or _reserved_start(text, problem, context, mark, cm)
    if found is not None:
        return found
    index = getattr(mark, "index", None)
    here = text[index] if isinstance(index, int) and 0 <= index < len(text) else ""
    if here == "\t" or (problem.startswith("found character") and "\\t" in problem):
        msg = "a tab character: YAML indentation must use spaces, not tabs"
    elif "quoted scalar" in context and cm is not None:
        return _quoted_problem(text, problem, cm, index, (line, column))
    elif "undefined alias" in problem:
        written = _ALIAS.match(text, index) if isinstance(index, int) else None  # `*a}` in a flow mapping: `*a`
        name = written.group() if written is not None else "*"
        msg = f"the alias {name} names no anchor (&{name.lstrip('*')}) defined above it"
    elif "duplicate anchor" in context and cm is not None:  # YAML 1.2 allows it; PyYAML's composer does not
        written = re.match(r"&([^\s,\[\]{}]*)", text[index:]) if isinstance(index, int) else None
        anchor = written.group(1) if written is not None else "?"
        msg = (f"the anchor &{anchor} is defined a second time (first at line {cm.line + 1}, column {cm.column + 1}): "
               f"give this one another name, and its aliases below (*{anchor}) with it (drill files take each anchor "
               "once)")
    elif "another document" in problem:
        msg = "a second YAML document (after `---`): a drill file holds exactly one drill"
    elif "mapping values are not allowed" in problem:
        deeper = over_indented_key(text, mark) or key_without_colon_above(text, mark)
        if deeper is not None:
            return deeper
        msg = "a colon followed by a space inside unquoted text: put the whole text in quotes"
    elif any(w in problem for w in ("expected key", "expected <block end>", "expected '-'")):
        left_over = text_after_value(text, mark) or _dash_without_space(text, mark)
        if left_over is not None:
            return (line, column, left_over)
        msg = "this line's indentation does not match the keys above it (check the spaces at the start of the line)"
    elif "exceeded maximum nesting depth" in problem:
        msg = (f"nested too deeply: at most {limits.MAX_DEPTH} levels of mappings and lists are allowed (a drill "
               "needs about 6); remove the extra levels")  # libyaml stops at 1000, before the build's own check
    else:
        msg = f"YAML syntax error: {problem}"
        if context and cm is not None:
            msg += f" ({context} that starts at line {cm.line + 1}, column {cm.column + 1})"
        msg += ": fix the YAML there, or check that this is a drill file (`warroom new ID` writes one to start from)"
    return (line, column, msg)


#: What a flow collection's punctuation does, which keeps it from starting unquoted text.
_FLOW_PUNCTUATION = {",": "it separates the items of a [...] list or {...} mapping", "]": "it closes a [...] list",
                     "}": "it closes a {...} mapping"}
#: Characters YAML reserves, which cannot start unquoted text, as a message names them.
_RESERVED = {"@": "`@`", "`": "`` ` ``", "%": "`%`", "|": "`|`", ">": "`>`"}


def _dash_without_space(text: str, mark: Any) -> str | None:
    """The message for a list item written without the space after its dash (``-id: e02``, which YAML reads as the
    key ``-id``), when the mark is at such a dash; else None."""
    row = text.split("\n")[mark.line] if 0 <= mark.line < text.count("\n") + 1 else ""
    found = re.match(r"-([^\s\-][^:\s]*):(?:\s|$)", row[mark.column:])
    if found is None or row[:mark.column].strip():
        return None
    written = row[mark.column + 1:].rstrip("\r").split(" #")[0].strip()
    return (f"a list item needs a space after its `-`: write `- {cut(written)}` (YAML reads `-{cut(found[1])}` as a "
            "key)")


def _reserved_start(text: str, problem: str, context: str, mark: Any, cm: Any) -> tuple[int, int, str] | None:
    """Unquoted text that starts with a character YAML reserves (``@oncall``, a Markdown ```code``` or ``*bold*``, a
    ``%``), with the quoted text to write; None for another problem."""
    index = getattr(mark, "index", None)
    if not isinstance(index, int):
        return None
    here = text[index:index + 1]
    if problem.startswith("found character that cannot start any token") and here in _RESERVED \
            and _is_value_at(text, index):
        what = f"{_RESERVED[here]} cannot start unquoted text in YAML (it is reserved)"
        if here in "|>":  # a block of text's indicator, which a [...] list or {...} mapping cannot hold
            what = f"{_RESERVED[here]} cannot start unquoted text inside a [...] list or {{...}} mapping"
        return (mark.line + 1, mark.column + 1, _quote_it(text, index, what))
    first = text[cm.index:cm.index + 1] if cm is not None and _is_value_at(text, cm.index) else ""
    if "scanning an alias" in context and first == "*":
        what = "`*` at the start of a value makes it an alias (a reference to an `&` anchor), not text"
    elif "scanning an anchor" in context and first == "&":  # a name of letters YAML 1.1 refuses (&Cø, &a\tb)
        what = "`&` at the start of a value makes it an anchor (a name an alias `*` refers to), not text"
    elif "scanning a block scalar" in context and first in ("|", ">"):
        what = f"`{first}` at the start of a value starts a block of text on the lines below it, not text on its line"
    elif (("parsing a block node" in context and first in (",", "]", "}"))
          or ("parsing a flow node" in context and first in ("]", "}"))) and "node content" in problem:
        what = f"`{first}` cannot start unquoted text in YAML ({_FLOW_PUNCTUATION[first]})"
    else:
        return None
    return (cm.line + 1, cm.column + 1, _quote_it(text, cm.index, what))


def _is_value_at(text: str, index: int) -> bool:
    """Whether ``index`` starts a value written after a key or a list item's dash on its line (``title: @x``,
    ``- @x``, ``{a: @x``), not a line of its own (a Markdown file's ``* item``)."""
    before = text[text.rfind("\n", 0, index) + 1:index].rstrip(" \t")
    return before.endswith((":", "-", "[", "{", ",")) and bool(before.strip())


def _quote_it(text: str, start: int, what: str) -> str:
    """``what`` is wrong with the value that starts at ``start``, then the quoted text to write: the rest of its
    line (to a comment; inside a flow mapping or list opened on the line, to its next `,`, `}` or `]`)."""
    end = text.find("\n", start)
    value = text[start:end if end >= 0 else len(text)].rstrip("\r").split(" #")[0]
    before = text[text.rfind("\n", 0, start) + 1:start]
    if before.count("{") + before.count("[") > before.count("}") + before.count("]"):
        value = value[:1] + re.split(r"[,}\]]", value[1:])[0]  # its first character is the one it is about
    elif end >= 0:  # the lines below it indented further go on with the value, as YAML folds them
        value = _continued(text, end + 1, len(before) - len(before.lstrip(" -")), value.strip())
    value = value.strip()
    return f"{what}: put the whole text in quotes, {cut(json.dumps(value, ensure_ascii=False), 80)}"


def _continued(text: str, start: int, indent: int, first: str) -> str:
    """A plain value whose ``first`` line is indented by ``indent``, with the lines from ``start`` indented further
    (up to a comment or a line that is not), as YAML folds it."""
    rows = []
    for row in text[start:start + 4000].split("\n"):
        row = row.rstrip("\r")
        if row.strip() and (row.lstrip().startswith("#") or len(row) - len(row.lstrip(" ")) <= indent):
            break
        rows.append(row.split(" #")[0])
    return folded(rows, first)


#: What ends a value written whole on its line, and the words its message uses: the quoted text, a [...] list, a
#: {...} mapping.
_CLOSERS = {'"': ("quote", "the quoted text", "the whole value inside the quotes, or write it without them"),
            "'": ("quote", "the quoted text", "the whole value inside the quotes, or write it without them"),
            "]": ("`]`", "the [...] list", "it inside the brackets, or write the whole value in quotes"),
            "}": ("`}`", "the {...} mapping", "it inside the braces, or write the whole value in quotes")}


def text_after_value(text: str, mark: Any) -> str | None:
    """The message for text left over after a value that closed before its line ends (``title: "Late" for March``,
    ``tags: [a, b] c``), which the parser reports as a key or a block end expected at the left-over text; None when
    the mark is at the start of its line's content (an indentation problem)."""
    lines = text.split("\n")
    if not 0 <= mark.line < len(lines):
        return None
    row = lines[mark.line].rstrip("\r")
    before = row[:mark.column].rstrip()
    if not before.strip() or before[-1] not in _CLOSERS:
        return None
    what, value, where = _CLOSERS[before[-1]]
    rest = cut(row[mark.column:].split(" #")[0].strip())
    inner = _quote_inside(row, before[-1])
    if inner is not None:
        return inner
    return f"text after the closing {what}: {value} ends there, so `{rest}` is left over; put {where}"


def _quote_inside(row: str, quote: str) -> str | None:
    """The message for a value in quotes that holds its own quote character (``title: "He said "hi" to me"``,
    ``title: 'It's late'``), which ends it early, with the value written right; None for another line."""
    found = re.match(r"""(\s*(?:-\s+)?[^\s"'#][^:#]*:\s+|\s*-\s+)(["'])""", row)
    written = _before_comment(row, quote)
    if quote not in "\"'" or found is None or found[2] != quote or not written.endswith(quote) \
            or len(written) - found.end() < 1:
        return None
    text = written[found.end():-1]
    if quote == '"':  # each quote not escaped escaped, every other escape kept as written
        right = '"' + re.sub(r'\\.|"', lambda m: '\\"' if m[0] == '"' else m[0], text) + '"'
        how = 'a `"` inside double quotes is written `\\"`'
    else:
        right = "'" + text.replace("''", "'").replace("'", "''") + "'"
        how = "a `'` inside single quotes is written twice, `''`"
    return (f"the `{quote}` inside the quoted text ends it early, so the rest of the value is left over: {how}: "
            f"{cut(right, 80)}")


def _before_comment(row: str, quote: str) -> str:
    """``row`` without the comment after its last ``quote`` (`` # note``): a `` #`` before it is text of the value
    (``"Ticket "A" #5 late"``), which a cut at the first `` #`` lost."""
    last = row.rfind(quote)
    rest = row[last + 1:] if last >= 0 else ""
    if last >= 0 and (not rest.strip() or re.match(r"\s+#", rest)):
        return row[:last + 1]
    return row.split(" #")[0].rstrip()


def _layout_problem(text: str, problem: str, context: str, mark: Any, cm: Any) -> tuple[int, int, str] | None:
    """The problems a parse error's message does not name but the text around it shows: an indentation of odd
    spaces, a key over YAML's length limit, a key without its colon, a quote left open before the mark."""
    odd_space = odd_space_indent(text, max(mark.line, cm.line if cm is not None else 0))
    if odd_space is not None:
        return odd_space
    too_long = long_key(text, mark, cm)
    if too_long is not None:
        return too_long
    if "could not find expected ':'" in problem and "simple key" in context and cm is not None:
        return no_key_colon(text, cm)
    return unclosed_quote_before(text, mark) if "end of stream" not in problem else None


def _surrogate_hint(text: str, index: int | None) -> str:
    """What to write instead of an escaped half of a surrogate pair at ``index`` (where PyYAML stopped), else ""."""
    at = index or 0
    if not SURROGATE_ESCAPE.search(text, max(0, at - 2), at + 6):
        return ""
    return (": an escape from \\ud800 to \\udfff is half of a UTF-16 surrogate pair, not a character; write the "
            "character itself, or its 8-digit escape (`\\U0001F600` for U+1F600)")


#: A space character other than the plain space at the start of a line: YAML does not read it as indentation.
_ODD_SPACE_INDENT = re.compile("^[ \t]*([\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff])", re.MULTILINE)


def odd_space_indent(text: str, last_line: int) -> tuple[int, int, str] | None:
    """``(line, column, message)`` when a line up to ``last_line`` (0-based) is indented with a space that is not
    the plain space (a no-break space pasted from a web page or a chat, an ideographic space): YAML reads it as
    text, so the line's structure is lost and the syntax error comes later. None when there is no such line."""
    for match in _ODD_SPACE_INDENT.finditer(text):
        line, column = line_col(text, match.start(1))
        if line - 1 > last_line:
            return None
        if match.start(1) == 0 and match.group(1) == "\ufeff":
            continue  # a byte-order mark at the start of the file is fine
        char = match.group(1)
        name = unicodedata.name(char, "a space").lower()
        return (
            line, column,
            f"a {name} (U+{ord(char):04X}) in the indentation: YAML indents with plain spaces only (this one is "
            "read as text); replace it with a plain space",
        )
    return None


#: The longest key YAML reads in a `key: value` line (an implicit key); a longer one is text.
MAX_IMPLICIT_KEY = 1024
#: The indentation of a line, a list's `- ` and an explicit key's `? ` before a key.
_KEY_START = re.compile(r"[ ]*(?:[-?][ ]+)*")
#: The colon that ends a key: followed by a space, the line's end or a flow indicator.
_KEY_COLON = re.compile(r":(?:[\s,}\]]|$)")


def long_key(text: str, mark: Any, cm: Any) -> tuple[int, int, str] | None:
    """``(line, column, message)`` when the YAML error at ``mark`` (while scanning from ``cm``) comes from a
    `key: value` key of more than :data:`MAX_IMPLICIT_KEY` characters, which YAML reads as text: the key ending at
    the first colon after the error's start on its line, from the line's indentation (or the last ``{`` or ``,``
    before it in a flow mapping). None otherwise. Linear in the line's length."""
    at = cm if cm is not None and cm.line == mark.line and cm.index < mark.index else mark
    row_start = text.rfind("\n", 0, at.index) + 1
    row_end = len(text) if (end := text.find("\n", at.index)) < 0 else end
    if row_end - row_start <= MAX_IMPLICIT_KEY:
        return None
    colon = _KEY_COLON.match(text, mark.index) or _KEY_COLON.search(text, at.index, row_end)  # the error's own first
    if colon is None:
        return None
    start, stop = _KEY_START.match(text, row_start).end(), colon.start()  # type: ignore[union-attr]  # it matches ""
    if "{" in text[row_start:stop]:  # in a flow mapping: from the last `{` or `,` before the colon
        start = max(start, text.rfind("{", row_start, stop) + 1, text.rfind(",", row_start, stop) + 1)
        start += len(text[start:stop]) - len(text[start:stop].lstrip(" "))
    written = text[start:stop].rstrip(" ")
    if len(written) <= MAX_IMPLICIT_KEY:
        return None
    shown = written[1:-1] if written[0] in "\"'" and written[-1] == written[0] else written
    return (mark.line + 1, start - row_start + 1, (
        f"a key of {len(written):,} characters (`{cut(shown)}`): YAML reads a `key: value` key of more than "
        f"{MAX_IMPLICIT_KEY:,} as text, not a key; write it as an explicit key, `? ` and the key on one line and "
        "`: ` and the value on the next (as `warroom import` writes one), or shorten it"))


def no_key_colon(text: str, cm: Any) -> tuple[int, int, str]:
    """``(line, column, message)`` for a line of a mapping that has no ``key: value`` colon (PyYAML: "could not
    find expected ':'" while scanning the simple key at ``cm``): ``author:your name`` (no space after the colon)
    or a line with no colon at all."""
    lines = text.splitlines()
    rest = lines[cm.line][cm.column:] if cm.line < len(lines) else ""
    rest = re.split(r"\s#", rest, maxsplit=1)[0].rstrip()
    glued = re.match(r"([^\s:#'\"\[\]{}&*!|>%@`-][^\s:]*):(\S.*)", rest)
    if glued is not None and "://" not in rest[: glued.end(1) + 3]:
        key, value = glued.group(1), glued.group(2)
        return (
            cm.line + 1, cm.column + 1 + glued.end(1),
            f"`{cut(rest)}` has no space after the colon, so YAML reads it as text, not as the key `{cut(key)}`: "
            f"write `{cut(key)}: {cut(value)}` (a key ends with a colon and a space)",
        )
    block = _block_scalar_above(lines, cm.line, cm.column)
    if block is not None:
        row, key, indent = block
        return (
            cm.line + 1, cm.column + 1,
            f"`{cut(rest)}` is not a `key: value` line: if it is the text of `{cut(key)}` (line {row + 1}), indent "
            f"that text deeper than `{cut(key)}`, by more than {indent} spaces (a `|` or `>` text is the lines "
            "indented under its key)",
        )
    return (
        cm.line + 1, cm.column + 1,
        f"`{cut(rest)}` is not a `key: value` line: add `: ` after the key; if it is more of the text above, "
        "put that whole text in quotes",
    )


#: A `key: |` or `key: >` line (a block scalar's indicator, with chomping and indentation indicators, a comment).
_BLOCK_KEY = re.compile(r"([ ]*(?:-[ ]+)*)([^\s#][^:#]*?):[ ]+[|>][-+0-9]{0,2}[ ]*(?:#.*)?$")


def _block_scalar_above(lines: list[str], row: int, column: int) -> tuple[int, str, int] | None:
    """``(row, key, indentation)`` of the `key: |` or `key: >` line just above ``row`` (blank and comment lines
    passed over) when ``row``, indented ``column``, is not indented deeper than that key: the block's text, written
    at its key's indentation or less, which YAML then reads as a key with no colon. None otherwise."""
    above = row - 1
    while above >= 0 and (not lines[above].strip() or lines[above].lstrip().startswith("#")):
        above -= 1
    match = _BLOCK_KEY.match(lines[above]) if above >= 0 else None
    if match is None:
        return None
    indent = len(match.group(1))
    return (above, match.group(2).strip(), indent) if column <= indent else None


#: An alias as YAML 1.2 writes it: `*` and its name, which ends at a space or a flow indicator.
_ALIAS = re.compile(r"\*[^\s,\[\]{}]*")
#: The quotes that close a quoted text.
_QUOTES = re.compile("[\"']")


def unclosed_quote_before(text: str, mark: Any) -> tuple[int, int, str] | None:
    """``(line, column, message)`` when the YAML error at ``mark`` follows a quoted text that was never closed.

    A quoted text whose closing quote is missing runs on, over line ends, to the next quote of the same kind
    further down (the opening quote of another value); the error then comes right after that quote. So: the
    token just before the error is a quoted text that spans several lines and ends on the error's line. Only
    called on a syntax error; it scans the text again, up to the error, only when the error's line has a quote
    before the error (a one-line file, or an error line with no quote before it, is answered without a scan).
    """
    where = (mark.line, mark.column)
    line_start = max(text.rfind("\n", 0, mark.index), text.rfind("\r", 0, mark.index)) + 1
    if mark.line == 0 or not _QUOTES.search(text, line_start, mark.index):
        return None  # no quoted text can span lines and end on the error's line before the error: nothing to scan
    last = None
    try:
        for token in yaml.scan(text, Loader=_SCANNER):
            end = token.end_mark
            if (end.line, end.column) > where:
                break
            last = token
    except yaml.YAMLError:
        pass  # the tokens before the error are all we need
    if not isinstance(last, yaml.ScalarToken) or last.style not in ('"', "'"):
        return None
    start, end = last.start_mark, last.end_mark
    if start.line == end.line or end.line != mark.line:
        return None
    quote = last.style
    return (
        start.line + 1,
        start.column + 1,
        f"this quoted text is never closed: add the closing {quote} where the text ends (without it, the text "
        f"runs on to the next {quote}, on line {end.line + 1}, column {end.column})",
    )


def over_indented_key(text: str, mark: Any) -> tuple[int, int, str] | None:
    """``(line, column, message)`` when the colon at ``mark`` ends a key indented deeper than the key above it.

    YAML reads a line indented deeper than its sibling keys as more text of the value above, so ``key:`` on it is
    "a colon inside text". Returns None when the line does not start with a key, or is not deeper than the last
    key above it (then the colon really is inside text).
    """
    lines = text.splitlines()
    if mark.line >= len(lines):
        return None
    match = re.fullmatch(r"( +)([^\s#'\"\[\]{}&*!|>%@`-][^:#]*?)\s*", lines[mark.line][: mark.column])
    if match is None:
        return None
    indent, key = len(match.group(1)), match.group(2)
    for above in range(mark.line - 1, -1, -1):
        prev = lines[above]
        content = prev.lstrip(" ")
        if not content or content.startswith("#"):
            continue
        column = len(prev) - len(content)
        while content.startswith("- "):  # a list item: its key starts after the dash
            rest = content[2:].lstrip(" ")
            column += len(content) - len(rest)
            content = rest
        if indent <= column:
            return None
        prev_key = re.match(r"([^\s:#][^:#]*?):(\s|$)", content)
        word = re.split(r"\s#", content, maxsplit=1)[0].rstrip()
        if prev_key is None and _key_expected(lines, above, column, word):
            return (
                above + 1,
                column + len(word) + 1,
                f"`{cut(word)}` has no colon, so YAML reads it as text and the lines under it as more of that text: "
                f"write `{cut(word)}:` (a key ends with a colon)",
            )
        other = f"the key `{prev_key.group(1)}`" if prev_key else "the text"
        shown_other = f"`{prev_key.group(1)}`" if prev_key else "it"
        return (
            mark.line + 1,
            indent + 1,
            f"this line is indented deeper than {other} above it (line {above + 1}, column {column + 1}): "
            f"indent `{key}` like {shown_other}; if `{key}: ...` was meant as part of the text above, put that "
            "whole text in quotes",
        )
    return None


def _key_expected(lines: list[str], at: int, column: int, word: str) -> bool:
    """Whether ``word``, alone on line ``at`` (0-based) at ``column``, stands where a key belongs: it looks like a
    key (letters, digits, ``_ - .``) and the line above it opens a block (``answer_key:``) or is a sibling
    ``key: value`` at the same column. A word that continues a text (deeper than the key whose value it is) does
    not."""
    if re.fullmatch(r"[A-Za-z_][\w.-]*", word) is None:
        return False
    for above in range(at - 1, -1, -1):
        content = lines[above].lstrip(" ")
        if not content or content.startswith("#"):
            continue
        indent = len(lines[above]) - len(content)
        while content.startswith("- "):  # a list item: its key starts after the dash
            rest = content[2:].lstrip(" ")
            indent += len(content) - len(rest)
            content = rest
        content = re.split(r"\s#", content, maxsplit=1)[0].rstrip()
        if indent < column:
            return content.endswith(":")
        return indent == column and re.match(r"[^\s:#][^:#]*?:(\s|$)", content) is not None
    return False


def key_without_colon_above(text: str, mark: Any) -> tuple[int, int, str] | None:
    """``(line, column, message)`` when the ``key: value`` line at ``mark`` follows, at the same depth, a line
    that stands where a key belongs but has no colon (``- id s2`` above ``title: ...``): YAML reads both lines as
    one text, and the colon of the second as "a colon inside text". None otherwise."""
    lines = text.splitlines()
    if mark.line >= len(lines) or mark.line == 0:
        return None
    here = lines[mark.line]
    column = len(here) - len(here.lstrip(" "))
    above = mark.line - 1
    content = lines[above].lstrip(" ")
    start = len(lines[above]) - len(content)
    while content.startswith("- "):
        rest = content[2:].lstrip(" ")
        start += len(content) - len(rest)
        content = rest
    content = re.split(r"\s#", content, maxsplit=1)[0].rstrip()
    first = content.split(" ", 1)[0]
    if start != column or ":" in content or not _key_expected(lines, above, start, first):
        return None
    return (
        above + 1,
        start + len(first) + 1,
        f"`{cut(content)}` is not a `key: value` line, so YAML reads it and the next line as one text: add `: ` "
        f"after the key (`{cut(first)}: {cut(content[len(first):].strip())}`)",
    )
