"""Re-timing a drill file for reading (``warroom annotate --reading-time S``): after the earliest evidence an author
marks (and the rest of its parallel batch, read with it), the next event comes at least S drill seconds later, every
later event moved by the same amount, so that a
fast real trace leaves a person time to read the evidence and escalate before the damage (``warroom check``'s
reaction window) without editing times by hand (docs/importing.md, "Re-timing for reading").

Only the ``t`` values of the events after the evidence change, each in place on its line (every other character of
the file stays as written), and a comment line above ``trace:`` says what was moved; a deadline written by reference
(``{event, after}``) moves with its event.
"""

from __future__ import annotations

import re
from typing import Any

from warroom.core.text import exact_figure

#: A drill time as YAML writes it at the start of a value.
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
#: The comment the re-timing leaves above ``trace:``.
NOTE = ("# Re-timed for reading by `warroom annotate --reading-time {s}`: the events after {event} moved {by} s "
        "later.")


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _batch_of(trace: list[Any], index: int) -> str | None:
    """The parallel batch of the event at ``index``: a tool call's ``batch``, a result's that of the call it answers."""
    ev = trace[index]
    if not isinstance(ev, dict):
        return None
    batch = ev.get("batch")
    if isinstance(batch, str):
        return batch
    call = ev.get("call")
    found = next((c for c in trace if isinstance(c, dict) and isinstance(call, str) and c.get("id") == call), None)
    return found.get("batch") if found is not None and isinstance(found.get("batch"), str) else None


def _batch_end(trace: list[Any], at: int) -> int:
    """Index of the last event of the run of events from ``at`` on that share its parallel batch (``at`` itself when
    it has none): the events of one batch stay together, no gap is stretched between them."""
    batch = _batch_of(trace, at)
    end = at
    while batch is not None and end + 1 < len(trace) and _batch_of(trace, end + 1) == batch:
        end += 1
    return end


def retime_text(text: str, event_id: str, seconds: float) -> tuple[str, float]:
    """``text`` (a drill file) with the events after ``event_id`` moved later so that the next one released after it
    comes ``seconds`` after it, and how far they moved (0.0, and ``text`` unchanged, when the gap was long enough,
    the event is the last or not in the trace, or the file is not a block mapping ruamel.yaml reads)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    try:
        doc = YAML(typ="rt").load(text)
    except YAMLError:
        return text, 0.0
    trace = doc.get("trace") if isinstance(doc, CommentedMap) else None
    if not isinstance(trace, list):
        return text, 0.0
    at = next((i for i, ev in enumerate(trace) if isinstance(ev, CommentedMap) and ev.get("id") == event_id), None)
    if at is None:
        return text, 0.0
    at = _batch_end(trace, at)  # the rest of the evidence's parallel batch is read with it: the gap follows it
    t0 = _number(trace[at].get("t"))
    if t0 is None:
        return text, 0.0
    later = [ev for ev in trace[at + 1:] if isinstance(ev, CommentedMap) and _number(ev.get("t")) is not None]
    nxt = next((ev for ev in later if (_number(ev["t"]) or 0.0) > t0), None)
    by = round(t0 + seconds - (_number(nxt["t"]) or 0.0), 3) if nxt is not None else 0.0
    if by <= 0:
        return text, 0.0
    lines = text.splitlines(keepends=True)
    for ev in reversed(later):
        line, col = ev.lc.value("t")
        found = _number(ev["t"])
        token = _NUMBER.match(lines[line], col)
        if found is None or token is None:
            return text, 0.0
        lines[line] = f"{lines[line][:col]}{exact_figure(round(found + by, 3))}{lines[line][token.end():]}"
    trace_line = doc.lc.key("trace")[0]
    lines.insert(trace_line, NOTE.format(s=exact_figure(seconds), event=event_id, by=exact_figure(by)) + "\n")
    return "".join(lines), by
