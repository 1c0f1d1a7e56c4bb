"""The console's plots, drawn with matplotlib as inline SVG the way ``warroom report`` draws its figures: SVG text as
text, no mathtext in labels, every label from the store shown literally (:func:`warroom.core.text.clean`), a fixed
hash salt (the same data gives the same picture), no pyplot (no GUI backend, no global figure registry).

:func:`figure` and :func:`svg` are the two steps every figure takes, ``warroom report``'s too; the ``*_plot``
functions draw a trainee's progress (:class:`~warroom.console._progress.Progress`). Every rate drawn has its counts
beside it.
"""

from __future__ import annotations

import html
import io
import re
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from warroom.core.text import clean

#: matplotlib settings of every figure.
RC: Any = {
    "svg.fonttype": "none",
    "svg.hashsalt": "warroom",
    "text.parse_math": False,
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
HIT = "#2e7d32"
FALSE_ALARM = "#c62828"
NEUTRAL = "#1565c0"
CRITERION = "#ef6c00"


#: Held while a figure is drawn: matplotlib's settings (:data:`RC`) are the process's, and the console draws pages'
#: figures in worker threads; the first of two figures drawn at once to finish put the defaults back under the other.
_DRAWING = threading.Lock()


@contextmanager
def figure(width: float, height: float) -> Iterator[Any]:
    """A matplotlib figure (size in inches) under :data:`RC`, drawn while no other figure is (:data:`_DRAWING`)."""
    import matplotlib
    from matplotlib.figure import Figure

    with _DRAWING, matplotlib.rc_context(RC):
        yield Figure(figsize=(width, height), layout="constrained")


def svg(fig: Any, titles: dict[str, str] | None = None) -> str:
    """The figure as an ``<svg>`` element (no XML prologue, no metadata), with a ``<title>`` (a tooltip) added to
    each group whose id is a key of ``titles``."""
    buf = io.StringIO()
    with warnings.catch_warnings():  # SVG text is drawn by the reader's fonts: a glyph matplotlib's font lacks is fine
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    if not titles:
        return text
    # one pass over the text (a search of the whole text per title grew with the square of a figure's points)
    return re.sub(
        r'<g id="([^"]*)"[^>]*>',
        lambda m: m[0] + f"<title>{html.escape(titles[m[1]])}</title>" if m[1] in titles else m[0],
        text,
    )


def split_markers(text: str, gid: str, prefix: str, titles: list[str]) -> str:
    """``text`` (from :func:`svg`) with the markers of the line whose gid is ``gid`` (one ``<use>`` each, in the
    order of the line's points) each in a group of its own, ``<g id="PREFIX-N">`` with ``titles[N]`` as its
    ``<title>`` (a tooltip): one line of N markers draws in a fraction of the time of N lines. Raises ValueError when
    the line does not have one marker per title (a marker matplotlib left out: none is, inside the canvas)."""
    start = text.find(f'<g id="{gid}">')
    if start < 0:
        if titles:
            raise ValueError(f"no line {gid} in the figure for its {len(titles)} points")
        return text
    end = text.index("</g>", start)  # the end of the line's clip group, which holds its markers and nothing else
    uses = iter(titles)
    count = 0

    def own_group(m: re.Match[str]) -> str:
        nonlocal count
        title = next(uses, None)
        if title is None:
            raise ValueError(f"line {gid} has more markers than its {len(titles)} points")
        count += 1
        return f'<g id="{prefix}-{count - 1}"><title>{html.escape(title)}</title>{m[0]}</g>'

    body = re.sub(r"<use [^>]*/>", own_group, text[start:end])
    if count != len(titles):
        raise ValueError(f"line {gid} has {count} markers for its {len(titles)} points")
    return text[:start] + body + text[end:]


def sensitivity_plot(progress: Any) -> str | None:
    """d′ (sensitivity) and c (criterion) after each counted session, once there are enough trials for them
    (docs/sessions.md, "Cohort statistics"), each with its 95% interval (a shaded band); the counts they rest on in
    each point's tooltip. None when no point has them."""
    points = [p for p in progress.points if p.stats is not None and p.stats.d_prime is not None]
    if not points:
        return None
    titles = {}
    with figure(7.5, 3.2) as fig:
        ax = fig.add_subplot()
        xs = [p.n for p in points]
        d_primes = [p.stats.d_prime for p in points]
        ax.plot(xs, d_primes, marker="o", markersize=3, color=NEUTRAL, label="d′ (sensitivity), 95% interval")
        ax.plot(xs, [p.stats.criterion_c for p in points], marker="s", markersize=3, color=CRITERION,
                label="c (criterion; > 0 cautious), 95% interval")  # fmt: skip
        for low, high, colour in (("d_prime_low", "d_prime_high", NEUTRAL),
                                  ("criterion_c_low", "criterion_c_high", CRITERION)):  # fmt: skip
            band = [(p.n, getattr(p.stats, low), getattr(p.stats, high)) for p in points]
            band = [b for b in band if b[1] is not None and b[2] is not None]
            if band:
                ax.fill_between([b[0] for b in band], [b[1] for b in band], [b[2] for b in band], color=colour,
                                alpha=0.15, linewidth=0)

        for i, p in enumerate(points):
            (dot,) = ax.plot([p.n], [p.stats.d_prime], "o", markersize=6, alpha=0)
            dot.set_gid(f"sdt-point-{i}")
            s = p.stats
            titles[f"sdt-point-{i}"] = (
                f"after session {p.n}: d′ {s.d_prime:.2f} (95% {_interval(s.d_prime_low, s.d_prime_high)}), "
                f"c {s.criterion_c:.2f} (95% {_interval(s.criterion_c_low, s.criterion_c_high)}); hits {s.hits} of "
                f"{s.signal_trials}, false alarms {s.false_alarms} of {s.noise_trials}"
            )
        ax.axhline(0, color="#9e9e9e", linewidth=0.8)
        _session_axis(ax, xs)
        last = points[-1].stats
        ax.set_title(f"Sensitivity and criterion over the sessions (now: hits {last.hits} of {last.signal_trials}, "
                     f"false alarms {last.false_alarms} of {last.noise_trials})")  # fmt: skip
        ax.set_xlabel("counted session")
        fig.legend(loc="outside lower center", ncols=2, frameon=False)  # inside the axes, "best" could cover a point
        return svg(fig, titles)


def _interval(low: float | None, high: float | None) -> str:
    """``0.41 to 1.92``, or ``not estimated``."""
    return f"{low:.2f} to {high:.2f}" if low is not None and high is not None else "not estimated"


def _session_axis(ax: Any, xs: list[int]) -> None:
    """The x axis of counted sessions: whole numbers, half a session of room at each end."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_xlabel("counted session")


def kinds_plot(progress: Any) -> str | None:
    """Hits per fault kind and false alarms on all-clear drills (the trials), as bars of the share with ``k of n``
    beside each. None when there is no trial."""
    kinds = progress.by_kind
    if not kinds:
        return None
    with figure(7.5, 1.0 + 0.32 * len(kinds)) as fig:
        ax = fig.add_subplot()
        ys = list(range(len(kinds)))[::-1]
        for i, (y, k) in enumerate(zip(ys, kinds, strict=True)):
            k_, n = (k.hits, k.signal) if k.signal else (k.false_alarms, k.noise)
            share = k_ / n if n else 0.0
            (bar,) = ax.barh([y], [share], color=HIT if k.signal else FALSE_ALARM, height=0.65)
            bar.set_gid(f"kind-bar-{i}")
            what = "hits" if k.signal else "false alarms"
            ax.text(share, y, f" {what} {k_} of {n}", va="center", fontsize=8)
        ax.set_yticks(ys, [clean(k.kind)[:40] for k in kinds])
        ax.set_xlim(0, 1.45)
        ax.set_xlabel("share of the trials (first attempts)")
        ax.set_title("Hits by fault kind; false alarms on all-clear drills")
        return svg(fig)


def detect_plot(progress: Any) -> str | None:
    """Each counted session's time to detect (drill seconds) and score, in session order; None without sessions."""
    points = progress.points
    if not points:
        return None
    with figure(7.5, 3.0) as fig:
        ax = fig.add_subplot()
        detected = [p for p in points if p.time_to_detect is not None]
        ax.plot([p.n for p in detected], [p.time_to_detect for p in detected], "o", color=HIT,
                label=f"time to detect ({len(detected)} of {len(points)} sessions detected)")  # fmt: skip
        _session_axis(ax, [p.n for p in points])
        # from 0, as a time is: matplotlib's own limits put every time of 0 s between -0.04 and 0.04, and one of 18 s
        # between 17.25 and 18.75 (a change of a second drawn as the whole height)
        ax.set_ylim(0, max([p.time_to_detect * 1.1 for p in detected if p.time_to_detect is not None] + [1.0]))
        ax.set_ylabel("time to detect (drill s)")
        right = ax.twinx()
        right.plot([p.n for p in points], [p.score for p in points], "-", color="#757575", linewidth=1, label="score")
        right.set_ylim(0, 105)
        right.set_ylabel("score")
        right.spines["right"].set_visible(True)
        lines = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
        fig.legend(lines, [str(x.get_label()) for x in lines], loc="outside lower center", ncols=2, frameon=False)
        ax.set_title("Time to detect and score, session by session")
        return svg(fig)
