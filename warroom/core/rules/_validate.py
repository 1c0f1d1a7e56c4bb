"""Semantic rules of a drill: what the types alone cannot say.

:func:`validate_drill` takes a type-valid :class:`~warroom.core.model.Drill` and returns a list of :class:`Issue`,
each with the location path of the value at fault (``loc``: a tuple of keys and 0-based list indexes, as in
pydantic's errors, e.g. ``("trace", 3, "step")``) so that the loader can point at its line and column.
:func:`validate_data` runs the same rules on the plain data of a drill that did *not* pass type validation: every
rule runs on the values that did load, and a rule that needs a value with a type problem is reported as
:class:`Blocked` (which rule, and which value it waits for) instead of being skipped in silence.

The rules (each has a test in tests/unit/test_validation*.py):

- **Unique ids**: plan step ids are unique; trace event ids and re-plan event ids are unique together.
- **References exist**: every event's ``step`` is a plan step; a ``tool_result``'s ``call`` is a ``tool_call``
  earlier in the same list (a re-plan result may also answer a trace tool call); the answer key's
  ``origin_step`` and ``cascade`` are plan steps; its ``evidence`` and ``damage`` events are trace events; every
  distractor's ``event`` is a trace event.
- **No entry twice**: an event is listed at most once in ``evidence``, in the damage ``entries`` and in the
  distractors; a plan step at most once in ``cascade``.
- **Time order**: trace times never decrease; re-plan event times (seconds after the escalation) never decrease.
- **The fault**: its origin is a plan step with at least one trace event (format 2: or the plan or the set-up,
  whose ``origin_event`` is a trace event), and every evidence event comes at or after the origin step's first
  event (the origin event). A comparison (``all_of``, format 2) counts as evidence once all its events are out,
  and only its last event must come at or after the origin (the earlier ones are the baseline it contradicts).
- **The deadline** leaves at least one evidence event at or before it (or no trainee could contain in time).
- **Damage can be prevented**: every damage event comes strictly after the earliest evidence event.
- **Answer key or all clear**: a drill has exactly one of ``answer_key`` and ``all_clear``.
- **Evidence is not a distractor**: no event is both.
- **Accepted evidence** (``accepted_evidence``): trace events, each listed once, none also in ``evidence`` or a
  distractor, none before the origin step's first event.
- **The version**: a version-1 file uses nothing of format 2 (:mod:`warroom.core.rules._version`).
- **Format 2**: agents, models, batches, retries, approvals (:mod:`warroom.core.rules._agents`); repetitions
  (:mod:`warroom.core.rules._events`); times by reference, plan and set-up origins, field paths
  (:mod:`warroom.core.rules._answerkey`); probes (:mod:`warroom.core.rules._probes`: ``evidence`` and
  ``accepted_evidence`` may list probes).
- **Variants**: the ``variants`` section fits the drill (:mod:`warroom.core.rules._variants`).
- **Twin** (format 2): the ``twin`` section names what it changes, changes nothing before the earliest evidence,
  leaves no damage, and makes a valid all-clear drill (:mod:`warroom.core.rules._twin`).

Where the rules are: the plan's and the events' in :mod:`warroom.core.rules._events`, the answer key's, all
clear's and distractors' in :mod:`warroom.core.rules._answerkey`, both on a drill read through a
:class:`~warroom.core.rules._reader.Reader` (so that :func:`validate_data` runs them on what did load); the others
on a type-valid drill only. This module runs them all, in order.

Work is linear in the size of the drill: ids are indexed once, and did-you-mean hints are bounded
(:class:`warroom.core.text.Suggester`). Ids quoted in messages go through :func:`warroom.core.text.shown_id`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warroom.core.rules._agents import AgentRules, approval_scope_issues
from warroom.core.rules._answerkey import (
    AnswerKeyRules,
    deadline_reference_issues,
    origin_issues,
    path_issues,
    spend_issues,
)
from warroom.core.rules._events import EventRules, parallel_issues, repetition_issues
from warroom.core.rules._issues import Blocked, Findings, Issue, Loc
from warroom.core.rules._probes import probe_issues
from warroom.core.rules._reader import Reader
from warroom.core.rules._version import version_issues


def _run(drill: Any, reader: Reader, extra: Iterable[Loc]) -> Findings:
    """The rules that read a drill through ``reader`` (loaded or not): the plan's and events', then the answer
    key's, all clear's and distractors'."""
    findings = Findings()
    refs = EventRules(drill, reader, findings)
    refs.run()
    AnswerKeyRules(refs, extra).run()
    return findings


def format2_issues(drill: Any) -> list[Issue]:
    """The rules of format 2 on a type-valid drill (for a version-1 drill: that it uses none of format 2)."""
    if drill.schema_version == 1:
        return version_issues(drill)
    agents = AgentRules(drill)
    issues = agents.names() + deadline_reference_issues(drill) + repetition_issues(drill) + agents.calls()
    issues += parallel_issues(drill)
    return issues + origin_issues(drill) + path_issues(drill) + spend_issues(drill) + approval_scope_issues(drill)


def validate_drill(drill: Any) -> list[Issue]:
    """Check the semantic rules listed in this module's docstring.

    Takes a :class:`Drill` that passed type validation; returns the list of :class:`Issue` found (empty when the
    drill is valid), in the order the rules are checked. Never raises for a type-valid drill.
    """
    issues = _run(drill, Reader(), ()).issues + format2_issues(drill) + probe_issues(drill)
    if getattr(drill, "variants", None) is not None:  # the variants section's rules (warroom.core.rules._variants)
        from warroom.core.rules._variants import variant_issues

        issues += variant_issues(drill, base_valid=not issues)
    if getattr(drill, "twin", None) is not None:  # the twin section's rules (warroom.core.rules._twin)
        from warroom.core.rules._twin import twin_issues

        issues += twin_issues(drill, base_valid=not issues)
    return issues


def validate_data(
    data: dict[str, Any], bad: Iterable[Loc], extra: Iterable[Loc] = ()
) -> tuple[list[Issue], list[Blocked]]:
    """The rules on the plain data of a drill that failed type validation.

    ``data`` is the drill as built from YAML (dicts, lists, text, numbers); ``bad`` the data paths of the values
    with a type problem (a value under a bad path counts as bad too); ``extra`` the paths of unknown keys. Returns
    the :class:`Issue` list of every rule that could run on the values that loaded, and one :class:`Blocked` per
    rule that needs a bad value (none of these is an issue: the bad value's own problem is). Never raises.
    """
    reader = Reader(bad)
    findings = _run(data, reader, extra)
    if reader.bad and data.get("schema_version") == 2:  # the format-2 rules run on a type-valid drill only: all of it
        findings.block("format 2 references (agents, models, batches, retries, approvals)", ())
    if data.get("twin") is not None:  # the twin is built from a type-valid drill only
        findings.block("the twin section (the healthy run, checked as an all-clear drill)", ())
    return findings.issues, [Blocked(rule, loc) for rule, loc in findings.blocked.items()]
