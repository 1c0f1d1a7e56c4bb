"""Write an answer key into a drill file, keeping every other line of it as written (``warroom annotate``'s save).

The file is read with ruamel.yaml's round-trip loader (comments, key order and quoting kept); only the top-level
``answer_key`` and ``distractors`` are replaced, and the ``title``, ``difficulty`` and ``briefing`` the author set in
author mode (:attr:`KeyDraft.meta`). An imported drill's header comment saying it has no answer key
(:data:`UNMARKED_NOTE`) is replaced by one saying it was marked up (:data:`MARKED_NOTE`), and its ``author`` no longer
says "not yet marked up". Their text is emitted by ruamel.yaml (comments inside a kept
``answer_key``, and its unchanged values, are kept too) and spliced in place of the old block, or appended at the end
of the file, so every other line stays byte for byte what the author or the importer wrote; a block whose marks did
not change is not emitted again at all, so a save that changes nothing leaves the file byte for byte as it was (its
line ends, a byte-order mark, a missing final newline). The result is read back with warroom's own YAML reader and
must hold exactly the key written, else nothing is written. ruamel.yaml is used for this write path only; every
other read is warroom's loader.

Saving (:func:`write_draft`) refuses a file that changed on disk since it was read (another editor saved it) or that
is read-only, and writes through a symbolic link into the file it points to (the link stays a link).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

from warroom.core.author._annotation import META, KeyDraft
from warroom.core.files import replace_file
from warroom.core.text import shown_path
from warroom.errors import WarroomError

#: The drill's top-level keys the annotator writes, in the order they are appended to a file without them.
WRITTEN = ("distractors", "answer_key")

#: What an importer writes at the top of a drill it imports (as ``#`` comment lines, after its own header): the drill
#: has no answer key yet, and how to add one. warroom.importers.kit writes it; saving a key replaces it.
UNMARKED_NOTE = """\
No answer key: a real trace does not say what went wrong, and the importer does not guess. Until you add one,
`warroom validate` reports exactly that. Mark up the incident by adding, at the end of this file:

answer_key:
  fault: {origin_step: STEP, kind: KIND, summary: WHAT WENT WRONG, IN ONE SENTENCE}
  evidence: [EVENT]                 # the trace event(s) that show the fault
  cascade: []                       # the later plan steps it spoils
  damage: {unit: UNIT, entries: [{event: EVENT, amount: 1}]}
  deadline: SECONDS                 # or {event: EVENT, after: SECONDS}
  debrief: WHAT THE TRAINEE SHOULD HAVE SEEN, AND WHEN

or, for a healthy run, `all_clear: {debrief: WHY IT WAS HEALTHY}`. Then run `warroom validate` and
`warroom check` (docs/importing.md, "Marking up an imported trace")."""

#: What replaces :data:`UNMARKED_NOTE` once an answer key is saved (``{state}``: complete, or what is still missing).
MARKED_NOTE = """\
Answer key: marked up in the war room's author mode (`warroom annotate`): {state}. `warroom validate` and
`warroom check` say what they find of it."""

#: The end of an imported drill's ``author`` until it is marked up, and what it becomes.
UNMARKED_AUTHOR = " (real trace, not yet marked up)"
MARKED_AUTHOR = " (real trace, marked up in author mode)"


def _commented(note: str) -> list[str]:
    """``note``'s lines as ``#`` comment lines (a blank line as ``#``), each ending in a newline."""
    return [f"# {line}\n" if line else "#\n" for line in note.splitlines()]


def _mark_header(lines: list[str], draft: KeyDraft) -> None:
    """Replace the importer's "No answer key" comment (:data:`UNMARKED_NOTE`, as it wrote it) by
    :data:`MARKED_NOTE`, in place; a header an author edited is left as it is."""
    note = _commented(UNMARKED_NOTE)
    stripped = [line.rstrip() + "\n" for line in lines]
    for start in range(len(lines) - len(note) + 1):
        if stripped[start] == note[0] and stripped[start:start + len(note)] == note:
            missing = draft.missing()
            state = "complete" if not missing else "still missing " + ", ".join(m.split(".")[-1] for m in missing)
            lines[start:start + len(note)] = _commented(MARKED_NOTE.format(state=state))
            return


class KeyWriteError(WarroomError):
    """The answer key could not be written: the file is not a block mapping ruamel.yaml can read, or cannot be
    written (``str(error)`` says which)."""


class ChangedOnDisk(KeyWriteError):
    """The drill file changed on disk since it was read (another editor saved it): nothing was written."""


#: Line breaks ruamel.yaml (YAML 1.1) counts but warroom's reader (YAML 1.2, as editors) does not, each read by
#: ruamel.yaml as a character of the private use area instead, and put back in what it writes.
_ODD_BREAKS = {"\u2028": "\ue028", "\u2029": "\ue029", "\x85": "\ue085"}
#: Characters a YAML file may not hold as they are (control characters but tab and line ends, DEL, C1 controls, a BOM
#: or non-character inside text) or that YAML 1.1 takes for a line break (NEL, LS, PS): a text holding one is written
#: double-quoted, where ruamel.yaml escapes them.
_UNWRITABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _lines(text: str) -> list[str]:
    """``text``'s lines with their ends, broken at LF, CRLF and a lone CR only (as ruamel.yaml, once
    :data:`_ODD_BREAKS` are hidden, and warroom's reader count them)."""
    return _LINE.findall(text)


def _newline(text: str) -> str:
    """The line end ``text`` uses most (``\n`` for a file of one line)."""
    crlf, cr = text.count("\r\n"), text.count("\r")
    lf = text.count("\n") - crlf
    lone_cr = cr - crlf
    return max((lf, "\n"), (crlf, "\r\n"), (lone_cr, "\r"), key=lambda pair: pair[0])[1] if cr else "\n"


def _yaml(offset: int = 0) -> Any:
    """ruamel.yaml's round-trip emitter: mappings indented 2, a block sequence's ``-`` ``offset`` columns in from
    its key (0, as the importers and `warroom new` write `- id:` under its key; 2 as many hand-written drills do)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # no re-wrapping: a kept flow line stays one line, as written
    yaml.indent(mapping=2, sequence=offset + 2, offset=offset)
    return yaml


def _dash_offset(lines: list[str]) -> int:
    """How far a block sequence's ``-`` stands in from its key in this file (the first ``key:`` line followed by a
    ``- `` line; 0 when there is none, or an odd layout)."""
    for above, line in pairwise(lines):
        key = above.rstrip()
        if key.endswith(":") and not key.lstrip().startswith(("#", "-")) and line.lstrip().startswith("- "):
            offset = (len(line) - len(line.lstrip(" "))) - (len(above) - len(above.lstrip(" ")))
            return offset if offset in (0, 2) else 0
    return 0


def _plain(node: Any) -> Any:
    """A ruamel round-trip value as plain dicts, lists and scalars (for comparing with the draft's data)."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def _styled(value: Any) -> Any:
    """Plain data with multi-line text as literal blocks (``|``), as an author writes a debrief, and text that a
    YAML 1.1 reader takes for something else (``yes``, ``off``, ``0755``, ``12:30``) in quotes, so that the file
    reads the same everywhere (``warroom validate`` warns about such text left plain)."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString, SingleQuotedScalarString

    from warroom.core.load import yaml11_value

    if isinstance(value, dict):
        return {k: _styled(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_styled(v) for v in value]
    if isinstance(value, str) and (_UNWRITABLE.search(value) or "\r" in value):
        # escaped (``"\e]0;\a"``): YAML allows them in a file no other way; a carriage return (a text pasted with
        # Windows line ends) written raw would be a line break, read back as another text (the save was refused)
        return DoubleQuotedScalarString(value)
    if isinstance(value, str) and "\n" in value.strip() and not any(ch in value for ch in "\t\r"):
        return LiteralScalarString(value)
    if isinstance(value, str) and not isinstance(yaml11_value(value), str):
        return SingleQuotedScalarString(value)
    return value


def _merged(old: Any, new: Any) -> Any:
    """``new`` written over ``old``: values equal to the old ones keep the old node (its comments and style), a list
    of the same length is merged item by item, keys the new value drops are removed, new keys take their place in
    ``new``'s order."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if _plain(old) == new:
        return old  # unchanged: the node as the file has it (its style, comments and line breaks)
    if isinstance(old, CommentedSeq) and isinstance(new, list) and len(old) == len(new):
        for i, value in enumerate(new):
            old[i] = _merged(old[i], value)
        return old
    if not isinstance(old, CommentedMap) or not isinstance(new, dict):
        return _styled(new)
    for key in [k for k in old if k not in new]:
        del old[key]
    for pos, (key, value) in enumerate(new.items()):
        if key in old:
            if _plain(old[key]) != value:
                old[key] = _merged(old[key], value)
        else:
            old.insert(min(pos, len(old)), key, _styled(value))
    return old


def _trim_tail_comments(node: Any) -> None:
    """Cut the comment lines ruamel.yaml attached after the last value of ``node`` (the lines after a block, which
    stay in the file where they are) down to that value's own end-of-line comment."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    while isinstance(node, (CommentedMap, CommentedSeq)) and len(node):
        last = list(node)[-1] if isinstance(node, CommentedMap) else len(node) - 1
        slots = node.ca.items.get(last)
        for i, token in enumerate(slots or []):
            if token is not None and hasattr(token, "value") and "\n" in token.value:
                first = token.value.split("\n", 1)[0]
                slots[i] = None if not first.strip() else token
                if first.strip():
                    token.value = first + "\n"
        node.ca.end = []
        node = node[last]


def _child_spans(node: Any, lines: list[str], start: int, end: int) -> dict[str, tuple[int, int]]:
    """Each key of the mapping ``node`` (a block within ``lines[start:end]``; the whole file: ``-1, len(lines)``) ->
    (first line, end line) of its value, 0-based, end exclusive (comment and blank lines at a child's end belong to
    what follows)."""
    own = [k for k in node if k in node.lc.data]  # ruamel.yaml lists merged keys too, with no line of their own
    starts = [(node.lc.key(k)[0], str(k)) for k in own]
    column = node.lc.key(own[0])[1] if own else 0
    merges = [(i, f"{MERGE}{i}") for i in range(max(start + 1, 0), end) if _is_merge_line(lines[i], column)]
    starts = sorted(starts + merges)  # a `<<:` line ends the key above it (the keys it merges stay)
    spans: dict[str, tuple[int, int]] = {}
    for i, (first, key) in enumerate(starts):
        last = starts[i + 1][0] if i + 1 < len(starts) else end
        while last > first + 1 and _is_filler(lines[last - 1]):
            last -= 1
        if start < first < last <= end:
            spans[key] = (first, last)
    return spans


def _child_lines(node: Any, lines: list[str], start: int, end: int) -> dict[str, tuple[Any, list[str]]]:
    """The mapping block ``node`` (the file's ``lines[start:end]``): each child key -> (its value as plain data, its
    lines as the file has them). Empty for a value that is not a block mapping."""
    from ruamel.yaml.comments import CommentedMap

    if not isinstance(node, CommentedMap) or node.fa.flow_style():
        return {}
    return {key: (_plain(node[key]), lines[a:b]) for key, (a, b) in _child_spans(node, lines, start, end).items()}


def _put_back(block: str, kept: dict[str, tuple[Any, list[str]]], value: Any) -> str:
    """``block`` (a mapping block just written) with each child whose value did not change put back as the file
    had its lines (a quoted briefing text the file wraps over lines stays wrapped, not one long line), when the
    child's key is indented alike in both."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    if not kept or not isinstance(value, dict):
        return block
    out = block.splitlines(keepends=True)
    try:
        data = _yaml().load(block)
    except YAMLError:
        return block
    node = data[next(iter(data))] if isinstance(data, CommentedMap) and len(data) == 1 else None
    if not isinstance(node, CommentedMap):
        return block
    spans = _child_spans(node, out, 0, len(out))
    for key, (a, b) in sorted(spans.items(), key=lambda item: -item[1][0]):
        old = kept.get(key)
        if old is None or old[0] != value.get(key) or not old[1]:
            continue
        if _indent_of(old[1][0]) == _indent_of(out[a]):
            out[a:b] = old[1]
    return "".join(out)


#: The name :func:`_child_spans` gives a merge key's line (``<<:``; then its line number): never a drill's key.
MERGE = "<<@"


def _is_merge_line(line: str, column: int) -> bool:
    """Whether ``line`` is a merge key (``<<: ...``) of a block mapping whose keys stand at ``column``."""
    return _indent_of(line) == column and re.match(r"<<[ \t]*:(?:[ \t]|$)", line[column:]) is not None


def _shared_anchor(node: Any, lines: list[str], start: int, end: int) -> tuple[str, int] | None:
    """An anchor (``&name``) of the value ``node`` (the file's ``lines[start:end]``) that an alias outside those lines
    uses, with the 1-based line of that alias; None when there is none (the block can be written anew)."""
    anchors, todo = [], [node]
    while todo:
        value = todo.pop()
        anchor = getattr(getattr(value, "anchor", None), "value", None)
        if anchor:
            anchors.append(anchor)
        todo.extend(value.values() if isinstance(value, dict) else value if isinstance(value, list) else ())
    for anchor in anchors:
        alias = re.compile(rf"\*{re.escape(anchor)}(?![^\s,\[\]{{}}])")
        for i, line in enumerate(lines):
            if not start <= i < end and alias.search(line):
                return anchor, i + 1
    return None


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _document_end(lines: list[str]) -> int:
    """Where a block added at the end of the drill goes: before the document end marker (``...``) that closes the
    file, with only comments and blank lines after it (a block after it would be a second YAML document), else at
    the end."""
    for i in range(len(lines) - 1, -1, -1):
        if re.match(r"\.\.\.(?:[ \t]|$)", lines[i]):
            return i
        if not _is_filler(lines[i]):
            break
    return len(lines)


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#") or stripped in ("...", "---")


def _dump_block(yaml: Any, name: str, value: Any, newline: str = "\n") -> str:
    """The YAML text of ``name: value`` (a top-level block), its lines ending with ``newline``, without the comment
    lines ruamel.yaml puts after it (they stay in the file where they are)."""
    from ruamel.yaml.comments import CommentedMap

    out = io.StringIO()
    yaml.version, yaml.explicit_start, yaml.explicit_end = None, False, False  # a block, not a document (%YAML 1.2)
    yaml.dump(CommentedMap([(name, value)]), out)
    block = out.getvalue().splitlines(keepends=True)
    while block and _is_filler(block[-1]):  # trailing comments stay where they were in the file
        block.pop()
    return "".join(line[:-1] + newline if line.endswith("\n") else line for line in block)


def _hide_breaks(text: str, path: str) -> str:
    """``text`` with its odd line breaks replaced by the save's stand-ins (:data:`_ODD_BREAKS`); KeyWriteError when
    the file holds a stand-in itself."""
    hidden = text
    for odd, stand_in in _ODD_BREAKS.items():
        if stand_in in text:
            raise KeyWriteError(f"{shown_path(path)}: the file holds the character U+{ord(stand_in):04X}, which the "
                                "save uses for its own; remove it to save")  # fmt: skip
        hidden = hidden.replace(odd, stand_in)
    return hidden


def apply_draft(text: str, draft: KeyDraft, event_order: dict[str, int], path: str = "<string>") -> str:
    """``text`` (a drill file) with its ``answer_key`` and ``distractors`` replaced by the draft's (removed when the
    draft has none), every other line unchanged; a block whose marks are the ones the file has already is left as it
    is, so a draft with no change gives ``text`` back unchanged. New lines end as the file's do. ``event_order``:
    trace event id -> index (orders evidence, damage entries and distractors). Raises KeyWriteError when the text is
    not a block mapping ruamel.yaml reads."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    hidden = _hide_breaks(text, path)
    lines = _lines(text)  # the lines kept are the file's own (its tabs and odd breaks as written)
    new = {"answer_key": draft.answer_key_data(event_order) or None,
           "distractors": draft.distractors_data(event_order) or None}
    # only what the author changed (as warroom reads the file): a value as the file has it keeps its text byte for byte
    meta = _meta_changed(text, draft, path, marked=new["answer_key"] is not None)
    changed = [name for name in WRITTEN if new[name] != _marks_in(text, name, event_order, path)]
    if not changed and not meta:
        return text  # nothing to write: byte for byte as it was (before ruamel.yaml reads anything)
    yaml = _yaml(_dash_offset([line.rstrip("\r\n") for line in lines]))
    try:  # ruamel.yaml refuses a tab YAML 1.2 allows (`key:<tab>value`, before a comment, inside plain text): it
        # reads each as a space, on the same line and column; the kept lines are the file's, every block written
        # is checked as read back by warroom's reader (_check_written)
        doc = yaml.load(hidden.replace("\t", " "))
    except YAMLError as exc:
        raise KeyWriteError(f"{shown_path(path)}: ruamel.yaml cannot read the file to write into it: {exc}") from None
    if not isinstance(doc, CommentedMap) or doc.fa.flow_style():
        raise KeyWriteError(
            f"{shown_path(path)}: the drill is not a block mapping (`key: value` lines); cannot write into it"
        )
    newline = _newline(text)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += newline
    spans = _child_spans(doc, lines, -1, len(lines))  # each top-level block
    _refuse_shared_anchors(doc, lines, spans, [n for n in (*changed, *meta) if n in spans], path)
    merged = _write_merged(yaml, doc, lines, spans, meta, newline)
    # bottom-up, so the line numbers of the blocks above stay right
    for name in sorted((n for n in (*changed, *meta) if n in spans), key=lambda n: -spans[n][0]):
        start, end = spans[name]
        value = new[name] if name in new else meta[name]
        kept = _child_lines(doc[name], lines, start, end) if name in meta else {}  # put back where unchanged
        _trim_tail_comments(doc[name])
        lines[start:end] = [] if value is None else [
            _put_back(_dump_block(yaml, name, _merged(doc[name], value), newline), kept, value)]
    if new["answer_key"] is not None:
        _mark_header(lines, draft)
    _insert_new_blocks(yaml, lines, spans, new, newline)
    result = "".join(lines)
    for odd, stand_in in _ODD_BREAKS.items():
        result = result.replace(stand_in, odd)
    # the blocks written; one left as the file has it reads as before (a distractor's text that ends in spaces
    # inside a folded block is its text, while the draft reads it without them: checking it made every save fail)
    _check_written(result, {**{n: new[n] for n in changed}, **{n: v for n, v in meta.items() if n in spans},
                            **{n: meta[n] for n in merged}}, path)
    return result


def _insert_new_blocks(yaml: Any, lines: list[str], spans: dict[str, tuple[int, int]], new: dict[str, Any],
                       newline: str) -> None:
    """Insert into ``lines`` each block of ``new`` the file did not have: the distractors just before the answer key,
    any other at the end of the document."""
    for name in WRITTEN:
        if name not in spans and new[name] is not None:
            block = _dump_block(yaml, name, _styled(new[name]), newline)
            key_at = spans.get("answer_key", (None,))[0]
            if name == "distractors" and key_at is not None and new["answer_key"] is not None:
                lines.insert(key_at, block)  # the distractors go just before the answer key
            else:
                lines.insert(_document_end(lines), block)


def _refuse_shared_anchors(doc: Any, lines: list[str], spans: dict[str, tuple[int, int]], names: list[str],
                           path: str) -> None:
    """KeyWriteError when a top-level block about to be written anew (``names``) holds an anchor that an alias
    elsewhere uses: written anew, it would lose the anchor and the file would not read back."""
    for name in names:
        shared = _shared_anchor(doc[name], lines, *spans[name])
        if shared is not None:
            raise KeyWriteError(f"{shown_path(path)}: `{name}` holds the anchor &{shared[0]}, which the alias "
                                f"*{shared[0]} on line {shared[1]} uses: write that value out in full there (or "
                                "remove the anchor), then save again; nothing was written")  # fmt: skip


def _write_merged(yaml: Any, doc: Any, lines: list[str], spans: dict[str, tuple[int, int]], meta: dict[str, Any],
                  newline: str) -> list[str]:
    """Write each of ``meta`` that a top-level merge key gives (``<<: {title: ...}``) as a key of its own under the
    last merge line (which it overrides), into that line's slot of ``lines`` (no line number moves). Returns their
    names."""
    merged = [n for n in meta if n not in spans and n in doc]
    merge_lines = [first for key, (first, _) in spans.items() if key.startswith(MERGE)]
    if not merged or not merge_lines:
        return []
    lines[max(merge_lines)] += "".join(_dump_block(yaml, n, _styled(meta[n]), newline) for n in merged)
    return merged


def _meta_changed(text: str, draft: KeyDraft, path: str, marked: bool) -> dict[str, Any]:
    """The top-level fields (:data:`META`, and ``author`` once the drill is marked up) whose value the save changes,
    each with its new value, comparing the draft with the file as warroom's reader reads it."""
    from warroom.core.load import DrillLoadError, load_yaml_text

    try:
        data = load_yaml_text(text, path)
    except DrillLoadError:
        data = None
    if not isinstance(data, dict):
        data = {}
    meta = {name: draft.meta[name] for name in META if name in draft.meta and data.get(name) != draft.meta[name]}
    author = data.get("author")
    if marked and isinstance(author, str) and author.endswith(UNMARKED_AUTHOR):
        meta["author"] = author[: -len(UNMARKED_AUTHOR)] + MARKED_AUTHOR
    return meta


def _marks_in(text: str, name: str, event_order: dict[str, int], path: str) -> Any:
    """The marks ``text`` holds for block ``name`` (``answer_key`` or ``distractors``), as the draft writes them (the
    answer the draft of an unchanged file gives), or a value no draft writes when they cannot be read."""
    from warroom.core.author._annotation import draft_from_data
    from warroom.core.load import DrillLoadError, load_yaml_text

    try:
        data = load_yaml_text(text, path)
    except DrillLoadError:
        return ...
    if not isinstance(data, dict):
        return ...
    draft = draft_from_data(data)
    written = draft.answer_key_data(event_order) if name == "answer_key" else draft.distractors_data(event_order)
    return (written or None) if data.get(name) is not None else None


def _check_written(text: str, new: dict[str, Any], path: str) -> None:
    """Read ``text`` back with warroom's YAML reader: it must hold exactly the key and distractors written."""
    from warroom.core.load import DrillLoadError, load_yaml_text

    try:
        data = load_yaml_text(text, path)
    except DrillLoadError as exc:
        shown = shown_path(path)
        raise KeyWriteError(f"{shown}: the file would not read back after writing the answer key: {exc}") from None
    for name, value in new.items():
        if data.get(name) != value:
            raise KeyWriteError(
                f"{shown_path(path)}: the {name} would not read back as written; the file is left unchanged"
            )


def _detections(draft: KeyDraft, event_order: dict[str, int]) -> list[str]:
    """Per evidence item of ``draft``, the trace event whose release makes it visible: its event, or the member of a
    comparison released last (as :func:`warroom.core.model.detection_events` reads a drill); a comparison is not
    seen at its first member, so the reading time comes after its last."""
    from warroom.core.author._annotation import item_events

    out = []
    for item in draft.evidence:
        events = item_events(item)
        if events and all(e in event_order for e in events):
            out.append(max(events, key=event_order.__getitem__))
    return out


def write_draft(
    path: str | os.PathLike[str], draft: KeyDraft, event_order: dict[str, int], expected_sha256: str | None = None,
    reading_time: float | None = None,
) -> str:
    """Write the draft into drill file ``path`` (see :func:`apply_draft`): whole, by a temporary file in the same
    folder renamed over it, keeping the file's mode; through a symbolic link into the file it points to (the link
    stays a link); keeping a byte-order mark. A save that changes nothing writes nothing. With ``reading_time``
    (``warroom annotate --reading-time``), the events after the earliest evidence are moved later first
    (:func:`~warroom.core.author._retime.retime_text`). Returns the SHA-256 of the file's bytes as they are now (pass
    it as ``expected_sha256`` to the next save).

    Raises :class:`ChangedOnDisk` when ``expected_sha256`` is given and the file's bytes are no longer those (another
    editor saved it since it was read), KeyWriteError (with the OS's reason) when the file cannot be read or written
    or is read-only; the file is then unchanged."""
    from warroom.core.files import read_limited, read_only_mode
    from warroom.core.load import limits

    target = Path(os.path.realpath(path))  # a symbolic link: write into the file it points to
    try:
        raw = read_limited(target, limits.MAX_FILE_BYTES)  # (another editor may have made it anything meanwhile)
        mode = target.stat().st_mode & 0o7777
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        # the OS's reason alone (not Python's "[Errno 2] No such file or directory: 'PATH'", the path named twice)
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise KeyWriteError(f"{shown_path(path)}: cannot read the drill file: {why}") from None
    if expected_sha256 is not None and hashlib.sha256(raw).hexdigest() != expected_sha256:
        raise ChangedOnDisk(
            f"{shown_path(path)}: the file changed on disk since it was opened (another editor saved it?): nothing "
            "was written"
        )
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    evidence = _detections(draft, event_order)
    if reading_time and evidence:
        from warroom.core.author._retime import retime_text

        body, _ = retime_text(body, min(evidence, key=event_order.__getitem__), reading_time)
    result = bom + apply_draft(body, draft, event_order, str(path))
    if result == text:
        return hashlib.sha256(raw).hexdigest()
    shown = read_only_mode(target)
    if shown is not None:
        raise KeyWriteError(f"{shown_path(path)}: the drill file is read-only (mode {shown}): make it writable "
                            "(chmod u+w) to save into it; nothing was written")  # fmt: skip
    try:
        replace_file(target, result, mode=mode)
    except OSError as exc:
        raise KeyWriteError(f"{shown_path(path)}: cannot write the drill file: {exc.strerror or exc}") from None
    return hashlib.sha256(result.encode("utf-8")).hexdigest()
