"""Hypothesis strategies for drill files: random YAML-ish text and structure-aware mutations of the bundled drills.

A mutation works on the lines of a real drill (so most of the file still parses and the loader's later stages,
the drill model and the drill rules, are reached): delete, duplicate or swap lines, change a line's indentation,
replace a ``key: value`` line's value with an odd scalar, insert an odd line, cut the file short, insert odd
characters. ``ODD_SCALARS`` are values every stage must reject or accept cleanly; the values that reach a known
bug of issue 12 on the code this was written against are kept apart in ``KNOWN_BUG_SCALARS`` so each known bug
has its own test and does not hide new ones.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from warroom.core.library import bundled_drills_dir

#: (file name, text) of every bundled drill.
BUNDLED: list[tuple[str, str]] = sorted(
    (p.name, p.read_text(encoding="utf-8")) for p in bundled_drills_dir().glob("*.yaml")
)

ODD_SCALARS = [
    # numbers at and past the edges
    "99999999999999999999999999999999", "-99999999999999999999", "1.0e+400", "-1.0e+400", "2.0e+308",
    "1.7976931348623157e+308", "4.9e-324", ".nan", ".NaN", ".inf", "-.inf", "+.inf", "0", "-0", "-1", "0.0",
    "0x7fffffffffffffff", "0o17", "0b101", "1_000", "04413", "1:30", "190:20:30", "3.", ".5", "1e3",
    # types YAML 1.1 guesses
    "yes", "No", "on", "OFF", "y", "~", "null", "Null", "", "''", '""', "2026-11-20", "2026-11-20T03:00:04Z",
    # explicit tags, safe and unsafe
    "!!python/object:os.system", "!!python/object/apply:os.system ['true']", "!!python/name:os.system ''",
    "!!binary AAAA", "!!set {a: null}", "!!omap [a: 1]", "!!pairs [a: 1]", "!!str 12", "!!int 12", "!!int e5",
    "!!float x", "!!float 1.5", "!!null ''", "!!bool true", "!!timestamp 2020-01-01", "!custom x", "!<tag:x> y",
    "!!map {a: 1}", "!!seq [1]", "!!merge x",
    # collections where a scalar is expected
    "[]", "{}", "[1, [2, [3, [4]]]]", "{a: {b: {c: d}}}", "[a, {b: c}]", "{? a : b}",
    # aliases and anchors
    "*nowhere", "&a x", "&a [1, 2]", "<<: *a", "&a {x: 1}",
    # text that looks like markup or terminal control
    "[bold red]x[/]", '"\\e]0;title\\a"', '"\\x00"', '"\\u202e"', '"\\u200b"',
    '"\\ufeff"', '"a\\tb"', "|", ">-", "|+", "'", '"', "#", "- x", ": x", "? x", "@x", "`x", "%x",
]

#: Scalars that reached a known issue-12 bug on the code this was written against, by issue-12 item.
KNOWN_BUG_SCALARS = {
    "1 (overflowing number)": ["1e400", "2E308", "-1e999", "1e309", ".5e400"],
    "1 (!!bool maybe)": ["!!bool maybe", "!!bool 1", "!!bool NO_"],
}

#: Odd characters inserted anywhere in a file (each is valid in a YAML file or refused with a clear problem).
ODD_CHARS = ["\t", "\u200b", "\ufeff", "\u202e", "&", "*", "!", "|", ">", "'", '"', "#",
             "{", "}", "[", "]", ",", ":", "-", "?", "%", "@", "`", " ", "\n", "\\", "é", "а", "😀"]
#: Control characters YAML refuses (a clear problem is expected, at the character's position).
CONTROL_CHARS = ["\x00", "\x01", "\x08", "\x1b", "\x7f", "\x9b", "\ufffe", "\uffff"]
#: Line breaks that editors and YAML count differently (issue 12 item 11): kept apart.
ODD_BREAKS = ["\u2028", "\u2029", "\x85", "\r"]

_KEY_VALUE = re.compile(r"^(\s*(?:- )?[A-Za-z_][\w.-]*:)( .*)?$")


#: Any character a YAML file may hold, but for the ones kept apart above (control characters, odd line breaks).
PLAIN_CHARS = st.characters(
    codec="utf-8", exclude_categories=("Cc", "Cs"), exclude_characters=[*ODD_BREAKS, "\ufffe", "\uffff"]
) | st.sampled_from(["\t", "\n"])


def yamlish_text(
    extra_tokens: list[str] | None = None, chars: st.SearchStrategy[str] = PLAIN_CHARS
) -> st.SearchStrategy[str]:
    """Random text made of YAML's own pieces (keys of the drill format, indentation, flow brackets, anchors,
    tags, quotes, numbers, ``extra_tokens``) and of random ``chars``, so that it reaches the composer and the
    builder, not only the scanner."""
    keys = ["schema_version", "id", "title", "plan", "trace", "answer_key", "fault", "evidence", "deadline",
            "kind", "t", "step", "damage", "entries", "amount", "models", "planner", "executor", "usage", "x"]
    tokens = st.one_of(
        st.sampled_from(keys).map(lambda k: k + ": "),
        st.sampled_from(["\n", "\n  ", "\n    ", "\n- ", "- ", "  ", "[", "]", "{", "}", ", ", "&a ", "*a ",
                         "<<: ", "? ", "'", '"', "|\n", ">\n", "---\n", "...\n", "# c\n", "%YAML 1.2\n"]),
        st.sampled_from(ODD_SCALARS + (extra_tokens or [])),
        st.text(chars, max_size=8),
    )
    return st.lists(tokens, max_size=60).map("".join)


@st.composite
def mutated_drill(draw: st.DrawFn, scalars: list[str] = ODD_SCALARS, chars: list[str] = ODD_CHARS) -> str:
    """A bundled drill with 1 to 4 mutations applied (see the module docstring)."""
    _, text = draw(st.sampled_from(BUNDLED))
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        lines = _mutate(draw, lines, scalars, chars)
    return "\n".join(lines)


def _mutate(draw: st.DrawFn, lines: list[str], scalars: list[str], chars: list[str]) -> list[str]:
    if not lines:
        return [draw(st.sampled_from(scalars))]
    i = draw(st.integers(0, len(lines) - 1))
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "indent", "value", "value", "value", "insert",
                               "cut", "char", "long", "deep", "alias"]))
    line = lines[i]
    if op == "delete":
        return lines[:i] + lines[i + 1 :]
    if op == "duplicate":
        return lines[: i + 1] + [line] + lines[i + 1 :]
    if op == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines = list(lines)
        lines[i], lines[j] = lines[j], lines[i]
        return lines
    if op == "indent":
        delta = draw(st.sampled_from([-4, -2, -1, 1, 2, 4, "tab"]))
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        new = "\t" + line if delta == "tab" else " " * max(0, indent + delta) + stripped
        return lines[:i] + [new] + lines[i + 1 :]
    if op == "value":
        m = _KEY_VALUE.match(line)
        if m is None:  # find the next key: value line
            for j in range(len(lines)):
                m = _KEY_VALUE.match(lines[(i + j) % len(lines)])
                if m:
                    i = (i + j) % len(lines)
                    break
        if m is None:
            return lines
        return lines[:i] + [m.group(1) + " " + draw(st.sampled_from(scalars))] + lines[i + 1 :]
    if op == "insert":
        indent = " " * draw(st.sampled_from([0, 2, 4, 6]))
        new = indent + draw(st.sampled_from(["x: ", "- ", "<<: ", "? ", "", "id: ", "t: ", "kind: ", '"\\e[2J": ',
                                             '"k\\u009b": ', '"\\u202ek": ', "[bold]k[/]: "]))
        return lines[:i] + [new + draw(st.sampled_from(scalars))] + lines[i:]
    if op == "cut":
        return lines[:i] + [line[: draw(st.integers(0, len(line)))]]
    if op == "char":
        at = draw(st.integers(0, len(line)))
        return lines[:i] + [line[:at] + draw(st.sampled_from(chars)) + line[at:]] + lines[i + 1 :]
    return _replace_value(draw, lines, i, op)


def _replace_value(draw: st.DrawFn, lines: list[str], i: int, op: str) -> list[str]:
    """The ``long``, ``deep`` and ``alias`` mutations of the ``key: value`` line ``i`` (unchanged if it is not one)."""
    line = lines[i]
    if op == "long":
        m = _KEY_VALUE.match(line)
        if m is None:
            return lines
        n = draw(st.sampled_from([1_000, 20_000]))
        return lines[:i] + [m.group(1) + " " + draw(st.sampled_from(["x", "é", "😀", "a b "])) * n] + lines[i + 1 :]
    if op == "deep":
        m = _KEY_VALUE.match(line)
        if m is None:
            return lines
        n = draw(st.sampled_from([10, 63, 64, 65, 200, 2000]))
        value = draw(st.sampled_from(["[" * n + "]" * n, "{a: " * n + "1" + "}" * n, "[" * n]))
        return lines[:i] + [m.group(1) + " " + value] + lines[i + 1 :]
    # alias: anchor a value and use it elsewhere (as itself, merged into a mapping, twice), possibly recursively
    m = _KEY_VALUE.match(line)
    j = draw(st.integers(0, len(lines) - 1))
    mj = _KEY_VALUE.match(lines[j])
    if m is None or mj is None or not m.group(2):
        return lines
    lines = list(lines)
    lines[i] = m.group(1) + " &z" + m.group(2)
    lines[j] = mj.group(1) + " " + draw(st.sampled_from(["*z", "{<<: *z}", "{<<: *z, id: merged}", "[*z, *z]", "*z*z"]))
    return lines


_NAMED_ID = re.compile(r"\b(e\d+[a-z0-9_-]*)\b")


def _keyed_events(text: str) -> list[str]:
    """The trace event ids the answer key (or all-clear section) of a drill's text names: its origin event,
    evidence, accepted evidence, deadline and damage events."""
    for marker in ("\nanswer_key:", "\nall_clear:"):
        at = text.find(marker)
        if at >= 0:
            return sorted(set(_NAMED_ID.findall(text[at:])))
    return []


#: (file name, text, the event ids its answer key names) of the bundled drills that have any.
KEYED: list[tuple[str, str, list[str]]] = [(n, t, ids) for n, t in BUNDLED if (ids := _keyed_events(t))]


@st.composite
def keyed_event_drill(draw: st.DrawFn, scalars: list[str] = ODD_SCALARS) -> str:
    """A bundled drill in which one field of a trace event its answer key names (the origin event, evidence, the
    deadline's or damage's event) holds an odd scalar: the rules that relate the answer key to those events (time
    order, the origin, the deadline) then meet a value that did not load. A quoted number or a number with a unit
    is drawn as often as the odd scalars (issue 30: a plan origin's event with ``t: "72"`` crashed the rules)."""
    _, text, ids = draw(st.sampled_from(KEYED))
    lines = text.split("\n")
    event = draw(st.sampled_from(ids))
    start = next((i for i, line in enumerate(lines) if re.match(rf"^\s*- id: {re.escape(event)}\s*$", line)), None)
    if start is None:
        return text
    indent = len(lines[start]) - len(lines[start].lstrip(" ")) + 2
    fields = [start]
    for i in range(start + 1, len(lines)):
        stripped = lines[i].lstrip(" ")
        if stripped and len(lines[i]) - len(stripped) < indent:
            break
        if len(lines[i]) - len(stripped) == indent and _KEY_VALUE.match(lines[i]):
            fields.append(i)
    i = draw(st.sampled_from(fields))
    m = _KEY_VALUE.match(lines[i])
    assert m is not None
    number = draw(st.sampled_from(["72", "3.5", "0", "1e3"]))
    value = draw(st.one_of(st.sampled_from(scalars), st.sampled_from([f'"{number}"', f"{number}s", f"'{number}'",
                                                                      f"{number} s", f"~{number}", f"{number}ms"])))
    lines[i] = m.group(1) + " " + value
    return "\n".join(lines)


def _scalar_line(line: str) -> re.Match[str] | None:
    """The match of a ``key: value`` line whose value is a plain or quoted scalar on that line, else None."""
    m = _KEY_VALUE.match(line)
    if m is None or not m.group(2) or m.group(2).strip()[:1] in ("", "[", "{", "|", ">", "&", "*", "!", "#"):
        return None
    return m


def _block_scalar_lines(lines: list[str]) -> set[int]:
    """Indexes of the lines that are the text of a block scalar (``key: |`` or ``>-`` and the lines under it)."""
    inside: set[int] = set()
    opener: int | None = None
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" "))
        if opener is not None and (not line.strip() or indent > opener):
            inside.add(i)
            continue
        opener = indent if re.search(r"(:|^\s*-)\s+[|>][-+0-9]*\s*$", line) else None
    return inside


def _multiline_scalar_lines(lines: list[str]) -> set[int]:
    """Indexes of the ``key: value`` lines whose plain or quoted scalar goes on over the lines under it (a long
    value folded by its writer, as ruamel.yaml writes the projected drills'), and of those lines."""
    out: set[int] = set()
    for i, line in enumerate(lines):
        m = _scalar_line(line)
        if m is None:
            continue
        key_col = len(m.group(1)) - len(m.group(1).lstrip(" -"))
        j = i + 1
        while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip(" ")) > key_col:
            j += 1
        if j > i + 1:
            out.update(range(i, j))
    return out


@st.composite
def probed_drill(draw: st.DrawFn, chars: st.SearchStrategy[str] = PLAIN_CHARS) -> tuple[str, int, int]:
    """``(text, line, column)``: a bundled drill in which one scalar value was replaced by an unsupported tag (a
    problem the loader must report exactly there), after odd text was put in comments and quoted values on the
    lines above it. ``line`` and ``column`` count as editors do (lines end at ``\\n``, columns in characters)."""
    import json

    _, text = draw(st.sampled_from(BUNDLED))
    lines = text.split("\n")
    inside = _block_scalar_lines(lines) | _multiline_scalar_lines(lines)
    scalar_lines = [i for i, line in enumerate(lines) if i not in inside and _scalar_line(line)]
    probe = draw(st.sampled_from(scalar_lines[len(scalar_lines) // 3 :]))
    m = _scalar_line(lines[probe])
    assert m is not None
    lines[probe] = m.group(1) + " !!python/object:os.system x"
    column = len(m.group(1)) + 2
    above = [i for i in scalar_lines if i < probe]
    comments: list[tuple[int, str]] = []
    for _ in range(draw(st.integers(1, 3))):
        odd = draw(st.text(chars, min_size=1, max_size=6))
        if draw(st.booleans()) and above:  # a quoted value above the probe holds the odd text
            i = draw(st.sampled_from(above))
            m2 = _scalar_line(lines[i])
            assert m2 is not None
            lines[i] = m2.group(1) + " " + json.dumps("x" + odd, ensure_ascii=False)
        else:  # a comment line above the probe holds it; a comment ends at a line break, so only its last
            # character may be one (then the comment is followed by an empty line for YAML)
            body = "".join(" " if c in "\n" + "".join(ODD_BREAKS) else c for c in odd[:-1])
            last = odd[-1] if odd[-1] != "\n" else " "
            comments.append((draw(st.sampled_from([*above, probe])), "# " + body + last))
    for i, comment in sorted(comments, reverse=True):
        lines.insert(i, comment)
    probe += len(comments)
    return "\n".join(lines), probe + 1, column
