"""A keyed drill from an annotation: what people found in a run (the event where it went wrong, why, a category)
made into the drill's answer key, the same way for every importer that reads annotated failure datasets
(``warroom import chat --ground-truth``, TRAIL-style span annotations).

The rules (docs/importing.md, "Annotated failure datasets"): the **origin** is the plan step of the annotated event;
the **evidence** is the annotated event(s); the **damage** is every model turn after the evidence (one wasted agent
turn each, with its estimated cost), or, when the run stops there, a closing event that stands for the run ending
failed; the **cascade** is the later plan steps that hold damage; the events after the evidence are moved later by
:func:`~warroom.core.author.stretch_after` so that the evidence can be read, and the **deadline** is
``{event: EVIDENCE, after: S}`` with S at most :data:`DEADLINE_WINDOW` and a second before the first damage.
A drill made so is checked with ``warroom check`` before it is written (:func:`checked_drill`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warroom.core.author import retimed_note, stretch_after
from warroom.core.text import usd
from warroom.importers.kit._rules import TraceError

#: The events that are a model's turn (one wasted agent turn each when they come after the fault).
TURN_KINDS = ("planner_call", "executor_message", "executor_report")
#: Reading time after the evidence, seconds: twice `warroom check`'s 5 s reaction window.
READING_TIME = 10.0
#: The deadline comes at most this long after the evidence (seconds), and a second before the first damage.
DEADLINE_WINDOW = 90.0
#: The damage unit of an annotated run.
DAMAGE_UNIT = "wasted agent turns"
#: The id of the closing event added when nothing follows the evidence (a Who&When record's too).
CLOSING_EVENT_ID = "end"
#: Its gap after the last event, seconds.
CLOSING_GAP = 10.0


@dataclass(frozen=True)
class Annotation:
    """What people found in one run: the ``evidence`` events (ids in the drill, the annotated step's), the fault
    ``kind`` (the dataset's category mapped), its one-sentence ``summary``, the ``debrief`` text, and how the run
    ended (``ending``, the closing event's text when nothing follows the evidence)."""

    evidence: tuple[str, ...]
    kind: str
    summary: str
    debrief: str
    ending: str = "The run ends here, with the task failed."


def wasted_turn(ev: dict[str, Any], note: str, models: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """The damage entry of one agent turn ``ev`` wasted after the fault (``note`` says whose), and its estimated USD
    at the drill's ``models`` prices: a turn that carries usage is a model call, its cost in the note."""
    from warroom.importers.kit._pace import model_cost
    from warroom.importers.kit._rules import Price

    usage, cost = ev.get("usage"), 0.0
    if usage:
        model = models["planner" if ev.get("kind") == "planner_call" else "executor"]
        cost = model_cost(usage, Price(model["input_usd_per_mtok"], model["output_usd_per_mtok"]))
        note += f" (model call, est. {usd(cost)})"  # as every amount shown (core.text)
    return {"event": ev["id"], "amount": 1, "note": note}, cost


def _damage(events: list[dict[str, Any]], after: int, prices: dict[str, Any]) -> list[dict[str, Any]]:
    """One wasted agent turn for each model turn after trace index ``after`` (a turn that carries usage: chat
    tool calls of a turn without text carry it on the first call), its estimated cost in the note."""
    return [wasted_turn(ev, f"{ev.get('agent', 'the agent')}'s turn after the fault", prices)[0]
            for ev in events[after + 1:]
            if ev.get("kind") in TURN_KINDS or (ev.get("kind") == "tool_call" and ev.get("usage"))]


def key_drill(data: dict[str, Any], annotation: Annotation, reading_time: float = READING_TIME) -> dict[str, Any]:
    """``data`` (an imported drill without an answer key; changed in place and returned) with the answer key the
    annotation gives, its later events re-timed for reading and its ``source`` saying so. Raises TraceError with
    the reason when the annotation cannot give a drill (its event is not in the trace, or outside every plan
    step)."""
    events: list[dict[str, Any]] = data["trace"]
    index = {ev["id"]: i for i, ev in enumerate(events)}
    missing = [e for e in annotation.evidence if e not in index]
    if missing or not annotation.evidence:
        raise TraceError(f"the annotated event {', '.join(missing) or '(none)'} is not in the trace")
    first = min(index[e] for e in annotation.evidence)
    last = max(index[e] for e in annotation.evidence)
    origin = events[first].get("step")
    if origin is None:
        raise TraceError(f"the annotated event {events[first]['id']} is outside every plan step (before the first "
                         "one): no plan step to escalate")
    entries = _damage(events, last, data["models"])
    if not entries:
        end_t = round(float(events[-1]["t"]) + CLOSING_GAP, 3)
        events.append({"id": CLOSING_EVENT_ID, "t": end_t, "step": events[-1].get("step") or origin, "kind": "log",
                       "source": "warroom importer", "content": annotation.ending})
        entries = [{"event": CLOSING_EVENT_ID, "amount": 1, "note": "the run goes on to end failed"}]
    moved = stretch_after(events, events[last]["id"], reading_time)
    if moved:
        data["source"] += retimed_note(f"the events after {events[last]['id']} (the annotated event) were moved "
                                       f"{moved:g} s later, so that it can be read ({reading_time:g} s)")
    times = {ev["id"]: float(ev["t"]) for ev in events}
    damage_t = min(times[e["event"]] for e in entries)
    after = round(min(DEADLINE_WINDOW, damage_t - times[events[last]["id"]] - 1.0), 1)
    plan_ids = [s["id"] for s in data["plan"]]
    damaged = {events[index.get(e["event"], len(events) - 1)].get("step") for e in entries}
    cascade = [s for s in plan_ids[plan_ids.index(origin) + 1:] if s in damaged]
    data["answer_key"] = {
        "fault": {"origin_step": origin, "kind": annotation.kind, "summary": annotation.summary},
        "evidence": list(dict.fromkeys(annotation.evidence)),
        "cascade": cascade,
        "damage": {"unit": DAMAGE_UNIT, "entries": entries},
        "deadline": {"event": events[last]["id"], "after": after},
        "debrief": annotation.debrief,
    }
    return data


def checked_drill(text: str, drill_id: str, error: type[ValueError] = TraceError,
                  what: str = "the keyed drill") -> Any:
    """The drill of the YAML ``text`` written for ``drill_id``, loaded back with the core loader (the drill model and
    every drill rule: what is checked is exactly what a trainee will load) and played by ``warroom check``'s
    scripted trainees (a drill nobody can win is never written). Raises ``error`` saying why ``what`` (``the keyed
    drill``) does not load or fails the check."""
    from warroom.core.author import run_checks
    from warroom.core.load import DrillLoadError, load_drill_text

    try:
        drill = load_drill_text(text, path=f"{drill_id}.yaml")
    except DrillLoadError as e:
        first = e.problems[0] if e.problems else e
        raise error(f"{what} does not load: {getattr(first, 'message', str(first))}") from None
    report = run_checks(drill)
    if not report.passed:
        raise error(f"{what} fails `warroom check`: {report.problems[0]}")
    return drill
