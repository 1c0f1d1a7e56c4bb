"""The rules of a drill's ``variants`` section (docs/authoring.md "Seeded variants"), :func:`variant_issues`: each
problem is an :class:`~warroom.core.rules.Issue` at the value at fault, so ``warroom validate`` reports it as
``path:line:col: message``.

- a name or amount must appear where a variant rewrites (the trace's text and tool data, the answer key's texts)
  and never in what the trainee reads before the session draws its seed (title, briefing, plan); its choices
  differ from it and from one another, and from every other name's text and choices (two names would read the
  same in a variant); each text is listed once; an amount's ``min`` is below its ``max``; the
  names' choices make a variant at most :data:`~warroom.core.model.MAX_NAME_GROWTH` characters longer;
- a phrasing names a trace event once, replaces only the fields of its kind, and each choice makes a valid event;
- a shuffle group lists distractor events only, each in one group, at most
  :data:`~warroom.core.model.MAX_SHUFFLE_GROUP`, and every order of the group keeps the drill valid;
- jitter leaves the earliest evidence at least :data:`~warroom.core.model.REACTION_WINDOW` seconds before the
  deadline and every damage event after it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from warroom.core.model import (
    MAX_AMOUNT_DECIMALS,
    MAX_NAME_GROWTH,
    MAX_SHUFFLE_GROUP,
    REACTION_WINDOW,
    Drill,
    amount_format,
    amount_pattern,
    detection_events,
    name_pattern,
    orders,
    rewritten,
    rewritten_count,
    variable_texts,
)
from warroom.core.rules._issues import Issue


def _read_first(drill: Drill) -> list[tuple[str, str]]:
    """``(where, text)`` of what the trainee reads before a session draws its seed: title, briefing, plan."""
    b = drill.briefing
    out = [("title", drill.title), ("briefing.goal", b.goal), ("briefing.watching", b.watching)]
    if b.context:
        out.append(("briefing.context", b.context))
    for i, step in enumerate(drill.plan):
        out += [(f"plan[{i}].title", step.title), (f"plan[{i}].objective", step.objective)]
    return out


def _appears(
    pattern: str, drill: Drill, data: dict[str, Any], number: float | None = None
) -> tuple[bool, str | None]:
    """Whether ``pattern`` matches where variants rewrite in ``data`` (the drill dumped) or ``number`` is a number
    in tool data there, and where it matches in what is read before the seed is drawn (None: nowhere)."""
    found = rewritten(data, pattern, number)
    regex = re.compile(pattern)
    early = next((where for where, text in _read_first(drill) if regex.search(text)), None)
    return found, early


def _choices_issues(loc: tuple[str | int, ...], text: str, choices: list[str]) -> list[Issue]:
    issues = []
    seen: set[str] = {text}
    for j, c in enumerate(choices):
        if c in seen:
            what = "the text it replaces" if c == text else "another choice"
            issues.append(Issue((*loc, "choices", j), f"choice {c!r} is the same as {what}; give a different one"))
        seen.add(c)
    return issues


def _place_issues(loc: tuple[str | int, ...], what: str, text: str, pattern: str, drill: Drill,
                  data: dict[str, Any], number: float | None = None) -> list[Issue]:
    found, early = _appears(pattern, drill, data, number)
    issues = []
    if not found:
        issues.append(Issue((*loc, "text"), (
            f"the {what} {text!r} appears nowhere a variant rewrites (trace event text and tool data, probe "
            "answers, the fault summary, the debrief, evidence notes, damage notes, why_harmless): write it as it "
            "appears there")))
    if early is not None:
        issues.append(Issue((*loc, "text"), (
            f"the {what} {text!r} appears in {early}, which the trainee reads before the session draws its "
            "variant; keep it out of the title, the briefing and the plan")))
    return issues


def _listed_twice(drill: Drill) -> list[Issue]:
    """A name or amount text listed twice (among names and amounts together): the second listing."""
    assert drill.variants is not None
    first: dict[str, tuple[str | int, ...]] = {}
    issues = []
    entries = [("names", i, n.text) for i, n in enumerate(drill.variants.names)]
    entries += [("amounts", i, a.text) for i, a in enumerate(drill.variants.amounts)]
    for key, i, text in entries:
        loc = ("variants", key, i, "text")
        if text in first:
            issues.append(Issue(loc, f"{text!r} is listed twice; keep one entry", first[text]))
        first.setdefault(text, loc)
    return issues


def _names_read_alike(drill: Drill) -> list[Issue]:
    """A name's choice that is another name's text or one of its choices: a variant could then show both names as
    one (``svc-a`` replaced by ``svc-b`` while ``svc-b`` stays). The choice is at fault, the other name related."""
    assert drill.variants is not None
    names = drill.variants.names
    issues = []
    for i, n in enumerate(names):
        for j, c in enumerate(n.choices):
            other = next((k for k, m in enumerate(names) if k != i and (c == m.text or c in m.choices)), None)
            if other is None:
                continue
            m = names[other]
            how = f"the name {m.text!r}" if c == m.text else f"a choice of the name {m.text!r} too"
            issues.append(Issue(("variants", "names", i, "choices", j), (
                f"choice {c!r} of the name {n.text!r} is {how}, so a variant could show both names as {c!r}: give "
                f"{n.text!r} a choice no other name reads as"),
                ("variants", "names", other, "text" if c == m.text else "choices")))
    return issues


def _texts(value: Any) -> list[str]:
    """Every text in ``value`` (plain data: a phrasing's choice), values only."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [t for v in items for t in _texts(v)]


def name_issues(drill: Drill) -> list[Issue]:
    """Problems of ``variants.names`` (and a text listed twice among names and amounts)."""
    assert drill.variants is not None
    issues: list[Issue] = _listed_twice(drill) + _names_read_alike(drill)
    data = drill.model_dump(mode="json") if drill.variants.names else {}
    growth = 0
    phrased = [t for p in drill.variants.phrasings for choice in p.choices for t in _texts(choice)]
    for i, n in enumerate(drill.variants.names):
        loc = ("variants", "names", i)
        issues += _place_issues(loc, "name", n.text, name_pattern(n.text), drill, data)
        issues += _choices_issues(loc, n.text, n.choices)
        longer = max(len(c) for c in n.choices) - len(n.text) if n.choices else 0
        if longer > 0 and growth <= MAX_NAME_GROWTH:
            found = rewritten_count(data, name_pattern(n.text))
            found += sum(len(re.findall(name_pattern(n.text), c)) for c in phrased)  # a phrasing played is renamed
            growth += longer * found
            if growth > MAX_NAME_GROWTH:
                issues.append(Issue((*loc, "choices"), (
                    f"the names' choices make a variant more than {MAX_NAME_GROWTH:,} characters longer than the "
                    f"drill (each place a name is found, times how much longer its longest choice is), here: "
                    "give shorter choices, or vary a text found in fewer places")))
    return issues


def _named_drill_issues(drill: Drill) -> list[Issue]:
    """For each name's choice, the first rule the drill breaks with the name written so wherever a variant rewrites
    (a name found inside a result written as JSON text renames a key there, which the answer key's field path may
    name: the variants drawing it were no drill, though the drill validated), at the choice."""
    from pydantic import ValidationError

    from warroom.core.rules._validate import validate_drill

    assert drill.variants is not None
    issues: list[Issue] = []
    for i, n in enumerate(drill.variants.names):
        regex = re.compile(name_pattern(n.text))
        for j, choice in enumerate(n.choices):
            data = drill.model_dump(mode="json")
            data["variants"] = None
            for _, container, field in list(variable_texts(data)):
                container[field] = _renamed(container[field], regex, choice)
            try:
                found = [x.message for x in validate_drill(Drill.model_validate(data))]
            except ValidationError as exc:
                found = [str(exc.errors(include_url=False)[0]["msg"])]
            if found:
                issues.append(Issue(("variants", "names", i, "choices", j), (
                    f"with the name `{n.text}` written `{choice}` the drill breaks a rule: {found[0]}; vary a name "
                    "that no key, id or field path holds")))
                break
    return issues


def _renamed(value: Any, regex: re.Pattern[str], choice: str) -> Any:
    """``value`` (plain data) with every match of ``regex`` in its texts written ``choice``, values only."""
    if isinstance(value, str):
        return regex.sub(lambda _: choice, value)
    if isinstance(value, list):
        return [_renamed(v, regex, choice) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, regex, choice) for k, v in value.items()}
    return value


def amount_issues(drill: Drill) -> list[Issue]:
    """Problems of ``variants.amounts``."""
    assert drill.variants is not None
    issues: list[Issue] = []
    data = drill.model_dump(mode="json") if drill.variants.amounts else {}
    for i, a in enumerate(drill.variants.amounts):
        loc = ("variants", "amounts", i)
        value, decimals, _ = amount_format(a.text)
        if decimals > MAX_AMOUNT_DECIMALS:
            issues.append(Issue((*loc, "text"), (
                f"an amount is written with at most {MAX_AMOUNT_DECIMALS} decimals (a variant draws it in steps of "
                f"its last one), this one has {decimals:,}: write fewer")))
        elif a.min >= a.max:
            issues.append(Issue((*loc, "min"), f"min ({a.min:g}) must be less than max ({a.max:g})"))
        elif int(a.max * 10**decimals + 1e-9) < int(a.min * 10**decimals - 1e-9) + 1:
            issues.append(Issue((*loc, "max"), (
                f"no number with {decimals} decimals (as {a.text!r} is written) lies between {a.min:g} and "
                f"{a.max:g}")))
        issues += _place_issues(loc, "amount", a.text, amount_pattern(a.text), drill, data, value)
    return issues


def phrasing_issues(drill: Drill, base_valid: bool) -> list[Issue]:
    """Problems of ``variants.phrasings``; each choice is built into its event only when ``base_valid``."""
    from pydantic import TypeAdapter, ValidationError

    from warroom.core.model import TraceEvent

    assert drill.variants is not None
    events = {e.id: e for e in drill.trace}
    adapter: TypeAdapter[Any] = TypeAdapter(TraceEvent)
    issues: list[Issue] = []
    first: dict[str, int] = {}
    for i, p in enumerate(drill.variants.phrasings):
        loc = ("variants", "phrasings", i)
        if p.event in first:
            issues.append(Issue((*loc, "event"), f"event {p.event} has its phrasings listed twice; merge them",
                                ("variants", "phrasings", first[p.event], "event")))
            continue
        first[p.event] = i
        event = events.get(p.event)
        if event is None:
            issues.append(Issue((*loc, "event"), f"no trace event {p.event!r}"))
            continue
        allowed = type(event).PHRASED
        if not allowed:
            issues.append(Issue((*loc, "event"), f"a {event.kind} event has no text a phrasing may replace"))
            continue
        for j, choice in enumerate(p.choices):
            bad = sorted(set(choice) - allowed)
            for key in bad:
                issues.append(Issue((*loc, "choices", j, key), (
                    f"a phrasing of a {event.kind} may replace only {', '.join(sorted(allowed))}, not {key!r}")))
            if not choice:
                issues.append(Issue((*loc, "choices", j), "an empty phrasing: give the fields to write instead"))
            if bad or not choice or not base_valid:
                continue
            try:
                phrased = adapter.validate_python({**event.model_dump(mode="json"), **choice})
            except ValidationError as exc:
                err = exc.errors(include_url=False)[0]
                where = (*loc, "choices", j, *[k for k in err["loc"][1:] if not isinstance(k, str) or k in choice])
                issues.append(Issue(where, f"this phrasing does not make a valid {event.kind}: {err['msg']}"))
                continue
            issues += _phrased_drill_issues(drill, phrased, (*loc, "choices", j))
    return issues


def _phrased_drill_issues(drill: Drill, phrased: Any, loc: tuple[str | int, ...]) -> list[Issue]:
    """The first rule the drill breaks with event ``phrased`` in place of its own (a phrasing of the evidence
    without the field the answer key points at made a variant that could not be played, though the drill
    validated), at the phrasing's choice ``loc``."""
    from warroom.core.rules._validate import validate_drill

    trace = [phrased if e.id == phrased.id else e for e in drill.trace]
    found = validate_drill(drill.model_copy(update={"trace": trace, "variants": None}))
    if not found:
        return []
    return [Issue(loc, (
        f"with this phrasing of {phrased.id} the drill breaks a rule: {found[0].message}; a phrasing must keep "
        "what the answer key, the distractors and the twin point at"))]


def shuffle_issues(drill: Drill, base_valid: bool) -> list[Issue]:
    """Problems of ``variants.shuffle``; every other order of a group is validated only when ``base_valid``."""
    assert drill.variants is not None
    trace_ids = {e.id for e in drill.trace}
    distractors = {d.event for d in drill.distractors}
    issues: list[Issue] = []
    seen: dict[str, tuple[str | int, ...]] = {}
    for g, group in enumerate(drill.variants.shuffle):
        ok = True
        if len(group) > MAX_SHUFFLE_GROUP:
            issues.append(Issue(("variants", "shuffle", g), (
                f"a shuffle group has at most {MAX_SHUFFLE_GROUP} events; split this one ({len(group)})")))
            ok = False
        for k, event_id in enumerate(group):
            loc = ("variants", "shuffle", g, k)
            if event_id in seen:
                issues.append(Issue(loc, f"event {event_id} is listed in a shuffle group twice", seen[event_id]))
                ok = False
            elif event_id not in trace_ids:
                issues.append(Issue(loc, f"no trace event {event_id!r}"))
                ok = False
            elif event_id not in distractors:
                issues.append(Issue(loc, (
                    f"event {event_id} is not a distractor: only independent distractors may change order; list it "
                    "in distractors or drop it from the group")))
                ok = False
            seen.setdefault(event_id, loc)
        if ok and base_valid:
            issues += _order_issues(drill, g, list(group))
    return issues


def _order_issues(drill: Drill, g: int, group: list[str]) -> list[Issue]:
    from warroom.core.rules._validate import validate_drill

    times = {e.id: e.t for e in drill.trace}
    slots = sorted(times[e] for e in group)
    for order in orders(group):
        new_t = dict(zip(order, slots, strict=True))
        trace = sorted(
            (e.model_copy(update={"t": new_t[e.id]}) if e.id in new_t else e for e in drill.trace), key=lambda e: e.t
        )
        found = validate_drill(drill.model_copy(update={"trace": trace, "variants": None}))
        if found:
            return [Issue(("variants", "shuffle", g), (
                f"released in the order {', '.join(order)} the trace breaks a rule: {found[0].message}; shuffle "
                "only distractors that can come in any order"))]
    return []


def jitter_issues(drill: Drill) -> list[Issue]:
    """Problems of ``variants.jitter`` in a drill with a fault (an all-clear drill has no deadline to keep)."""
    assert drill.variants is not None
    jitter, key = drill.variants.jitter, drill.answer_key
    if jitter is None or key is None:
        return []
    times = {e.id: e.t for e in drill.trace}
    earliest = min(((times[e.id], e.id) for _, e in detection_events(drill)), default=None)
    if earliest is None:  # evidence only from a verification probe (format 2): no trace time to keep
        return []
    damage = min(((times[d.event], d.event) for d in key.damage.entries if d.event in times), default=None)
    if damage is None:  # spend damage only (format 2): it runs from its first call, before any deadline
        damage = (math.inf, "")
    room = min(key.deadline - earliest[0] - REACTION_WINDOW, damage[0] - key.deadline - 0.1)
    if jitter.max_seconds <= room + 1e-9:
        return []
    most = f"at most {max(room, 0):g} s" if room > 0 else "no jitter fits: leave it out"
    return [Issue(("variants", "jitter", "max_seconds"), (
        f"jitter of up to {jitter.max_seconds:g} s could bring the earliest evidence ({earliest[1]} at "
        f"{earliest[0]:g} s) within {REACTION_WINDOW:g} s of the deadline ({key.deadline:g} s)"
        + (f" or the first damage ({damage[1]} at {damage[0]:g} s) to the deadline" if damage[1] else "")
        + f": {most}"))]


def variant_issues(drill: Drill, base_valid: bool = True) -> list[Issue]:
    """The problems of ``drill``'s ``variants`` section, each an :class:`~warroom.core.rules.Issue` at the
    value at fault. ``base_valid``: the rest of the drill has no problem, so the rules that build variants (every
    order of a shuffle group, every phrasing) can run."""
    if drill.variants is None:
        return []
    issues = name_issues(drill) + amount_issues(drill) + phrasing_issues(drill, base_valid)
    if base_valid and not issues:
        issues += _named_drill_issues(drill)
    issues += shuffle_issues(drill, base_valid)
    if base_valid:
        issues += jitter_issues(drill)
    return issues
