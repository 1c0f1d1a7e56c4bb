"""Re-timing for reading: a drill made ready to play without moving its events by hand.

Real traces are fast: the executor's next step (often the damage) comes a second or two after the tool result that
shows the fault, under ``warroom check``'s reaction window (:data:`~warroom.core.author.MIN_REACTION_WINDOW`), so no
deadline fits. Three documented ways out, each said in the drill (docs/importing.md, "Re-timing for reading"):

- :func:`stretch_after`: after one event (the evidence an annotation names), every later event is moved later by
  the same amount, so that the next one comes a reading time after it (the keyed importers);
- :func:`retime_text`: the same on a drill file's text (``warroom annotate --reading-time S``): only the ``t`` values
  of the events moved change, each in place on its line (every other character of the file stays as written), and
  a comment line above ``trace:`` says what was moved;
- :func:`stretch_reading`: after every event a trainee reads to detect a fault (a tool result, the last of a
  batch's results, and a model's output), the next event comes at least a reading time later (``warroom import
  ... --reading-time S``, for a trace not yet keyed).

Events keep their order and their own gaps when those are longer; the events of one parallel batch (and results
released at the same time) are read together: no gap between two of them is stretched, only the one after them. A
deadline by reference (``{event, after}``) moves with its event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from warroom.core.text import exact_figure

#: The event kinds whose content a trainee reads to find a fault: results and model outputs.
READ_KINDS = ("tool_result", "command_result", "executor_message", "executor_report", "planner_call")
#: A drill time as YAML writes it at the start of a value.
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
#: An anchor and a tag in front of a value (``&t0 !!float 12``).
_PROPERTIES = re.compile(r"(?:[&!][^\s]*[ \t]+)*")
#: The comment :func:`retime_text` leaves above ``trace:``.
NOTE = ("# Re-timed for reading by `warroom annotate --reading-time {s}`: the events after {event} moved {by} s "
        "later.")


def batch_of(events: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Event id -> the parallel batch it belongs to: a tool call's ``batch``, and a result's the batch of the call it
    answers (``call``). The events of one batch are read together: no gap is stretched between them."""
    calls = {ev["id"]: ev["batch"] for ev in events
             if isinstance(ev.get("id"), str) and isinstance(ev.get("batch"), str)}
    out = dict(calls)
    for ev in events:
        call = ev.get("call")
        if isinstance(ev.get("id"), str) and isinstance(call, str) and call in calls:
            out[ev["id"]] = calls[call]
    return out


def _together(batches: dict[str, str], first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """True when ``first`` and ``second`` (in trace order) belong to one batch, or are results released at once."""
    one, two = first.get("id"), second.get("id")
    if isinstance(one, str) and isinstance(two, str) and batches.get(one) is not None:
        return batches.get(one) == batches.get(two) or _at_once(first, second)
    return _at_once(first, second)


def _at_once(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    return first.get("kind") == second.get("kind") == "tool_result" and float(second["t"]) == float(first["t"])


def _shift_from(events: list[dict[str, Any]], start: int, by: float) -> None:
    for ev in events[start:]:
        ev["t"] = round(float(ev["t"]) + by, 3)


def shift_after(events: Sequence[Mapping[str, Any]], event_id: str, seconds: float) -> tuple[int, float]:
    """How :func:`stretch_after` moves ``events``: every event from the returned index on, later by the returned
    seconds (0 when the gap is long enough or nothing comes later). Raises KeyError when no event has that id."""
    at = next((i for i, ev in enumerate(events) if ev.get("id") == event_id), None)
    if at is None:
        raise KeyError(event_id)
    batches = batch_of(events)
    last = at  # the rest of the evidence's batch (or its results released at once) is read with it: moved with it
    while last + 1 < len(events) and _together(batches, events[at], events[last + 1]):
        last += 1
    t0 = float(events[last]["t"])
    nxt = next((i for i in range(last + 1, len(events)) if float(events[i]["t"]) > t0), None)
    if nxt is None:
        return len(events), 0.0
    return nxt, round(max(0.0, t0 + seconds - float(events[nxt]["t"])), 3)


def stretch_after(events: list[dict[str, Any]], event_id: str, seconds: float) -> float:
    """Move every event after ``event_id`` (in trace order) later by the same amount, so that the first event after
    it that is released later than it comes at least ``seconds`` after it; the rest of its batch (events of its
    parallel batch, results released at the same time) stay with it: the gap follows the batch. Returns how far
    they were moved (0 when the gap was long enough). Raises KeyError when no event has that id."""
    start, by = shift_after(events, event_id, seconds)
    if by > 0:
        _shift_from(events, start, by)
    return by


def stretch_reading(events: list[dict[str, Any]], seconds: float) -> tuple[int, float]:
    """After every event of :data:`READ_KINDS` (a batch's events together: after the last of them, never between two
    of one parallel batch, :func:`batch_of`), make the next event
    come at least ``seconds`` later, moving it and everything after it. Returns ``(gaps stretched, seconds added in
    all)``."""
    stretched, added = 0, 0.0
    batches = batch_of(events)
    i = 0
    while i < len(events) - 1:
        ev = events[i]
        nxt = events[i + 1]
        if ev.get("kind") in READ_KINDS and not _together(batches, ev, nxt):
            by = round(float(ev["t"]) + seconds - float(nxt["t"]), 3)
            if by > 0:
                _shift_from(events, i + 1, by)
                stretched += 1
                added += by
        i += 1
    return stretched, round(added, 3)


def retimed_note(what: str) -> str:
    """The sentence a re-timed drill's ``source`` ends with: ``Re-timed for reading: WHAT; every other gap is as
    recorded (or estimated).``"""
    return f" Re-timed for reading: {what}; every other gap is as recorded (or estimated)."


def _timed(value: Any) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("t"), (int, float)) and not isinstance(value["t"], bool)


def retime_text(text: str, event_id: str, seconds: float) -> tuple[str, float]:
    """``text`` (a drill file) with the events after ``event_id`` moved later as :func:`stretch_after` moves them,
    and how far they moved (0.0, and ``text`` unchanged, when the gap was long enough, the event is the last or not
    in the trace, an event has no number as its time, or the file is not a block mapping ruamel.yaml reads)."""
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
    if not isinstance(trace, list) or not all(_timed(ev) for ev in trace):
        return text, 0.0
    try:
        start, by = shift_after(trace, event_id, seconds)
    except KeyError:
        return text, 0.0
    if by <= 0:
        return text, 0.0
    lines = _lines(hidden)
    moved = [(ev, "t") for ev in reversed(trace[start:])] + _later_times(doc, float(trace[start - 1]["t"]))
    edits = [(*_time_at(item, lines, key), item, key) for item, key in moved]  # the trace's last refused first
    for line, col, item, key in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):  # a line's last first
        token = _NUMBER.match(lines[line], col)
        if token is None:
            return text, 0.0
        shifted = exact_figure(round(float(item[key]) + by, 3))
        lines[line] = f"{lines[line][:col]}{shifted}{lines[line][token.end():]}"
    trace_line = doc.lc.key("trace")[0]
    lines.insert(trace_line, NOTE.format(s=exact_figure(seconds), event=event_id, by=exact_figure(by)) + "\n")
    result = "".join(lines)
    for odd, stand_in in _ODD_BREAKS.items():
        result = result.replace(stand_in, odd)
    return result, by


def _later_times(doc: Any, cut: float) -> list[tuple[Any, str]]:
    """The drill times outside the trace that name a moment of it after ``cut`` (the last event not moved), as
    ``(mapping, key)``: the twin's added events' and replaced events' ``t``, and a probe's earlier answers' ``until``
    (seconds). Left as written, the healthy run's added log came before the calls it follows, and a probe answered
    as though the step's work were done before it started."""
    from ruamel.yaml.comments import CommentedMap

    def later(item: Any, key: str) -> bool:
        value = item.get(key) if isinstance(item, CommentedMap) else None
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value > cut

    twin = doc.get("twin")
    twin = twin if isinstance(twin, CommentedMap) else CommentedMap()
    add: list[Any] = twin["add"] if isinstance(twin.get("add"), list) else []
    replace: list[Any] = list(twin["replace"].values()) if isinstance(twin.get("replace"), CommentedMap) else []
    probes: list[Any] = doc["probes"] if isinstance(doc.get("probes"), list) else []
    answers = [a for p in probes if isinstance(p, CommentedMap) and isinstance(p.get("answers"), list)
               for a in p["answers"]]
    return ([(ev, "t") for ev in [*add, *replace] if later(ev, "t")]
            + [(a, "until") for a in answers if later(a, "until")])


def _time_at(ev: Any, lines: list[str], key: str = "t") -> tuple[int, int]:
    """The line and column (0-based) where the number of event ``ev``'s own ``key`` (its ``t``) is written, after
    any anchor or tag. Raises KeyWriteError when it is not a number of its own (a merge key or an alias gives it,
    or an alias uses its anchor: moved in place, the value it shares would move too)."""
    from warroom.core.author._keywrite import KeyWriteError

    why, line, col = None, 0, 0
    if key not in ev.lc.data:
        why = "a merge key (<<) gives it"
    else:
        line, col = ev.lc.value(key)
        anchor = getattr(getattr(ev[key], "anchor", None), "value", None)
        if anchor and line < ev.lc.line:  # an alias: ruamel.yaml places it at its anchor
            why = f"an alias (*{anchor}) gives it"
        elif anchor and re.search(rf"\*{re.escape(anchor)}(?![^\s,\[\]{{}}])", "".join(lines)):
            why = f"its anchor &{anchor} is used by an alias"
        col += len(_PROPERTIES.match(lines[line], col).group())  # type: ignore[union-attr]  # it matches ""
    if why is not None:
        what = f"event {ev.get('id')}" if ev.get("id") else "a probe's answer" if key == "until" else "a twin's event"
        raise KeyWriteError(f"cannot re-time for reading: the `{key}` of {what} (line {ev.lc.line + 1}) is not a "
                            f"number of its own ({why}): write it as a number, then save again; nothing was "
                            "written")  # fmt: skip
    return line, col
