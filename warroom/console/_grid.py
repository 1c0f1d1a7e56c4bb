"""A drill set's completion grid: one row per trainee, one column per drill of the set, each cell what the trainee
did with that drill in that set (sessions recorded with the set's id): not started, in progress (a browser tab
plays it now), done (a session that was not abandoned), attempts used and left, and past due (the set's due date is
over and the drill is not done). Trainees who have not started any drill of the set are listed apart.

A done cell shows what the gradebook's cell and the figures count: the **first attempt** (the first the store
stored, an abandoned one scoring 0), its outcome and score, and with more than one session the attempts and the best
score beside it, in the gradebook's words (:func:`~warroom.console._gradebook.gradebook_cell`): ``done · abandoned ·
0 (3 attempts, best 100)``. It links to the first attempt's session. A trainee cannot make the grid show a
better attempt than the one that counts by abandoning a drill, reading its review and playing it again (nor by
setting their clock back before playing again); nor by playing it first outside the set: that first attempt is the
cell's, as the set's gradebook says it (``done · contained · 40 (first attempt 2026-11-29, outside this gradebook; 1
attempt here, best 100)``), linked.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from warroom.console._gradebook import by_stored_order, gradebook_cell
from warroom.core.model import outcome_label

#: The cell states.
TODO, PROGRESS, DONE, NONE_LEFT = "todo", "progress", "done", "none"


@dataclass(frozen=True)
class GridCell:
    """One trainee's progress on one drill of the set: ``state`` (:data:`TODO`, :data:`PROGRESS`, :data:`DONE`,
    :data:`NONE_LEFT`: no attempt left and not done), the sessions started (``attempts``, abandoned ones and one in
    progress included), attempts ``left`` (None: no limit), the first attempt's ``outcome``, ``score`` and
    ``session_id`` (a done cell), its ``grade`` (the gradebook's cell: the first attempt's score, and the attempts
    stored and the best score beside it) and ``past_due``."""

    state: str
    attempts: int = 0
    left: int | None = None
    outcome: str | None = None
    score: int | None = None
    session_id: str | None = None
    past_due: bool = False
    grade: str = ""
    #: Whether the first attempt played a healthy run (None: not known): its ``false_alarm`` reads "early
    #: escalation" in a drill with a fault, as `warroom scores` says it.
    all_clear: bool | None = None

    @property
    def text(self) -> str:
        """The cell's words: ``done · contained · 92``, ``done · abandoned · 0 (2 attempts, best 92)``, ``in
        progress``, ``not started``; with attempts left."""
        words = {TODO: "not started" if not self.attempts else "to do", PROGRESS: "in progress",
                 NONE_LEFT: "no attempts left"}.get(self.state)  # fmt: skip
        if words is None:
            words = f"done · {outcome_label(self.outcome or '', self.all_clear)} · {self.grade or self.score}"
        if self.left is not None and self.state != NONE_LEFT:
            words += f" · {self.left} left"
        return words + (" · past due" if self.past_due else "")


@dataclass(frozen=True)
class Grid:
    """The grid of one set: its id, title, mode, attempts and due date (None: none); ``drills`` as ``(id, title)``
    in the set's order; ``rows`` as ``(trainee, cells)``; ``not_started`` the trainees without any session in the
    set (nor one in progress)."""

    set_id: str
    title: str
    mode: str
    attempts: int | None
    due: date | None
    past_due: bool
    drills: list[tuple[str, str]]
    rows: list[tuple[str, list[GridCell]]]
    not_started: list[str]


def completion_grid(
    set_id: str, title: str, mode: str, attempts: int | None, due: date | None, drills: Sequence[tuple[str, str]],
    trainees: Sequence[str], sessions: Iterable[Any], playing: set[tuple[str, str]], today: date,
    earlier: Iterable[Any] = (), stored: Mapping[str, int] | None = None, unverified: Collection[str] = (),
) -> Grid:  # fmt: skip
    """The grid of a set from its stored ``sessions`` (rows with ``trainee``, ``drill_id``, ``outcome``, ``total``,
    ``session_id``, ``started_at``, ``set_id``: those of other sets are ignored) and the ``(trainee, drill id)``
    pairs ``playing`` it now. ``trainees`` come first in their order, then anyone else with a session in the set.
    ``today``: the date the due date is compared with (past due from the day after it). ``earlier``: sessions
    outside the set (the gradebook's): a trainee's first attempt at a drill made there, before every one in the set,
    is the done cell's first attempt, said as the set's gradebook says it (:func:`gradebook_cell`). ``stored``: where
    the store stored each session (:func:`~warroom.console._gradebook.by_stored_order`). ``unverified``: the ids of
    sessions among ``earlier`` whose results are not verified (those of the set too: ``sessions`` holds the counted
    ones): a first attempt among them is said so, never replaced by a replay (:func:`gradebook_cell`)."""
    order = by_stored_order(stored)
    all_sessions = list(sessions)
    mine = [s for s in all_sessions if s.set_id == set_id]
    in_set = {s.session_id for s in mine}
    first_ever: dict[tuple[str, str], Any] = {}
    for s in sorted([*mine, *(e for e in [*all_sessions, *earlier] if e.session_id not in in_set)], key=order):
        first_ever.setdefault((s.trainee, s.drill_id), s)
    ran: dict[tuple[str, str], list[Any]] = {}  # each trainee's sessions of each drill: a cell looked for its own
    for s in mine:  # among every session of the set (49 s for 3,000 trainees, on the server's event loop)
        ran.setdefault((s.trainee, s.drill_id), []).append(s)
    names = list(dict.fromkeys([*trainees, *sorted({trainee for trainee, _ in ran})]))
    past_due = due is not None and today > due
    rows = []
    for name in names:
        cells = [_cell(name, drill_id, ran.get((name, drill_id), []), playing, attempts, past_due,
                       first_ever.get((name, drill_id)), order, unverified) for drill_id, _ in drills]  # fmt: skip
        rows.append((name, cells))
    not_started = [name for name, cells in rows if all(c.state == TODO and not c.attempts for c in cells)]
    return Grid(set_id, title, mode, attempts, due, past_due, list(drills), rows, not_started)


def _cell(trainee: str, drill_id: str, sessions: list[Any], playing: set[tuple[str, str]], attempts: int | None,
          past_due: bool, first_ever: Any | None = None,
          order: Callable[[Any], Any] | None = None, unverified: Collection[str] = ()) -> GridCell:  # fmt: skip
    """The cell of ``trainee`` and ``drill_id``, from ``sessions``, the trainee's sessions of that drill in the set."""
    ran = sorted(sessions, key=order or by_stored_order())  # the gradebook's order: the first attempt first
    now = (trainee, drill_id) in playing
    used = len(ran) + (1 if now else 0)
    left = None if attempts is None else max(attempts - used, 0)
    done = [s for s in ran if s.outcome != "abandoned"]
    if done:
        first = first_ever if first_ever is not None else ran[0]
        grade = gradebook_cell(ran, first_ever, unverified)
        if first.session_id in unverified:  # no outcome nor score: the review of it says why
            return GridCell(DONE, used, left, "first attempt not verified", None, first.session_id, grade=grade)
        if getattr(first, "chosen", False):  # warroom run --as/--seed: no trial, so no score (as the gradebook)
            return GridCell(DONE, used, left, "first attempt a chosen trial", None, first.session_id, grade=grade)
        score = int(first.total) if first.outcome != "abandoned" else 0
        return GridCell(DONE, used, left, first.outcome, score, first.session_id, grade=grade,
                        all_clear=getattr(first, "all_clear", None))
    if now:
        return GridCell(PROGRESS, used, left, past_due=past_due)
    state = NONE_LEFT if left == 0 else TODO
    return GridCell(state, used, left, past_due=past_due)
