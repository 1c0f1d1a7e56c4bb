"""Semantic rules of a drill: what the types alone cannot say.

:func:`validate_drill` takes a type-valid :class:`~warroom.core.model.Drill` and returns a list of :class:`Issue`,
each with the location path of the value at fault (``loc``: a tuple of keys and 0-based list indexes, as in
pydantic's errors, e.g. ``("trace", 3, "step")``) so that the loader can point at its line and column.

The rules (each has a test in tests/test_validation.py):

- **Unique ids**: plan step ids are unique; trace event ids and re-plan event ids are unique together.
- **References exist**: every event's ``step`` is a plan step; a ``tool_result``'s ``call`` is a ``tool_call``
  earlier in the same list (a re-plan result may also answer a trace tool call); the answer key's
  ``origin_step`` and ``cascade`` are plan steps; its ``evidence`` and ``damage`` events are trace events; every
  distractor's ``event`` is a trace event.
- **Time order**: trace times never decrease; re-plan event times (seconds after the escalation) never decrease.
- **The fault**: its origin is a plan step with at least one trace event, and every evidence event comes at or
  after the origin step's first event.
- **The deadline** leaves at least one evidence event at or before it (or no trainee could contain in time).
- **Damage can be prevented**: every damage event comes strictly after the earliest evidence event. Damage
  released before the fault is detectable, or at the very same drill time as the first evidence, is done
  before any trainee could escalate, so the drill would be unfair.
- **Answer key or all clear**: a drill has exactly one of ``answer_key`` and ``all_clear``.
- **Evidence is not a distractor**: no event is both.
- The model's types enforce, before these rules run: numbers are numbers (never booleans), finite, non-negative
  and within their upper bounds (:data:`warroom.core.model.MAX_TOKENS_PER_CALL` and the other ``MAX_*``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from warroom.core.model import Drill

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Issue:
    """One broken rule: ``loc`` is the path of the value at fault, ``message`` says what is wrong and how to fix it.

    ``related`` optionally names a second value the message refers to (the first of two duplicate ids, the
    previous event of one out of order); the loader adds its line number to the message.
    """

    loc: Loc
    message: str
    related: Loc | None = None


def _likely_typo(word: str, choice: str) -> bool:
    """True when ``choice`` is what ``word`` would be with one slip of the keyboard: one character changed, two
    neighbours swapped, or a difflib similarity of at least 0.8 (one character added or dropped in a short id)."""
    if len(word) == len(choice):
        diff = [i for i, (a, b) in enumerate(zip(word, choice, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        if len(diff) == 2 and diff[1] == diff[0] + 1:
            i, j = diff
            return word[i] == choice[j] and word[j] == choice[i]
    return difflib.SequenceMatcher(None, word, choice).ratio() >= 0.8


def _natural(text: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def _suggest(word: str, choices: Iterable[str]) -> str:
    """A hint for a reference to an id that does not exist: `` (did you mean `e04`?)`` when exactly one id is a
    likely typo of ``word`` (:func:`_likely_typo`); when several are (``e05`` among ``e04``, ``e06``, ``e15``), the
    two next to it in natural order, `` (nearby ids: `e04`, `e06`)``; else (none, or ``word`` sorts past them all)
    nothing: an unrelated id is never offered."""
    typos = sorted(dict.fromkeys(c for c in choices if _likely_typo(word, c)), key=_natural)
    if not typos:
        return ""
    if len(typos) == 1:
        return f" (did you mean `{typos[0]}`?)"
    key = _natural(word)
    try:
        before = [c for c in typos if _natural(c) < key]
        after = [c for c in typos if _natural(c) > key]
    except TypeError:  # a number against a word at the same place: no natural order to go by
        return ""
    if not (before and after):  # past either end (`s9` after `s2`): nothing is near enough to name
        return ""
    return f" (nearby ids: `{before[-1]}`, `{after[0]}`)"


def validate_drill(drill: Drill) -> list[Issue]:
    """Check the semantic rules listed in this module's docstring.

    Takes a :class:`Drill` that passed type validation; returns the list of :class:`Issue` found (empty when the
    drill is valid), in the order the rules are checked. Never raises for a type-valid drill.
    """
    issues: list[Issue] = []

    def add(loc: Loc, msg: str, related: Loc | None = None) -> None:
        issues.append(Issue(tuple(loc), msg, tuple(related) if related is not None else None))

    # -- plan step ids ------------------------------------------------------------------------------------------
    step_ids: dict[str, int] = {}
    for i, step in enumerate(drill.plan):
        if step.id in step_ids:
            add(
                ("plan", i, "id"),
                f"duplicate plan step id `{step.id}`: plan step #{step_ids[step.id] + 1} has it too",
                ("plan", step_ids[step.id], "id"),
            )
        else:
            step_ids[step.id] = i
    steps_list = ", ".join(step_ids)

    def check_step(loc: Loc, step_id: str | None, what: str) -> None:
        if step_id is not None and step_id not in step_ids:
            hint = _suggest(step_id, step_ids)
            add(loc, f"{what} `{step_id}` is not a plan step{hint}; the plan steps are: {steps_list}")

    # -- trace and re-plan events -------------------------------------------------------------------------------
    key = drill.answer_key
    replan = key.replan if key else []
    event_ids: dict[str, Loc] = {}
    trace_index: dict[str, int] = {}

    def check_events(events: Sequence[Any], base: Loc, label: str, earlier_calls: dict[str, Any]) -> None:
        calls: dict[str, Any] = dict(earlier_calls)
        kinds: dict[str, str] = {}
        prev = None
        prev_index = 0
        for i, ev in enumerate(events):
            loc = (*base, i)
            if ev.id in event_ids:
                first = event_ids[ev.id]
                where = f"{'trace' if first[0] == 'trace' else 're-plan'} event #{int(first[-1]) + 1}"
                add(
                    (*loc, "id"),
                    f"duplicate event id `{ev.id}` (trace and re-plan events share one set of ids): {where} has it too",
                    (*first, "id"),
                )
            else:
                event_ids[ev.id] = loc
            kinds.setdefault(ev.id, ev.kind)
            if prev is not None and ev.t < prev.t:
                add(
                    (*loc, "t"),
                    f"{label} `{ev.id}` at t={ev.t:g} s is earlier than the event before it, `{prev.id}` at "
                    f"t={prev.t:g} s: times must not decrease",
                    (*base, prev_index, "t"),
                )
            prev, prev_index = ev, i
            check_step((*loc, "step"), ev.step, "step")
            if ev.kind == "tool_call":
                calls.setdefault(ev.id, ev)
            elif ev.kind == "tool_result":
                if ev.call not in calls:
                    if ev.call in kinds and kinds[ev.call] != "tool_call":
                        why = f"`{ev.call}` is a {kinds[ev.call]} event, not a tool_call"
                    elif any(e.id == ev.call and e.kind == "tool_call" for e in events[i + 1 :]):
                        why = f"the tool_call `{ev.call}` comes after this result; a result must follow its call"
                    else:
                        why = f"there is no tool_call `{ev.call}` before it{_suggest(ev.call, calls)}"
                    add((*loc, "call"), f"tool_result `{ev.id}` answers `{ev.call}`, but {why}")

    check_events(drill.trace, ("trace",), "trace event", {})
    for i, ev in enumerate(drill.trace):
        trace_index.setdefault(ev.id, i)
    trace_calls = {e.id: e for e in drill.trace if e.kind == "tool_call"}
    if replan:
        check_events(replan, ("answer_key", "replan"), "re-plan event", trace_calls)

    def check_trace_event(loc: Loc, event_id: str, what: str) -> bool:
        if event_id in trace_index:
            return True
        if any(e.id == event_id for e in replan):
            add(loc, f"{what} `{event_id}` is a re-plan event; it must be an event of the trace")
        else:
            add(loc, f"{what} `{event_id}` is not a trace event{_suggest(event_id, trace_index)}")
        return False

    # -- answer key or all clear --------------------------------------------------------------------------------
    if key is not None and drill.all_clear is not None:
        add(("all_clear",), "a drill has either an answer_key (a fault) or all_clear (a control drill), not both")
    elif key is None and drill.all_clear is None:
        add((), "the drill needs an answer_key (the hidden fault), or all_clear for a control drill with no fault")

    evidence_ids: set[str] = set()
    if key is not None:
        fault = key.fault
        check_step(("answer_key", "fault", "origin_step"), fault.origin_step, "the fault's origin_step")
        for j, step_id in enumerate(key.cascade):
            check_step(("answer_key", "cascade", j), step_id, "cascade step")
        first_of_origin = next((e for e in drill.trace if e.step == fault.origin_step), None)
        if fault.origin_step in step_ids and first_of_origin is None:
            add(
                ("answer_key", "fault", "origin_step"),
                f"the fault's origin step `{fault.origin_step}` has no trace events; the trainee could never see it",
            )
        evidence_times: list[float] = []
        earliest: Any = None  # the earliest evidence event
        for j, event_id in enumerate(key.evidence):
            loc = ("answer_key", "evidence", j)
            if not check_trace_event(loc, event_id, "evidence event"):
                continue
            evidence_ids.add(event_id)
            ev = drill.trace[trace_index[event_id]]
            evidence_times.append(ev.t)
            if earliest is None or ev.t < earliest.t:
                earliest = ev
            if first_of_origin is not None and ev.t < first_of_origin.t:
                add(
                    loc,
                    f"evidence event `{event_id}` (t={ev.t:g} s) comes before the fault's origin step "
                    f"`{fault.origin_step}` starts (its first event `{first_of_origin.id}` is at "
                    f"t={first_of_origin.t:g} s)",
                )
        if evidence_times and min(evidence_times) > key.deadline:
            add(
                ("answer_key", "deadline"),
                f"the deadline (t={key.deadline:g} s) comes before the earliest evidence "
                f"(t={min(evidence_times):g} s): "
                "no trainee could escalate in time; move the deadline to or after the evidence",
            )
        for j, entry in enumerate(key.damage.entries):
            loc = ("answer_key", "damage", "entries", j)
            if not check_trace_event((*loc, "event"), entry.event, "damage event") or earliest is None:
                continue
            ev = drill.trace[trace_index[entry.event]]
            if ev.t <= earliest.t:
                when = "at the same time as" if ev.t == earliest.t else "before"
                add(
                    (*loc, "event"),
                    f"damage event `{entry.event}` (t={ev.t:g} s) comes {when} the earliest evidence "
                    f"`{earliest.id}` (t={earliest.t:g} s): no trainee could escalate in time to prevent it; "
                    "damage must come strictly after the first evidence (move the damage to a later event, "
                    "or the evidence earlier)",
                )

    # -- distractors --------------------------------------------------------------------------------------------
    for j, distractor in enumerate(drill.distractors):
        loc = ("distractors", j, "event")
        if not check_trace_event(loc, distractor.event, "distractor event"):
            continue
        if distractor.event in evidence_ids:
            add(loc, f"event `{distractor.event}` is evidence of the fault, so it cannot also be a distractor")
    return issues
