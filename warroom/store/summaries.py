"""Summary figures of the results store, per trainee and per drill.

- *contained rate*: sessions whose outcome is ``contained`` or ``contained_late``, divided by the sessions of
  drills that have a fault (all-clear control drills have nothing to contain); None when there are none;
- *false escalation rate*: sessions with at least one false escalation, divided by all sessions (a false
  escalation is any escalation that did not contain the incident; "false alarm" is only the outcome of a session
  whose every escalation was one, before any evidence or in an all-clear drill);
- *median time to detect*: over the sessions that detected the fault (time to detect not NULL); None if none did;
- *mean score* and *median score*: over all sessions.

Rows whose summary columns hold values of the wrong type are left out of every figure
(:meth:`~warroom.store.queries.StoreQueries.invalid_rows` names them). :class:`StoreSummaries` is a part of
:class:`~warroom.store.results.ResultsStore`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warroom.core.model import CONTAINED_OUTCOMES as _CONTAINED
from warroom.store.queries import StoreQueries
from warroom.store.schema import _guard

#: Outcome values that count as containing the incident (from the core's :class:`~warroom.core.model.Outcome`).
CONTAINED_OUTCOMES: tuple[str, ...] = tuple(sorted(o.value for o in _CONTAINED))


@dataclass(frozen=True)
class TraineeSummary:
    """Figures for one trainee (see the module docstring for the definitions)."""

    trainee: str
    sessions: int
    drills_run: int
    contained_rate: float | None
    median_time_to_detect: float | None
    false_escalation_rate: float
    mean_score: float

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class DrillSummary:
    """Figures for one drill: attempts, contained rate, median score (is it too easy or too hard?)."""

    drill_id: str
    attempts: int
    trainees: int
    contained_rate: float | None
    median_score: float
    all_clear: bool

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


#: SQL for two summary figures of a group of sessions: how many were on drills with a fault, and how many of
#: those contained it (in time or late). The contained rate of the summaries is the second over the first.
_FAULTED_AND_CONTAINED_SQL = (
    "count(CASE WHEN all_clear = 0 THEN 1 END), count(CASE WHEN all_clear = 0 AND outcome IN ({}) THEN 1 END)"
).format(
    ", ".join(f"'{o}'" for o in CONTAINED_OUTCOMES)
)


class StoreSummaries(StoreQueries):
    """The summaries of :class:`~warroom.store.results.ResultsStore`."""

    def _medians(
        self, group: str, column: str, where: str, params: list[Any], counts: dict[str, int]
    ) -> dict[str, float]:
        """Median of ``column`` per ``group`` value over the matching sessions; ``counts`` holds each group's number
        of non-NULL values. Each median reads one or two values at an offset of an index ordered by
        (``group``, ``column``), so it costs little even with 100,000 sessions."""
        cond = f"{where} AND" if where else " WHERE"
        sql = (
            f"SELECT {column} FROM sessions{cond} {group} = ? AND {column} IS NOT NULL "
            f"ORDER BY {column} LIMIT ? OFFSET ?"
        )
        out: dict[str, float] = {}
        for g, n in counts.items():
            if n:
                values = [v for (v,) in self._conn.execute(sql, [*params, g, 2 - n % 2, (n - 1) // 2])]
                out[g] = sum(values) / len(values)
        return out

    @_guard
    def trainee_summaries(
        self,
        *,
        trainee: str | None = None,
        drill: str | None = None,
        since: str | None = None,
        set_id: str | None = None,
        mode: str | None = None,
    ) -> list[TraineeSummary]:
        """Per-trainee figures over the matching sessions (``set_id`` / ``mode``: of that drill set / mode only),
        sorted by trainee name. Rows that a read would skip (see :meth:`invalid_rows`) are left out of every
        figure."""
        where, params = self._where(trainee, drill, since, summary=True, valid=True, set_id=set_id, mode=mode)
        sql = (
            f"SELECT trainee, count(*), count(DISTINCT drill_id), {_FAULTED_AND_CONTAINED_SQL}, "
            "count(CASE WHEN false_escalations > 0 THEN 1 END), avg(total), "
            f"count(time_to_detect) FROM sessions{where} GROUP BY trainee ORDER BY trainee"
        )
        rows = self._conn.execute(sql, params).fetchall()
        # The medians read the (trainee, time_to_detect) index: they check only the columns in it, so they never
        # look up whole rows (a row left out for a bad total still has a readable time to detect).
        checked = ("trainee", "drill_id", "started_at", "time_to_detect")
        mwhere, mparams = self._where(
            trainee, drill, since, summary=True, valid=True, checked=checked, set_id=set_id, mode=mode
        )
        counts = dict(
            self._conn.execute(f"SELECT trainee, count(time_to_detect) FROM sessions{mwhere} GROUP BY trainee", mparams)
        )
        medians = self._medians("trainee", "time_to_detect", mwhere, mparams, counts)
        return [
            TraineeSummary(
                trainee=t,
                sessions=n,
                drills_run=drills,
                contained_rate=(n_contained / faulted) if faulted else None,
                median_time_to_detect=medians.get(t),
                false_escalation_rate=n_false / n,
                mean_score=float(mean),
            )
            for t, n, drills, faulted, n_contained, n_false, mean, _ in rows
        ]

    @_guard
    def drill_summaries(
        self,
        *,
        trainee: str | None = None,
        drill: str | None = None,
        since: str | None = None,
        set_id: str | None = None,
        mode: str | None = None,
    ) -> list[DrillSummary]:
        """Per-drill figures over the matching sessions (``set_id`` / ``mode``: of that drill set / mode only),
        sorted by drill id. Rows that a read would skip (see :meth:`invalid_rows`) are left out of every figure."""
        # Only the columns this summary reads are checked, so it stays on its covering index.
        checked = ("trainee", "drill_id", "started_at", "outcome", "total", "all_clear")
        where, params = self._where(
            trainee, drill, since, summary=True, valid=True, checked=checked, set_id=set_id, mode=mode
        )
        sql = (
            f"SELECT drill_id, count(*), count(DISTINCT trainee), {_FAULTED_AND_CONTAINED_SQL} "
            f"FROM sessions{where} GROUP BY drill_id ORDER BY drill_id"
        )
        rows = self._conn.execute(sql, params).fetchall()
        medians = self._medians("drill_id", "total", where, params, {r[0]: r[1] for r in rows})
        return [
            DrillSummary(
                drill_id=d,
                attempts=n,
                trainees=n_trainees,
                contained_rate=(n_contained / faulted) if faulted else None,
                median_score=medians[d],
                all_clear=faulted == 0,
            )
            for d, n, n_trainees, faulted, n_contained in rows
        ]
