"""The scoring rules per edition (:data:`SCORING_VERSIONS`): which editions exist, what an escalation did by each
(:func:`escalation_verdict`), a session's :class:`~warroom.core.model.Outcome` and the sentences that explain it."""

from __future__ import annotations

from warroom.core.model import TARGET_LABELS, Drill, Outcome, evidence_ids
from warroom.core.play import EndReason, EscalationResult, EscalationVerdict, Replay, describe_citations, is_supported
from warroom.core.text import seconds

#: The edition of the scoring rules; a scorecard records the one it was computed with. Bump on any rule change.
#: Version 2: an escalation cites the events that show the fault; a containment that cites none of the evidence
#: (or of the events the author accepts) is "right step, unsupported".
#: Version 3: a requested verification probe that does not find the fault costs points (format 2 probes).
SCORING_VERSION = "3"
#: Every edition of the rules :func:`score` can apply, oldest first (version 1: no citations).
SCORING_VERSIONS: tuple[str, ...] = ("1", "2", "3")


def check_rules(rules: str) -> str:
    """``rules`` when it is an edition of the scoring rules this code applies (:data:`SCORING_VERSIONS`); raises
    ValueError naming the known editions otherwise."""
    if rules not in SCORING_VERSIONS:
        raise ValueError(
            f"scoring rules version {rules!r} is not known to this warroom (it applies {', '.join(SCORING_VERSIONS)})"
        )
    return rules


def cites_count(rules: str) -> bool:
    """True when the scoring rules edition ``rules`` judges what an escalation cites (version 2 on)."""
    return check_rules(rules) != "1"


def probes_count(rules: str) -> bool:
    """True when the scoring rules edition ``rules`` charges needless verification probes (version 3 on)."""
    return check_rules(rules) not in ("1", "2")


def probe_lines(replay: Replay) -> list[str]:
    """One line per requested verification probe: when it was requested, when its result came (or that it had
    not come when the drill ended) and whether it found the fault. Empty when none was requested."""
    lines = []
    for req in replay.probes.requests:
        p = req.probe
        shown = replay.probes.revealed.get(p.id)
        came = f"result at {seconds(shown)}" if shown is not None else "no result before the drill ended"
        found = "it found the fault" if req.finds else "it found nothing wrong"
        lines.append(f"Probe {p.id} of step {p.step} requested at {seconds(req.requested_at)} ({came}): {found}.")
    return lines


def escalation_verdict(drill: Drill, result: EscalationResult, rules: str = SCORING_VERSION) -> EscalationVerdict:
    """What one escalation did by the scoring rules ``rules``: the replay's verdict, except that a containment whose
    action cites no evidence or accepted event of ``drill`` is ``right step, unsupported`` from version 2 on.
    Raises ValueError for an unknown rules version."""
    if result.contained and cites_count(rules) and not is_supported(drill, result.action.cites):
        return EscalationVerdict.UNSUPPORTED
    return result.verdict


def containing_escalation(replay: Replay) -> EscalationResult | None:
    return next((e for e in replay.escalations if e.contained), None)


def citation_lines(replay: Replay, rules: str) -> list[str]:
    """One line per escalation saying what it cited and what each cited event is (rules version 2 on)."""
    if not cites_count(rules):
        return []
    return [
        f"Escalation of {_named(e.action.step)} at {seconds(e.action.t)} cited "
        f"{describe_citations(replay.drill, e.action.cites)}."
        for e in replay.escalations
    ]


def outcome_of(replay: Replay, rules: str) -> Outcome:
    if replay.drill.is_all_clear:
        if replay.end_reason is EndReason.ABANDONED:
            return Outcome.ABANDONED
        return Outcome.FALSE_ALARM if replay.escalations else Outcome.ALL_CLEAR_HELD
    containing = containing_escalation(replay)
    if containing is not None:
        if escalation_verdict(replay.drill, containing, rules) is EscalationVerdict.UNSUPPORTED:
            return Outcome.RIGHT_STEP_UNSUPPORTED
        return Outcome.CONTAINED_LATE if replay.contained_late else Outcome.CONTAINED
    if replay.end_reason is EndReason.ABANDONED:
        return Outcome.ABANDONED
    if any(e.after_evidence for e in replay.escalations):
        return Outcome.WRONG_STEP
    return Outcome.FALSE_ALARM if replay.escalations else Outcome.MISSED


def outcome_text(replay: Replay, outcome: Outcome) -> str:
    drill = replay.drill
    key = drill.answer_key
    origin = _named(key.fault.target) if key else ""
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
        shown = ", ".join(evidence_ids(key) + key.accepted_evidence) if key else ""
        return (
            f"You escalated {origin}, {what}, at {seconds(replay.contained_at)}, and the cascade "
            f"stopped; but you cited {describe_citations(drill, cites)}: nothing that shows the fault. The events "
            f"that do: {shown}. The right step with no evidence is a guess the scorecard cannot tell from luck."
        )
    if outcome is Outcome.WRONG_STEP:
        named = sorted({_named(e.action.step) for e in replay.escalations if e.after_evidence and e.action.step})
        return (
            f"After the evidence appeared you escalated {', '.join(named)}, but the fault was in {origin}; "
            "the cascade ran on."
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


def _named(step: str | None) -> str:
    """An escalation's step as scorecard lines name it: the step id, or "the plan" / "set-up"."""
    return TARGET_LABELS.get(step or "", step or "-")


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"
