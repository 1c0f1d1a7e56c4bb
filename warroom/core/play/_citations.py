"""What an escalation cites, judged by the answer key (scoring rules version 2).

An escalation names a plan step and cites the trace events that show the fault (``Action.cites``). Each cited event
is, by the drill's answer key:

- ``evidence``: listed in ``answer_key.evidence`` (format 2: an event of a comparison, ``all_of``, only when the
  escalation cites every event of it; cited alone it is ``part``);
- ``accepted``: listed in ``answer_key.accepted_evidence`` (further events the author accepts as showing the fault);
- ``distractor``: one of the drill's ``distractors`` (odd-looking but harmless);
- ``irrelevant``: any other event (it shows nothing about the fault).

Format 2: a citation may name a field of an event (``e03:data.stale_after``, :func:`split_cite`). It shows the fault
when it holds a field the answer key lists as evidence (or accepted evidence); otherwise it is what the most
specific field (or whole event) the answer key declares around it is: a distractor's field is a distractor even in
an evidence event. A citation of a whole event is judged as before fields could be cited. A citation of a field
the event does not have (:func:`~warroom.core.model.cited_field_miss`) is refused by the replay from scoring rules
version 6 on, so it is never judged then; a log of an earlier edition holding one is judged as it was released (by
the whole event, or the declared field around it).

An escalation is *supported* when it cites at least one evidence or accepted event (scoring rules versions 2 and
3); version 4 also asks that the citation be *specific* (:func:`is_specific`): most of what it cites is evidence or
accepted, and it cites at most a few events. In an all-clear drill nothing is evidence. Pure functions of the drill; no
Textual, no store.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from warroom.core.model import Drill, accepted_ids, accepted_refs, path_covers, path_parts, refs, split_cite
from warroom.core.text import seconds


class Cited(StrEnum):
    """What one cited event is, by the answer key (see the module docstring)."""

    EVIDENCE = "evidence"
    ACCEPTED = "accepted"
    DISTRACTOR = "distractor"
    IRRELEVANT = "irrelevant"
    #: Format 2: one event of a comparison (``all_of``) cited without all the others: not evidence on its own.
    PART = "part"


#: The words every view uses for each kind of cited event.
CITED_LABELS: dict[Cited, str] = {
    Cited.EVIDENCE: "evidence",
    Cited.ACCEPTED: "accepted as evidence",
    Cited.DISTRACTOR: "a distractor",
    Cited.IRRELEVANT: "shows nothing about the fault",
    Cited.PART: "part of a comparison: cite every event of it",
}

#: The kinds of cited event that support an escalation.
SUPPORTING: frozenset[Cited] = frozenset({Cited.EVIDENCE, Cited.ACCEPTED})


def judge_citations(
    drill: Drill, cites: Iterable[str] | None, *, distractor_fields_compare: bool = False
) -> list[tuple[str, Cited]]:
    """Each citation (in the order cited; None, a log from before citations, cites nothing) with its kind among the
    citations (an event of a comparison, format 2's ``all_of``, is evidence only when every event of the comparison
    is cited, else :attr:`Cited.PART`; an unknown id is irrelevant), the answer key read once for all of them (an
    escalation may cite hundreds).

    ``distractor_fields_compare`` (scoring rules versions 1 to 4 as released): every cited field cites its event
    for a comparison, a distractor's field too (``e05:stale_after`` beside ``e10`` completes ``all_of [e05, e10]``);
    by default (version 5 on) a distractor's field is no reading of what the comparison compares."""
    split = [(c, split_cite(c)) for c in cites or ()]
    if not split:
        return []
    judge = _judge_of(drill, distractor_fields_compare)
    cited_events = judge.cited_events(c for c, _ in split)
    return [(c, judge.judge(event_id, path, cited_events)) for c, (event_id, path) in split]


#: The judges of the drills judged last (the drill itself, kept alive, and the switch): scoring one session judges
#: its escalations' citations several times, and verifying thousands judges each drill's again and again.
_JUDGES: list[tuple[Drill, bool, _Judge]] = []
_JUDGES_KEPT = 4


def _judge_of(drill: Drill, distractor_fields_compare: bool = False) -> _Judge:
    """The answer key of ``drill`` indexed for judging (:class:`_Judge`), built once for the last few drills judged
    (the same drill object: a drill is never changed once loaded)."""
    for kept, switch, judge in _JUDGES:
        if kept is drill and switch is distractor_fields_compare:
            return judge
    judge = _Judge(drill, distractor_fields_compare=distractor_fields_compare)
    _JUDGES.insert(0, (drill, distractor_fields_compare, judge))
    del _JUDGES[_JUDGES_KEPT:]
    return judge


class _Judge:
    """The answer key of one drill indexed for judging citations: evidence items, accepted items and distractors
    by event, each with its field path (None: the whole event)."""

    def __init__(self, drill: Drill, *, distractor_fields_compare: bool = False) -> None:
        key = drill.answer_key
        self.distractor_fields_compare = distractor_fields_compare
        self.items: dict[str, list[Any]] = {}
        self.fields: dict[str, list[tuple[str | None, Cited, Any]]] = {}
        for ref in refs(key) if key is not None else []:
            for event_id in ref.events:
                self.items.setdefault(event_id, []).append(ref)
                path = ref.path if ref.all_of is None else None
                self.fields.setdefault(event_id, []).append((path, Cited.EVIDENCE, ref))
        self.accepted = set(accepted_ids(key)) if key is not None else set()
        for acc in accepted_refs(key) if key is not None else []:
            self.fields.setdefault(acc.event, []).append((acc.path, Cited.ACCEPTED, None))
        self.distractors = {d.event for d in drill.distractors}
        for d in drill.distractors:
            self.fields.setdefault(d.event, []).append((d.path, Cited.DISTRACTOR, None))

    def cited_events(self, cites: Iterable[str]) -> set[str]:
        """The events ``cites`` cite for a comparison (``all_of``): each whole event cited, and the event of each
        field cited that is not a distractor's field (citing the odd-but-harmless field of an event is no reading of
        what the comparison compares)."""
        out = set()
        for cite in cites:
            event_id, path = split_cite(cite)
            if path is None or self.distractor_fields_compare or self._holds(event_id, path) is not None or \
                    self._declared(event_id, path)[0] is not Cited.DISTRACTOR:
                out.add(event_id)
        return out

    def _holds(self, event_id: str, path: str) -> tuple[Cited, Any] | None:
        """The first field of the evidence (else of accepted evidence) the cited field ``path`` of ``event_id``
        holds, as (kind, evidence item or None); None when it holds none."""
        fields = self.fields.get(event_id, [])
        for want in (Cited.EVIDENCE, Cited.ACCEPTED):
            for at, kind, ref in fields:
                if kind is want and at is not None and path_covers(path, at):
                    return kind, ref
        return None

    def _declared(self, event_id: str, path: str) -> tuple[Cited, Any]:
        """What the most specific field (or whole event) the answer key declares around the field ``path`` of
        ``event_id`` is, with its evidence item (None for an accepted item or a distractor); irrelevant when none."""
        holding = [(len(path_parts(at)) if at is not None else -1, -order, kind, ref)
                   for order, (at, kind, ref) in enumerate(self.fields.get(event_id, [])) if path_covers(at, path)]
        if not holding:
            return Cited.IRRELEVANT, None
        _, _, kind, ref = max(holding, key=lambda h: (h[0], h[1]))
        return kind, ref

    def _evidence(self, ref: Any, cited_events: set[str]) -> Cited:
        return Cited.EVIDENCE if all(e in cited_events for e in ref.events) else Cited.PART

    def kind(self, cite: str, cited_events: set[str]) -> Cited:
        return self.judge(*split_cite(cite), cited_events)

    def judge(self, event_id: str, path: str | None, cited_events: set[str]) -> Cited:
        """The kind of the citation of ``path`` of ``event_id`` (None: the whole event) among ``cited_events``."""
        if path is None:  # the whole event: as every format before fields could be cited
            if event_id in self.items:
                whole = any(all(e in cited_events for e in ref.events) for ref in self.items[event_id])
                return Cited.EVIDENCE if whole else Cited.PART
            if event_id in self.accepted:
                return Cited.ACCEPTED
            return Cited.DISTRACTOR if event_id in self.distractors else Cited.IRRELEVANT
        held = self._holds(event_id, path)  # a field that holds a field of the evidence (or accepted) shows it
        if held is not None:
            return self._evidence(held[1], cited_events) if held[1] is not None else held[0]
        # else the most specific field (or whole event) the author declared that holds the cited field
        kind, ref = self._declared(event_id, path)
        return self._evidence(ref, cited_events) if ref is not None else kind


def is_supported(drill: Drill, cites: Iterable[str] | None, *, distractor_fields_compare: bool = False) -> bool:
    """True when ``cites`` holds at least one evidence item (every event of a comparison) or accepted event of
    ``drill`` (``distractor_fields_compare`` as :func:`judge_citations` has it)."""
    judged = judge_citations(drill, cites, distractor_fields_compare=distractor_fields_compare)
    return any(kind in SUPPORTING for _, kind in judged)


def citation_precision(
    drill: Drill, cites: Iterable[str] | None, *, once_per_event: bool = True, distractor_fields_compare: bool = False
) -> float:
    """The share of what is cited that is evidence or accepted evidence of ``drill`` (the events of a comparison
    count when the comparison is cited whole); 0.0 when nothing is cited.

    With ``once_per_event`` (scoring rules version 5 on): the distinct **events** with a citation that supports,
    over those plus the distinct citations that do not. An event is never counted twice as evidence (format 2: cited
    whole and by its evidence field, or by several fields), so citing the evidence again in another form does not
    make a citation more precise; a field that shows nothing counts against it, even of that event. Without it
    (version 4): the supporting distinct citations over all distinct citations (an event cited whole and by its
    evidence field is two citations of evidence). ``distractor_fields_compare`` as :func:`judge_citations` has it."""
    supporting: set[str] = set()
    other = 0
    judged = judge_citations(drill, dict.fromkeys(cites or ()), distractor_fields_compare=distractor_fields_compare)
    for cite, kind in judged:
        if kind in SUPPORTING:
            supporting.add(split_cite(cite)[0] if once_per_event else cite)
        else:
            other += 1
    if not supporting and not other:
        return 0.0
    return len(supporting) / (len(supporting) + other)


def is_specific(
    drill: Drill, cites: Iterable[str] | None, *, min_precision: float, max_cited: int, once_per_event: bool = True,
    distractor_fields_compare: bool = False,
) -> bool:
    """True when ``cites`` supports an escalation on ``drill`` (:func:`is_supported`) **and** is specific: at
    least ``min_precision`` of the distinct cited events are evidence or accepted evidence
    (:func:`citation_precision`, ``once_per_event`` and ``distractor_fields_compare`` as there), and at most
    ``max_cited`` distinct events are cited (0: no limit). Citing everything released, or every flagged event, is
    not specific."""
    cited = list(dict.fromkeys(cites or ()))
    if max_cited and len(cited) > max_cited:
        return False
    lenient = distractor_fields_compare
    precision = citation_precision(drill, cited, once_per_event=once_per_event, distractor_fields_compare=lenient)
    return is_supported(drill, cited, distractor_fields_compare=lenient) and precision >= min_precision


def misplaced_evidence(drill: Drill, step: str | None, cites: Iterable[str] | None, t: float) -> str | None:
    """For an escalation of ``step`` at drill time ``t`` that cited what shows the fault but named another target
    than the fault's origin: what was right and what was not, in words (``"you cited e05 (evidence), 27 s before
    the first damage (e09 at 41 s); the fault was in step s2, not step s3"``). None when the escalation named the
    origin, cited nothing that shows the fault, or the drill is all clear. Drill text is returned raw."""
    from warroom.core.model import target_label

    key = drill.answer_key
    if key is None or step == key.fault.target:
        return None
    shown = [c for c, kind in judge_citations(drill, cites) if kind in SUPPORTING]
    if not shown:
        return None
    times = {e.id: e.t for e in drill.trace}
    damage = sorted((times[d.event], d.event) for d in key.damage.entries if d.event in times)
    ahead = next(((at, ev) for at, ev in damage if at > t), None)
    when = "" if ahead is None else (
        f", {seconds(ahead[0] - t)} before the first damage still to come ({ahead[1]} at {seconds(ahead[0])})")
    return (f"you cited {', '.join(shown)} ({'evidence' if len(shown) == 1 else 'evidence, each'}){when}; the "
            f"fault was in {target_label(drill, key.fault.target, title=False)}, not "
            f"{target_label(drill, step, title=False)}")


def describe_citations(drill: Drill, cites: Iterable[str] | None, *, distractor_fields_compare: bool = False) -> str:
    """The citations in words, for scorecards, the debrief and the review: ``"e03 (evidence), e05 (a
    distractor)"``, or ``"no event"`` when nothing is cited (``distractor_fields_compare`` as
    :func:`judge_citations` has it)."""
    judged = judge_citations(drill, cites, distractor_fields_compare=distractor_fields_compare)
    if not judged:
        return "no event"
    return ", ".join(f"{event_id} ({CITED_LABELS[kind]})" for event_id, kind in judged)


def distractor_figures(
    drill: Drill, released: Iterable[str], escalation_cites: Iterable[Iterable[str] | None]
) -> tuple[int, list[str]]:
    """The distractor figures of one session (scoring rules version 2 records them in the scorecard, for the
    cohort statistics): how many of the drill's distractor events were ``released`` (trace event ids), and, per
    escalation (``escalation_cites``: the cited event ids of each escalation, in order), the first distractor event
    it cited (escalations that cite none add nothing)."""
    distractors = list(dict.fromkeys(d.event for d in drill.distractors))
    seen = set(released)
    shown = sum(1 for e in distractors if e in seen)
    pulled = []
    for cites in escalation_cites:
        judged = judge_citations(drill, cites)
        first = next((split_cite(c)[0] for c, kind in judged if kind is Cited.DISTRACTOR), None)
        if first is not None:
            pulled.append(first)
    return shown, pulled
