"""What an escalation cites, judged by the answer key (scoring rules version 2).

An escalation names a plan step and cites the trace events that show the fault (``Action.cites``). Each cited event
is, by the drill's answer key:

- ``evidence``: listed in ``answer_key.evidence`` (format 2: an event of a comparison, ``all_of``, only when the
  escalation cites every event of it; cited alone it is ``part``);
- ``accepted``: listed in ``answer_key.accepted_evidence`` (further events the author accepts as showing the fault);
- ``distractor``: one of the drill's ``distractors`` (odd-looking but harmless);
- ``irrelevant``: any other event (it shows nothing about the fault).

An escalation is *supported* when it cites at least one evidence or accepted event (scoring rules versions 2 and
3); version 4 also asks that the citation be *specific* (:func:`is_specific`): most of what it cites is evidence or
accepted, and it cites at most a few events. In an all-clear drill nothing is evidence. Pure functions of the drill; no
Textual, no store.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from warroom.core.model import Drill, refs


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


def cited_kind(drill: Drill, event_id: str, cites: Iterable[str] | None = None) -> Cited:
    """What the event ``event_id`` is when cited in an escalation on ``drill`` (an unknown id is irrelevant), among
    the events ``cites`` (the escalation's citations): an event of a comparison (format 2's ``all_of``) is evidence
    only when every event of the comparison is cited, else :attr:`Cited.PART`. Without ``cites`` it is judged as
    cited alone."""
    key = drill.answer_key
    if key is not None:
        items = [ref for ref in refs(key) if event_id in ref.events]
        if items:
            cited = set(cites or ()) | {event_id}
            return Cited.EVIDENCE if any(all(e in cited for e in ref.events) for ref in items) else Cited.PART
        if event_id in key.accepted_evidence:
            return Cited.ACCEPTED
    if any(d.event == event_id for d in drill.distractors):
        return Cited.DISTRACTOR
    return Cited.IRRELEVANT


def judge_citations(drill: Drill, cites: Iterable[str] | None) -> list[tuple[str, Cited]]:
    """Each cited event id (in the order cited; None, a log from before citations, cites nothing) with its kind, as
    :func:`cited_kind` judges it (the answer key read once for all of them: an escalation may cite hundreds)."""
    cited = list(cites or ())
    if len(cited) < 2:
        return [(event_id, cited_kind(drill, event_id, cited)) for event_id in cited]
    key = drill.answer_key
    items = refs(key) if key is not None else []
    by_event: dict[str, list[Any]] = {}
    for ref in items:
        for event_id in ref.events:
            by_event.setdefault(event_id, []).append(ref)
    accepted = set(key.accepted_evidence) if key is not None else set()
    distractors = {d.event for d in drill.distractors}
    cited_set = set(cited)
    out = []
    for event_id in cited:
        if event_id in by_event:
            whole = any(all(e in cited_set for e in ref.events) for ref in by_event[event_id])
            kind = Cited.EVIDENCE if whole else Cited.PART
        elif event_id in accepted:
            kind = Cited.ACCEPTED
        else:
            kind = Cited.DISTRACTOR if event_id in distractors else Cited.IRRELEVANT
        out.append((event_id, kind))
    return out


def is_supported(drill: Drill, cites: Iterable[str] | None) -> bool:
    """True when ``cites`` holds at least one evidence item (every event of a comparison) or accepted event of
    ``drill``."""
    return any(kind in SUPPORTING for _, kind in judge_citations(drill, cites))


def citation_precision(drill: Drill, cites: Iterable[str] | None) -> float:
    """The share of the cited events (distinct ids) that are evidence or accepted evidence of ``drill`` (the events
    of a comparison count when the comparison is cited whole); 0.0 when nothing is cited."""
    judged = dict(judge_citations(drill, dict.fromkeys(cites or ())))
    if not judged:
        return 0.0
    return sum(1 for kind in judged.values() if kind in SUPPORTING) / len(judged)


def is_specific(drill: Drill, cites: Iterable[str] | None, *, min_precision: float, max_cited: int) -> bool:
    """True when ``cites`` supports an escalation on ``drill`` (:func:`is_supported`) **and** is specific: at
    least ``min_precision`` of the distinct cited events are evidence or accepted evidence, and at most
    ``max_cited`` distinct events are cited (0: no limit). Citing everything released, or every flagged event, is
    not specific."""
    cited = list(dict.fromkeys(cites or ()))
    if max_cited and len(cited) > max_cited:
        return False
    return is_supported(drill, cited) and citation_precision(drill, cited) >= min_precision


def describe_citations(drill: Drill, cites: Iterable[str] | None) -> str:
    """The citations in words, for scorecards, the debrief and the review: ``"e03 (evidence), e05 (a
    distractor)"``, or ``"no event"`` when nothing is cited."""
    judged = judge_citations(drill, cites)
    if not judged:
        return "no event"
    return ", ".join(f"{event_id} ({CITED_LABELS[kind]})" for event_id, kind in judged)


__all__ = [
    "CITED_LABELS",
    "SUPPORTING",
    "Cited",
    "citation_precision",
    "cited_kind",
    "describe_citations",
    "distractor_figures",
    "is_specific",
    "is_supported",
    "judge_citations",
]


def distractor_figures(
    drill: Drill, released: Iterable[str], escalation_cites: Iterable[Iterable[str] | None]
) -> tuple[int, list[str]]:
    """The distractor figures of one session (scoring rules version 2 records them in the scorecard, for the
    cohort statistics): how many of the drill's distractor events were ``released`` (trace event ids), and, per
    escalation (``escalation_cites``: the cited event ids of each escalation, in order), the first distractor event
    it cited (escalations that cite none add nothing)."""
    distractors = [d.event for d in drill.distractors]
    seen = set(released)
    shown = sum(1 for e in distractors if e in seen)
    pulled = []
    for cites in escalation_cites:
        first = next((c for c in cites or () if c in distractors), None)
        if first is not None:
            pulled.append(first)
    return shown, pulled
