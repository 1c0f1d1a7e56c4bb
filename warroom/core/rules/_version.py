"""The version rule (see docs/authoring.md, "Format version 2"), on a type-valid drill: a version-1 file uses no
format-2 field, event kind, fault origin, evidence item other than an event id, deadline by reference, verification
probe or twin (set ``schema_version: 2``, or run ``warroom migrate FILE``).
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import BudgetTime, EventTime
from warroom.core.rules._events import event_lists
from warroom.core.rules._issues import Issue

#: Fields that only format 2 has, by the class that has them (an event class, or a part of the drill).
_V2_FIELDS = ("agent", "repeat", "model", "finish_reason", "max_tokens", "truncated", "batch", "retry_of",
              "attempt", "size_bytes", "shown")


def _set(obj: Any, name: str) -> bool:
    """True when the format-2 field ``name`` of ``obj`` says something: not absent and not its default."""
    if name not in obj.model_fields_set:
        return False
    value = getattr(obj, name)
    return value not in (None, False, [])


def version_issues(drill: Any) -> list[Issue]:
    """Each format-2 field, event kind, fault origin, evidence item, deadline by reference or probe that ``drill``
    uses, as an issue (set ``schema_version: 2``): the rule of a version-1 drill (whatever version it declares)."""
    out: list[Issue] = []
    why = "is format 2: set `schema_version: 2` at the top of the file (or run `warroom migrate FILE`)"
    if _set(drill, "agents"):
        out.append(Issue(("agents",), f"`agents` {why}"))
    if drill.answer_key is not None and isinstance(drill.answer_key.deadline, EventTime):
        out.append(Issue(("answer_key", "deadline"), f"a deadline by reference (`{{event: ...}}`) {why}"))
    if drill.answer_key is not None and isinstance(drill.answer_key.deadline, BudgetTime):
        out.append(Issue(("answer_key", "deadline"), f"a budget deadline (`{{budget: ...}}`) {why}"))
    if drill.answer_key is not None and drill.answer_key.damage.spend:
        out.append(Issue(("answer_key", "damage", "spend"), f"`spend` damage {why}"))
    if _set(drill.models, "others"):
        out.append(Issue(("models", "others"), f"`models.others` {why}"))
    for i, step in enumerate(drill.plan):
        if _set(step, "requires_approval"):
            out.append(Issue(("plan", i, "requires_approval"), f"`requires_approval` {why}"))
        if _set(step, "parallel"):
            out.append(Issue(("plan", i, "parallel"), f"`parallel` {why}"))
        if step.approval_for is not None:
            out.append(Issue(("plan", i, "approval_for"), f"`approval_for` {why}"))
    out += _key_version_issues(drill.answer_key, why)
    for i, d in enumerate(drill.distractors):
        if d.path is not None:
            out.append(Issue(("distractors", i, "path"), f"a distractor's `path` {why}"))
    given_of: dict[tuple[type, int], tuple[str, ...]] = {}  # by (class, id of a fields set): its format-2 fields
    for base, events in event_lists(drill):
        for i, ev in enumerate(events):
            if type(ev).FORMAT > 1:
                out.append(Issue((*base, i, "kind"), f"the event kind `{ev.kind}` {why}"))
                continue
            given = ev.model_fields_set  # alive as long as the event: its id names it meanwhile
            names = given_of.get((ev.__class__, id(given)))
            if names is None:  # equal sets are often one object (warroom.core.load._fast.load shares them)
                names = given_of[ev.__class__, id(given)] = tuple(n for n in _v2_fields(type(ev)) if n in given)
            for name in names:
                if _set(ev, name):
                    out.append(Issue((*base, i, name), f"`{name}` {why}"))
    if getattr(drill, "probes", None):
        out.append(Issue(("probes",), f"`probes` {why}"))
    if getattr(drill, "twin", None) is not None:
        out.append(Issue(("twin",), f"`twin` {why}"))
    return out


_V2_FIELDS_OF: dict[type, tuple[str, ...]] = {}


def _v2_fields(cls: type) -> tuple[str, ...]:
    """The format-2 fields (:data:`_V2_FIELDS`) the event class ``cls`` has; kept per class, as reading a pydantic
    class's ``model_fields`` is slow and a trace holds thousands of events of a few classes."""
    fields = _V2_FIELDS_OF.get(cls)
    if fields is None:
        fields = _V2_FIELDS_OF[cls] = tuple(name for name in _V2_FIELDS if name in getattr(cls, "model_fields", {}))
    return fields


def _key_version_issues(key: Any, why: str) -> list[Issue]:
    """Format-2 parts of an answer key: a plan or set-up origin, evidence items other than an event id."""
    if key is None:
        return []
    out = []
    if key.fault.origin != "step":
        out.append(Issue(("answer_key", "fault", "origin"), f"a fault origin other than `step` {why}"))
    for i, item in enumerate(key.evidence):
        if not isinstance(item, str):
            out.append(Issue(("answer_key", "evidence", i), f"an evidence item other than an event id {why}"))
    for i, item in enumerate(key.accepted_evidence):
        if not isinstance(item, str):
            out.append(Issue(("answer_key", "accepted_evidence", i), f"an accepted evidence item other than an "
                             f"event id {why}"))
    return out
