"""The after-action review of a stored session, as plain data: the whole trace with the answer key and the trainee's
actions marked where they happened. No Textual here; :mod:`warroom.tui.review` renders it.

The session's action log is re-run on a :class:`~warroom.core.play.Replay` of the drill (the same way
:func:`warroom.core.scoring.score` does), so the review shows exactly what the trainee saw: the events released, in
order, with the re-plan after a containment, the escalations and flags placed between the events they followed
(a false escalation followed by the planner's re-plan and the drill clock's jump), the deadline where its time
falls, and the trace events that never played (stopped by the containment or the quit) listed after them in time
order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.model import (
    Action,
    ActionKind,
    Drill,
    TraceEvent,
    accepted_ids,
    damage_per_event,
    detection_events,
    evidence_ids,
    target_label,
)
from warroom.core.text import damage as fmt_damage
from warroom.core.text import plural, seconds

if TYPE_CHECKING:
    from warroom.core.play import EscalationResult
    from warroom.store.results import ResultsStore, StoredSession

#: Action kinds shown as rows of their own (inspections mark their event's row; playback changes are not shown).
ACTION_ROW_KINDS = (ActionKind.FLAG, ActionKind.ESCALATE, ActionKind.QUIT, ActionKind.PROBE)


@dataclass
class ReviewRow:
    """One row of the review rows.

    ``kind`` is ``"event"`` (a trace or re-plan event, ``event`` set), ``"action"`` (a trainee action, ``action``
    set), ``"replan"`` (the planner's re-plan after a false escalation and the drill clock's jump, ``action`` the
    escalation) or ``"marker"`` (the deadline). ``t`` is seconds of drill time. ``key`` lists the answer-key marks
    (``fault step``, ``evidence``, ``earliest evidence``, ``cascade``, ``damage …``, ``distractor``, ``re-plan``);
    ``trainee`` the trainee's marks (``inspected``, ``flagged``, ``cited``; for an escalation its verdict and what
    each cited event is: ``cited e04 (evidence)``, ``cited e07 (distractor)``, ``cited nothing``). ``played`` is
    False for trace events that were never released in the session.
    """

    kind: str
    t: float
    event: TraceEvent | None = None
    action: Action | None = None
    key: list[str] = field(default_factory=list)
    trainee: list[str] = field(default_factory=list)
    played: bool = True
    text: str = ""

    @property
    def is_trainee_action(self) -> bool:
        """True for a row of a trainee's flag, escalation or quit."""
        return self.kind == "action"


@dataclass
class ReviewRows:
    """The review rows in order, and what could not be reconstructed (``warning``, or None)."""

    rows: list[ReviewRow]
    contained_at: float | None = None
    warning: str | None = None



def _event_marks(drill: Drill, event: TraceEvent, replan_ids: set[str], first_evidence: str | None) -> list[str]:
    marks: list[str] = []
    key = drill.answer_key
    if event.id in replan_ids:
        marks.append("re-plan")
    if key is not None:
        if event.step is not None and event.step == key.fault.origin_step and event.id not in replan_ids:
            marks.append("fault step")
        if event.id == key.fault.origin_event:  # format 2: the plan's or the set-up's origin event
            marks.append(f"fault origin ({target_label(drill, key.fault.target)})")
        if event.id in evidence_ids(key):
            marks.append("evidence")
            if event.id == first_evidence:
                marks.append("earliest evidence")
        if event.step is not None and event.step in key.cascade and event.id not in replan_ids:
            marks.append("cascade")
        damage = damage_per_event(drill).get(event.id)  # format 2: a spend call's cost too
        if damage:
            marks.append(f"damage {fmt_damage(damage, key.damage.unit)}")
    fields = [d.path for d in drill.distractors if d.event == event.id and d.path is not None]
    if any(d.event == event.id and d.path is None for d in drill.distractors):
        marks.append("distractor")
    marks += [f"distractor field {path}" for path in fields]  # format 2: a field of the event
    return marks


def _first_evidence(drill: Drill) -> str | None:
    """The id of the earliest evidence event of ``drill`` (None: no answer key, or no evidence in the trace)."""
    key = drill.answer_key
    if key is None:
        return None
    ev = [e for _, e in detection_events(drill)]
    return min(ev, key=lambda e: e.t).id if ev else None


def _inspected_and_flagged(actions: list[Action]) -> tuple[dict[str, float], dict[str, str | None]]:
    """From an action log: when each event was first inspected (event id -> drill seconds), and the events still
    flagged at the end (event id -> the flag's note)."""
    inspected: dict[str, float] = {}
    flagged: dict[str, str | None] = {}
    for a in actions:
        if a.kind is ActionKind.INSPECT and a.event:
            inspected.setdefault(a.event, a.t)
        elif a.kind is ActionKind.FLAG and a.event:
            flagged[a.event] = a.note
        elif a.kind is ActionKind.UNFLAG and a.event:
            flagged.pop(a.event, None)
    return inspected, flagged


def build_review_rows(drill: Drill, actions: list[Action], rules: str | None = None) -> ReviewRows:
    """The review rows of ``actions`` (a session's action log) on ``drill``, each escalation's verdict by the
    scoring rules ``rules`` (the session's; unknown or None: the current rules).

    Never raises for a log that does not fit the drill (e.g. the drill file was edited since the session): the
    trace is then shown in drill-time order with the actions placed by their time, and ``warning`` says why.
    """
    key = drill.answer_key
    replan_ids = {e.id for e in key.replan} if key else set()
    first_evidence = _first_evidence(drill)
    released, contained_at, verdicts, escalations, warning = _replayed(drill, actions, rules)

    inspected, flagged = _inspected_and_flagged(actions)
    cited = {c for a in actions if a.kind is ActionKind.ESCALATE for c in a.cites or ()}

    def event_row(ev: TraceEvent, played: bool) -> ReviewRow:
        marks = []
        if ev.id in inspected:
            marks.append(f"inspected at {seconds(inspected[ev.id])}")
        if ev.id in flagged:
            marks.append("flagged")
        if ev.id in cited:
            marks.append("cited")
        return ReviewRow(
            kind="event",
            t=ev.t,
            event=ev,
            key=_event_marks(drill, ev, replan_ids, first_evidence),
            trainee=marks,
            played=played,
        )

    played = [(ev.t, 0, n, 0, event_row(ev, True)) for n, ev in enumerate(released)]
    played += _action_rows(drill, actions, verdicts, escalations, _compares_distractor_fields(rules))
    end = max((x[0] for x in played), default=0.0)
    released_ids = {e.id for e in released}
    unplayed = [(ev.t, 0, n, 0, event_row(ev, False)) for n, ev in enumerate(drill.trace) if ev.id not in released_ids]
    if key is not None:
        # The deadline goes where its time falls: among what was played when the session reached it, else among
        # the events that never played (an abandoned session stops before it), never between the two out of order.
        marker = ReviewRow(kind="marker", t=key.deadline, text="deadline: the damage is done")
        deadline = (key.deadline, 2, 0, 0, marker)
        (played if key.deadline <= end or not unplayed else unplayed).append(deadline)
    rows = [x[-1] for x in sorted(played, key=lambda x: x[:4])] + [x[-1] for x in sorted(unplayed, key=lambda x: x[:4])]
    return ReviewRows(rows=rows, contained_at=contained_at, warning=warning)


def _replayed(
    drill: Drill, actions: list[Action], rules: str | None
) -> tuple[list[TraceEvent], float | None, dict[int, str], dict[int, EscalationResult], str | None]:
    """``actions`` re-run on ``drill`` by the scoring rules ``rules`` (unknown or None: the current rules): the events
    released, the containment's drill time, each escalation's verdict and result by action index, and None; for a
    log that does not replay, the whole trace, None, no verdicts or results, and a warning saying why."""
    from warroom.core.scoring import SCORING_VERSION, SCORING_VERSIONS, ScoringError, replay_actions

    rules = rules if rules in SCORING_VERSIONS else SCORING_VERSION
    try:
        replay, results = replay_actions(drill, actions, rules=rules)
    except ScoringError as exc:
        warning = f"the action log does not replay on this drill file ({exc}); events are shown in trace order"
        return list(drill.trace), None, {}, {}, warning
    verdicts = {i: r.verdict.value for i, r in enumerate(results) if r.verdict is not None}
    escalations = {i: r.escalation for i, r in enumerate(results) if r.escalation is not None}
    return list(replay.released), replay.contained_at, verdicts, escalations, None


def _compares_distractor_fields(rules: str | None) -> bool:
    """Whether the scoring rules ``rules`` (unknown or None: the current rules) judge a cited distractor's field as
    reading a comparison's event (:class:`~warroom.core.scoring.Edition`'s ``distractor_fields_compare``), so that
    the review marks each citation as the session's own rules judged it."""
    from warroom.core.scoring import EDITIONS, SCORING_VERSION

    return EDITIONS[rules if rules is not None and rules in EDITIONS else SCORING_VERSION].distractor_fields_compare


def _action_rows(
    drill: Drill,
    actions: list[Action],
    verdicts: dict[int, str],
    escalations: dict[int, EscalationResult],
    compare: bool = False,
) -> list[tuple[float, int, int, int, ReviewRow]]:
    """The rows of the trainee's flags, escalations and quit, each as ``(t, 1, index, 0, row)`` for sorting (each
    citation judged with ``compare``, :func:`_compares_distractor_fields`); after
    a false escalation, a ``replan`` row ``(resumed, 1, index, 1, row)`` at the drill time the trainee had the
    drill back: the planner's re-plan call and the drill clock's jump that the trainee saw."""
    from warroom.core.play import FALSE_ESCALATION_DELAY, misplaced_evidence
    from warroom.core.text import clock, usd

    key = drill.answer_key
    out: list[tuple[float, int, int, int, ReviewRow]] = []
    for i, a in enumerate(actions):
        if a.kind not in ACTION_ROW_KINDS:
            continue
        if a.kind is ActionKind.ESCALATE:
            text = f"escalated {target_label(drill, a.step, title=False)}" + (f": {a.note}" if a.note else "")
            marks = _escalation_marks(drill, a, verdicts.get(i, "escalation"), escalations.get(i), compare)
        elif a.kind is ActionKind.FLAG:
            text = f"flagged {a.event}" + (f": {a.note}" if a.note else "")
            marks = ["evidence flagged" if key is not None and a.event in evidence_ids(key) else "flag"]
        elif a.kind is ActionKind.PROBE:
            asked = next((p for p in drill.probes if p.id == a.probe), None)
            text = f"asked for probe {a.probe} (verify step {asked.step if asked else a.step})"
            finding = [*evidence_ids(key), *accepted_ids(key)] if key is not None else []
            contained = any(e.contained for e in escalations.values())
            marks = ["needless probe"] if a.probe not in finding else (
                ["probe found the fault"] if contained else ["probe's answer showed the fault (not acted on)"])
        else:  # a quit added at recovery says when it stopped is unknown (a session killed before any action)
            text = "left the drill (quit)" + (f": {a.note}" if a.note else "")
            marks = ["abandoned"]
        out.append((a.t, 1, i, 0, ReviewRow(kind="action", t=a.t, action=a, trainee=marks, text=text)))
        esc = escalations.get(i)
        if esc is not None and not esc.contained:
            # Listed when the trainee had the drill back, after the events the trace released meanwhile: where the
            # war room lists it (warroom.tui.live), not at the escalation's time.
            after = esc.resumed_at if esc.resumed_at is not None else a.t + FALSE_ESCALATION_DELAY
            found = (  # as the war room said (warroom.tui.drillscreen.false_escalation_message)
                "with nothing to act on: the escalation came before the evidence the drill counts"
                if key is not None and not esc.after_evidence
                else "and found nothing wrong"
            )
            right = misplaced_evidence(drill, a.step, a.cites, a.t)  # the review tells what the war room could not
            found += f" there ({right})" if right else ""
            text = (
                f"the planner re-planned (one re-plan call, {usd(esc.replan_usd)}) {found}; the "
                f"drill clock jumped {seconds(after - a.t)}, {clock(a.t)} -> {clock(after)}"
            )
            jump = [f"clock +{seconds(after - a.t)}"]
            row = ReviewRow(kind="replan", t=after, action=a, text=text, trainee=jump)
            out.append((after, 1, i, 1, row))
    return out


def _escalation_marks(
    drill: Drill, a: Action, verdict: str, esc: EscalationResult | None, compare: bool
) -> list[str]:
    """The marks of an escalation's row: its verdict, whether it came early, the fault's step when it named another,
    and what it cited."""
    key = drill.answer_key
    step_ok = key is not None and a.step == key.fault.target
    where = "" if key is None else target_label(drill, key.fault.target, title=False)
    marks = [verdict] + _early_marks(step_ok, esc, key is not None)
    marks += [] if step_ok or key is None else [f"fault was in {where}"]
    return marks + _citation_marks(drill, a, compare)


def _early_marks(right_step: bool, esc: EscalationResult | None, faulted: bool) -> list[str]:
    """The mark of a false escalation made before the drill's earliest counted evidence was released (``faulted``:
    the drill has a fault; ``right_step``: it named the fault's step), as the debrief words it; none otherwise."""
    if esc is None or esc.contained or esc.after_evidence or not faulted:
        return []
    early = "before the evidence the drill counts"
    return [f"the right step, but {early}" if right_step else early]


def _citation_marks(drill: Drill, action: Action, compare: bool) -> list[str]:
    """What an escalation cited, one mark per event (``cited e04 (evidence)``); ``cited nothing`` for an empty
    citation; none for an escalation recorded before citations existed (``cites`` absent)."""
    from warroom.core.play import judge_citations

    if action.cites is None:
        return []
    if not action.cites:
        return ["cited nothing"]
    judged = judge_citations(drill, action.cites, distractor_fields_compare=compare)
    return [f"cited {event_id} ({kind.value})" for event_id, kind in judged]


@dataclass
class ReviewData:
    """Everything the review screen shows for one stored session.

    ``session`` is the :class:`~warroom.store.results.StoredSession`; ``drill`` the drill it played (its variant, or
    its twin's for a noise trial; None when it cannot be found or loaded: ``drill_problem`` says why);
    ``drill_changed`` is True when the drill file's SHA-256 differs from the one recorded with the session;
    ``drill_file`` the file used.
    """

    session: StoredSession
    drill: Drill | None
    drill_file: Path | None
    drill_changed: bool
    drill_problem: str | None
    review_rows: ReviewRows | None
    #: True when the session played the drill's healthy twin (a noise trial of a fault drill): ``drill`` is the twin.
    twin: bool = False
    #: The session verified as the review opened (a :class:`~warroom.store.review.VerifyResult`; None: not
    #: verified) and its verification record in the store (a :class:`~warroom.store.results.SessionCheck` or None).
    verdict: Any = None
    check: Any = None

    @property
    def citations_compare(self) -> bool:
        """Whether the session's own scoring rules read a cited distractor's field as completing a comparison
        (``judge_citations``' ``distractor_fields_compare``): the review judges each citation as they did."""
        return _compares_distractor_fields(self.session.scoring_version)

    @property
    def disagrees(self) -> bool:
        """True when the stored results are not what the session's action log scores on its drill (or that cannot
        be told): the headline and the scorecard shown are the store's, flagged."""
        return self.verdict is not None and self.verdict.verdict != "verified"

    def verification_lines(self) -> list[str]:
        """What verifying the session found, for people (nothing for a session stored by warroom and found right)."""
        v, check = self.verdict, self.check
        if v is None:  # not verified now (its drill is missing or does not load): what the store records, if anything
            if check is None or check.state == "verified":
                return []
            return [f"Recorded as {check.state}: {check.reason}. The summary, the report and the console's figures "
                    "leave the session out until `warroom scores verify` finds it right."]  # fmt: skip
        if v.newer_rules:
            return [f"This session was {v.reason}; this warroom cannot check its results (its rules are newer than "
                    "this warroom's). The headline and the scorecard shown are the store's, unchecked."]
        if v.verdict != "verified":
            against = "cannot be checked against" if v.verdict == "unverifiable" else "disagree with"
            return [f"The stored results {against}"
                    f" what its action log scores on its drill: {v.reason}. The headline and the scorecard shown are "
                    "the store's; `warroom scores verify` records this (the summary then leaves the session out)."]
        if check is not None and check.state != "verified":
            return [f"Recorded as {check.state}: {check.reason}. Recomputed now, its results are right: `warroom "
                    "scores verify` records that (the summary then counts it)."]
        return []

    @property
    def notices(self) -> list[str]:
        """Sentences the review must say before anything else (changed or missing drill file, replay problems)."""
        out = []
        if self.drill_problem:
            out.append(self.drill_problem)
        if self.drill_changed:
            out.append(
                f"The drill file {self.drill_file} has changed since this session was played (its SHA-256 differs); "
                "the trace and answer key shown are the current file's."
            )
        if self.review_rows is not None and self.review_rows.warning:
            out.append(self.review_rows.warning[0].upper() + self.review_rows.warning[1:] + ".")
        out.extend(self.verification_lines())
        out.extend(self.history_lines())
        return out

    def note_lines(self) -> list[str]:
        """The facilitator's notes on the session, one line each, oldest first: ``Note from NAME (2026-12-01 14:10
        UTC): text`` (a note's line breaks kept). Shown to the trainee in their own review."""
        return [str(note) for note in self.session.facilitator_notes]

    def history_lines(self) -> list[str]:
        """The session's scorecard history for people: one sentence saying the scorecard shown is the current one,
        then one per scorecard a re-score replaced, oldest first (none for a session never re-scored)."""
        history = self.session.history
        if not history:
            return []
        head = (f"This session was re-scored {plural(len(history), 'time')}; the scorecard shown is the current one "
                "(the figures count it), and the ones it replaced are kept:")
        return [head, *(f"{change}." for change in history)]


def load_review(
    session: StoredSession, drill_dirs: tuple[Path, ...] = (), store: ResultsStore | None = None
) -> ReviewData:
    """The :class:`ReviewData` of a stored session: its drill found (recorded path, else the drill id in
    ``drill_dirs`` and the bundled library), checked against the recorded SHA-256, and its review rows built; with
    the open ``store``, the session verified too (:func:`~warroom.store.review.verify_sessions`, nothing recorded),
    so that a review whose stored results disagree with its action log says so.

    A tutorial session (mode ``tutorial``) is played on the bundled tutorial drill: once its recorded path is gone,
    it is found in the bundled library only, never as a file of the same id in ``drill_dirs``. A session stored
    without a check (a trainee role's row, ``store import``) is found by its drill id alone, as
    :func:`~warroom.store.review.verify_sessions` finds it: the path its row names is its client's claim, and would
    show the facilitator the load error of any file on the host it names."""
    from warroom.store.results import TUTORIAL
    from warroom.store.review._drill import DrillUnavailable, default_drill_resolver, resolve_session_drill

    if session.mode == TUTORIAL:
        drill_dirs = ()
    claimed = session.drill_path
    check = store.checks([session.session_id]).get(session.session_id) if store is not None else None
    if check is not None and check.submitted:
        claimed = None  # stored without a check: the path is its client's claim, found by its drill id alone
    try:
        path = default_drill_resolver(drill_dirs)(session.drill_id, claimed)
    except FileNotFoundError:  # (with the store's record of it: an unverifiable session's review said nothing of it)
        return ReviewData(
            session, None, None, False,
            f"The drill file of this session is not found{f' (was {claimed})' if claimed else ''}.", None, check=check
        )
    try:
        found = resolve_session_drill(session.info(), lambda _id, _path: path)
    except DrillUnavailable as exc:
        return ReviewData(session, None, path, False, f"The drill file cannot be loaded: {exc}", None, check=check)
    review_rows = build_review_rows(found.drill, list(session.actions), session.scoring_version)
    data = ReviewData(session, found.drill, found.path, found.changed, None, review_rows, found.twin)
    if store is None:
        return data
    from warroom.store.review._verify import session_verdict

    verdict, check = session_verdict(store, session, default_drill_resolver(drill_dirs))
    return replace(data, verdict=verdict, check=check)
