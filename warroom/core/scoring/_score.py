"""Scoring: a :class:`Scorecard` is a pure function of a drill and the trainee's action log.

:func:`score` re-runs a :class:`~warroom.core.play.Replay` over the action log (the clock is moved to each action's
``t`` and the action applied), so the replay's rules and the score can never disagree, and the same drill and log
give the same scorecard, always. A log without a ``quit`` is taken as played to the end of the trace; a ``quit``
before a containment or the end of the trace scores :attr:`Outcome.ABANDONED`.

The formula (docs/scoring.md has it with worked examples; :data:`SCORING_VERSION` names the current edition of it,
and :data:`EDITIONS` holds every edition this code still applies, for re-scoring stored sessions by their own rules,
with its point values and switches):

Faulted drill, total = outcome + speed + damage avoided - false escalations, clamped to 0..100:

- **Outcome** (max 50): contained 50, contained late 20, right step unsupported 10 (version 2: the containing
  escalation cited no evidence or accepted event; it gets no speed or damage points), wrong step / false alarm /
  missed / abandoned 0. Version 1 has no citations: every containment counts, whatever was cited.
- **Speed** (max 25, only when contained on time): ``25 x (1 - time_to_detect / window)``, where the window runs
  from the earliest evidence to the deadline (a window of 0 s gives 25).
- **Damage avoided** (max 25, only when contained, on time or late): ``25 x (1 - damage / full_damage)``.
- **False escalations**: minus 10 points each.
- **Needless probes** (version 3, drills with verification probes only): minus 2 points per requested probe that
  does not find the fault.

All-clear drill: outcome 100 when nobody escalated (all clear held), 50 for a false alarm, 0 when abandoned; minus
10 per false escalation; clamped to 0..100. An abandoned session scores 0 in either kind of drill.

Each component is rounded half up to a whole number of points before they are added.

The parts live in their own modules of :mod:`warroom.core.scoring`: the editions of the rules (``_editions``), the
scorecard model (``_scorecard``), the outcome and verdicts (``_outcome``) and the points components (``_points``).
This module re-runs the log and puts the scorecard together.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from warroom.core.model import (
    RESPONSE_LABELS,
    Action,
    ActionKind,
    Drill,
    Outcome,
    PlayedAs,
    Response,
    Role,
)
from warroom.core.play import EscalationResult, EscalationVerdict, Replay, ReplayError, distractor_figures
from warroom.core.scoring._editions import SCORING_VERSION, Edition, edition_of
from warroom.core.scoring._outcome import (
    citation_lines,
    outcome_of,
    outcome_text,
    outcome_words,
    played_as,
    probe_lines,
    response_of,
    verdict_of,
)
from warroom.core.scoring._points import (
    all_clear_components,
    component_line,
    fault_components,
    probe_component,
)
from warroom.core.scoring._scorecard import (
    MAX_TOTAL,
    Component,
    Scorecard,
    ScoringError,
)
from warroom.core.text import seconds, usd

# ---------------------------------------------------------------------------------------------------------------
# Re-running the log
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionResult:
    """What one action of a re-run log did: the ``action``, the trace (or re-plan) events ``released`` by moving
    the drill clock to its time and by the action itself (in order), and for an escalation its
    :class:`~warroom.core.play.EscalationResult` (``escalation``) and what it did by the scoring rules the log
    was re-run with (``verdict``)."""

    action: Action
    released: list[Any]
    escalation: EscalationResult | None = None
    unsupported: bool = False

    @property
    def verdict(self) -> EscalationVerdict | None:
        """What an escalation did (None for any other action): the replay's verdict, or ``right step,
        unsupported`` for a containment that cited no evidence under rules version 2."""
        if self.escalation is None:
            return None
        return EscalationVerdict.UNSUPPORTED if self.unsupported else self.escalation.verdict


def replay_actions(
    drill: Drill, actions: Iterable[Action], *, play_to_end: bool = True, rules: str = SCORING_VERSION
) -> tuple[Replay, list[ActionResult]]:
    """Re-run ``actions`` (an action log, in order) on a fresh :class:`Replay` of ``drill``: the one place a log is
    applied to a drill (scoring, recovery of killed sessions and the after-action review all use it).

    For each action the drill clock is moved to the action's ``t`` (seconds of drill time) and the action applied
    through the Replay's own method; then, with ``play_to_end`` (the default) and unless the drill has ended, the
    drill is played to its end. The events released after the last action are in ``replay.released`` (every released
    event is, in order).

    ``rules`` (an edition of :data:`SCORING_VERSIONS`) decides each escalation's ``verdict`` and what makes the
    fault detectable (version 5 on: accepted evidence too, the Replay's ``accepted_evidence_detects``). Returns
    ``(replay, results)``, one :class:`ActionResult` per action. Raises :class:`ScoringError` when an action
    cannot apply (see there), naming the action, and ValueError for an unknown ``rules``.
    """
    edition = edition_of(rules)
    replay = Replay(
        drill,
        accepted_evidence_detects=edition.accepted_evidence_detects,
        cited_fields_checked=edition.cited_fields_checked,
    )
    replay.advance_to(0.0)
    results: list[ActionResult] = []
    for i, action in enumerate(actions, start=1):
        where = f"action {i} ({action.kind.value} at {seconds(action.t)})"
        if action.t < replay.now:
            raise ScoringError(f"{where} comes before the drill clock ({seconds(replay.now)})", i)
        try:
            released = replay.advance_to(action.t)
            escalation = _apply(replay, action)
        except (ReplayError, ValueError) as exc:
            raise ScoringError(f"{where}: {exc}", i) from None
        unsupported = False
        if escalation is not None:
            released = released + escalation.released
            unsupported = verdict_of(drill, escalation, edition) is EscalationVerdict.UNSUPPORTED
        results.append(ActionResult(action, released, escalation, unsupported))
    if play_to_end:
        replay.run_to_end()
    return replay, results


def _apply(replay: Replay, action: Action) -> EscalationResult | None:
    kind = action.kind
    if kind is ActionKind.INSPECT:
        replay.inspect(_need(action.event, action, "event"))
    elif kind is ActionKind.FLAG:
        replay.flag(_need(action.event, action, "event"), action.note)
    elif kind is ActionKind.UNFLAG:
        replay.unflag(_need(action.event, action, "event"))
    elif kind is ActionKind.ESCALATE:
        return replay.escalate(_need(action.step, action, "step"), action.note or "", action.cites)
    elif kind is ActionKind.PAUSE:
        replay.pause()
    elif kind is ActionKind.RESUME:
        replay.resume()
    elif kind is ActionKind.SPEED:
        replay.set_speed(_need(action.speed, action, "speed"))
    elif kind is ActionKind.QUIT:
        replay.quit()
    elif kind is ActionKind.PROBE:
        replay.probe(_need(action.probe, action, "probe"))
    else:  # pragma: no cover - ActionKind is closed
        raise ReplayError(f"unknown action kind {kind!r}")
    return None


def _need(value: Any, action: Action, name: str) -> Any:
    if value is None:
        raise ReplayError(f"a {action.kind.value} action needs a {name}")
    return value


# ---------------------------------------------------------------------------------------------------------------
# The score
# ---------------------------------------------------------------------------------------------------------------


def score(drill: Drill, actions: Iterable[Action], *, rules: str = SCORING_VERSION) -> Scorecard:
    """The :class:`Scorecard` of ``actions`` (an action log, in order) played on ``drill``, by the edition
    ``rules`` of the scoring rules (default the current one; :data:`SCORING_VERSIONS` lists them).

    Pure and deterministic. Raises :class:`ScoringError` when the log cannot be replayed on this drill, ValueError
    for an unknown ``rules``.
    """
    replay, _ = replay_actions(drill, list(actions), rules=rules)
    return scorecard_of(replay, rules=rules)


def scorecard_of(replay: Replay, *, rules: str = SCORING_VERSION) -> Scorecard:
    """The scorecard of an ended :class:`Replay` (what :func:`score` computes after re-running the log), by the
    edition ``rules`` of the scoring rules.

    Raises ValueError when the replay has not ended, was played by another edition's replay rules (whether
    accepted evidence makes the fault detectable: re-run the log with :func:`score` instead) or ``rules`` is
    unknown."""
    edition = edition_of(rules)
    _check_scorable(replay, edition)
    drill = replay.drill
    outcome = outcome_of(replay, edition)
    if drill.is_all_clear:
        components = all_clear_components(replay, outcome, edition)
    else:
        components = fault_components(replay, outcome, edition, outcome_words(replay, outcome, edition))
    if drill.probes and edition.probes_count:
        components.append(probe_component(replay, edition))
    raw = sum(c.points for c in components)
    total = 0 if outcome is Outcome.ABANDONED else max(0, min(MAX_TOTAL, raw))
    text = outcome_text(replay, outcome, edition)
    lines = [f"Outcome: {outcome_words(replay, outcome, edition)}. {text}"]
    lines += citation_lines(replay, edition)
    lines += probe_lines(replay)
    lines += [component_line(c) for c in components]
    lines.append(_total_line(components, outcome, raw, total))
    cost = replay.cost
    lines.append(_cost_line(replay) + ". Cost is shown for information; it is not part of the total.")
    trial, response = _trial(replay, edition)
    if trial is not None and response is not None:
        lines.append(_trial_line(trial, response))
    lines.append(f"Scoring rules version {edition.version} (docs/scoring.md).")
    shown, pulled = _distractor_figures(replay, edition)
    return Scorecard(
        drill_id=drill.id,
        scoring_version=edition.version,
        outcome=outcome,
        outcome_text=text,
        total=total,
        components=components,
        # An unsupported containment showed no detection, so it has no time to detect.
        time_to_detect=None if outcome is Outcome.RIGHT_STEP_UNSUPPORTED else replay.time_to_detect,
        damage=replay.damage,
        full_damage=replay.full_damage,
        damage_unit=replay.damage_unit,
        false_escalations=replay.false_escalations,
        cost_usd=round(cost.usd, 10),
        lines=lines,
        drill_version=drill.version,
        first_evidence_at=replay.first_evidence_time,
        deadline=replay.deadline,
        contained_at=replay.contained_at,
        end_time=replay.end_time,
        escalation_count=len(replay.escalations),
        replan_usd=round(cost.replan_usd, 10),
        cost_by_role={r.value: round(v, 10) for r, v in cost.usd_by_role.items()},
        distractors_shown=shown,
        distractor_escalations=pulled,
        played_as=trial,
        response=response,
    )


def _check_scorable(replay: Replay, edition: Edition) -> None:
    """Raise ValueError when ``replay`` has not ended or was played by other replay rules than ``edition``'s."""
    if not replay.ended:
        raise ValueError("the drill has not ended yet; play it to the end (Replay.run_to_end) before scoring")
    if replay.accepted_evidence_detects is not edition.accepted_evidence_detects:
        raise ValueError(f"this replay was not played by the replay rules of scoring rules version {edition.version}"
                         " (accepted evidence makes the fault detectable from version 5); score its action log")


def _trial(replay: Replay, edition: Edition) -> tuple[PlayedAs | None, Response | None]:
    """What the session was as a trial and its response, when the edition records them (version 4 on)."""
    if not edition.records_response:
        return None, None
    return played_as(replay.drill), response_of(replay, edition)


def _distractor_figures(replay: Replay, edition: Edition) -> tuple[int, list[str]]:
    """The scorecard's distractor figures, when the edition records them (version 2 on; else 0 and [])."""
    if not edition.distractor_figures:
        return 0, []
    cites = (r.action.cites for r in replay.escalations)
    return distractor_figures(replay.drill, (e.id for e in replay.released), cites)


def _trial_line(trial: PlayedAs, response: Response) -> str:
    """The scorecard's sentence on the trial: what it was and its response (the statistics read these)."""
    what = "a signal trial (the drill's fault)" if trial is PlayedAs.SIGNAL else "a noise trial (a healthy run)"
    return f"Trial: {what}; response (from the first escalation): {RESPONSE_LABELS[response]}."


def _total_line(components: list[Component], outcome: Outcome, raw: int, total: int) -> str:
    parts = " + ".join(f"({c.points})" if c.points < 0 else str(c.points) for c in components)
    if outcome is Outcome.ABANDONED:
        return f"Total: 0 of {MAX_TOTAL} (an abandoned session scores 0)."
    if raw != total:
        return f"Total: {parts} = {raw}, clamped to 0..{MAX_TOTAL}: {total} of {MAX_TOTAL}."
    return f"Total: {parts} = {total} of {MAX_TOTAL}."


def _cost_line(replay: Replay) -> str:
    cost = replay.cost
    planner_usd = cost.usd_by_role[Role.PLANNER]
    executor_usd = cost.usd_by_role[Role.EXECUTOR]
    cost_line = (
        f"Cost of the agent's model calls in this session: {usd(cost.usd)} "
        f"(planner {usd(planner_usd)}, executor {usd(executor_usd)}; {cost.tokens:,} tokens)"
    )
    if cost.replan_calls:
        cost_line += (
            f", including {cost.replan_calls} planner re-plan call{'s' if cost.replan_calls != 1 else ''} for false "
            f"escalations ({usd(cost.replan_usd)})"
        )
    return cost_line
