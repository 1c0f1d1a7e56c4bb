"""The page of ``warroom report``: one self-contained HTML file (inline CSS and SVG, no script, no link, no font or
image to fetch), readable with no network access and printable.

:func:`render` takes the cohort statistics and the session facts and returns the page's text. Every value from the
store is HTML-escaped and shown literally (control characters as ``\\xNN``).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from warroom import __version__
from warroom.core.text import clean, number

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 70rem;
       padding: 0 1rem; color: #212121; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #e0e0e0; }
.lead { color: #616161; } figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #424242; font-size: .9rem; max-width: 60rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0; display: block; max-width: 100%;
        overflow-x: auto; }
@media print { table { display: table; overflow: visible; } }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #eeeeee; text-align: right; }
th:first-child, td:first-child { text-align: left; } th { background: #fafafa; }
.note { color: #757575; font-size: .85rem; }
"""


def _e(value: object) -> str:
    """Store text for the page: control characters as ``\\xNN``, then HTML-escaped."""
    return escape(clean(value))


def _figure(fig_id: str, title: str, svg: str | None, caption: str, empty: str) -> str:
    if svg is None:  # nothing to draw: say so instead of an empty figure
        return f'<section id="{fig_id}"><h2>{escape(title)}</h2><p class="note">{escape(empty)}</p></section>'
    return (
        f'<section id="{fig_id}"><h2>{escape(title)}</h2><figure>{svg}'
        f"<figcaption>{escape(caption)}</figcaption></figure></section>"
    )


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _trainee_table(summary: Any) -> str:
    from warroom.core.stats import d_prime_cell, estimate_cell, median_cell, rate_cell

    rows = [
        [
            _e(t.trainee), str(t.trials), str(t.replays), str(t.abandoned),
            rate_cell(t.hits, t.signal_trials, t.hit_rate_low, t.hit_rate_high),
            rate_cell(t.false_alarms + t.noise_abandoned, t.noise_trials, t.false_alarm_rate_low,
                      t.false_alarm_rate_high),
            _e(d_prime_cell(t)), estimate_cell(t.criterion_c, t.criterion_c_low, t.criterion_c_high),
            estimate_cell(t.a_prime, t.a_prime_low, t.a_prime_high),
            median_cell(t.median_time_to_detect, t.time_to_detect_trials),
            median_cell(t.median_wall_time_to_detect, t.wall_time_to_detect_trials), number(t.mean_score, 1),
            number(t.d_prime_reliability, 2),
            "-" if t.more_trials_needed is None else str(t.more_trials_needed), _e("; ".join(t.warnings) or "-"),
        ]
        for t in summary.stats.trainees
    ]  # fmt: skip
    headers = ["trainee", "trials", "replays", "quit", "hit rate [95%]", "false-alarm rate [95%]", "d′ [95%]",
               "c [95%]", "A′ [95%]", "median ttd", "median wall ttd", "mean score", "d′ reliability",
               "more trials to 0.7", "warnings"]  # fmt: skip
    return _table(headers, rows)


def _drill_table(summary: Any) -> str:
    from warroom.core.stats import drill_cells

    rows = [[_e(cell) for cell in drill_cells(d)] for d in summary.stats.drills]
    headers = ["drill", "trials", "replays", "trainees", "quit", "difficulty [95%]",
               "discrimination [95%]", "median ttd", "median wall ttd", "distractor pulls"]  # fmt: skip
    return _table(headers, rows)


def _unverified_section(summary: Any) -> str:
    """The sessions that are not verified, with why (at most the first 100), or nothing when there are none."""
    u = summary.unverified
    if u is None or not u.count:
        return ""
    what = "counted (--include-unverified)" if u.counted else "left out of every figure above"
    rows = [[_e(c.session_id), _e(c.state), _e(c.submitted_by or "-"), _e(c.reason)] for c in u.checks]
    more = f" (the first {len(u.checks)} listed)" if len(u.checks) < u.count else ""
    return (
        f'<section id="unverified"><h2>Sessions not verified</h2><p class="note">{u.count:,} matching sessions are '
        f"not verified, {what}{more}: `warroom scores verify` recomputes each from its action log and its drill "
        "and records what it finds.</p>"
        + _table(["session", "state", "stored without a check by", "why"], rows)
        + "</section>"
    )


def _sections(summary: Any, trials: Sequence[Any]) -> list[str]:
    """The page's figures, each with its caption (or a sentence saying why there is nothing to draw)."""
    from warroom.cli.report import _figures as figs

    space, unplaced = figs.detection_space(summary)
    unplaced_note = (
        f'<p class="note">Not placed (no signal trial or no noise trial): {_e(", ".join(unplaced))}.</p>'
        if unplaced
        else ""
    )
    sensitivity, too_few = figs.d_prime_intervals(summary)
    too_few_note = (
        f'<p class="note">Too few trials for d′ (10 signal and 5 noise needed): {_e("; ".join(too_few))}.</p>'
    )
    return [
        _figure(
            "sensitivity", "Sensitivity: d′ per trainee", sensitivity,
            "Each trainee's d′ (log-linear correction) with its 95% interval (delta method), from their trials: "
            "the first attempt at each drill. 0 is chance; a bar that crosses 0 cannot tell the trainee from a "
            "guesser. Shown from 10 signal and 5 noise trials.",
            "No trainee has enough trials for d′ yet (10 signal and 5 noise trials).",
        ) + (too_few_note if too_few else ""),
        _figure(
            "detection", "Detection: hits against false alarms", space,
            "Each point is a trainee with the 95% Wilson intervals of both rates: up is more signal trials hit "
            "(the first escalation names the fault's origin with specific evidence, on time), left is fewer noise "
            "trials escalated or abandoned. The dashed line is chance (d′ = 0); the top-left corner is perfect "
            "detection.", "",
        ) + unplaced_note,
        _figure(
            "drills", "Drills: difficulty and discrimination", figs.drill_quality(summary),
            "Difficulty is the share of trials correct (hits and correct rejections), from first attempts. "
            "Discrimination is the point-biserial correlation of a trial being correct with the trainee's mean "
            "score on the other drills: near 0 or below, the drill does not tell strong trainees from weak ones.", "",
        ),
        _figure(
            "ttd", "Time to detect", figs.time_to_detect(trials),
            "Per drill, seconds of drill time from the earliest evidence to the escalation that contained the "
            "incident, over the trials: the box spans the middle half, the line in it is the median, each dot a "
            "trial (at most 200 per drill, spread evenly over the sorted times).",
            "No trial detected a fault.",
        ),
        _figure(
            "distractors", "Distractors that pulled escalations", figs.distractor_pulls(summary),
            "Escalations that cited a distractor (an odd-looking but harmless event), per drill and event, in the "
            "trials.",
            "No escalation was pulled by a distractor in the trials (or their scorecards do not record it).",
        ),
    ]  # fmt: skip


def render(summary: Any, facts: Sequence[Any], *, scope: str, generated_at: str, within: Any = None) -> str:
    """The report page. ``summary``: a :class:`~warroom.cli.scores._statistics.Summary`; ``facts``: the session facts
    it was computed from (the first attempts' times to detect are drawn); ``within``: the sessions the window
    filters keep (None: all); ``scope``: a sentence saying which sessions were asked for (filters);
    ``generated_at``: when (UTC text). Raises ImportError when matplotlib is not installed."""
    from warroom.cli.scores import (
        LEGEND,
        approximated_line,
        counted_line,
        in_progress_line,
        reliability_line,
        score_reliability_line,
    )
    from warroom.core.stats import first_attempts
    from warroom.store.cohort import counted_modes

    kept = [f for f in facts if within is None or within(f)]
    attempts, _ = first_attempts(facts, modes=counted_modes(kept, summary.label).modes, within=within)
    trials = [a.first for a in attempts if a.counted and not a.first.chosen]  # (a chosen trial is no trial)
    sections = _sections(summary, trials)
    approximated = approximated_line(summary)
    live = in_progress_line(summary.in_progress)
    lead = " ".join(filter(None, [scope, counted_line(summary), live, approximated, f"Generated {generated_at}."]))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="warroom {escape(__version__)}">
<title>War Room report</title><style>{_CSS}</style></head>
<body>
<h1>War Room report</h1>
<p class="lead">{escape(lead)}</p>
{"".join(sections)}
<section id="tables"><h2>Figures per trainee</h2>{_trainee_table(summary)}
<p class="note">{escape(reliability_line(summary))}</p>
<p class="note">{escape(score_reliability_line(summary))}</p>
<h2>Figures per drill</h2>{_drill_table(summary)}</section>
{_unverified_section(summary)}
<p class="note">{escape(LEGEND)}</p>
</body></html>
"""
