"""`warroom report`: one self-contained HTML page of the cohort statistics (the page's text; the browser test is
test_report_browser.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from stats_support import add, cohort

from warroom.cli import main
from warroom.store.results import ResultsStore


def report(data_dir: Path, out: Path, *args: str):
    return CliRunner().invoke(
        main, ["report", "--data-dir", str(data_dir), "--output", str(out), *args], catch_exceptions=False
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return cohort(tmp_path / "data")


def test_writes_one_self_contained_page(data: Path, tmp_path: Path):
    out = tmp_path / "report.html"
    r = report(data, out)
    assert r.exit_code == 0, r.output
    # what was written and which sessions counted (as the page says: only the assessment ones once any exist), on
    # stderr: stdout holds the page with --output -
    assert f"Wrote {out}: 5 trainees, 3 drills." in r.stderr and r.stdout == ""
    assert "Counted: assessment sessions: 15 trials" in r.stderr and "practice session" in r.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 4
    # nothing to fetch: no script, stylesheet link, image, frame or remote font; the only URLs are XML namespaces
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b", page)
    assert set(re.findall(r"\b(?:src|href)=\"(.)", page)) <= {"#"}  # only references inside the page
    assert "@import" not in page and set(re.findall(r"url\((.)", page)) <= {"#"}  # clip paths inside the page
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }
    assert len(re.findall(r'<g id="trainee-point-\d+"', page)) == 5
    for title in ("Trainees in hit-rate vs false-alarm-rate space", "Time to detect per drill",
                  "Distractors that pulled escalations (drill / event)"):  # fmt: skip
        assert title in page
    assert "Counted: assessment sessions: 15 trials (each trainee&#x27;s first attempt at each drill)" in page
    assert "No trainee has enough trials for d′ yet (10 signal and 5 noise trials)." in page
    assert "ada: too few trials (2 signal, 1 noise)" in page and "Reliability of d′" in page
    # the abandoned first attempts beside every figure, under the name the legend explains ("quit: first attempts
    # abandoned"), as in `scores summary`
    assert "<th>trainee</th><th>trials</th><th>replays</th><th>quit</th><th>hit rate [95%]</th>" in page
    assert "<th>drill</th><th>trials</th><th>replays</th><th>trainees</th><th>quit</th>" in page
    assert "quit: first attempts abandoned" in page


def test_filters_and_scope_sentence(data: Path, tmp_path: Path):
    out = tmp_path / "r.html"
    assert report(data, out, "--trainee", "ada", "--trainee", "ben", "--since", "2026-11-01").exit_code == 0
    page = out.read_text()
    assert "Sessions started since 2026-11-01 00:00 UTC, of ada, ben." in page
    assert len(re.findall(r'<g id="trainee-point-\d+"', page)) == 2 and "<title>cy:" not in page
    with ResultsStore(data) as store:
        add(store, "set-1", "fay", "A", "contained", 90, ttd=3.0, set_id="week-1", day=9)
        add(store, "set-2", "fay", "C", "all_clear_held", 100, all_clear=True, set_id="week-1", day=9)
    assert report(data, out, "--set", "week-1").exit_code == 0
    page = out.read_text()
    assert "played in drill set week-1" in page
    assert "<title>fay: hit rate 1/1 100% [21%–100%], false-alarm rate 0/1 0%" in page


def test_store_text_is_shown_literally(tmp_path: Path):
    data = tmp_path / "data"
    hostile = "<script>alert(1)</script> $x^2$ \x1b[31m"
    with ResultsStore(data) as store:
        add(store, "h1", hostile, "A", "contained", 90, ttd=4.0)
        add(store, "h2", hostile, "C", "false_alarm", 30, all_clear=True)
    out = tmp_path / "r.html"
    assert report(data, out).exit_code == 0
    page = out.read_text()
    assert "<script>" not in page and "\x1b" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; $x^2$ \\x1b[31m" in page  # escaped, no mathtext


def test_filter_values_in_the_scope_sentence_are_shown_literally(tmp_path: Path):
    """The --trainee and --set values are written into the page's first line: control characters as escapes too."""
    data = tmp_path / "data"
    name = "ann\x1b]52;c;aGk=\x07x"
    with ResultsStore(data) as store:
        add(store, "h1", name, "A", "contained", 90, ttd=4.0, set_id="w\x1b[31m")
    out = tmp_path / "r.html"
    assert report(data, out, "--trainee", name, "--set", "w\x1b[31m").exit_code == 0
    page = out.read_text()
    assert "\x1b" not in page and "\x07" not in page
    assert "Sessions played in drill set w\\x1b[31m, of ann\\x1b]52;c;aGk=\\x07x." in page


def test_a_name_with_a_glyph_matplotlib_lacks_draws_without_a_warning(tmp_path: Path):
    """The figures' text is the reader's (SVG text, not glyphs): a glyph missing from matplotlib's font (an emoji)
    is no reason to print a Python warning, naming warroom's source, to the facilitator."""
    import warnings

    data = tmp_path / "data"
    with ResultsStore(data) as store:
        add(store, "h1", "Zoë \U0001f692", "A", "contained", 90, ttd=4.0)
        add(store, "h2", "Zoë \U0001f692", "C", "false_alarm", 30, all_clear=True)
    out = tmp_path / "r.html"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = report(data, out)
    assert r.exit_code == 0, r.output
    assert [str(w.message) for w in caught] == []
    assert "<title>Zoë \U0001f692: hit rate 1/1 100%" in out.read_text(encoding="utf-8")


def test_nothing_to_report(data: Path, tmp_path: Path):
    r = report(data, tmp_path / "r.html", "--trainee", "nobody")
    # a trainee with no stored session is named as such (campaign 22)
    assert r.exit_code == 1 and "no session of trainee 'nobody' is stored" in r.stderr
    assert not (tmp_path / "r.html").exists()
    r = report(tmp_path / "none", tmp_path / "r.html")
    assert r.exit_code == 1 and "no sessions recorded yet" in r.stderr


def test_bad_input(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    r = report(data, tmp_path / "r.html", "--since", "last week")
    assert r.exit_code == 2 and "'last week' is not a date or ISO datetime" in r.output
    r = CliRunner().invoke(main, ["report", "--data-dir", str(data)])
    assert r.exit_code == 2 and "--output" in r.output
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["report", "--data-dir", str(data), "--output", "-"])  # - is standard output
    assert r.exit_code == 0 and r.stdout.startswith("<!DOCTYPE html>") and r.stdout.rstrip().endswith("</html>")
    assert "Wrote the report to standard output: 5 trainees, 3 drills." in r.stderr
    assert not Path("-").exists()
    r = report(data, tmp_path / "missing-dir" / "r.html")
    assert r.exit_code == 1 and "cannot write the report" in r.stderr and "Traceback" not in r.output


def test_without_matplotlib_says_what_to_install(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    r = report(data, tmp_path / "r.html")
    assert r.exit_code == 1 and "pip install 'warroom[report]'" in r.stderr


def test_time_to_detect_dots_are_capped_and_keep_the_extremes():
    from warroom.cli.report._figures import _spread

    assert _spread([3.0, 1.0, 2.0], 5) == [1.0, 2.0, 3.0]
    spread = _spread([float(v) for v in range(1000)], 200)
    assert len(spread) == 200 and spread[0] == 0.0 and spread[-1] == 999.0 and spread == sorted(spread)


def _label_lines(page: str) -> dict[str, list[tuple[float, float, str]]]:
    """Each ``trainee-label-N`` group of the detection plot: its text lines as (x, y, text), from their ``x`` and ``y``
    (one line) or ``translate(x y)`` (each line of several)."""
    place = re.compile(r'(?:x="([\d.]+)" y="([\d.]+)"[^>]*|transform="translate\(([\d.]+) ([\d.]+)\)")>([^<]*)</text>')
    out = {}
    for gid, body in re.findall(r'<g id="(trainee-label-\d+)">(.*?)</g>', page, flags=re.S):
        out[gid] = [(float(x or tx), float(y or ty), text) for x, y, tx, ty, text in place.findall(body)]
    return out


def test_trainees_at_one_point_share_one_stacked_label(tmp_path: Path):
    """Two trainees at the same (false-alarm rate, hit rate) and one nearly there get one label, their names one per
    line; a trainee elsewhere keeps a label of their own. No two label lines are drawn at the same place."""
    data = tmp_path / "data"
    with ResultsStore(data) as store:
        for name, hit, held in (("ada", "contained", True), ("ben", "contained", True), ("cy", "missed", False)):
            add(store, f"{name}-a", name, "A", hit, 90 if hit == "contained" else 0, ttd=4.0)
            add(store, f"{name}-c", name, "C", "all_clear_held" if held else "false_alarm", 100, all_clear=True)
    out = tmp_path / "r.html"
    assert report(data, out).exit_code == 0
    labels = _label_lines(out.read_text(encoding="utf-8"))
    texts = sorted(sorted(t for _, _, t in lines) for lines in labels.values())
    assert texts == [["ada", "ben"], ["cy"]]
    stacked = next(lines for lines in labels.values() if len(lines) == 2)
    (x1, y1, _), (x2, y2, _) = stacked
    assert x1 == x2 and abs(y1 - y2) >= 7  # one line under the other (7 px text), left-aligned at the point
    everything = [(x, y) for lines in labels.values() for x, y, _ in lines]
    assert len(set(everything)) == len(everything)


def test_label_groups_join_points_within_near_and_cap_the_stack():
    from warroom.cli.report._figures import NEAR, STACK_MOST, label_groups, stacked_label

    groups = label_groups([(0.5, 1.0, "ada"), (0.2, 0.4, "cy"), (0.5 + NEAR / 2, 1.0 - NEAR / 2, "ben"),
                           (0.5 + 3 * NEAR, 1.0, "dee")])  # fmt: skip
    assert groups == [(0.5, 1.0, ["ada", "ben"]), (0.2, 0.4, ["cy"]), (0.5 + 3 * NEAR, 1.0, ["dee"])]
    names = [f"t{i}" for i in range(STACK_MOST + 3)]
    assert stacked_label(names).splitlines() == [*names[:STACK_MOST], "+3 more"]
    assert stacked_label(["ada", "ben"], upward=True) == "ben\nada"  # the first name nearest the point, below



def test_d_prime_is_drawn_with_its_interval_from_the_minimums(tmp_path: Path):
    """A trainee with 10 signal and 5 noise trials gets a point with its 95% interval in the sensitivity figure;
    one with fewer is named with their counts under it."""
    data = tmp_path / "data"
    with ResultsStore(data) as store:
        for i in range(10):
            add(store, f"j{i}", "jo", f"F{i}", "contained" if i < 7 else "missed", 90 if i < 7 else 0, day=1 + i)
        for i in range(5):
            add(store, f"k{i}", "jo", f"N{i}", "false_alarm" if i == 0 else "all_clear_held", 50, all_clear=True,
                day=12 + i)  # fmt: skip
        add(store, "m1", "mo", "F0", "contained", 90)
    out = tmp_path / "r.html"
    assert report(data, out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('<g id="d-prime-point-') == 1
    from warroom.core.stats._measures import d_prime_and_c, sdt_intervals

    d, c = d_prime_and_c(7, 10, 1, 5)
    (low, high), _ = sdt_intervals(7, 10, 1, 5)
    assert f"<title>jo: d′ {d:.2f} [{low:.2f}, {high:.2f}], c {c:.2f}" in page
    assert "mo: too few trials (1 signal, 0 noise)" in page
