"""Verification probes (format 2): asking the executor to prove a plan step's result.

Some faults leave no evidence on screen until the damage (an edit reported as applied that changed nothing). A drill
may declare :class:`Probe` items in its top-level ``probes`` list: each verifies one plan step, says what the trainee
asks (``ask``, shown before it is requested), what the executor's verification shows (``reveals``, hidden until the
result comes in) and what it costs: ``seconds`` of drill time until the result appears and the executor call's
``usage`` (tokens, charged at the executor's prices).

In play (:meth:`warroom.core.play.Replay.probe`) a probe can be requested once an event of its plan step has been
released, once per session. Its result is released :attr:`Probe.seconds` later as an ``executor_message`` trace
event whose id is the probe's id (:func:`result_event`), so the trace table shows it and an escalation can cite it.
A probe whose id the answer key lists in ``evidence`` (or ``accepted_evidence``) *finds the fault*: its result is
evidence from the moment it is revealed. Every other probe is *needless* (scoring rules version 3 charge it).

Format 2: a probe's answer may depend on when it is asked (``answers``, :class:`ProbeAnswer`): asked before a
drill time or before a trace event is out, it gives an earlier answer ("pending, nothing paid yet"), which finds
nothing; only its own ``reveals`` finds the fault, from :func:`finds_from` on.

Pure functions of the drill; no Textual, no store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from warroom.core.model._agents import Usage
from warroom.core.model._events import ExecutorMessage
from warroom.core.model._evidence import detection_events
from warroom.core.model._fields import MAX_DRILL_SECONDS, TEXT_PATTERN, Identifier, Seconds, _Strict

#: Longest wait for a probe's result: one hour of drill time.
MAX_PROBE_SECONDS = 3600.0

ProbeSeconds = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_PROBE_SECONDS)]


class ProbeAnswer(_Strict):
    """What a probe answers when it is asked early (format 2): before a drill time (``until``) or before a trace
    event is out (``until_event``). An approval probe asked while the approval is still pending answers "pending,
    nothing paid yet", not the payout that has not happened."""

    until: Seconds | None = Field(
        default=None, description="This answer while the probe is asked before this drill time (seconds).")
    until_event: Identifier | None = Field(
        default=None,
        description="This answer while the probe is asked before this trace event is out (before its `t`).",
    )
    reveals: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What the verification shows when asked then, e.g. 'Approval A-17 is pending; nothing paid.'",
    )

    @model_validator(mode="after")
    def _one_end(self) -> ProbeAnswer:
        if (self.until is None) == (self.until_event is None):
            raise PydanticCustomError(
                "probe_answer_end", "a probe's earlier answer needs one of `until` (drill seconds) or `until_event` "
                "(a trace event id): the answer holds while the probe is asked before it")
        return self


class Probe(_Strict):
    """One verification the trainee may ask the executor for: what verifying a plan step would reveal, and its cost."""

    id: Identifier = Field(
        description=(
            "Unique id of the probe (not also a trace or re-plan event id): its result appears in the trace under "
            "this id, an escalation cites it, and the answer key lists it in `evidence` when it finds the fault."
        )
    )
    step: Identifier = Field(description="The plan step the probe verifies.")
    ask: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What the trainee asks the executor to prove, e.g. 'Show the diff of the file you edited.' "
        "(shown before the probe is requested).",
    )
    reveals: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What the executor's verification shows (hidden until the trainee requests the probe).",
    )
    seconds: ProbeSeconds = Field(
        description=(
            f"Seconds of drill time from the request to the result (more than 0, at most {MAX_PROBE_SECONDS:g}); "
            "the trace runs on meanwhile."
        )
    )
    usage: Usage = Field(
        description="Token usage of the executor call that verifies, charged at the executor's prices."
    )
    answers: list[ProbeAnswer] = Field(
        default_factory=list,
        description=(
            "Format 2: what the probe answers when asked early, in time order: asked before an answer's `until` "
            "(seconds) or `until_event` (a trace event not out yet), the first such answer's `reveals`; asked after "
            "all of them, the probe's own `reveals`. Only the probe's own answer finds the fault (when the answer "
            "key lists the probe): an earlier answer says nothing is wrong yet."
        ),
    )


def available_at(drill: Any, probe: Probe) -> float | None:
    """Drill time (seconds) from which ``probe`` can be requested: the first trace event of its plan step (None
    when the step has no trace event)."""
    return next((e.t for e in drill.trace if e.step == probe.step), None)


def answer_ends(drill: Any, answer: ProbeAnswer) -> float | None:
    """The drill time (seconds) at which an earlier answer stops applying: its ``until``, or the ``t`` of its
    ``until_event`` (None when there is no such trace event)."""
    if answer.until is not None:
        return answer.until
    return next((e.t for e in drill.trace if e.id == answer.until_event), None)


def ending_event(until: float, times: Sequence[float]) -> int | None:
    """The index in ``times`` (trace events' release times, in release order) of the event an earlier answer by time
    (``until``) holds until: the first released at or after ``until`` (one released at ``until`` is out when the
    answer stops applying, :func:`answer_at`); None when none is. A re-timing that moves that event moves the
    answer's ``until`` with it (``warroom project``'s reading window, a variant's jitter)."""
    return next((i for i, t in enumerate(times) if t >= until), None)


def answer_at(drill: Any, probe: Probe, t: float) -> ProbeAnswer | None:
    """The earlier answer ``probe`` gives when asked at drill time ``t`` (the first whose end is still ahead), or
    None when it gives its own ``reveals``."""
    for answer in probe.answers:
        end = answer_ends(drill, answer)
        if end is not None and t < end:
            return answer
    return None


def finds_from(drill: Any, probe: Probe) -> float | None:
    """The earliest drill time (seconds) at which asking ``probe`` gets its own ``reveals``: when its step has
    started (:func:`available_at`) and every earlier answer has ended. None when it can never be requested."""
    start = available_at(drill, probe)
    if start is None:
        return None
    ends = [end for a in probe.answers if (end := answer_ends(drill, a)) is not None]
    return max([start, *ends])


def earliest_result_at(drill: Any, probe: Probe) -> float | None:
    """The earliest drill time (seconds) the probe's own result can be on screen: :func:`finds_from` plus its
    ``seconds`` (None when it can never be requested). Capped at the drill clock's limit."""
    start = finds_from(drill, probe)
    return None if start is None else min(MAX_DRILL_SECONDS, start + probe.seconds)


def finding_probes(drill: Any) -> list[Probe]:
    """The probes that find the fault: those the answer key lists in ``evidence`` or ``accepted_evidence`` (none
    in an all-clear drill), in the order of ``probes``."""
    key = drill.answer_key
    if key is None:
        return []
    ids = set(_ids(key.evidence)) | {getattr(i, 'event', i) for i in key.accepted_evidence}
    return [p for p in getattr(drill, "probes", ()) or () if p.id in ids]


def earliest_evidence_at(drill: Any) -> float | None:
    """When the fault first became detectable (seconds of drill time; None in an all-clear drill or with no evidence
    the trainee could ever see): the earliest of the answer key's ``evidence`` items (each at the trace event that
    makes it visible, :func:`~warroom.core.model.detection_events`) and the earliest result
    (:func:`earliest_result_at`) of each probe listed in ``evidence``."""
    key = drill.answer_key
    if key is None:
        return None
    ids = set(_ids(key.evidence))
    # the events that make each evidence item visible (a comparison's last member: warroom.core.model._evidence)
    times = [e.t for _, e in detection_events(drill)]
    for probe in getattr(drill, "probes", ()) or ():
        if probe.id in ids:
            at = earliest_result_at(drill, probe)
            if at is not None:
                times.append(at)
    return min(times, default=None)


def _ids(items: Iterable[Any]) -> Iterable[str]:
    return (i for i in items if isinstance(i, str))


def result_event(probe: Probe, t: float, reveals: str | None = None) -> ExecutorMessage:
    """The probe's result as the trace event the trainee sees: an ``executor_message`` with the probe's id, released
    at drill time ``t`` (seconds) in the probe's plan step, carrying the executor's ``usage``. ``reveals``: the
    answer given (format 2: an earlier answer, :func:`answer_at`); default the probe's own."""
    content = f"{reveals or probe.reveals}\n\n(the verification you asked for: {probe.ask})"
    return ExecutorMessage(kind="executor_message", id=probe.id, t=t, step=probe.step, content=content,
                           usage=probe.usage)
