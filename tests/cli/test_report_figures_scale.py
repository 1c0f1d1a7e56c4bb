"""`warroom report`'s detection figure at the size of a class: every trainee's point is its own group with its own
tooltip, drawn without a matplotlib call per trainee (one ``errorbar`` call per trainee took most of a minute of CPU
for 1,700 trainees in 10,000 sessions: benchmarks/bench_report.py); and the legends of the report's and the console's
figures below their axes, over no point."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from matplotlib.axes import Axes

from warroom.cli.report import _figures as figs
from warroom.console import split_markers


def trainee(i: int, hits: int, noise: int) -> SimpleNamespace:
    """A trainee of 4 signal trials (``hits`` hit) and 2 noise trials (``noise`` escalated), or no noise trial."""
    fa = None if noise < 0 else noise / 2
    return SimpleNamespace(
        trainee=f"t{i:04d}", hits=hits, signal_trials=4, hit_rate=hits / 4, hit_rate_low=max(hits / 4 - 0.2, 0),
        hit_rate_high=min(hits / 4 + 0.2, 1), false_alarms=max(noise, 0), noise_abandoned=0,
        noise_trials=0 if fa is None else 2, false_alarm_rate=fa,
        false_alarm_rate_low=None if fa is None else max(fa - 0.3, 0),
        false_alarm_rate_high=None if fa is None else min(fa + 0.3, 1), d_prime=None,
    )  # fmt: skip


def test_a_class_of_90_is_one_errorbar_call_and_a_point_each_with_its_tooltip(monkeypatch: pytest.MonkeyPatch):
    trainees = [trainee(i, i % 5, i % 3 - 1) for i in range(90)]  # a third have no noise trial; over 40: no labels
    calls = []
    errorbar = Axes.errorbar
    monkeypatch.setattr(Axes, "errorbar", lambda self, *a, **k: calls.append(1) or errorbar(self, *a, **k))
    text, missing = figs.detection_space(SimpleNamespace(stats=SimpleNamespace(trainees=trainees)))
    placed = [t for t in trainees if t.false_alarm_rate is not None]
    assert calls == [1]
    assert missing == [t.trainee for t in trainees if t.false_alarm_rate is None] and len(placed) == 60
    groups = re.findall(r'<g id="trainee-point-(\d+)"><title>([^<]*)</title><use [^>]*/></g>', text)
    assert [int(n) for n, _ in groups] == list(range(60))
    assert [title.split(":")[0] for _, title in groups] == [t.trainee for t in placed]
    assert groups[1][1] == "t0002: hit rate 2/4 50% [30%–70%], false-alarm rate 1/2 50% [20%–80%]"


def test_split_markers_refuses_a_line_without_one_marker_per_title():
    svg = '<svg><g id="pts"><g clip-path="url(#c)"><use x="1"/><use x="2"/></g></g></svg>'
    assert split_markers(svg, "pts", "p", ["a", "b&c"]) == (
        '<svg><g id="pts"><g clip-path="url(#c)"><g id="p-0"><title>a</title><use x="1"/></g>'
        '<g id="p-1"><title>b&amp;c</title><use x="2"/></g></g></g></svg>'
    )
    for titles in (["a"], ["a", "b", "c"]):
        with pytest.raises(ValueError, match="markers"):
            split_markers(svg, "pts", "p", titles)
    with pytest.raises(ValueError, match="no line pts"):
        split_markers("<svg></svg>", "pts", "p", ["a"])
    assert split_markers("<svg></svg>", "pts", "p", []) == "<svg></svg>"


def _legend_below_the_axes(text: str) -> None:
    """Every text of the figure's legend is below its axes (the axes' clip rectangle), where no point is drawn."""
    axes = re.search(r'<clipPath id="[^"]+">\s*<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"', text)
    assert axes is not None
    y, height = float(axes[1]), float(axes[2])
    legend = text[text.index('<g id="legend_1">') :]
    ys = [float(v) for v in re.findall(r'<text [^>]*\by="([\d.]+)"', legend)]
    assert ys and all(v > y + height for v in ys), (ys, y + height)


def test_the_legends_are_drawn_below_the_axes_where_no_point_is():
    """The detection figure's legend sat inside its axes at the lower right, over the point of a trainee at 100%
    false alarms and 0% hits; the console's sensitivity legend was placed "best", inside the axes too, over the
    bands and points wherever they left no room. Both are below the axes."""
    from warroom.console import sensitivity_plot

    trainees = [trainee(0, 0, 2), trainee(1, 4, 0), trainee(2, 2, 1)]  # (100%, 0%): the lower right corner
    space, _ = figs.detection_space(SimpleNamespace(stats=SimpleNamespace(trainees=trainees)))
    _legend_below_the_axes(space)
    stats = [SimpleNamespace(d_prime=0.2 * i, d_prime_low=0.2 * i - 0.8, d_prime_high=0.2 * i + 0.8,
                             criterion_c=0.5 - 0.05 * i, criterion_c_low=0.1 - 0.05 * i,
                             criterion_c_high=0.9 - 0.05 * i, hits=i, signal_trials=i + 3, false_alarms=1,
                             noise_trials=5) for i in range(1, 15)]  # fmt: skip
    points = [SimpleNamespace(n=i + 1, stats=s) for i, s in enumerate(stats)]
    _legend_below_the_axes(sensitivity_plot(SimpleNamespace(points=points)))
