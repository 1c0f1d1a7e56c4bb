"""A session's :class:`~warroom.core.model.Outcome` and what each escalation did (:func:`escalation_verdict`), by an
:class:`~warroom.core.scoring._editions.Edition` of the scoring rules, and the sentences of a scorecard that explain
them (the outcome, each escalation's citations, each verification probe)."""

from __future__ import annotations

from warroom.core.model import (
    OUTCOME_LABELS,
    TARGET_LABELS,
    Drill,
    Outcome,
    PlayedAs,
    Response,
    accepted_ids,
    detection_events,
    evidence_ids,
    finding_probes,
    handoff_of,
    outcome_label,
    target_label,
)
from warroom.core.play import (
    EndReason,
    EscalationResult,
    EscalationVerdict,
    Replay,
    describe_citations,
    is_specific,
    is_supported,
)
from warroom.core.scoring._editions import SCORING_VERSION, Edition, edition_of
from warroom.core.text import seconds


def probe_lines(replay: Replay) -> list[str]:
    """One line per requested verification probe: when it was requested, when its result came (or that it had
    not come when the drill ended) and whether it found the fault (one that showed it in a session where nothing
    contained the incident says so, as the debrief does). Empty when none was requested."""
    lines = []
    for req in replay.probes.requests:
        p = req.probe
        shown = replay.probes.revealed.get(p.id)
        came = f"result at {seconds(shown)}" if shown is not None else "no result before the drill ended"
        found = "it found the fault" if req.finds else "it found nothing wrong"
        if req.finds and replay.contained_at is None:  # not "found" beside escalations that did not use it
            found = "its answer showed the fault, but no escalation contained it"
        lines.append(f"Probe {p.id} of step {p.step} requested at {seconds(req.requested_at)} ({came}): {found}.")
    return lines


def escalation_verdict(drill: Drill, result: EscalationResult, rules: str = SCORING_VERSION) -> EscalationVerdict:
    """What one escalation did by the scoring rules version ``rules``: the replay's verdict, except that a
    containment whose action cites no evidence or accepted event of ``drill`` is ``right step, unsupported`` when the
    edition judges citations (version 2 on). Raises ValueError for an unknown rules version."""
    return verdict_of(drill, result, edition_of(rules))


def verdict_of(drill: Drill, result: EscalationResult, edition: Edition) -> EscalationVerdict:
    """:func:`escalation_verdict` by an :class:`Edition`."""
    cites = result.action.cites
    if cites is not None and result.not_yet:  # format 2: a probe that answered "nothing wrong yet" shows nothing
        cites = tuple(c for c in cites if c not in result.not_yet)
    if result.contained and edition.cites_count and not supported(drill, cites, edition):
        return EscalationVerdict.UNSUPPORTED
    return result.verdict


def supported(drill: Drill, cites: tuple[str, ...] | None, edition: Edition) -> bool:
    """Whether an escalation citing ``cites`` on ``drill`` is supported by the ``edition``'s rules: it cites
    evidence (versions 2 and 3), and specifically (version 4: :func:`warroom.core.play.is_specific`; version 5
    counts an event once as evidence)."""
    if edition.max_cited or edition.min_citation_precision:
        return is_specific(
            drill, cites, min_precision=edition.min_citation_precision, max_cited=edition.max_cited,
            once_per_event=edition.evidence_event_once, distractor_fields_compare=edition.distractor_fields_compare,
        )
    return is_supported(drill, cites, distractor_fields_compare=edition.distractor_fields_compare)


def played_as(drill: Drill) -> PlayedAs:
    """What playing ``drill`` is as a trial: noise for a healthy run (an all-clear drill), signal for a fault."""
    return PlayedAs.NOISE if drill.is_all_clear else PlayedAs.SIGNAL


def response_of(replay: Replay, edition: Edition) -> Response:
    """The trial's :class:`~warroom.core.model.Response`, read from the first escalation of an ended ``replay``
    and nothing after it (see its docstring and docs/scoring.md, "The trial and its response")."""
    first = replay.escalations[0] if replay.escalations else None
    if replay.drill.is_all_clear:
        if first is not None:
            return Response.FALSE_ALARM
        return Response.ABANDONED if replay.end_reason is EndReason.ABANDONED else Response.CORRECT_REJECTION
    deadline = replay.deadline
    if first is None or (deadline is not None and first.action.t > deadline):
        return Response.MISS
    if first.contained and not first.late and verdict_of(replay.drill, first, edition) is EscalationVerdict.CONTAINED:
        return Response.HIT
    return Response.LOCALISATION_ERROR


def containing_escalation(replay: Replay) -> EscalationResult | None:
    return next((e for e in replay.escalations if e.contained), None)


def citation_lines(replay: Replay, edition: Edition) -> list[str]:
    """One line per escalation saying what it cited and what each cited event is (when the edition judges
    citations)."""
    if not edition.cites_count:
        return []
    lenient = edition.distractor_fields_compare
    return [
        f"Escalation of {_named(replay.drill, e.action.step)} at {seconds(e.action.t)} cited "
        f"{describe_citations(replay.drill, e.action.cites, distractor_fields_compare=lenient)}."
        for e in replay.escalations
    ]


def outcome_of(replay: Replay, edition: Edition) -> Outcome:
    if replay.drill.is_all_clear:
        if replay.end_reason is EndReason.ABANDONED:
            return Outcome.ABANDONED
        return Outcome.FALSE_ALARM if replay.escalations else Outcome.ALL_CLEAR_HELD
    containing = containing_escalation(replay)
    if containing is not None:
        if verdict_of(replay.drill, containing, edition) is EscalationVerdict.UNSUPPORTED:
            return Outcome.RIGHT_STEP_UNSUPPORTED
        return Outcome.CONTAINED_LATE if replay.contained_late else Outcome.CONTAINED
    if replay.end_reason is EndReason.ABANDONED:
        return Outcome.ABANDONED
    if any(e.after_evidence for e in replay.escalations):
        return Outcome.WRONG_STEP
    return Outcome.FALSE_ALARM if replay.escalations else Outcome.MISSED


def outcome_words(replay: Replay, outcome: Outcome, edition: Edition) -> str:
    """The outcome's label in a scorecard's lines: an escalation only before the evidence of a fault is an "early
    escalation" by version 4 (``edition.early_escalation``), a "false alarm" by versions 1 to 3."""
    if edition.early_escalation:
        return outcome_label(outcome.value, replay.drill.is_all_clear)
    return OUTCOME_LABELS[outcome]


def outcome_text(replay: Replay, outcome: Outcome, edition: Edition) -> str:
    drill = replay.drill
    key = drill.answer_key
    origin = _named(drill, key.fault.target) if key else ""
    # a step origin is "s2, the fault's origin step"; format 2's are "the plan, the fault's origin"
    what = "the fault's origin step" if key is None or key.fault.origin_step is not None else "the fault's origin"
    n = len(replay.escalations)
    if outcome is Outcome.CONTAINED:
        return (
            f"You escalated {origin}, {what}, at {seconds(replay.contained_at)}, "
            f"{seconds(replay.time_to_detect)} after the earliest evidence and before the deadline at "
            f"{seconds(replay.deadline)}."
        )
    if outcome is Outcome.CONTAINED_LATE:
        return (
            f"You escalated {origin}, {what}, at {seconds(replay.contained_at)}, after the deadline "
            f"at {seconds(replay.deadline)}; the damage done by then stands."
        )
    if outcome is Outcome.RIGHT_STEP_UNSUPPORTED:
        containing = containing_escalation(replay)
        cites = containing.action.cites if containing is not None else None
        shown = ", ".join(evidence_ids(key) + accepted_ids(key)) if key else ""
        return (
            f"You escalated {origin}, {what}, at {seconds(replay.contained_at)}, and the cascade "
            f"stopped; but you cited {_described(drill, cites, edition)}: nothing that shows the fault. The events "
            f"that do: {shown}. The right step with no evidence is a guess the scorecard cannot tell from luck."
        )
    if outcome is Outcome.WRONG_STEP:
        named = sorted({_named(drill, e.action.step) for e in replay.escalations if e.after_evidence and e.action.step})
        return (
            f"After the evidence appeared you escalated {', '.join(named)}, but the fault was in {origin}; "
            "the cascade ran on."
        )
    unseen = _probe_only_unseen(drill, replay)
    if outcome is Outcome.FALSE_ALARM and key is not None and unseen:
        return (
            f"You escalated {_times(n)}, but nothing in this session showed the fault: only {unseen} shows it, and "
            f"you never had that answer; an event that only follows from the fault does not make it detectable, so "
            f"{origin} was never named after the evidence and the cascade ran on."
        )
    if outcome is Outcome.FALSE_ALARM and key is not None:
        return (
            f"You escalated {_times(n)}, {'each time ' if n > 1 else ''}before any evidence of the fault had appeared, "
            f"and never named {origin} after it; the cascade ran on."
        )
    if outcome is Outcome.FALSE_ALARM:
        return f"The trace was healthy (an all-clear drill), but you escalated {_times(n)}."
    if outcome is Outcome.MISSED:
        return "Nobody escalated; the cascade ran to the end of the trace and did all its damage."
    if outcome is Outcome.ALL_CLEAR_HELD:
        return "The trace was healthy (an all-clear drill) and you rightly did not escalate."
    return f"You left the drill at {seconds(replay.end_time)}, before it ended."


def _described(drill: Drill, cites: tuple[str, ...] | None, edition: Edition) -> str:
    return describe_citations(drill, cites, distractor_fields_compare=edition.distractor_fields_compare)


def _probe_only_unseen(drill: Drill, replay: Replay) -> str:
    """In a drill whose fault only a probe shows (no trace event is evidence, nor, when the replay counts accepted
    evidence as detection (version 5 on), accepted evidence), when no probe's own answer showed it in this session:
    the probes that would have (``probe p1``), in words; else the empty text."""
    key = drill.answer_key
    probes = [p.id for p in finding_probes(drill) if p.id in evidence_ids(key)]
    if not probes or detection_events(drill) or any(r.finds for r in replay.probes.requests):
        return ""
    if replay.accepted_evidence_detects and any(i not in replay.probes.by_id for i in accepted_ids(key)):
        return ""  # an accepted symptom in the trace shows it too: "before any evidence" says it
    return " or ".join(f"probe {p}'s answer" for p in probes)


def _named(drill: Drill, step: str | None) -> str:
    """An escalation's step as scorecard lines name it: the step id, or "the plan" / "set-up", or (format 2) a
    handoff in words ("lead's handoff to refunder (h1)")."""
    if handoff_of(drill, step) is not None:
        return target_label(drill, step)
    return TARGET_LABELS.get(step or "", step or "-")


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"
