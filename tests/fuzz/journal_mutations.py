"""A real session journal (a bundled drill played headlessly, the process "killed" before the end) and
Hypothesis strategies that damage it line by line, as a crash, a disk error or a hand edit could."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from warroom.core.library import bundled_drills_dir

DRILL_ID = "duplicate-charge-refunds"


def drill_path() -> Path:
    """The bundled drill the journal was played on."""
    return bundled_drills_dir() / f"{DRILL_ID}.yaml"


@functools.cache
def real_journal() -> bytes:
    """The bytes of a journal written by :class:`~warroom.store.journal.SessionRecorder` for a session of the
    bundled drill: inspections, a flag, a speed change, a pause and resume, a false escalation; never finished."""
    from warroom.core.play import Replay
    from warroom.store.journal import SessionRecorder
    from warroom.store.review import load_drill_file

    drill = load_drill_file(drill_path())
    with tempfile.TemporaryDirectory() as d:
        rec = SessionRecorder.start(Path(d), "kim", drill_path(), drill)
        replay = Replay(rec.drill, on_action=rec.record)  # its ids by position, as the session plays them
        replay.advance(0)
        replay.inspect("e01")
        replay.advance(12)
        replay.inspect("e06")  # the evidence (e04 in the drill file)
        replay.flag("e06", "row count 41, billing said about 300 — [bold]check[/] \x1b[31m")
        replay.set_speed(2.0)
        replay.pause()
        replay.resume()
        replay.escalate("s3", "wrong step on purpose")
        rec.close()
        return rec.journal_path.read_bytes()


#: JSON values put in place of a field of a journal line.
ODD_JSON = [
    "null", "true", "0", "-1", "-0.0", "1e308", "-1e308", "1e999", "-1e999", "NaN", "Infinity", "-Infinity",
    "4.9e-324", "9" * 30, "9" * 5000, '""', '"x"', '"\\u0000"', '"\\ud800"', '"\\udfff\\ud800"', '"' + "é" * 2000 + '"',
    "[]", "{}", "[1, [2]]", '{"kind": "pause"}', '"pause"', '"quit"', '"escalate"', '"2026-13-45T99:99:99"',
]
#: Whole lines put into a journal.
ODD_LINES = [
    b"", b" ", b"\r", b"null", b"[]", b"{}", b"42", b'"start"', b"\x00\x00garbage", b"\xff\xfe\xfd",
    b'{"type": "end"}', b'{"type": "end", "scorecard": {}}', b'{"type": "end", "scorecard": null}',
    b'{"type": "start"}', b'{"type": "start", "session_id": "x"}', b'{"type": "action"}',
    b'{"type": "action", "action": null}', b'{"type": "action", "action": {"t": 1, "kind": "pause", "x": 1}}',
    b'{"type": "action", "action": {"t": 5, "kind": "quit"}}', b'{"type": "nope"}', b'{"type": null}',
    b'{"type": "action", "action": {"t": 1, "kind": "escalate", "step": "s1"}}',
    b'{"type": "action", "action": {"t": 1, "kind": "inspect", "event": "e999"}}',
    b'{"type":"action","action":{"t":3,"kind":"pause"}}\r',
]
#: Lines that reach a known bug of issue 12 (item 7: a huge action time) on the code this was written against.
HUGE_TIME_LINES = [
    b'{"type": "action", "action": {"t": 1e999, "kind": "pause"}}',
    b'{"type": "action", "action": {"t": 1e308, "kind": "pause"}}',
]
#: A line of deeply nested JSON: ``json.loads`` raises RecursionError on it (found by this fuzzer).
DEEP_LINE = b"[" * 5_000


LINE_OPS = ("delete", "duplicate", "swap", "insert", "replace", "cut_line", "cut_file")
FIELD_OPS = ("field", "field", "field", "drop_key", "add_key", "twice_key")


@st.composite
def damaged_journal(
    draw: st.DrawFn, odd_lines: list[bytes] = ODD_LINES, ops: tuple[str, ...] = LINE_OPS + FIELD_OPS
) -> bytes:
    """The real journal with 1 to 4 of (``ops``): a line deleted, duplicated, moved, cut short, replaced or joined
    by an odd line; a field of its JSON replaced by an odd value, a key removed or added; the file cut at a byte."""
    lines = real_journal().split(b"\n")[:-1]  # complete lines, each ended by \n in the file
    cut: int | None = None
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines = [draw(st.sampled_from(odd_lines))]
            continue
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(ops))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "insert":
            lines.insert(i, draw(st.sampled_from(odd_lines)))
        elif op == "replace":
            lines[i] = draw(st.sampled_from(odd_lines))
        elif op == "cut_line":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "cut_file":
            cut = draw(st.integers(0, sum(len(x) + 1 for x in lines)))
        else:
            lines[i] = _edit_json(draw, lines[i], op)
    data = b"".join(line + b"\n" for line in lines)
    return data[:cut] if cut is not None else data


def _edit_json(draw: st.DrawFn, line: bytes, op: str) -> bytes:
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if not isinstance(obj, dict):
        return line
    target: dict[str, Any] = obj
    if isinstance(obj.get("action"), dict) and draw(st.booleans()):
        target = obj["action"]
    if op == "add_key":
        target[draw(st.sampled_from(["x", "t", "kind", "type", "speed", "note"]))] = None
        return json.dumps(obj).encode()
    if op == "twice_key":  # a key the line holds, given again first with another value: two readers, two lines
        key = draw(st.sampled_from(sorted(obj) or ["type"]))
        value = draw(st.sampled_from(['"action"', '"start"', "1", "null", '{"t": 1, "kind": "quit"}']))
        return (b"{" + json.dumps(key).encode() + b": " + value.encode() + b", " + json.dumps(obj).encode()[1:]
                if obj else line)
    if not target:
        return line
    key = draw(st.sampled_from(sorted(target)))
    if op == "drop_key":
        del target[key]
        return json.dumps(obj).encode()
    # field: splice the odd value in as raw JSON text (so 1e999, NaN and 5,000 digits reach the reader as written)
    marker = "\u0000MARK\u0000"
    target[key] = marker
    return json.dumps(obj).replace(json.dumps(marker), draw(st.sampled_from(ODD_JSON))).encode()


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("a key twice")
    return dict(pairs)


def expected_actions(data: bytes) -> list[Any] | None:
    """The journal contract, stated independently of the reader: None when there is no session start line (the
    first line that is a JSON object, with no key twice in any of its objects, must be a ``start`` with a
    ``session_id``); otherwise every well-formed action line after it (an object with no key twice and with
    ``type: action``, whose values fit the store's journal model, :class:`~warroom.store.results.ActionRecord`: a
    valid ``action``, an integer ``seq``, a text ``at``), in file order."""
    from pydantic import ValidationError

    from warroom.store.results import ActionRecord

    actions: list[Any] = []
    started = False
    for line in data.split(b"\n"):
        try:
            obj = json.loads(line.decode("utf-8"), object_pairs_hook=_once)
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        if not isinstance(obj, dict):
            continue
        if not started:
            if obj.get("type") != "start" or "session_id" not in obj:
                return None
            started = True
        elif obj.get("type") == "action":
            try:
                actions.append(ActionRecord.model_validate(obj).action)
            except ValidationError:
                pass
    return actions if started else None


#: One well-formed action as journal JSON: any kind at any drill time, naming events and plan steps that may or may
#: not exist in the drill, in any order (a log that need not replay on its drill).
ACTION_JSON = st.fixed_dictionaries(
    {
        "t": st.floats(0, 1e6, allow_nan=False),
        "kind": st.sampled_from(["inspect", "flag", "escalate", "pause", "resume", "speed", "quit"]),
    },
    optional={
        "event": st.sampled_from(["e01", "e02", "e04", "e10", "e99", "", "E01"]),
        "step": st.sampled_from(["s1", "s2", "s3", "s9", ""]),
        "note": st.text(max_size=20),
        "speed": st.floats(0.001, 1000),
    },
)


@st.composite
def random_action_journal(draw: st.DrawFn) -> bytes:
    """The real journal's start line followed by up to 8 random well-formed action lines (maybe an end line)."""
    start = real_journal().split(b"\n")[0]
    actions = draw(st.lists(ACTION_JSON, max_size=8))
    lines = [start] + [json.dumps({"type": "action", "seq": i, "action": a}).encode() for i, a in enumerate(actions, 1)]
    return b"".join(line + b"\n" for line in lines)
