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
from warroom.core.text import clean, number, percent, seconds

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 70rem;
       padding: 0 1rem; color: #212121; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #e0e0e0; }
.lead { color: #616161; } figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #424242; font-size: .9rem; max-width: 60rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0; }
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
    rows = [
        [
            _e(t.trainee), str(t.sessions), str(t.abandoned), percent(t.hit_rate), percent(t.false_alarm_rate),
            number(t.d_prime, 2), number(t.criterion_c, 2), number(t.a_prime, 2), seconds(t.median_time_to_detect),
            seconds(t.median_wall_time_to_detect), number(t.mean_score, 1), number(t.reliability, 2),
            "-" if t.more_sessions_needed is None else str(t.more_sessions_needed),
        ]
        for t in summary.stats.trainees
    ]  # fmt: skip
    headers = ["trainee", "sessions", "abandoned", "hit rate", "false-alarm rate", "d′", "c", "A′", "median ttd",
               "median wall ttd", "mean score", "reliability", "more drills to 0.7"]  # fmt: skip
    return _table(headers, rows)


def _drill_table(summary: Any) -> str:
    rows = [
        [
            _e(d.drill_id + (" (all-clear)" if d.all_clear else "")), str(d.sessions), str(d.trainees),
            str(d.abandoned), percent(d.difficulty), number(d.discrimination, 2), seconds(d.median_time_to_detect),
            seconds(d.median_wall_time_to_detect),
            _e(", ".join(f"{e} ×{n}" for e, n in d.distractor_pulls.items()) or "-"),
        ]
        for d in summary.stats.drills
    ]  # fmt: skip
    headers = ["drill", "sessions", "trainees", "abandoned", "difficulty", "discrimination", "median ttd",
               "median wall ttd", "distractor pulls"]  # fmt: skip
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


def render(summary: Any, facts: Sequence[Any], *, scope: str, generated_at: str) -> str:
    """The report page. ``summary``: a :class:`~warroom.cli.scores._statistics.Summary`; ``facts``: the session facts it
    was
    computed from (for the time-to-detect distributions); ``scope``: a sentence saying which sessions were asked
    for (filters); ``generated_at``: when (UTC text). Raises ImportError when matplotlib is not installed."""
    from warroom.cli.report import _figures as figs
    from warroom.cli.scores import counted_line, reliability_line
    from warroom.store.cohort import counted_modes

    space, unplaced = figs.detection_space(summary)
    unplaced_note = (
        f'<p class="note">Not placed (they have not played both kinds of drill): {_e(", ".join(unplaced))}.</p>'
        if unplaced
        else ""
    )
    sections = [
        _figure(
            "detection", "Detection: hits against false alarms", space,
            "Each point is a trainee: up is more incidents contained on time, left is fewer escalations of healthy "
            "runs. The dashed line is chance (d′ = 0); the top-left corner is perfect detection.", "",
        ) + unplaced_note,
        _figure(
            "drills", "Drills: difficulty and discrimination", figs.drill_quality(summary),
            "Difficulty is the share of sessions correct (contained on time, or all clear held). Discrimination is "
            "the point-biserial correlation of a session being correct with the trainee's mean score on the other "
            "drills: near 0 or below, the drill does not tell strong trainees from weak ones.", "",
        ),
        _figure(
            "ttd", "Time to detect", figs.time_to_detect(facts, counted_modes(list(facts), summary.label).modes),
            "Per drill, seconds of drill time from the earliest evidence to the escalation that contained the "
            "incident: the box spans the middle half of the sessions, the line in it is the median, each dot a "
            "session (at most 200 per drill, spread evenly over the sorted times).",
            "No counted session detected a fault.",
        ),
        _figure(
            "distractors", "Distractors that pulled escalations", figs.distractor_pulls(summary),
            "Escalations that cited a distractor (an odd-looking but harmless event), per drill and event.",
            "No escalation was pulled by a distractor in the counted sessions (or their scorecards do not record it).",
        ),
    ]  # fmt: skip
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="warroom {escape(__version__)}">
<title>War Room report</title><style>{_CSS}</style></head>
<body>
<h1>War Room report</h1>
<p class="lead">{escape(scope)} {escape(counted_line(summary))} Generated {escape(generated_at)}.</p>
{"".join(sections)}
<section id="tables"><h2>Figures per trainee</h2>{_trainee_table(summary)}
<p class="note">{escape(reliability_line(summary))}</p>
<h2>Figures per drill</h2>{_drill_table(summary)}</section>
{_unverified_section(summary)}
<p class="note">Definitions and sources of every figure: docs/sessions.md, "Cohort statistics", in the warroom
documentation.</p>
</body></html>
"""
