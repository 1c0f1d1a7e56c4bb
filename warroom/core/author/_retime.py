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

#: A drill time as YAML writes it at the start of a value.
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
#: An anchor and a tag in front of a value (``&t0 !!float 12``).
_PROPERTIES = re.compile(r"(?:[&!][^\s]*[ \t]+)*")
#: The comment the re-timing leaves above ``trace:``.
NOTE = ("# Re-timed for reading by `warroom annotate --reading-time {s:g}`: the events after {event} moved {by:g} s "
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

    from warroom.core.author._keywrite import _ODD_BREAKS, _lines

    hidden = text  # YAML 1.1's odd line breaks hidden, as the save hides them: lines are then the reader's own
    for odd, stand_in in _ODD_BREAKS.items():
        if stand_in in text:
            return text, 0.0
        hidden = hidden.replace(odd, stand_in)
    try:
        doc = YAML(typ="rt").load(hidden)
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
    lines = _lines(hidden)
    for ev in reversed(later):
        line, col = _time_at(ev, lines)
        found = _number(ev["t"])
        token = _NUMBER.match(lines[line], col)
        if found is None or token is None:
            return text, 0.0
        lines[line] = f"{lines[line][:col]}{round(found + by, 3):g}{lines[line][token.end():]}"
    trace_line = doc.lc.key("trace")[0]
    lines.insert(trace_line, NOTE.format(s=seconds, event=event_id, by=by) + "\n")
    result = "".join(lines)
    for odd, stand_in in _ODD_BREAKS.items():
        result = result.replace(stand_in, odd)
    return result, by


def _time_at(ev: Any, lines: list[str]) -> tuple[int, int]:
    """The line and column (0-based) where the number of event ``ev``'s own ``t`` is written, after any anchor or
    tag. Raises KeyWriteError when its ``t`` is not a number of its own (a merge key or an alias gives it, or an
    alias uses its anchor: moved in place, the value it shares would move too)."""
    from warroom.core.author._keywrite import KeyWriteError

    why, line, col = None, 0, 0
    if "t" not in ev.lc.data:
        why = "a merge key (<<) gives it"
    else:
        line, col = ev.lc.value("t")
        anchor = getattr(getattr(ev["t"], "anchor", None), "value", None)
        if anchor and line < ev.lc.line:  # an alias: ruamel.yaml places it at its anchor
            why = f"an alias (*{anchor}) gives it"
        elif anchor and re.search(rf"\*{re.escape(anchor)}(?![^\s,\[\]{{}}])", "".join(lines)):
            why = f"its anchor &{anchor} is used by an alias"
        col += len(_PROPERTIES.match(lines[line], col).group())  # type: ignore[union-attr]  # it matches ""
    if why is not None:
        raise KeyWriteError(f"cannot re-time for reading: the `t` of event {ev.get('id')} (line {ev.lc.line + 1}) "
                            f"is not a number of its own ({why}): write it as a number, then save again; nothing "
                            "was written")  # fmt: skip
    return line, col
