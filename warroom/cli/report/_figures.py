"""The figures of ``warroom report``, drawn with matplotlib and returned as inline SVG text.

Each function takes the cohort statistics (:class:`~warroom.cli.scores._statistics.Summary`) or the session facts and
returns
one ``<svg>`` element as text (no XML prologue, no external reference: fonts are the reader's own, text stays text).
Every label from the store (trainee names, drill and event ids) is drawn literally: control characters as ``\\xNN``
(:func:`warroom.core.text.clean`) and never read as mathtext. Points and bars carry ``id`` attributes
(``trainee-point-N``, ``difficulty-bar-N``...) and each trainee's point a ``<title>`` (a tooltip), so a page can be
checked and read without the picture.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from warroom.console import FALSE_ALARM, HIT, NEUTRAL, figure, split_markers, svg
from warroom.core.stats import interval_text
from warroom.core.text import clean, percent


# Every figure is made and written as the console's are (one matplotlib set-up: SVG text as text, no mathtext, a
# fixed hash salt, no pyplot), in the same colours.
def label(text: str, width: int = 28) -> str:
    """A label from the store shown literally and short enough for an axis (``…`` when cut)."""
    text = clean(text)
    return text if len(text) <= width else text[: width - 1] + "…"


#: Trainees whose points are closer than this on both axes (in rate units; about 6 points of the figure) share one
#: label, their names stacked one per line: two labels there would be drawn over each other.
NEAR = 0.02
#: Names a stacked label lists; beyond them it ends with ``+N more`` (every point keeps its own tooltip).
STACK_MOST = 6


def label_groups(points: Sequence[tuple[float, float, str]]) -> list[tuple[float, float, list[str]]]:
    """The labels of the detection plot: ``points`` (x, y, name) gathered so that points within :data:`NEAR` of a
    group's first point, on both axes, join its label. Returns ``(x, y, names)`` per label, at the group's first
    point, names in the order given; groups in the order of their first point."""
    groups: list[tuple[float, float, list[str]]] = []
    for x, y, name in points:
        home = next((g for g in groups if abs(g[0] - x) <= NEAR and abs(g[1] - y) <= NEAR), None)
        if home is None:
            groups.append((x, y, [name]))
        else:
            home[2].append(name)
    return groups


def stacked_label(names: Sequence[str], *, upward: bool = False) -> str:
    """One label for the trainees of one point: their names (each shown literally, cut to 18 characters) one per
    line, at most :data:`STACK_MOST` of them and then ``+N more``; the first name on the first line, or with
    ``upward`` on the last (the line nearest the point when the stack grows up from it)."""
    shown = [label(n, 18) for n in names[:STACK_MOST]]
    if len(names) > STACK_MOST:
        shown.append(f"+{len(names) - STACK_MOST} more")
    return "\n".join(reversed(shown) if upward else shown)


def _point_labels(ax: Any, groups: Sequence[tuple[float, float, list[str]]]) -> None:
    """Draw one label per group of :func:`label_groups` (group ``trainee-label-N``), right of its point: growing up
    from the point in the lower half of the plot, down from it in the upper half, so a stack stays inside the axes."""
    for i, (x, y, names) in enumerate(groups):
        upward = y < 0.5
        note = ax.annotate(
            stacked_label(names, upward=upward), (x, y), xytext=(4, 3 if upward else -3), textcoords="offset points",
            fontsize=7, verticalalignment="bottom" if upward else "top",
        )  # fmt: skip
        note.set_gid(f"trainee-label-{i}")


def _point_title(t: Any) -> str:
    """A trainee's point's tooltip: both rates with their counts and intervals, and d′ when there is one."""
    against = t.false_alarms + t.noise_abandoned
    return (
        f"{clean(t.trainee)}: hit rate {t.hits}/{t.signal_trials} {percent(t.hit_rate)} "
        f"[{interval_text(t.hit_rate_low, t.hit_rate_high, '%')}], false-alarm rate {against}/{t.noise_trials} "
        f"{percent(t.false_alarm_rate)} [{interval_text(t.false_alarm_rate_low, t.false_alarm_rate_high, '%')}]"
        + ("" if t.d_prime is None else f", d′ {t.d_prime:.2f} [{t.d_prime_low:.2f}, {t.d_prime_high:.2f}]")
    )


def detection_space(summary: Any) -> tuple[str, list[str]]:
    """Each trainee as a point at (false-alarm rate, hit rate) with each rate's 95% Wilson interval as an error bar,
    the chance line dashed, its legend below the axes (inside them it covered the points of a corner). Returns the
    SVG and the names of the trainees who could not be placed (no signal trial or no noise trial).

    Every error bar is one collection and every point one line of markers, whatever the size of the class (a call
    of ``errorbar`` per trainee took most of a minute for 1,700 trainees); the SVG is then cut into one group per
    point (:func:`~warroom.console.split_markers`), with the trainee's tooltip."""
    placed = [t for t in summary.stats.trainees if t.hit_rate is not None and t.false_alarm_rate is not None]
    missing = [t.trainee for t in summary.stats.trainees if t.hit_rate is None or t.false_alarm_rate is None]
    with figure(6.0, 5.6) as fig:
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], linestyle="--", color="#9e9e9e", linewidth=1, label="chance (d′ = 0)")
        xs, ys = [t.false_alarm_rate for t in placed], [t.hit_rate for t in placed]
        if placed:
            ax.errorbar(
                xs, ys, fmt="none", ecolor=NEUTRAL, alpha=0.6, elinewidth=0.8, capsize=2,
                xerr=[[t.false_alarm_rate - t.false_alarm_rate_low for t in placed],
                      [t.false_alarm_rate_high - t.false_alarm_rate for t in placed]],
                yerr=[[t.hit_rate - t.hit_rate_low for t in placed], [t.hit_rate_high - t.hit_rate for t in placed]],
            )  # fmt: skip
            (points,) = ax.plot(xs, ys, "o", markersize=6, color=NEUTRAL, alpha=0.6)
            points.set_gid("trainee-points")
        if len(placed) <= 40:
            _point_labels(ax, label_groups([(t.false_alarm_rate, t.hit_rate, t.trainee) for t in placed]))
        ax.set(xlim=(-0.03, 1.03), ylim=(-0.03, 1.03), aspect="equal")
        ax.set_xlabel("false-alarm rate (noise trials escalated or abandoned)")
        ax.set_ylabel("hit rate (signal trials: first escalation right, on time)")
        ax.set_title("Trainees in hit-rate vs false-alarm-rate space (95% intervals)")
        fig.legend(loc="outside lower center", frameon=False)
        text = svg(fig)
    return split_markers(text, "trainee-points", "trainee-point", [_point_title(t) for t in placed]), missing


#: Trainees drawn in the d′ figure (beyond it, the first by name; the table lists every one).
MAX_D_PRIME_ROWS = 60


def d_prime_intervals(summary: Any) -> tuple[str | None, list[str]]:
    """Each trainee with enough trials: d′ as a point with its 95% interval (delta method) as a horizontal bar, the
    chance line at 0. Returns the SVG (None when no trainee has enough trials) and, for the others, "name: too few
    trials (7 signal, 2 noise)"."""
    shown = [t for t in summary.stats.trainees if t.d_prime is not None][:MAX_D_PRIME_ROWS]
    too_few = [
        f"{t.trainee}: too few trials ({t.signal_trials} signal, {t.noise_trials} noise)"
        for t in summary.stats.trainees
        if t.d_prime is None
    ]
    if not shown:
        return None, too_few
    titles = {}
    with figure(7.0, 1.3 + 0.26 * len(shown)) as fig:
        ax = fig.add_subplot()
        ys = list(range(len(shown)))[::-1]
        ax.axvline(0, color="#9e9e9e", linestyle="--", linewidth=1)
        for i, (y, t) in enumerate(zip(ys, shown, strict=True)):
            bars = ax.errorbar(
                [t.d_prime], [y], xerr=[[t.d_prime - t.d_prime_low], [t.d_prime_high - t.d_prime]], marker="o",
                markersize=5, color=NEUTRAL, linestyle="", elinewidth=1.2, capsize=3,
            )  # fmt: skip
            bars.lines[0].set_gid(f"d-prime-point-{i}")
            titles[f"d-prime-point-{i}"] = (
                f"{clean(t.trainee)}: d′ {t.d_prime:.2f} [{t.d_prime_low:.2f}, {t.d_prime_high:.2f}], c "
                f"{t.criterion_c:.2f} [{t.criterion_c_low:.2f}, {t.criterion_c_high:.2f}] from {t.signal_trials} "
                f"signal and {t.noise_trials} noise trials"
            )
        ax.set_yticks(ys, [f"{label(t.trainee)} ({t.signal_trials}+{t.noise_trials})" for t in shown])
        ax.set_xlabel("d′ (sensitivity) with its 95% interval; 0 is chance")
        ax.set_title("Sensitivity per trainee")
        return svg(fig, titles), too_few


def _hbars(ax: Any, names: Sequence[str], values: Sequence[float | None], gid: str, color: str) -> None:
    """Horizontal bars, one per name (top to bottom), a missing value drawn as no bar and a ``-`` label."""
    ys = list(range(len(names)))[::-1]
    for i, (y, v) in enumerate(zip(ys, values, strict=True)):
        if v is None:
            ax.text(0, y, " -", va="center", fontsize=7)
            continue
        (bar,) = ax.barh([y], [v], color=color if v >= 0 else FALSE_ALARM, height=0.7)
        bar.set_gid(f"{gid}-{i}")
        ax.text(v, y, f" {v:.2f}", va="center", fontsize=7, ha="left" if v >= 0 else "right")
    ax.set_yticks(ys, [label(n) for n in names])


def drill_quality_axes(fig: Any, drills: Sequence[Any]) -> tuple[Any, Any]:
    """Draw the difficulty and the discrimination of ``drills`` (the summary's per-drill figures) on ``fig``, side
    by side; returns the two axes. Each title takes two lines: on one line the two would run into each other."""
    names = [d.drill_id + (" (noise only)" if d.all_clear else "") for d in drills]
    left, right = fig.subplots(1, 2, sharey=True)
    _hbars(left, names, [d.difficulty for d in drills], "difficulty-bar", NEUTRAL)
    left.set(xlim=(0, 1.15), title="Difficulty: share of trials correct\n(higher is easier)")
    _hbars(right, names, [d.discrimination for d in drills], "discrimination-bar", HIT)
    right.axvline(0, color="#616161", linewidth=0.8)
    right.set(xlim=(-1.15, 1.15), title="Discrimination: r with the trainee's\nother scores")
    return left, right


def drill_quality(summary: Any) -> str:
    """Per drill: difficulty (share of sessions correct) and discrimination (point-biserial r), side by side."""
    drills = summary.stats.drills
    with figure(9.0, 1.4 + 0.28 * max(len(drills), 1)) as fig:
        drill_quality_axes(fig, drills)
        return svg(fig)


#: Sessions drawn as dots per drill in the time-to-detect figure (beyond it, evenly spread over the sorted times).
MAX_DOTS = 200


def _spread(values: list[float], most: int) -> list[float]:
    """``values`` sorted, or ``most`` of them evenly spread over the sorted order (the first and the last kept)."""
    ordered = sorted(values)
    if len(ordered) <= most:
        return ordered
    step = (len(ordered) - 1) / (most - 1)
    return [ordered[round(i * step)] for i in range(most)]


def time_to_detect(trials: Sequence[Any]) -> str | None:
    """Per drill with a fault, the distribution of time to detect (seconds of drill time) over the ``trials``
    (first attempts) as a box plot with every trial as a dot; None when no trial detected anything."""
    times: defaultdict[str, list[float]] = defaultdict(list)
    for f in trials:
        if f.time_to_detect_s is not None and not f.abandoned:
            times[f.drill_id].append(f.time_to_detect_s)
    if not times:
        return None
    names = sorted(times)
    with figure(9.0, 1.2 + 0.32 * len(names)) as fig:
        ax = fig.add_subplot()
        ys = list(range(len(names)))[::-1]
        box = ax.boxplot(
            [times[n] for n in names], positions=ys, orientation="horizontal", widths=0.6, showfliers=False
        )
        for i, part in enumerate(box["boxes"]):
            part.set_gid(f"ttd-box-{i}")
        for y, n in zip(ys, names, strict=True):
            dots = _spread(times[n], MAX_DOTS)
            ax.plot(dots, [y] * len(dots), "o", markersize=3, alpha=0.35, color=NEUTRAL)
        ax.set_yticks(ys, [f"{label(n)} (n={len(times[n])})" for n in names])
        # from 0, as a time is (every trial at 0 s was drawn between -0.04 and 0.04 s)
        ax.set_xlim(0, max(max(max(ts) for ts in times.values()) * 1.05, 1.0))
        ax.set_xlabel("time to detect (seconds of drill time)")
        ax.set_title("Time to detect per drill")
        return svg(fig)


def distractor_pulls(summary: Any) -> str | None:
    """The distractor events that pulled escalations, most first (at most 30); None when none did."""
    pulls = [(d.drill_id, e, n) for d in summary.stats.drills for e, n in d.distractor_pulls.items()]
    if not pulls:
        return None
    pulls.sort(key=lambda p: (-p[2], p[0], p[1]))
    pulls = pulls[:30]
    names = [f"{label(d, 22)} / {label(e, 16)}" for d, e, _ in pulls]
    with figure(9.0, 1.2 + 0.28 * len(pulls)) as fig:
        ax = fig.add_subplot()
        ys = list(range(len(pulls)))[::-1]
        for i, (y, (_, _, n)) in enumerate(zip(ys, pulls, strict=True)):
            (bar,) = ax.barh([y], [n], color=FALSE_ALARM, height=0.7)
            bar.set_gid(f"pull-bar-{i}")
            ax.text(n, y, f" {n}", va="center", fontsize=7)
        ax.set_yticks(ys, names)
        ax.set_xlabel("escalations pulled")
        ax.set_title("Distractors that pulled escalations (drill / event)")
        return svg(fig)
