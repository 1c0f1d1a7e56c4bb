"""How a session ended (:class:`Outcome`) and what it was as a trial of detection (:class:`PlayedAs`,
:class:`Response`), with no heavy imports (the results store's summaries use it without
loading the drill model). :mod:`warroom.core.scoring._score` decides the outcome of a session."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How a session ended, in the order the scorecard ranks them (outcome first).

    ``right_step_unsupported`` (scoring rules version 2) is the outcome of a session whose escalation named the
    fault's origin step after the evidence appeared, which stopped the cascade, but cited no event that shows the
    fault (only distractors, events that show nothing, or nothing at all): the right step, for no shown reason. It
    does not count as contained (:data:`CONTAINED_OUTCOMES`).

    ``false_alarm`` is the stored value of two outcomes: a session that escalated in an all-clear drill (a noise
    trial), the only one called a false alarm, and a session of a drill with a fault that escalated, but only
    before any evidence appeared, shown as an **early escalation** (:func:`outcome_label`; scoring rules 1 to 3
    called it a false alarm too). Any escalation that does not contain the incident is a *false escalation* (counted
    in every outcome's ``false_escalations``).
    """

    CONTAINED = "contained"
    CONTAINED_LATE = "contained_late"
    RIGHT_STEP_UNSUPPORTED = "right_step_unsupported"
    WRONG_STEP = "wrong_step"
    FALSE_ALARM = "false_alarm"
    MISSED = "missed"
    ALL_CLEAR_HELD = "all_clear_held"
    ABANDONED = "abandoned"


#: Outcomes that count as containing the incident (on time or late).
CONTAINED_OUTCOMES: frozenset[Outcome] = frozenset({Outcome.CONTAINED, Outcome.CONTAINED_LATE})

#: A short label for each outcome, for tables and headings (the raw ``Outcome`` value is for CSV, JSON and
#: the store).
OUTCOME_LABELS: dict[Outcome, str] = {o: o.value.replace("_", " ") for o in Outcome} | {
    Outcome.RIGHT_STEP_UNSUPPORTED: "right step, unsupported"}


#: The label of :attr:`Outcome.FALSE_ALARM` in a drill with a fault: an escalation made only before the evidence.
EARLY_ESCALATION = "early escalation"


def outcome_label(outcome: str, all_clear: bool | None = None) -> str:
    """The label of an outcome value (``contained late`` for ``contained_late``), an unknown value as it is.

    ``false_alarm`` in a drill with a fault (``all_clear`` False) reads ``early escalation``: "false alarm" means
    only an escalation on a noise trial (docs/scoring.md, "The outcome"); the stored value is the same for both,
    so that every stored session, whichever rules scored it, reads alike. ``all_clear`` None: not known (the
    plain label)."""
    if outcome == Outcome.FALSE_ALARM.value and all_clear is False:
        return EARLY_ESCALATION
    try:
        return OUTCOME_LABELS[Outcome(outcome)]
    except ValueError:
        return outcome


class PlayedAs(StrEnum):
    """What a session was as a trial of detection (docs/scoring.md, "The trial and its response"): a **signal**
    trial played a drill with its fault; a **noise** trial played a healthy run (an all-clear drill, or a fault
    drill's healthy twin), a control."""

    SIGNAL = "signal"
    NOISE = "noise"


#: What the debrief and the after-action review say of a session of a drill with a twin, by what it played as
#: (docs/authoring.md, "Twins: signal and noise trials"); nothing before the debrief says it.
TRIAL_SENTENCES: dict[PlayedAs, str] = {
    PlayedAs.SIGNAL: (
        "This session was a signal trial: the drill's fault was in the trace. (Some sessions of this drill play its "
        "healthy twin instead, a noise trial, and nothing before the debrief says which.)"
    ),
    PlayedAs.NOISE: (
        "This session was a noise trial: the agent did nothing wrong. It played this drill's healthy twin, the same "
        "incident without its fault, so the right call was to hold the all clear."
    ),
}


def signal_only_sentence(noise_rate: float) -> str:
    """What the debrief says of a signal trial of a drill with a twin played in a drill set that never plays a twin
    (its ``noise_rate`` rounds to 0 in 1000, as the draw does: docs/drill-sets.md), the rate shown as the set has it
    (``0.0004``, never a rounded ``0`` that contradicts the set)."""
    rate = "0" if noise_rate == 0 else f"{noise_rate:.15g}, which rounds to 0 in the 1,000 draws"
    return (f"This session was a signal trial: the drill's fault was in the trace. (In this drill set (noise_rate "
            f"{rate}) every session of this drill plays its fault: its healthy twin is never played.)")


class Response(StrEnum):
    """The trial's response, read from the trainee's **first** escalation and nothing after it (scoring rules
    version 4; docs/scoring.md, "The trial and its response"):

    - a signal trial: ``hit`` when the first escalation names the fault's origin after the fault became detectable,
      at or before the deadline, citing specific evidence; ``localisation_error`` when the first escalation, at or
      before the deadline, is anything else (another target, before the evidence, or the origin without specific
      evidence); ``miss`` when there is no escalation at or before the deadline (none at all, or the first one too
      late);
    - a noise trial: ``false_alarm`` when there is any escalation; ``correct_rejection`` when there is none and the
      trace played to its end; ``abandoned`` when the trainee left before the end without escalating (not a correct
      rejection).
    """

    HIT = "hit"
    MISS = "miss"
    LOCALISATION_ERROR = "localisation_error"
    FALSE_ALARM = "false_alarm"
    CORRECT_REJECTION = "correct_rejection"
    ABANDONED = "abandoned"


#: A short label for each response, for tables and headings.
RESPONSE_LABELS: dict[Response, str] = {r: r.value.replace("_", " ") for r in Response}
