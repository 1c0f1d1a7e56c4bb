"""One session as the cohort statistics see it (:class:`SessionFacts`), checked when built: the input of
:func:`warroom.core.stats.summarize`, built by the results store from each stored session."""

from __future__ import annotations

from dataclasses import dataclass

from warroom.core.model import CONTAINED_OUTCOMES, Outcome, PlayedAs, Response
from warroom.core.stats._responses import SIGNAL_RESPONSES, approximate_response

#: Outcome by value (a member is its own value too: Outcome is a StrEnum).
_OUTCOMES: dict[str, Outcome] = {o.value: o for o in Outcome}
#: Response by value.
_RESPONSES: dict[str, Response] = {r.value: r for r in Response}
#: (is a drill with a fault, outcome value) -> the Outcome, for the outcomes that fit the kind of drill: a drill with
#: a fault cannot end with the all clear held, an all-clear drill has nothing to contain.
_FITTING: dict[tuple[bool, str], Outcome] = {(True, o.value): o for o in Outcome if o is not Outcome.ALL_CLEAR_HELD} | {
    (False, o.value): o for o in Outcome if o not in CONTAINED_OUTCOMES
}


@dataclass(slots=True)
class SessionFacts:
    """What the statistics need of one session.

    ``trainee`` and ``drill_id`` name it; ``is_fault_drill`` is False for an all-clear control drill; ``outcome`` is
    an :class:`~warroom.core.model.Outcome` (its string value is accepted); ``score`` is the total, 0..100;
    ``started_at`` is the start time as ISO 8601 UTC text (the store's format: text order is time order).
    ``false_escalations`` counts escalations that did not contain the incident; ``distractors_shown`` the distractor
    events released in the session; ``distractor_escalations`` the distractor event ids that pulled an escalation
    (one entry per escalation). ``time_to_detect_s`` is seconds of drill time, ``wall_time_to_detect_s`` seconds of
    real time (pauses included), each None when nothing was detected or not recorded. ``mode`` is the session's mode
    (``practice`` or ``assessment``). ``session_id`` breaks ties in start time (the first attempt and the
    split-half order: sessions started at the same time in session-id order; "" keeps the input order).
    ``response`` is the trial's :class:`~warroom.core.model.Response` as the scorecard records it (scoring rules 4
    on); None approximates it from the outcome (:func:`~warroom.core.stats._responses.approximate_response`) and
    sets ``approximated``. ``set_id`` is the drill set the session was played in. ``stored_seq`` is the number the
    results store gave the session as it stored it (schema version 20; None for a session stored before, or not
    stored): it orders a trainee's attempts at a drill (:func:`attempt_order`), as a start time set by the trainee's
    own clock cannot. ``countable`` False marks a stand-in for a stored session that cannot be counted
    (:func:`uncountable`): it takes part in the search for the first attempt only. ``chosen`` marks a session whose
    trial was chosen, not drawn (``warroom run --as`` / ``--seed``; the store's ``chosen`` column, schema version
    23): it is a first attempt (its trainee saw the drill and its debrief) but never a trial. Treat it as read-only
    (it is not frozen only because a frozen dataclass is slow to build, and the store builds one per session).

    Raises ValueError for an unknown outcome or response, a containment in an all-clear drill or an all clear held in
    a drill with a fault, a response of the other kind of trial, a negative count, or more distinct distractors
    escalated than shown.
    """

    trainee: str
    drill_id: str
    is_fault_drill: bool
    outcome: Outcome
    score: float
    started_at: str
    false_escalations: int = 0
    distractors_shown: int = 0
    distractor_escalations: tuple[str, ...] = ()
    time_to_detect_s: float | None = None
    wall_time_to_detect_s: float | None = None
    mode: str = "practice"
    session_id: str = ""
    response: Response | None = None
    set_id: str | None = None
    approximated: bool = False
    stored_seq: int | None = None
    countable: bool = True
    chosen: bool = False

    def __post_init__(self) -> None:
        # One lookup checks the outcome and that it fits the kind of drill (this runs once per stored session).
        outcome = _FITTING.get((self.is_fault_drill, self.outcome))
        if outcome is None:
            self._refuse_outcome()
        self.outcome = outcome  # type: ignore[assignment]  # (None was refused above)
        if self.response is None:
            played = PlayedAs.SIGNAL if self.is_fault_drill else PlayedAs.NOISE
            self.response = approximate_response(outcome, played, self.false_escalations)  # type: ignore[arg-type]
            self.approximated = True
        else:
            response = _RESPONSES.get(self.response)
            if response is None:
                raise ValueError(f"{self.drill_id}: unknown response {self.response!r}")
            if (response in SIGNAL_RESPONSES) != self.is_fault_drill:
                trial = "a signal" if self.is_fault_drill else "a noise"
                raise ValueError(f"{self.drill_id}: {response.value!r} is not a response of {trial} trial")
            self.response = response
        if self.false_escalations < 0 or self.distractors_shown < 0:
            raise ValueError(f"{self.drill_id}: counts cannot be negative")
        if self.distractor_escalations:
            if not isinstance(self.distractor_escalations, tuple):
                self.distractor_escalations = tuple(self.distractor_escalations)
            if len(set(self.distractor_escalations)) > self.distractors_shown:
                raise ValueError(f"{self.drill_id}: more distractors escalated than shown")

    def _refuse_outcome(self) -> None:
        """Raise the ValueError saying why ``outcome`` does not fit this session."""
        outcome = _OUTCOMES.get(self.outcome)
        if outcome is None:
            raise ValueError(f"{self.drill_id}: unknown outcome {self.outcome!r}")
        if self.is_fault_drill:
            raise ValueError(f"{self.drill_id}: 'all_clear_held' is not an outcome of a drill with a fault")
        raise ValueError(f"{self.drill_id}: an all-clear drill has nothing to contain")

    @property
    def signal(self) -> bool:
        """A signal trial (the drill's fault was played), from its response."""
        return self.response in SIGNAL_RESPONSES

    @property
    def abandoned(self) -> bool:
        """The trainee quit before the drill ended."""
        return self.outcome is Outcome.ABANDONED


def attempt_order(f: SessionFacts) -> tuple[bool, int, str, str]:
    """The order of a trainee's attempts at a drill: the order the store stored them (``stored_seq``), the sessions
    without a number (stored before schema version 20) first, by start time then session id."""
    seq = f.stored_seq
    return (seq is not None, seq or 0, f.started_at, f.session_id)


def uncountable(trainee: str, drill_id: str, started_at: str, session_id: str, stored_seq: int | None) -> SessionFacts:
    """A stand-in for a stored session that cannot be counted (values of the wrong type, an outcome that does not fit
    its drill...): when it is a trainee's first attempt at a drill, that drill gives them no trial, and their later
    sessions of it stay replays (it is never counted itself)."""
    return SessionFacts(trainee, drill_id, True, Outcome.MISSED, 0, started_at, session_id=session_id,
                        stored_seq=stored_seq, countable=False)  # fmt: skip
