"""A parsed record as a drill: the mapping (:mod:`._mapping`) paced (:mod:`._pace`) and described (:mod:`._prose`)
into drill data, checked by loading it back and playing it, and dumped as YAML."""

from __future__ import annotations

from typing import Any

from warroom.importers.kit import (
    CLOSING_EVENT_ID,
    DAMAGE_UNIT,
    DEFAULT_DIFFICULTY,
    checked_drill,
    drill_id,
    dump_drill_yaml,
    wasted_turn,
)
from warroom.importers.who_and_when import _prose as prose
from warroom.importers.who_and_when._cast import cast_agents
from warroom.importers.who_and_when._mapping import Draft, map_record
from warroom.importers.who_and_when._pace import lay_out_clock, place_deadline
from warroom.importers.who_and_when._parse import Record
from warroom.importers.who_and_when._rules import (
    CORPUS,
    MAGENTIC_ONE,
    ImportOptions,
    RecordError,
)

#: What a refusal of a record's drill that does not load or fails `warroom check` calls it.
CHECKED = "the drill made from this record"


def _damage(record: Record, draft: Draft, models: dict[str, Any]) -> tuple[list[dict[str, Any]], float]:
    """The damage entries (one wasted agent turn per history message after the mistake, or the closing event) and
    the estimated USD of the model calls among them (:func:`~warroom.importers.kit.wasted_turn`)."""
    by_id = {ev["id"]: ev for ev in draft.events}
    wasted = [wasted_turn(by_id[draft.event_of[i]], f"turn {i} by {record.history[i].speaker} after the fault", models)
              for i in range(record.mistake_step + 1, len(record.history))]
    entries = [entry for entry, _ in wasted]
    if CLOSING_EVENT_ID in by_id:
        entries.append({"event": CLOSING_EVENT_ID, "amount": 1, "note": "the run goes on to a wrong final answer"})
    return entries, sum(cost for _, cost in wasted)


def _models(record: Record, options: ImportOptions) -> dict[str, Any]:
    """The drill's ``models``: names that say the record does not name them, and the assumed prices."""
    m1 = record.subset == MAGENTIC_ONE
    return {"planner": options.planner_price.model("Orchestrator model (unrecorded)" if m1
                                                   else "manager model (unrecorded)"),
            "executor": options.executor_price.model("agent model (unrecorded)" if m1 else "expert model (unrecorded)")}


def record_to_drill_data(record: Record, options: ImportOptions | None = None) -> dict[str, Any]:
    """The drill for ``record`` as plain data (dicts, lists, str, numbers), ready to validate and to dump as YAML.

    Raises RecordError if the record cannot make a playable drill (this should not happen for a parsed record).
    """
    options = options or ImportOptions()
    draft = map_record(record)
    evidence_id = draft.event_of[record.mistake_step]
    lay_out_clock(draft.events, draft.texts, evidence_id)
    times = {ev["id"]: ev["t"] for ev in draft.events}
    origin = next(ev.get("step") for ev in draft.events if ev["id"] == evidence_id)
    if origin is None:  # cannot happen: every history event is in a plan step
        raise RecordError(f"history step {record.mistake_step} is outside every plan step")
    plan_ids = [s["id"] for s in draft.plan]
    cascade = plan_ids[plan_ids.index(origin) + 1 :]
    models = _models(record, options)
    entries, wasted_usd = _damage(record, draft, models)
    deadline = place_deadline(times[evidence_id], min(times[e["event"]] for e in entries))
    kind = prose.guess_fault_kind(record.mistake_reason)
    found = prose.Mistake(evidence_id, origin, len(cascade), wasted_usd)
    tool_names = sorted({ev["tool"] for ev in draft.events if ev["kind"] == "tool_call"})
    difficulty = record.level if record.level is not None and 1 <= record.level <= 5 else DEFAULT_DIFFICULTY
    # Never the annotated mistake agent: domain tags are shown before the drill is played (the fault kind, not a
    # domain tag, is shown only in the debrief: warroom.core.model._hygiene).
    tags = ["domain:imported", "domain:who-and-when", f"domain:{record.subset}", kind]
    agents = cast_agents(record, draft, models["planner"]["name"], models["executor"]["name"])
    return {
        "schema_version": 2,
        "id": drill_id(f"ww-{record.subset}", record.name, blank="record"),
        "title": prose.title(record),
        "version": 1,
        "difficulty": difficulty,
        "tags": list(dict.fromkeys(tags)),
        "author": f"{CORPUS} annotators (real trace), imported by warroom",
        "source": prose.source(record, kind, CLOSING_EVENT_ID in times),
        "briefing": {
            "goal": record.question,
            "watching": prose.watching(record, draft.agents, tool_names),
            "context": prose.context(record, options),
        },
        "models": models,
        "agents": agents,
        "plan": draft.plan,
        "trace": draft.events,
        "answer_key": {
            "fault": {"origin_step": origin, "kind": kind, "summary": prose.reason(record)},
            "evidence": [evidence_id],
            "cascade": cascade,
            "damage": {"unit": DAMAGE_UNIT, "entries": entries},
            "deadline": deadline,
            "debrief": prose.debrief(record, found),
        },
    }


def convert_record(record: Record, options: ImportOptions | None = None) -> tuple[dict[str, Any], Any]:
    """The drill for ``record`` as (plain data, validated :class:`~warroom.core.model.Drill`), redacted with
    ``options.redactor`` and checked (:func:`warroom.importers.kit.checked_drill`). Raises RecordError when it fails a
    check."""
    data = record_to_drill_data(record, options)
    if options is not None and options.redactor is not None:
        data = options.redactor.data(data)
    return data, checked_drill(dump_drill_yaml(data), data["id"], RecordError, CHECKED)
