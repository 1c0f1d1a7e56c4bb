"""Where the fault templates apply in a healthy run (``warroom project --list``), and whether each place can be
projected: a :class:`Site` per template and result it applies to, with the later calls that would do the damage.

A place can be projected when the changed result belongs to a plan step (the origin the trainee escalates), has a
few events before it, and is followed by at least one consequential call (the damage; ``--damage`` names them, else
the write-like tool names do). The origin may be the step of the first trace event (a run that is one request: one
plan step): escalating it before the evidence is an early escalation, never a hit, and ``warroom check``'s
trigger-happy and gaming trainees judge every projection before it is written (:func:`~warroom.core.projection.verify`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from warroom.core.projection._damage import DamageRule
from warroom.core.projection._output import Place
from warroom.core.projection._source import HealthySource
from warroom.core.projection._templates import TEMPLATES, Template
from warroom.core.projection._view import ResultView, RunText, result_views
from warroom.core.scoring import EDITIONS, SCORING_VERSION
from warroom.core.text import clean, visible_name

#: Trace events that must come before the changed result (so that the evidence is never among the first things
#: on screen, and escalating everything released by then cites mostly what is not evidence): as many as the current
#: scoring rules let a specific citation name, so that citing every event released is never specific (the gaming
#: battery's cite-everything trainee, docs/scoring.md).
MIN_EVENTS_BEFORE = max(3, EDITIONS[SCORING_VERSION].max_cited)

#: Why a site cannot be projected, in a few words (:attr:`Site.reason`; ``--list`` gives the whole sentence).
REASONS = ("outside any plan step", f"fewer than {MIN_EVENTS_BEFORE} events before it",
           "no consequential call after it")


@dataclass(frozen=True)
class Site:
    """One place a template applies: the ``template``'s name, the result ``event`` (its id and ``index`` in the
    trace), its plan ``step`` and ``tool``, the ``field`` the template would change or add, the ``damage`` calls
    after it (ids), ``problem`` (why it cannot be projected; None: it can), ``shape`` (what makes two sites of a
    source the same projection: the tool, the result's keys and the field, list indexes left out) and ``reason``
    (the problem in a few words, one of :data:`REASONS`, for ``--all``'s count; "" when it can be projected)."""

    template: str
    event: str
    index: int
    step: str | None
    tool: str
    field: str
    damage: tuple[str, ...]
    problem: str | None
    shape: str
    reason: str = ""

    @property
    def ok(self) -> bool:
        """True when the site can be projected."""
        return self.problem is None


@dataclass
class Survey:
    """A healthy run read for projection: its results as the templates see them and the damage rules in use."""

    source: HealthySource
    rules: list[DamageRule]
    views: list[ResultView]
    events: list[dict[str, Any]]

    def view(self, index: int) -> ResultView:
        """The result view of the trace event at ``index``."""
        return next(v for v in self.views if v.index == index)

    def damage_after(self, index: int) -> tuple[str, ...]:
        """The consequential calls after trace event ``index`` (released later than it), by id."""
        t = float(self.events[index]["t"])
        return tuple(
            str(e["id"]) for e in self.events[index + 1:]
            if e.get("kind") == "tool_call" and float(e["t"]) > t
            and any(r.matches(str(e.get("tool"))) for r in self.rules)
        )

    def rule_for(self, tool: str) -> DamageRule:
        """The first damage rule that matches ``tool``."""
        return next(r for r in self.rules if r.matches(tool))


def survey(source: HealthySource, rules: list[DamageRule]) -> Survey:
    """``source`` read for projection with the damage ``rules`` (:func:`~warroom.core.projection.damage_rules`)."""
    events = list(source.data["trace"])
    return Survey(source, rules, result_views(events, RunText(events)), events)


def _shape(view: ResultView, place: Place) -> str:
    keys = ",".join(sorted(map(str, view.value))) if isinstance(view.value, dict) else "[list]"
    where = ".".join(str(p) for p in place.parts if isinstance(p, str))
    return f"{view.tool}|{keys}|{where}"


def _problem(view: ResultView, damage: tuple[str, ...], survey: Survey) -> tuple[str, str] | None:
    """Why the result of ``view`` cannot be a projection's origin, as ``(reason, problem)`` (None: it can)."""
    if view.event.get("step") is None:
        return REASONS[0], "the result is outside any plan step: a fault needs a plan step to escalate"
    if view.index < MIN_EVENTS_BEFORE:
        return REASONS[1], f"fewer than {MIN_EVENTS_BEFORE} trace events come before it"
    if not damage and any(r.write_like for r in survey.rules):
        return REASONS[2], ("no consequential call after it (write-like tool names: cancel*, update*, ...; name "
                            "others with --damage PATTERN=AMOUNT)")
    if not damage:  # the author's --damage patterns: say which, and what was called
        t = float(view.event["t"])
        tools = dict.fromkeys(str(e.get("tool")) for e in survey.events[view.index + 1:]
                              if e.get("kind") == "tool_call" and float(e["t"]) > t)
        called = ", ".join(clean(name) for name in list(tools)[:8]) + (", ..." if len(tools) > 8 else "")
        patterns = ", ".join(visible_name(r.pattern) for r in survey.rules)  # (a zero-width space in one: shown)
        return REASONS[2], (f"no call after it matches --damage {patterns} "
                            f"(the tools called after it: {called or 'none'})")
    return None


def sites_of(survey: Survey, templates: list[Template] | None = None) -> list[Site]:
    """Every place each template applies in the run, in trace order (then template order), projectable or not."""
    out = []
    for view in survey.views:
        damage = survey.damage_after(view.index)
        found = _problem(view, damage, survey)
        reason, problem = found if found is not None else ("", None)
        for template in templates if templates is not None else TEMPLATES.values():
            place = template.place(view)
            if place is None:
                continue
            field = template.change(view, place, random.Random(0)).field
            out.append(Site(template.name, view.id, view.index, view.event.get("step"), view.tool, field, damage,
                            problem, _shape(view, place), reason))
    return out
