"""The cohort statistics (docs/sessions.md, "Cohort statistics") of ``warroom scores summary`` and ``warroom
report``: :func:`compute_summary`, and their rendering as tables with compact bars (:func:`print_tables`) or CSV rows.

The command itself is :mod:`warroom.cli.scores._summary`.
Heavy imports (Rich, the store) happen inside the functions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from warroom.core.text import clean, number, percent, plural, seconds

if TYPE_CHECKING:
    from warroom.core.stats import CohortStats, DrillStats, TraineeStats


#: The CSV columns of the summary: ``scope`` (trainee, drill or cohort) and ``name``, the modes counted, then every
#: field of the trainee, drill and cohort figures (empty where a scope has no such figure).
SUMMARY_CSV_COLUMNS = (
    "scope",
    "name",
    "counted_mode",
    "sessions",
    "abandoned",
    "fault_sessions",
    "hits",
    "hit_rate",
    "all_clear_sessions",
    "false_alarms",
    "false_alarm_rate",
    "false_escalations_per_all_clear",
    "distractors_shown",
    "distractors_escalated",
    "distractor_escalation_rate",
    "d_prime",
    "criterion_c",
    "a_prime",
    "median_time_to_detect",
    "median_wall_time_to_detect",
    "mean_score",
    "reliability",
    "more_sessions_needed",
    "all_clear",
    "trainees",
    "difficulty",
    "discrimination",
    "distractor_pulls",
    "split_half_r",
    "half_sessions",
    "sessions_needed",
    "target",
)

#: Width of a bar in characters (each character holds eighths, so a bar shows 1/160 steps).
BAR_WIDTH = 20
_EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(frozen=True)
class Summary:
    """The cohort statistics of the matching sessions and what was counted: ``label`` (assessment, practice or
    all), ``counted`` sessions (abandoned ones included, counted apart) and ``left_out`` (of the other mode); the
    matching sessions that are not verified (``unverified``: a :class:`~warroom.store.cohort.Unverified`, None: not
    looked at), left out of the figures unless counted on request."""

    stats: CohortStats
    label: str
    counted: int
    left_out: int
    unverified: Any = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON export: ``counted`` ({mode, sessions, left_out}), ``unverified`` ({sessions, counted, ids}: the
        matching sessions not verified, whether the figures count them, the first 100 of their ids) then the
        statistics' dict."""
        out: dict[str, Any] = {"counted": {"mode": self.label, "sessions": self.counted, "left_out": self.left_out}}
        if self.unverified is not None:
            u = self.unverified
            out["unverified"] = {"sessions": u.count, "counted": u.counted, "ids": [c.session_id for c in u.checks]}
        return {**out, **self.stats.to_dict()}


def compute_summary(facts: list[Any], mode: str = "auto", unverified: Any = None) -> Summary:
    """The :class:`Summary` of ``facts`` (:class:`~warroom.core.stats.SessionFacts`) for ``mode`` (see
    :func:`warroom.store.cohort.counted_modes`); ``unverified`` as :class:`Summary` has it. Raises ValueError for an
    unknown mode."""
    from warroom.core.stats import summarize
    from warroom.store.cohort import counted_modes

    counted = counted_modes(facts, mode)
    stats = summarize(facts, modes=counted.modes)
    return Summary(stats, counted.label, len(facts) - stats.skipped_by_mode, stats.skipped_by_mode, unverified)


def summary_of(result: Any, unverified: Any = None) -> Summary:
    """The :class:`Summary` of the statistics counted in the store (a
    :class:`~warroom.store.cohort.CohortResult`)."""
    left_out = result.stats.skipped_by_mode
    return Summary(result.stats, result.counted.label, result.matched - left_out, left_out, unverified)


def csv_rows(summary: Summary) -> list[dict[str, Any]]:
    """The CSV rows: one per trainee (``scope`` trainee), one per drill, one for the cohort's reliability."""
    label = {"counted_mode": summary.label}
    rows = [{"scope": "trainee", "name": t.trainee, **label, **t.to_dict()} for t in summary.stats.trainees]
    for d in summary.stats.drills:
        cells = d.to_dict() | {"distractor_pulls": json.dumps(d.distractor_pulls, ensure_ascii=False)}
        rows.append({"scope": "drill", "name": d.drill_id, **label, **cells})
    rows.append({"scope": "cohort", "name": "reliability", **label, **summary.stats.reliability.to_dict()})
    return rows


# ---------------------------------------------------------------------------------------------------------------
# The tables and bars
# ---------------------------------------------------------------------------------------------------------------


def bar(fraction: float | None, width: int = BAR_WIDTH) -> str:
    """A bar of ``width`` characters filled to ``fraction`` (0..1, clamped; eighths of a character), padded with
    spaces; all spaces for None."""
    if fraction is None:
        return " " * width
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)


def counted_line(summary: Summary) -> str:
    """Which sessions were counted, for people (the first line of the table output)."""
    s = summary.stats
    abandoned = sum(t.abandoned for t in s.trainees)
    what = "every session" if summary.label == "all" else f"{summary.label} sessions"
    line = f"Counted: {what}, {plural(summary.counted, 'session')} ({abandoned:,} abandoned, counted apart)"
    if summary.left_out:
        other = "practice" if summary.label == "assessment" else "assessment"
        line += f"; {plural(summary.left_out, other + ' session')} left out (--mode all counts them)"
    return line + "." + unverified_sentence(summary.unverified)


def unverified_sentence(unverified: Any) -> str:
    """What the figures did with the sessions that are not verified (a :class:`~warroom.store.cohort.Unverified`),
    as a sentence starting with a space ("" when there are none)."""
    if unverified is None or not unverified.count:
        return ""
    n = plural(unverified.count, "session")
    if unverified.counted:
        return f" {n} not verified {'is' if unverified.count == 1 else 'are'} counted (--include-unverified)."
    are = "is" if unverified.count == 1 else "are"
    return (f" {n} not verified (stored by a trainee's own client, imported, or found wrong by `warroom scores "
            f"verify`) {are} left out: `warroom scores verify` says why and checks them; --include-unverified counts "
            "them.")  # fmt: skip


def _trainee_rows(trainees: list[TraineeStats]) -> list[list[str]]:
    return [
        [
            clean(t.trainee),
            str(t.sessions),
            str(t.abandoned),
            percent(t.hit_rate),
            percent(t.false_alarm_rate),
            number(t.d_prime, 2),
            number(t.criterion_c, 2),
            number(t.a_prime, 2),
            seconds(t.median_time_to_detect),
            seconds(t.median_wall_time_to_detect),
            number(t.mean_score, 1),
            number(t.reliability, 2) + ("" if t.more_sessions_needed in (None, 0) else f" (+{t.more_sessions_needed})"),
        ]
        for t in trainees
    ]


_TRAINEE_COLUMNS = [
    ("trainee", "trainee", True),
    ("sessions", "sessions", False),
    ("quit", "quit", False),
    ("hit rate", "hit rate", False),
    ("false alarms", "false alarms", False),
    ("d", "d′", False),
    ("c", "c", False),
    ("a", "A′", False),
    ("ttd", "median ttd", False),
    ("wall ttd", "wall ttd", False),
    ("mean score", "mean score", False),
    ("reliability", "reliability", False),
]

_DRILL_COLUMNS = [
    ("drill", "drill", True),
    ("sessions", "sessions", False),
    ("trainees", "trainees", False),
    ("quit", "quit", False),
    ("difficulty", "difficulty", False),
    ("discrimination", "discrimination", False),
    ("ttd", "median ttd", False),
    ("wall ttd", "wall ttd", False),
    ("pulls", "distractor pulls", False),
]


def _drill_rows(drills: list[DrillStats]) -> list[list[str]]:
    return [
        [
            clean(d.drill_id + (" (all-clear)" if d.all_clear else "")),
            str(d.sessions),
            str(d.trainees),
            str(d.abandoned),
            percent(d.difficulty),
            number(d.discrimination, 2),
            seconds(d.median_time_to_detect),
            seconds(d.median_wall_time_to_detect),
            clean(", ".join(f"{e} ×{n}" for e, n in d.distractor_pulls.items()) or "-"),
        ]
        for d in drills
    ]


def bar_lines(headers: tuple[str, str, str], rows: list[tuple[str, float | None, float | None]]) -> list[str]:
    """Plain lines of two bars per row: ``name  bar1 value1  bar2 value2`` (values as shares, shown as percentages;
    a negative second value is drawn by its size and shown with its sign, as a correlation). Names are cleaned and
    padded to the widest; the first bar is green, the second red (blue for a positive correlation) on a terminal.
    Plain strings rather than a table: a cohort of 500 trainees prints in milliseconds."""
    from rich.cells import cell_len

    width = max([cell_len(clean(n)) for n, _, _ in rows] + [cell_len(headers[0])])
    second_is_r = headers[2] == "discrimination"
    lines = [f"{headers[0]}{' ' * (width - cell_len(headers[0]))}  {headers[1]:<{BAR_WIDTH + 5}}  {headers[2]}"]
    for name, first, second in rows:
        text = clean(name)
        pad = " " * (width - cell_len(text))
        one = click.style(bar(first), fg="green") + f" {percent(first):>4}"
        size = None if second is None else abs(second)
        colour = "red" if not second_is_r or (second is not None and second < 0) else "blue"
        two = click.style(bar(size), fg=colour) + f" {number(second, 2) if second_is_r else percent(second):>5}"
        lines.append(f"{text}{pad}  {one}  {two}".rstrip())
    return lines


def reliability_line(summary: Summary) -> str:
    """The cohort's split-half reliability in one sentence."""
    r = summary.stats.reliability
    if r.split_half_r is None or r.half_sessions is None:
        return f"Reliability: needs at least 3 trainees with 2 or more sessions ({r.trainees} now)."
    head = f"Split-half reliability: r = {number(r.split_half_r, 2)} across {r.trainees} trainees"
    if r.reliability is None:
        return head + "; the halves do not agree, so no number of drills makes the mean score reliable."
    return (
        f"{head}; {number(r.reliability, 2)} at {number(2 * r.half_sessions, 1)} sessions; "
        f"{r.sessions_needed} {'session reaches' if r.sessions_needed == 1 else 'sessions reach'} "
        f"{number(r.target, 2)} (Spearman–Brown)."
    )


def _fitted(columns: list[tuple[str, str, bool]], rows: list[list[str]], width: int) -> list[Any]:
    """One table of ``rows`` no wider than ``width``; else two, each with the first (name) column and half of the
    others; else one as wide as it needs."""
    from warroom.cli.common import UNBOUNDED_WIDTH
    from warroom.cli.scores._tables import fitted_table

    table = fitted_table(columns, rows, width)
    if table is not None:
        return [table]
    half = 1 + (len(columns) - 1 + 1) // 2
    parts = [list(range(half)), [0, *range(half, len(columns))]]
    tables = [fitted_table([columns[i] for i in p], [[r[i] for i in p] for r in rows], width) for p in parts]
    if all(t is not None for t in tables):
        return tables
    return [fitted_table(columns, rows, UNBOUNDED_WIDTH)]


def print_tables(summary: Summary, scope: str = "") -> None:
    """Print the statistics' tables and bars; ``scope`` (the mode and drill set the sessions are limited to, see
    :meth:`warroom.cli.scores._options.Filters.scope`) is named in the titles."""
    from warroom.cli.common import make_console, print_renderables

    console = make_console()
    stats = summary.stats
    t_tables = _fitted(_TRAINEE_COLUMNS, _trainee_rows(stats.trainees), console.width)
    d_tables = _fitted(_DRILL_COLUMNS, _drill_rows(stats.drills), console.width)
    scope = f" ({clean(scope)})" if scope else ""
    print_renderables(console, counted_line(summary), "Per trainee" + scope, *t_tables)
    trainee_rows = [(t.trainee, t.hit_rate, t.false_alarm_rate) for t in stats.trainees]
    for line in bar_lines(("trainee", "hit rate", "false-alarm rate"), trainee_rows):
        click.echo(line)
    print_renderables(console, "Per drill" + scope, *d_tables)
    drill_rows = [(d.drill_id, d.difficulty, d.discrimination) for d in stats.drills]
    for line in bar_lines(("drill", "difficulty", "discrimination"), drill_rows):
        click.echo(line)
    print_renderables(
        console,
        reliability_line(summary),
        "hit rate: contained on time / drills with a fault played; false alarms: all-clear drills escalated / "
        "all-clear drills played; d′ (log-linear correction), criterion c and A′: sensitivity and bias; median ttd: "
        "median time to detect in drill seconds from the earliest evidence, wall ttd in real seconds from the "
        "session's start (pauses included); reliability: of the mean score (+ more drills needed to reach 0.7); "
        "difficulty: share of sessions correct (higher is easier); discrimination: "
        "correlation of a drill with the trainee's other scores; distractor pulls: escalations each distractor "
        'event pulled. docs/sessions.md, "Cohort statistics", has every formula.',
    )
