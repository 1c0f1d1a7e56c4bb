"""Drill sets and session modes in the terminal UI: the set being played (``warroom --set FILE``), each drill's
progress in it, and what the war room shows and refuses in assessment mode.

The set's file is read with :func:`warroom.core.load.load_drill_set`; progress comes from the results store (the
trainee's sessions with the set's id). No Textual here: the screens read these values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.library import Attempt, Candidate, SetDrill, choose_next
from warroom.core.load import DrillSet
from warroom.core.text import clean_line, plural, seconds

if TYPE_CHECKING:
    from warroom.core.model import Drill

PRACTICE = "practice"
ASSESSMENT = "assessment"

#: The war room's rules in assessment mode: in the briefing and, word for word, in the war room's help (which so
#: shows nothing the briefing did not).
ASSESSMENT_NOTES = (
    "Assessment: the drill clock runs at 1x and never stops: there is no pause (space) and no other speed (+ -), "
    "and it keeps running while a dialog (the help too) is open.\n\n"
    "Escalate once you can name the step whose result is wrong and cite the event that shows it: a correct "
    "escalation stops the cascade; a wrong one costs a planner re-plan call and drill time while the trace runs on."
)

#: The war room's actions whose keys its help and the briefing leave out, by mode: assessment turns off pause and
#: the speeds (their keys run ``refused``, which practice does not have).
_HIDDEN_ACTIONS = {
    PRACTICE: ("refused",),
    ASSESSMENT: ("pause", "resume", "faster", "slower"),
}


def hidden_actions(mode: str) -> tuple[str, ...]:
    """The war room's binding actions that ``mode`` (``practice`` or ``assessment``) does not offer, so its help
    and the briefing's key list leave them out (see :func:`warroom.tui.widgets.help_rows`)."""
    return _HIDDEN_ACTIONS[ASSESSMENT if mode == ASSESSMENT else PRACTICE]


@dataclass(frozen=True)
class DrillProgress:
    """A trainee's progress on one drill of a set: sessions ``played`` in the set, whether one was ``done`` (not
    abandoned), and ``left``: attempts left (None: no limit); in an adaptive set, ``session``: the trainee's next
    session in the set and of how many (``(3, 6)``; None otherwise); ``before``: the trainee's sessions of the drill
    outside the set (any mode): a session of it in the set is then a replay, which the cohort statistics do not count
    as a trial of this drill (docs/sessions.md, "Cohort statistics")."""

    played: int
    done: bool
    left: int | None
    session: tuple[int, int] | None = None
    before: int = 0

    @property
    def exhausted(self) -> bool:
        """True when no attempt is left."""
        return self.left is not None and self.left <= 0

    def cell(self) -> str:
        """The picker's progress cell, e.g. ``done · 1 left``, ``to do · 2 left``, ``replay · 1 left`` (played outside
        the set: a session of it here is a replay, which the cohort statistics do not count as a trial), ``no
        attempts left``; a drill played before but never finished here (outside the set, or quit in it) is a
        ``replay`` too; in an adaptive set (which offers only the drill chosen next), which session of the set's
        length it starts (``session 3 of 6``, ``session 3 of 6 · 1 left``), and ``replay`` when the set offers a
        drill the trainee already played, in it or outside it (``session 5 of 6 · replay``)."""
        if self.exhausted:
            return "done · none left" if self.done else "no attempts left"
        again = bool(self.before or self.played)  # a session of it now is a replay, not a new trial
        state = "replay" if again and not self.done else ("done" if self.done else "to do")
        if self.session is not None:
            state = f"session {self.session[0]} of {self.session[1]}" + (" · replay" if again else "")
        return state if self.left is None else f"{state} · {self.left} left"


def local_today(now: datetime | None = None, tz: tzinfo | None = None) -> date:
    """The trainee's date: ``now`` (an aware datetime; None: the current time) in the time zone ``tz`` (None: the
    machine's local time zone, as the trainee's clock shows it), so a set due on a day is past due from the
    trainee's midnight after it, not from UTC's."""
    return (now if now is not None else datetime.now(UTC)).astimezone(tz).date()


@dataclass(frozen=True)
class ActiveSet:
    """The drill set a session of ``warroom --set FILE`` is played in: its file ``path``, the validated ``model``
    and its drills (found and loaded, in the set's order)."""

    path: Path
    model: DrillSet
    drills: tuple[SetDrill, ...]

    @property
    def set_id(self) -> str:
        return self.model.set

    @property
    def adaptive(self) -> bool:
        return self.model.adaptive is not None

    def progress(self, rows: Sequence[Any], everywhere: Sequence[Any] = ()) -> dict[str, DrillProgress]:
        """Each drill id's :class:`DrillProgress` from ``rows``: the trainee's stored sessions in this set, and
        ``everywhere``: all their sessions (any set or mode; those outside this set are counted as played before)."""
        out: dict[str, DrillProgress] = {}
        adaptive = self.model.adaptive
        session = None if adaptive is None else (min(len(rows) + 1, adaptive.length), adaptive.length)
        for d in self.drills:
            if d.drill is None:
                continue
            mine = [r for r in rows if r.drill_id == d.drill.id]
            played = len(mine)
            left = None if self.model.attempts is None else self.model.attempts - played
            before = sum(1 for r in everywhere if r.drill_id == d.drill.id and r.set_id != self.set_id)
            out[d.drill.id] = DrillProgress(played, any(r.outcome != "abandoned" for r in mine), left, session, before)
        return out

    def due_text(self, today: date | None = None) -> str:
        """``due 2026-12-15`` (``… (past due)`` after it), or "" when the set has no due date. ``today``: the
        trainee's date (None: :func:`local_today`, the local date now); past due is from the day after ``due``."""
        due = self.model.due_date
        if due is None:
            return ""
        today = today or local_today()
        return f"due {due.isoformat()}" + (" (past due)" if today > due else "")

    def next_adaptive(self, trainee: str, set_rows: Sequence[Any], record_rows: Sequence[Any]) -> Drill | None:
        """The drill an adaptive set gives ``trainee`` next (None when the set is done), from ``set_rows`` (the
        trainee's sessions in this set) and ``record_rows`` (their sessions on the set's drills, any set or mode,
        oldest first). See :func:`warroom.core.library.choose_next`."""
        adaptive = self.model.adaptive
        assert adaptive is not None
        drills = {d.drill.id: d.drill for d in self.drills if d.drill is not None}
        pool = {i: _candidate(d) for i, d in drills.items()}
        record = [
            Attempt(_as_played(pool[r.drill_id], r), _detected(r), r.outcome == "abandoned")
            for r in record_rows if r.drill_id in pool
        ]
        progress = self.progress(set_rows)
        available = [i for i in pool if not progress[i].exhausted]
        chosen = choose_next(
            list(pool.values()), record, adaptive, trainee=trainee, played_in_set=len(set_rows), available=available
        )
        return None if chosen is None else drills[chosen.drill_id]


def _candidate(drill: Drill) -> Candidate:
    key = drill.answer_key
    return Candidate(drill.id, drill.difficulty, None if key is None else key.fault.kind.value)


def _as_played(candidate: Candidate, row: Any) -> Candidate:
    """The drill of a session as the chooser counts it: a noise trial of a fault drill (its healthy twin) as a
    control, which does not move the trainee's level nor count as a miss of the fault's kind."""
    if getattr(row, "played_as", None) == "noise" and candidate.fault_kind is not None:
        return replace(candidate, fault_kind=None)
    return candidate


def _detected(row: Any) -> bool:
    """A session detected its drill's fault on time (contained), or held the all clear of a control drill."""
    return row.outcome in ("contained", "all_clear_held")


def load_active_set(path: Path, drill_dirs: Sequence[Path] = (), *, assessment: bool = False) -> ActiveSet:
    """Read the drill set file at ``path`` and find its drills (to be played as an ``assessment``, whatever the
    set's mode, when asked). Raises :class:`~warroom.core.load.DrillSetError` with every ``path:line:col:
    message`` problem (of the file or of a drill it names, or two drills of one healthy run in an assessment)."""
    from warroom.core.library import drill_set_problems, resolve_set_drills
    from warroom.core.load import DrillSetError, load_drill_set

    try:
        model = load_drill_set(path)
    except DrillSetError as exc:
        if exc.drills is None:
            raise
        raise DrillSetError(drill_set_problems(path, drill_dirs)) from None
    drills, problems = resolve_set_drills(model, path, drill_dirs, assessment=assessment)
    if problems:
        raise DrillSetError(problems)
    return ActiveSet(Path(path), model, tuple(drills))


def mode_line(s: Any) -> str:
    """The review's line on how a stored session was played: its mode, the trial (signal or noise), drill
    set, pauses and wall-clock figures (wall seconds), e.g. ``practice · signal trial · set week-1 · 2 pauses, 41 s
    paused · wall-clock time to detect 125.3 s``."""
    parts = [str(getattr(s, "mode", None) or "practice")]
    if getattr(s, "played_as", None) in ("signal", "noise"):
        parts.append(f"{s.played_as} trial")
    if getattr(s, "set_id", None):
        parts.append(f"set {clean_line(s.set_id)}")
    pauses = int(getattr(s, "pauses", 0) or 0)
    if pauses:
        paused = getattr(s, "paused_seconds", None)
        spent = "" if paused is None else f", {seconds(paused)} paused"
        parts.append(f"{plural(pauses, 'pause')}{spent}")
    elif parts[0] == "practice":
        parts.append("no pauses")
    wall = getattr(s, "wall_time_to_detect", None)
    # (a row stored before the right step, unsupported stopped getting one may hold one: nothing was detected)
    if wall is not None and getattr(s, "outcome", None) != "right_step_unsupported":
        parts.append(f"wall-clock time to detect {seconds(wall)}")
    return "  ·  ".join(parts)
