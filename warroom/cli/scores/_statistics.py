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

from warroom.core.scoring import SCORING_VERSION
from warroom.core.stats import d_prime_cell, drill_cells, estimate_cell, median_cell, rate_cell
from warroom.core.text import clean, number, percent, plural, visible_name

if TYPE_CHECKING:
    from warroom.core.stats import CohortStats, DrillStats, Reliability, TraineeStats


#: The CSV columns of the summary: ``scope`` (trainee, drill, or cohort for the reliabilities) and ``name``, the modes
#: counted, then every field of the trainee, drill and reliability figures (empty where a scope has no such figure).
SUMMARY_CSV_COLUMNS = (
    "scope", "name", "counted_mode",
    "sessions", "replays", "trials", "abandoned", "abandoned_apart", "chosen", "approximated",
    "signal_trials", "hits", "localisation_errors", "misses", "hit_rate", "hit_rate_low", "hit_rate_high",
    "noise_trials", "false_alarms", "noise_abandoned", "correct_rejections", "distinct_controls",
    "false_alarm_rate", "false_alarm_rate_low", "false_alarm_rate_high", "false_escalations_per_noise_trial",
    "distractors_shown", "distractors_escalated", "distractor_escalation_rate", "distractor_escalation_rate_low",
    "distractor_escalation_rate_high", "enough_trials",
    "d_prime", "d_prime_low", "d_prime_high", "criterion_c", "criterion_c_low", "criterion_c_high",
    "a_prime", "a_prime_low", "a_prime_high",
    "median_time_to_detect", "time_to_detect_trials", "median_wall_time_to_detect", "wall_time_to_detect_trials",
    "mean_score",
    "d_prime_reliability", "more_trials_needed", "score_reliability", "score_more_trials_needed", "warnings",
    "all_clear", "trainees", "correct", "difficulty", "difficulty_low", "difficulty_high", "discrimination",
    "discrimination_low", "discrimination_high", "discrimination_trials", "distractor_pulls",
    "measure", "status", "split_half_r", "half_trials", "reliability", "trials_needed", "target",
)  # fmt: skip

#: Drills the summary's table shows (rows and bars) unless ``--all`` is given: with 10,000 drills the table took a
#: minute, Rich laying out about 6 ms a row, and no one reads that many rows; the rest are counted under the table
#: (``and N more drills``), and JSON and CSV carry them all.
SHOWN_DRILLS = 100
#: Trainees the per-trainee table shows (rows and bars) unless ``--all`` is given, for the same reason: Rich lays
#: out about 1.4 ms a row (3,000 trainees: 4.6 s of CPU for the tables against 0.6 s for JSON), and a class is
#: rarely this large; the rest are counted under the table, JSON and CSV carry them all.
SHOWN_TRAINEES = 500

#: Width of a bar in characters (each character holds eighths, so a bar shows 1/160 steps).
BAR_WIDTH = 20
_EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(frozen=True)
class Summary:
    """The cohort statistics of the matching sessions and what was counted: ``label`` (assessment, practice or
    all), ``counted`` sessions of the counted modes (trials and replays) and ``left_out`` (of the other mode); the
    matching sessions that are not verified (``unverified``: a :class:`~warroom.store.cohort.Unverified`, None: not
    looked at), left out of the figures unless counted on request; ``in_progress``: sessions of the matching
    trainee and drill being played now (a live journal), which no figure counts yet; ``tutorial``: matching sessions of
    the guided tutorial, which no figure ever counts."""

    stats: CohortStats
    label: str
    counted: int
    left_out: int
    unverified: Any = None
    in_progress: int = 0
    tutorial: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON export: ``counted`` ({mode, sessions, trials, replays, abandoned, abandoned_apart, chosen,
        approximated, left_out, tutorial}), ``unverified`` ({sessions, counted, ids}: the matching sessions not
        verified, whether the figures count them, the first 100 of their ids), ``in_progress`` (sessions being played
        now, not counted yet) then the statistics' dict."""
        s = self.stats
        counted = {
            "mode": self.label, "sessions": self.counted, "trials": s.trials, "replays": s.replays,
            "abandoned": s.abandoned, "abandoned_apart": s.abandoned_apart, "chosen": s.chosen,
            "approximated": s.approximated,
            "left_out": self.left_out, "tutorial": self.tutorial,
        }  # fmt: skip
        out: dict[str, Any] = {"counted": counted}
        if self.unverified is not None:
            u = self.unverified
            out["unverified"] = {"sessions": u.count, "counted": u.counted, "ids": [c.session_id for c in u.checks]}
        out["in_progress"] = self.in_progress
        return {**out, **s.to_dict()}


def compute_summary(facts: list[Any], mode: str = "auto", within: Any = None, unverified: Any = None) -> Summary:
    """The :class:`Summary` of ``facts`` (:class:`~warroom.core.stats.SessionFacts` of the matching trainees and
    drills) for ``mode`` (see :func:`warroom.store.cohort.counted_modes`); ``within``: the sessions the window
    filters keep (None: all; the first attempts are found among all ``facts``); ``unverified`` as :class:`Summary`
    has it. Raises ValueError for an unknown mode."""
    from warroom.core.stats import summarize
    from warroom.store.cohort import counted_modes

    kept = facts if within is None else [f for f in facts if within(f)]
    counted = counted_modes(kept, mode)
    stats = summarize(facts, modes=counted.modes, within=within)
    return Summary(stats, counted.label, len(kept) - stats.skipped_by_mode, stats.skipped_by_mode, unverified)


def summary_of(result: Any, unverified: Any = None) -> Summary:
    """The :class:`Summary` of the statistics counted in the store (a
    :class:`~warroom.store.cohort.CohortResult`)."""
    left_out = result.stats.skipped_by_mode
    return Summary(result.stats, result.counted.label, result.matched - left_out, left_out, unverified)


def csv_rows(summary: Summary) -> list[dict[str, Any]]:
    """The CSV rows: one per trainee (``scope`` trainee; ``warnings`` joined by ``; ``), one per drill, one per
    reliability (``scope`` cohort, ``name`` ``d_prime_reliability`` or ``score_reliability``)."""
    label = {"counted_mode": summary.label}
    rows = []
    for t in summary.stats.trainees:
        cells = t.to_dict() | {"warnings": "; ".join(t.warnings)}
        rows.append({"scope": "trainee", "name": t.trainee, **label, **cells})
    for d in summary.stats.drills:
        cells = d.to_dict() | {"distractor_pulls": json.dumps(d.distractor_pulls, ensure_ascii=False)}
        rows.append({"scope": "drill", "name": d.drill_id, **label, **cells})
    for name in ("d_prime_reliability", "score_reliability"):
        rows.append({"scope": "cohort", "name": name, **label, **getattr(summary.stats, name).to_dict()})
    return rows


# ---------------------------------------------------------------------------------------------------------------
# Cells: counts, intervals, minimums
# ---------------------------------------------------------------------------------------------------------------


def _two(value: float) -> str:
    return f"{value:.2f}".replace("-0.00", "0.00")


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
    what = "every session" if summary.label == "all" else f"{summary.label} sessions"
    line = (
        f"Counted: {what}: {plural(s.trials, 'trial')} (each trainee's first attempt at each drill) of "
        f"{plural(summary.counted, 'session')}; {plural(s.replays, 'replay')} listed apart"
    )
    if s.abandoned:
        if s.abandoned_apart == s.abandoned:
            line += f"; {s.abandoned:,} abandoned, kept apart (practice)"
        elif s.abandoned_apart:
            line += f"; {s.abandoned:,} abandoned ({s.abandoned_apart:,} of practice kept apart, the rest counted)"
        else:
            line += f"; {s.abandoned:,} abandoned, counted with their response"
    if s.chosen:
        line += (f"; {plural(s.chosen, 'first attempt')} whose trial was chosen (`warroom run --as`/`--seed`), "
                 "kept apart: no trial")
    if summary.left_out:
        other = "practice" if summary.label == "assessment" else "assessment"
        line += f"; {plural(summary.left_out, other + ' session')} left out (--mode all counts them)"
    if summary.tutorial:
        them = plural(summary.tutorial, "it", "them", count=False)
        line += (f"; {plural(summary.tutorial, 'tutorial session')} not counted (`warroom scores list --mode "
                 f"tutorial` lists {them})")
    return line + "." + unverified_sentence(summary.unverified)


def tutorial_matches(n: int) -> str:
    """``1 tutorial session matches, which the statistics never count (...)``: what the summary and the report say
    when the only matching sessions are the guided tutorial's."""
    match = plural(n, "matches", "match", count=False)
    them = plural(n, "it", "them", count=False)
    return (f"{plural(n, 'tutorial session')} {match}, which the statistics never count (`warroom scores list "
            f"--mode tutorial` lists {them})")


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


def in_progress_line(in_progress: int) -> str | None:
    """The line on the sessions being played now (None when there are none)."""
    if not in_progress:
        return None
    return (
        f"{plural(in_progress, 'session')} in progress, not counted yet (counted once "
        f"{'it ends' if in_progress == 1 else 'they end'})."
    )


def approximated_line(summary: Summary) -> str | None:
    """The sentence on trials whose response was approximated from an older scorecard (None when there are none)."""
    n = summary.stats.approximated
    if not n:
        return None
    return (
        f"{plural(n, 'trial')} of {summary.stats.trials:,} {plural(n, 'was', 'were', count=False)} scored by rules "
        "before version 4: the response is approximated from the outcome (`warroom scores rescore --rules "
        f"{SCORING_VERSION}` records it)."
    )


def _trainee_rows(trainees: list[TraineeStats]) -> list[list[str]]:
    return [
        [
            visible_name(t.trainee),  # (a zero-width space in a name written by SQL: shown)
            str(t.trials),
            str(t.replays),
            str(t.abandoned),
            rate_cell(t.hits, t.signal_trials, t.hit_rate_low, t.hit_rate_high),
            rate_cell(t.false_alarms + t.noise_abandoned, t.noise_trials, t.false_alarm_rate_low,
                      t.false_alarm_rate_high) + (" !" if t.warnings else ""),
            d_prime_cell(t),
            estimate_cell(t.criterion_c, t.criterion_c_low, t.criterion_c_high),
            estimate_cell(t.a_prime, t.a_prime_low, t.a_prime_high),
            median_cell(t.median_time_to_detect, t.time_to_detect_trials),
            number(t.mean_score, 1),
            number(t.d_prime_reliability, 2) + _more(t.more_trials_needed),
        ]
        for t in trainees
    ]


def _more(needed: int | None) -> str:
    return "" if needed in (None, 0) else f" (+{needed})"


_TRAINEE_COLUMNS = [
    ("trainee", "trainee", True),
    ("trials", "trials", False),
    ("replays", "replays", False),
    ("quit", "quit", False),
    ("hit rate", "hit rate [95%]", False),
    ("false alarms", "false-alarm rate [95%]", False),
    ("d", "d′ [95%]", False),
    ("c", "c [95%]", False),
    ("a", "A′ [95%]", False),
    ("ttd", "median ttd", False),
    ("mean score", "mean score", False),
    ("reliability", "d′ reliability", False),
]

_DRILL_COLUMNS = [
    ("drill", "drill", True),
    ("trials", "trials", False),
    ("replays", "replays", False),
    ("trainees", "trainees", False),
    ("quit", "quit", False),
    ("difficulty", "difficulty [95%]", False),
    ("discrimination", "discrimination [95%]", False),
    ("ttd", "median ttd", False),
    ("wall ttd", "wall ttd", False),
    ("pulls", "distractor pulls", False),
]


def _drill_rows(drills: list[DrillStats]) -> list[list[str]]:
    return [[clean(cell) for cell in drill_cells(d)] for d in drills]


def warnings_line(trainees: list[TraineeStats], most: int = 8) -> str | None:
    """The footnote of the ``!`` marks: whose false-alarm rate rests on too few noise trials or controls."""
    from warroom.core.stats import MIN_DISTINCT_CONTROLS, MIN_NOISE_TRIALS

    marked = [t for t in trainees if t.warnings]
    if not marked:
        return None
    names = ", ".join(
        f"{visible_name(t.trainee)} ({plural(t.noise_trials, 'noise trial')}, {plural(t.distinct_controls, 'control')})"
        for t in marked[:most]
    )
    more = f", {len(marked) - most:,} more" if len(marked) > most else ""
    return (
        f"! false-alarm rate resting on fewer than {MIN_NOISE_TRIALS} noise trials or {MIN_DISTINCT_CONTROLS} "
        f"distinct controls (drills played as noise): {names}{more}."
    )


def bar_lines(headers: tuple[str, str, str], rows: list[tuple[str, float | None, float | None]]) -> list[str]:
    """Plain lines of two bars per row: ``name  bar1 value1  bar2 value2`` (values as shares, shown as percentages;
    a negative second value is drawn by its size and shown with its sign, as a correlation). Names are cleaned
    (invisible characters escaped too) and padded to the widest; the first bar is green, the second red (blue for a
    positive correlation) on a terminal. Plain strings rather than a table: a cohort of 500 trainees prints in
    milliseconds."""
    from rich.cells import cell_len

    width = max([cell_len(visible_name(n)) for n, _, _ in rows] + [cell_len(headers[0])])
    second_is_r = headers[2] == "discrimination"
    lines = [f"{headers[0]}{' ' * (width - cell_len(headers[0]))}  {headers[1]:<{BAR_WIDTH + 5}}  {headers[2]}"]
    for name, first, second in rows:
        text = visible_name(name)
        pad = " " * (width - cell_len(text))
        one = click.style(bar(first), fg="green") + f" {percent(first):>4}"
        size = None if second is None else abs(second)
        colour = "red" if not second_is_r or (second is not None and second < 0) else "blue"
        two = click.style(bar(size), fg=colour) + f" {number(second, 2) if second_is_r else percent(second):>5}"
        lines.append(f"{text}{pad}  {one}  {two}".rstrip())
    return lines


def reliability_line(summary: Summary) -> str:
    """The cohort's split-half reliability of d′ (the headline measure) in one sentence."""
    return reliability_sentence(summary.stats.d_prime_reliability)


def score_reliability_line(summary: Summary) -> str:
    """The cohort's split-half reliability of the mean score (secondary) in one sentence."""
    return reliability_sentence(summary.stats.score_reliability)


def reliability_sentence(r: Reliability) -> str:
    """A :class:`~warroom.core.stats.Reliability` for people: estimated (r, the reliability at the cohort's length,
    the trials that reach the target), too few trainees to estimate, or too weak to project."""
    from warroom.core.stats import MIN_PROPHECY_R, MIN_RELIABILITY_TRAINEES

    if r.measure == "d_prime":
        head, who = "Reliability of d′ (split-half, Spearman–Brown)", "with 5 signal and 2 noise trials in each half"
    else:
        head, who = "Reliability of the mean score (secondary; split-half, Spearman–Brown)", "with 2 or more trials"
    if r.status == "too_few":
        many = plural(r.trainees, "trainee")
        return f"{head}: too few to estimate ({many} {who}; {MIN_RELIABILITY_TRAINEES} needed)."
    if r.status == "too_weak" or r.reliability is None or r.half_trials is None:
        shown = "undefined" if r.split_half_r is None else _two(r.split_half_r)
        if r.split_half_r is not None and shown == _two(MIN_PROPHECY_R):  # (0.195 is not "0.20, below 0.20")
            shown = f"{r.split_half_r:.3f}"
        return (
            f"{head}: r = {shown} across {plural(r.trainees, 'trainee')} — too weak to project (no number of trials "
            f"is projected below r = {number(MIN_PROPHECY_R, 2)})."
        )
    return (
        f"{head}: r = {_two(r.split_half_r or 0)} across {plural(r.trainees, 'trainee')}; "
        f"{_two(r.reliability)} at {number(2 * r.half_trials, 1)} trials; "
        f"{r.trials_needed} {'trial reaches' if r.trials_needed == 1 else 'trials reach'} {number(r.target, 2)}."
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


def more_drills_line(shown: int, drills: int, what: str = "drill") -> str | None:
    """The line under a per-drill (or per-``what``: ``trainee``) table cut at ``shown`` of ``drills`` rows (None
    when none was left out)."""
    if drills <= shown:
        return None
    by = "drill id" if what == "drill" else "name"
    return (
        f"and {plural(drills - shown, f'more {what}')} (the first {shown:,} by {by} are shown): --all shows every "
        f"{what}; --format json or csv gives every figure of every {what}."
    )


def print_tables(summary: Summary, scope: str = "", all_drills: bool = False) -> None:
    """Print the statistics' tables and bars; ``scope`` (the mode and drill set the sessions are limited to, see
    :meth:`warroom.cli.scores._options.Filters.scope`) is named in the titles. The per-drill table and bars show the
    first :data:`SHOWN_DRILLS` drills, the per-trainee ones the first :data:`SHOWN_TRAINEES` trainees, and count the
    others, unless ``all_drills``."""
    from warroom.cli.common import make_console, print_renderables

    console = make_console()
    stats = summary.stats
    drills = stats.drills if all_drills else stats.drills[:SHOWN_DRILLS]
    trainees = stats.trainees if all_drills else stats.trainees[:SHOWN_TRAINEES]
    more = [m for m in [more_drills_line(len(drills), len(stats.drills))] if m]
    more_trainees = [m for m in [more_drills_line(len(trainees), len(stats.trainees), "trainee")] if m]
    t_tables = _fitted(_TRAINEE_COLUMNS, _trainee_rows(trainees), console.width)
    d_tables = _fitted(_DRILL_COLUMNS, _drill_rows(drills), console.width)
    scope = f" ({clean(scope)})" if scope else ""
    lead = [counted_line(summary), *filter(None, [in_progress_line(summary.in_progress), approximated_line(summary)])]
    warning = [w for w in [warnings_line(stats.trainees)] if w]
    print_renderables(console, *lead, "Per trainee" + scope, *t_tables, *more_trainees, *warning)
    trainee_rows = [(t.trainee, t.hit_rate, t.false_alarm_rate) for t in trainees]
    for line in bar_lines(("trainee", "hit rate", "false-alarm rate"), trainee_rows):
        click.echo(line)
    print_renderables(console, "Per drill" + scope, *d_tables, *more)
    drill_rows = [(d.drill_id, d.difficulty, d.discrimination) for d in drills]
    for line in bar_lines(("drill", "difficulty", "discrimination"), drill_rows):
        click.echo(line)
    print_renderables(console, reliability_line(summary), score_reliability_line(summary), LEGEND)


#: The legend under the tables (docs/sessions.md, "Cohort statistics", has every definition).
LEGEND = (
    "A trial is a trainee's first attempt at a drill; replays are listed apart. hit rate: hits / signal trials "
    "(a hit: the first escalation names the fault's origin with specific evidence, on time); false-alarm rate: (false "
    "alarms + noise trials abandoned) / noise trials; k/n, the percentage and its 95% Wilson interval [low–high]. "
    "d′ and c (log-linear correction; delta-method 95% interval) and A′ (exact parametric bootstrap interval): shown "
    "from 10 signal and 5 noise trials. quit: first attempts abandoned. median ttd: drill seconds from the earliest "
    "evidence to the containing escalation, (n=…) the trials that detected the fault; wall ttd: median real seconds "
    "from the session's start to the containing escalation, (n=…) the trials that recorded it (not comparable with "
    "median ttd). d′ reliability: at the trainee's trials (+ more trials to reach 0.7). difficulty: share of trials "
    "correct (higher is easier); discrimination: correlation of a drill with the trainee's other scores [95%] "
    "(n=…) the trials it rests on; distractor "
    'pulls: the distractor events that drew escalations, each with its count (e05 ×2). docs/sessions.md, "Cohort '
    'statistics", has every formula.'
)
