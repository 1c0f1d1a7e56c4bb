"""The tutorial's lessons (``warroom tutorial``) as data, and the :class:`Tutor` that walks a trainee through them.

A lesson is one entry of :data:`LESSONS`: the prompt shown at the bottom of the war room, the key it names, the
trainee action that completes it (an action kind of :class:`~warroom.core.model.ActionKind`: ``pause``,
``inspect``, ``flag``, ``probe``, ``escalate``), the trace event at which it starts and,
optionally, the event (inspect, flag, probe) or plan step (escalate) that action must name. The lessons run in
order, one at a time: a lesson starts once its event is in the trace and every lesson before it is done, and while
it waits the drill clock is held (:class:`~warroom.tui.room.TutorialScreen`). Adding a lesson is adding an
entry here (and, for a new kind of action, its war-room action name in :data:`ACTION_KINDS`).

No Textual here: :class:`Tutor` is plain state, tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.core.library import TUTORIAL_ID

if TYPE_CHECKING:
    from warroom.tui.logic._entries import DrillEntry


def tutorial_path() -> Path:
    """The tutorial's drill file: ``tutorial.yaml`` of the bundled library."""
    from warroom.core.library import bundled_drills_dir

    return bundled_drills_dir() / f"{TUTORIAL_ID}.yaml"


def is_tutorial(entry: DrillEntry) -> bool:
    """True when ``entry`` is the bundled tutorial drill (by id and file; a copy elsewhere is an ordinary drill)."""
    if entry.card is None or entry.card.id != TUTORIAL_ID:
        return False
    from warroom.core.files import real_path

    return real_path(entry.path) == real_path(tutorial_path())

#: The war room's key actions (binding action names) -> the trainee action kind a lesson may teach. A key whose
#: kind a later lesson teaches is refused (and explained) until that lesson starts.
ACTION_KINDS: dict[str, str] = {"pause": "pause", "flag": "flag", "escalate": "escalate", "probe": "probe"}
#: Action kinds that undo another (an ``unflag`` undoes a ``flag``): undoing the wrong action a hint is about
#: clears the hint (it said "You flagged e05" after e05 was unflagged).
_UNDOES: dict[str, str] = {"unflag": "flag"}


@dataclass(frozen=True)
class Lesson:
    """One step of the tutorial.

    Attributes:
        name: the lesson's short name, shown in the prompt's title (``Pause``).
        key: the key the prompt names, as shown (``space``, ``enter``, ``f``, ``e``, ``v``).
        action: the action kind that completes it (``pause``, ``inspect``, ``flag``, ``escalate``, ``probe``).
        at: the trace event id at which the lesson starts (once it is in the trace and the lessons before are done).
        prompt: what the trainee reads while the lesson waits; it names the key.
        ask: the instruction in one line, repeated when the trainee presses another key (names the key too).
        target: the event id (inspect, flag, probe) or plan step id (escalate) the action must name; None: any.
        wrong: what is said when the action named another target; ``{got}`` and ``{target}`` are filled in.
        done: what the panel says once the lesson is done (until the next one starts).
        running: what the panel says instead of ``done`` once the drill clock runs again (for a lesson whose
            ``done`` speaks of the paused clock); empty: ``done`` throughout.
    """

    name: str
    key: str
    action: str
    at: str
    prompt: str
    ask: str
    target: str | None = None
    wrong: str = "That was {got}; this lesson asks for {target}."
    done: str = ""
    running: str = ""

    def done_text(self, paused: bool) -> str:
        """What the panel says once this lesson is done: :attr:`running` while the drill clock runs (when given),
        else :attr:`done`."""
        return self.running if self.running and not paused else self.done


#: The tutorial's lessons, in order, on drills/tutorial.yaml (events e03, e06, e07, step s2, probe p1). The report
#: e07 comes with the result e06 (both at 24 s), the lessons from Inspect on hold the drill clock there, and the probe's
#: answer comes half a second later: a trainee who does what the lessons say escalates 0.5 s after the evidence and
#: scores 100 (the lessons' own pace costs no speed points).
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        name="Pause",
        key="space",
        action="pause",
        at="e03",
        prompt=(
            "The drill clock runs and the agent's events appear as they happen; in a real drill it does not wait "
            "for you. Press space to pause it (pausing costs no points)."
        ),
        ask="press space to pause the drill clock.",
        done=(
            "Paused: nothing new appears while the clock is paused, so you can read at leisure. Press space again "
            "to resume it."
        ),
        running=(
            "The clock runs again. The next lesson comes up when the executor reports on its order search."
        ),
    ),
    Lesson(
        name="Inspect",
        key="enter",
        action="inspect",
        at="e07",
        target="e06",
        prompt=(
            "The executor reports s2 done (e07). Check its work: move up to e06, the raw result of its order "
            "search (↑ or k), and press enter to open it."
        ),
        ask="move to e06 with ↑ (or k) and press enter to open it.",
        wrong=(
            "You opened {got}. This lesson asks for {target}, the tool result: esc (or tab) back to the trace, "
            "select it (↑ ↓ or j k), then press enter."
        ),
        done="The inspector shows the raw output: matched 0 of 40. (tab moves between the trace and the inspector; "
        "esc or G goes back to the trace.)",
    ),
    Lesson(
        name="Flag",
        key="f",
        action="flag",
        at="e07",
        target="e06",
        prompt=(
            "e06 matched 0 orders out of 40, yet the executor reports \"no order on file\" as a finding. With e06 "
            "selected, press f to flag it as suspicious (type a note if you like, then enter)."
        ),
        ask="select e06 and press f to flag it.",
        wrong="You flagged {got}; this lesson asks for {target} (f on {got} again unflags it): select it, press f.",
        done="Flagged: ⚑ marks e06 in the trace. A flag is your own note; when you escalate, you tick the events "
             "you cite.",
    ),
    Lesson(
        name="Probe",
        key="v",
        action="probe",
        at="e07",
        target="p1",
        prompt=(
            "When a result looks wrong and you want proof, ask the executor to verify its step. Press v, choose "
            "the probe p1 of s2 and press enter: the answer comes in as a trace event once its wait is over (here "
            "half a second of drill time). Needless probes cost a little, so ask when it matters."
        ),
        ask="press v, choose the probe p1, then enter.",
        wrong="You asked for {got}; this lesson asks for {target}: press v and choose it.",
        done="Asked: the executor checks s2. Its answer, p1, comes in as the trace's newest event.",
    ),
    Lesson(
        name="Escalate",
        key="e",
        action="escalate",
        at="p1",
        target="s2",
        prompt=(
            "The probe's answer (p1) confirms it: the fault is in plan step s2, Look up the orders, which searched "
            "with ticket ids. Press e to escalate to the planner: type s2 to choose the step, tab twice to the "
            "events you cite, where e06, the event you are on, is ticked (if not, type e06 and press space), then "
            "enter and y to confirm."
        ),
        ask="press e, choose step s2, tick e06 among the events you cite, enter, then y.",
        wrong=(
            "You escalated {got}: the planner found nothing wrong there (a false escalation costs a re-plan and "
            "15 s). Press e again and choose {target}, citing e06."
        ),
        done="That was the last lesson: you named the faulty step with the evidence that shows it.",
    ),
)


class Tutor:
    """Where a trainee is in the lessons: which lesson is next, whether its prompt is waiting, what to say.

    ``lessons`` run in order; :meth:`start_due` starts the next one once its event is released, :meth:`observe`
    completes it when the trainee does its action. :attr:`hint` is the last explanation given (a wrong key, a
    wrong target), cleared when a lesson starts or ends.
    """

    def __init__(self, lessons: Sequence[Lesson] = LESSONS) -> None:
        if not lessons:
            raise ValueError("a tutorial needs at least one lesson")
        self.lessons: tuple[Lesson, ...] = tuple(lessons)
        #: The index of the next lesson not done (``len(lessons)`` once all are done).
        self.index = 0
        #: True while the current lesson's prompt is on screen, waiting for its action (the drill clock is held).
        self.waiting = False
        self.hint = ""
        #: The target of the wrong action :attr:`hint` is about (None: the hint is about no target).
        self._wrong: str | None = None
        #: The lesson done last (None before the first).
        self.last_done: Lesson | None = None
        self._taught = frozenset(lesson.action for lesson in self.lessons)

    @property
    def current(self) -> Lesson | None:
        """The next lesson not done (waiting or still to start), or None when all are done."""
        return self.lessons[self.index] if self.index < len(self.lessons) else None

    @property
    def finished(self) -> bool:
        """True once every lesson is done."""
        return self.index >= len(self.lessons)

    def next_stop(self) -> str | None:
        """The event id at which the next lesson starts (None while one waits or when all are done): the drill
        clock is not moved past it."""
        lesson = self.current
        return None if lesson is None or self.waiting else lesson.at

    def start_due(self, released: Callable[[str], bool]) -> bool:
        """Start the next lesson if its event is released (``released(event_id)``); True when one started."""
        lesson = self.current
        if lesson is None or self.waiting or not released(lesson.at):
            return False
        self.waiting = True
        self.hint, self._wrong = "", None
        return True

    def allows(self, kind: str) -> bool:
        """Whether an action of ``kind`` may be done now: a kind no lesson teaches always; a taught kind once its
        lesson has started (it waits, or it is done)."""
        if kind not in self._taught:
            return True
        reached = self.lessons[: self.index + 1] if self.waiting else self.lessons[: self.index]
        return any(lesson.action == kind for lesson in reached)

    def allows_action(self, action: str) -> bool:
        """:meth:`allows` for a war-room action name (``pause``, ``flag``, ``escalate``, ``probe``; other actions:
        True)."""
        kind = ACTION_KINDS.get(action)
        return kind is None or self.allows(kind)

    def observe(self, kind: str, target: str | None) -> bool:
        """The trainee did an action of ``kind`` naming ``target`` (an event or step id, or None). Returns True
        when it completed the waiting lesson; an action of the lesson's kind on another target sets :attr:`hint`."""
        lesson = self.current
        if lesson is None or not self.waiting:
            return False
        if _UNDOES.get(kind) == lesson.action and self._wrong is not None and target == self._wrong:
            self.hint, self._wrong = "", None  # the wrong action undone: nothing left to explain
            return False
        if kind != lesson.action:
            return False
        if lesson.target is not None and target != lesson.target:
            self.hint = lesson.wrong.format(got=target or "nothing", target=lesson.target)
            self._wrong = target
            return False
        self.waiting = False
        self.hint, self._wrong = "", None
        self.last_done = lesson
        self.index += 1
        return True

    def refuse(self, key: str) -> str:
        """The explanation for ``key``, whose action a later lesson teaches (set as :attr:`hint`, and returned)."""
        lesson = self.current
        now = f"This lesson: {lesson.ask}" if lesson is not None and self.waiting else "Watch the trace for now."
        self.hint, self._wrong = f"Not yet: {key} comes in a later lesson. {now}", None
        return self.hint

    def ignore(self, key: str) -> str:
        """The explanation for a key that does nothing while a lesson waits (set as :attr:`hint`, and returned)."""
        lesson = self.current
        self.hint = f"{key} does nothing here. This lesson: {lesson.ask}" if lesson is not None else ""
        self._wrong = None
        return self.hint
