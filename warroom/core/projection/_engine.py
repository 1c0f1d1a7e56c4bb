"""``warroom project``'s engine: a healthy run and a template in, a fault drill and its twin out.

:func:`project` makes the projection at one site (:class:`~warroom.core.projection.Site`): the template changes
that one tool result (nothing else of the trace changes but what the distractors add and the clock's stretching);
the answer key comes from the trace and the author's choices: the origin is the plan step of the changed result,
the evidence the field the template made, the damage the consequential calls after it, the deadline just before
the first of them (the reading window of the fairness rules stretched in where needed), the debrief the
template's words with the habit that would have caught it. The twin is the healthy run itself: the changed result
replaced by the original, with the same distractors, and an all-clear debrief.

Every choice a projection makes up (a total, an age, which distractors) is drawn from a generator seeded by the
source, the template and the event, so the same projection comes out every time.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from warroom.core.model import CONTROL_TAGS, ending_event
from warroom.core.projection._difficulty import estimate
from warroom.core.projection._distractors import Added, add_distractors
from warroom.core.projection._problems import ProjectionError, at
from warroom.core.projection._sites import Site, Survey, sites_of
from warroom.core.projection._templates import TEMPLATES, Change
from warroom.core.projection._timing import deadline_for, reading_window

#: Seconds a person gets, by default, between the evidence and the deadline (the fairness rules ask for at least
#: warroom.core.author.MIN_REACTION_WINDOW; the evidence is one field of a real result, so a little more).
DEFAULT_WINDOW = 10.0
#: Seconds after a correct escalation that the planner's re-plan comes.
REPLAN_AFTER = 3.0
#: Tags every projected drill gets (shown only in the debrief, as every tag that is not a domain tag).
PROJECTED_TAG = "projected"


@dataclass(frozen=True)
class Options:
    """The author's choices: the damage ``rules`` in use (:func:`~warroom.core.projection.damage_rules`), the
    reading ``window`` (seconds between the evidence and the deadline, at least) and how many ``distractors`` to
    add (0 to 3)."""

    window: float = DEFAULT_WINDOW
    distractors: int = 1


@dataclass(frozen=True)
class Projection:
    """A fault drill projected into a healthy run: its ``id``, the ``site`` it was made at, the drill's plain
    ``data`` (its twin section included), the ``twin`` section on its own, the ``header`` comment for its file,
    its estimated ``difficulty`` and the ``notes`` of what was added or stretched."""

    id: str
    site: Site
    data: dict[str, Any]
    twin: dict[str, Any]
    header: str
    difficulty: int
    notes: list[str] = field(default_factory=list)


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("\x1f".join(parts).encode()).digest()[:8], "big")


def projection_id(source_id: str, site: Site) -> str:
    """A projected drill's id: the source's id and a short digest of the template and event, so that it names
    neither (the id is shown before the debrief)."""
    digest = hashlib.sha256(f"{site.template}:{site.event}".encode()).hexdigest()[:5]
    return f"{source_id[: 80 - 7].rstrip('-._')}-p{digest}"


def _damage_entries(survey: Survey, events: list[dict[str, Any]], site: Site) -> list[dict[str, Any]]:
    by_id = {e["id"]: e for e in events}
    entries = []
    for call in site.damage:
        tool = str(by_id[call].get("tool"))
        rule = survey.rule_for(tool)
        entries.append({"event": call, "amount": rule.amount, "note": f"{tool} made on the bad result"})
    return entries


def _consequence(events: list[dict[str, Any]], site: Site, deadline: float) -> str:
    by_id = {e["id"]: e for e in events}
    calls = [f"{by_id[c].get('tool')} at {c}" for c in site.damage]
    listed = ", ".join(calls[:4]) + (f" and {len(calls) - 4} more" if len(calls) > 4 else "")
    return (f"What came after was built on it: {listed}. Escalating plan step {site.step} once {site.event} was out, "
            f"before {deadline:g} s, would have stopped that.")


def _twin_debrief(events: list[dict[str, Any]], change: Change, site: Site, added: list[Added]) -> str:
    by_id = {e["id"]: e for e in events}
    calls = [f"{by_id[c].get('tool')} at {c}" for c in site.damage[:4]]
    text = (f"Nothing went wrong in this run: {change.healthy} The calls that followed ({', '.join(calls)}"
            f"{' ...' if len(site.damage) > 4 else ''}) were made on a sound result, so there was nothing to escalate.")
    if added:
        text += " What looked odd was harmless: " + " ".join(a.why_harmless for a in added)
    return text


def _answer_key(survey: Survey, events: list[dict[str, Any]], site: Site, change: Change) -> dict[str, Any]:
    template = TEMPLATES[site.template]
    by_id = {e["id"]: i for i, e in enumerate(events)}
    deadline = deadline_for(events, by_id[site.damage[0]])
    cascade = list(dict.fromkeys(s for c in site.damage if (s := events[by_id[c]].get("step")) and s != site.step))
    evidence: dict[str, Any] = {"event": site.event}
    if change.evidence_path is not None:
        evidence["path"] = change.evidence_path
    evidence["note"] = change.note
    key: dict[str, Any] = {
        "fault": {"origin_step": site.step, "kind": template.kind.value, "summary": change.summary},
        "evidence": [evidence],
    }
    call = survey.view(site.index).call_id
    if site.template == "wrong-record" and call is not None and events[by_id[call]].get("step") == site.step:
        key["accepted_evidence"] = [call]
    key["cascade"] = cascade
    key["damage"] = {"unit": survey.rules[0].unit, "entries": _damage_entries(survey, events, site)}
    key["deadline"] = deadline
    key["debrief"] = f"{change.debrief} {_consequence(events, site, deadline)}"
    key["habit"] = template.habit[:1].upper() + template.habit[1:]  # shown under its own heading in the debrief
    view = survey.view(site.index)
    replan: dict[str, Any] = {"id": _free_id("replan", set(by_id)), "t": REPLAN_AFTER, "kind": "planner_call",
                              "content": f"Re-plan after the escalation: {template.replan(view, change)}"}
    if survey.source.data.get("agents"):
        replan["agent"] = _planner(survey.source.data)["name"]
    key["replan"] = [replan]
    return key


def _free_id(base: str, taken: set[str]) -> str:
    n = 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _planner(data: dict[str, Any]) -> dict[str, Any]:
    """The drill's planner agent: the source's, or the one a projection adds (the re-plan is the planner's)."""
    found = next((a for a in data.get("agents", []) if a.get("role") == "planner"), None)
    if found is not None:
        return dict(found)
    names = {a.get("name") for a in data.get("agents", [])}
    name = next(n for n in ("planner", "re-planner", "planner-2") if n not in names)
    return {"name": name, "role": "planner", "model": data["models"]["planner"]["name"],
            "description": "Plans the run again after an escalation (added by warroom project: the real run "
                           "had none in its trace)."}


def _meta(survey: Survey, site: Site, pid: str, notes: list[str]) -> dict[str, Any]:
    """The projected drill's id, title, tags (not the source's control tags: they would call a fault drill a
    control), author and source (crediting the source's own)."""
    data = survey.source.data
    tags = [t for t in data.get("tags", []) if str(t).strip().lower() not in CONTROL_TAGS]
    kind = TEMPLATES[site.template].kind.value
    tags += [t for t in (kind, PROJECTED_TAG, *TEMPLATES[site.template].taxonomy) if t not in tags]
    credit = str(data.get("source") or "").strip()
    what = (f"Projected by `warroom project` from {data['id']} (a healthy run): one tool result changed and the "
            "answer key generated; the twin is the healthy run.")
    stretched = ("Changed for the drill: " + "; ".join(notes) + ".") if notes else ""
    author = str(data.get("author") or "unknown")
    return {
        "id": pid,
        "title": data.get("title") or pid,
        "tags": tags,
        "author": author if "projected by warroom" in author else f"{author}; projected by warroom",
        "source": " ".join(p for p in (credit, what, stretched) if p),
    }


def build(survey: Survey, site: Site, options: Options) -> Projection:
    """The projection at ``site`` (a projectable site of ``survey``). Pure: the source is not changed."""
    template = TEMPLATES[site.template]
    view = survey.view(site.index)
    rng = random.Random(_seed(str(survey.source.data["id"]), site.template, site.event))
    place = template.place(view)
    assert place is not None, site
    change = template.change(view, place, rng)
    original = survey.events[site.index]
    events = list(survey.events)
    events[site.index] = {**original, view.form.field: view.form.dump(change.value)}
    allowed = {s.id for s in survey.source.drill.plan} - {str(site.step)}
    protected = {site.event, *(c for c in [view.call_id] if c), *site.damage,
                 *(str(d["event"]) for d in survey.source.data.get("distractors") or [])}
    events, added = add_distractors(events, options.distractors, allowed, protected, rng)
    by_id = {e["id"]: i for i, e in enumerate(events)}
    events, stretch = reading_window(events, by_id[site.event], by_id[site.damage[0]], options.window)
    notes = [a.note for a in added]
    if stretch:
        notes.append(f"the events from {site.damage[0]} on are released {stretch:g} s later than in the source, so "
                     f"that the evidence is out {options.window:g} s before the deadline")
    # the healthy run: the original result, with every field the change added saying it is sound (a field's name
    # never tells the trial); the calls after it made as they were, harmless on a sound result
    healthy = original[view.form.field] if change.sound is None else view.form.dump(change.sound)
    twin = {"replace": {site.event: {view.form.field: healthy}}, "harmless": list(site.damage),
            "debrief": _twin_debrief(events, change, site, added)}
    return _assemble(survey, site, change, events, added, twin, notes, view)


def _assemble(survey: Survey, site: Site, change: Change, events: list[dict[str, Any]], added: list[Added],
              twin: dict[str, Any], notes: list[str], view: Any) -> Projection:
    pid = projection_id(str(survey.source.data["id"]), site)
    data = {k: v for k, v in survey.source.data.items() if k not in ("variants", "distractors", "probes")}
    if survey.source.data.get("variants") is not None:
        notes.append("the source's variants section is left out (its names and phrasings were written for the "
                     "healthy run)")
    data.update(_meta(survey, site, pid, notes))
    if data.get("agents") and all(a.get("role") != "planner" for a in data["agents"]):
        data["agents"] = [_planner(data), *data["agents"]]
    data["trace"] = events
    later = "\n".join(str(e.get("content", "")) for e in events[site.index + 1:]
                      if e.get("kind") in ("executor_message", "executor_report"))
    difficulty = estimate(site.template, change, len(str(events[site.index].get(view.form.field))), later)
    data["difficulty"] = difficulty
    # a distractor of the source on the result the template changed is that result's evidence now, not harmless
    distractors = [d for d in survey.source.data.get("distractors") or []
                   if str(d.get("event")) != site.event or d.get("path")]
    if len(distractors) < len(survey.source.data.get("distractors") or []):
        notes.append(f"the source's distractor {site.event} is left out (its result is the one changed)")
    distractors += [{"event": a.event, "why_harmless": a.why_harmless} for a in added]
    if survey.source.data.get("probes"):
        data["probes"] = _probes_retimed(survey.source.data["probes"], survey.events, events)
    if distractors:
        data["distractors"] = distractors
    data["answer_key"] = _answer_key(survey, events, site, change)
    data["twin"] = twin
    header = (f"Projected by `warroom project` from {survey.source.path}: template {site.template} at {site.event} "
              f"({site.tool}). The answer key is generated: refine it with `warroom annotate`.")
    return Projection(pid, site, data, twin, header, difficulty, notes)


def _probes_retimed(probes: list[dict[str, Any]], source: list[dict[str, Any]],
                    events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``probes`` with each earlier answer's ``until`` (seconds) moved as the event it holds until
    (:func:`~warroom.core.model.ending_event`: the first released at or after it) in the source was moved by the
    stretched clock (the same, never-stretched probes shared): left as written, an answer meant for before a moved
    event ended long before it, and the probe answered for work not yet done."""
    now = {str(e["id"]): float(e["t"]) for e in events}
    out = []
    for probe in probes:
        answers = probe.get("answers") or []
        moved = [_answer_retimed(a, source, now) for a in answers]
        out.append(probe if moved == answers else {**probe, "answers": moved})
    return out


def _answer_retimed(answer: dict[str, Any], source: list[dict[str, Any]], now: dict[str, float]) -> dict[str, Any]:
    until = answer.get("until")
    if not isinstance(until, int | float) or isinstance(until, bool):
        return answer
    kept = [e for e in source if str(e["id"]) in now]
    i = ending_event(until, [float(e["t"]) for e in kept])
    by = now[str(kept[i]["id"])] - float(kept[i]["t"]) if i is not None else 0.0
    return {**answer, "until": round(until + by, 3)} if by > 0 else answer


def _pick(sites: list[Site], template: str, at_event: str | None, path: str, survey: Survey) -> Site:
    """The site of ``template`` at ``at_event`` (or its first projectable one); ProjectionError saying why not."""
    ids = [str(e["id"]) for e in survey.events]
    if at_event is not None and at_event not in ids:
        from warroom.core.text import Suggester

        raise ProjectionError(at(path, ("trace",), f"--at {at_event}: no event {at_event} in the trace"
                                 f"{Suggester(ids)(at_event)}"))
    mine = [s for s in sites if s.template == template and (at_event is None or s.event == at_event)]
    if not mine and at_event is not None:
        i = ids.index(at_event)
        kind = survey.events[i].get("kind")
        why = (f"it is a {kind}, not a tool result with JSON data" if all(v.index != i for v in survey.views)
               else f"its result is not {TEMPLATES[template].shapes}")
        raise ProjectionError(at(path, ("trace", i), f"template {template} does not apply at {at_event}: {why}"))
    if not mine:
        raise ProjectionError(at(path, ("trace",), f"template {template} applies nowhere in this trace: it needs "
                                 f"{TEMPLATES[template].shapes} (`warroom project --list FILE` shows where each "
                                 "template applies)"))
    good = [s for s in mine if s.ok]
    if not good:
        s = mine[0]
        raise ProjectionError(at(path, ("trace", s.index), f"template {template} at {s.event}: {s.problem}"))
    return good[0]


def project(survey: Survey, template: str, at_event: str | None, options: Options) -> Projection:
    """The projection of ``template`` at event ``at_event`` (None: its first projectable site) of ``survey``.
    Raises ProjectionError (``path:line:col: message``) for an unknown template or event, or a site that cannot
    be projected."""
    if template not in TEMPLATES:
        from warroom.core.text import Suggester

        raise ProjectionError(f"--template {template}: no such template{Suggester(list(TEMPLATES))(template)}; "
                              f"the templates: {', '.join(TEMPLATES)}")
    site = _pick(sites_of(survey, [TEMPLATES[template]]), template, at_event, survey.source.path, survey)
    return build(survey, site, options)
