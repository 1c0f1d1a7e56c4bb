"""`warroom report` rendered in headless Chromium (the system's package, never a downloaded browser) through
Playwright: the figures are drawn, titled, one point per trainee, and the page asks the network for nothing.

The browser is found by tests/browser_support.py: skipped, saying why, only when it is missing outside CI (.ci/run
installs it first; with ``CI`` set a missing browser fails the test).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import chromium_executable, sync_playwright
from click.testing import CliRunner
from stats_support import COHORT, add, cohort

from warroom.cli import main
from warroom.store.results import ResultsStore

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    out = tmp / "report.html"
    r = CliRunner().invoke(main, ["report", "--data-dir", str(cohort(tmp / "data")), "--output", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def browser():
    executable = chromium_executable()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS)
        yield b
        b.close()


def test_the_page_draws_every_figure_offline(browser, page_file: Path):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    assert requests == [page_file.as_uri()] and errors == []  # nothing fetched but the file itself
    assert page.title() == "War Room report"

    headings = page.locator("h2").all_inner_texts()
    assert headings[:5] == [
        "Sensitivity: d′ per trainee",  # no figure: no trainee has 10 signal and 5 noise trials (said instead)
        "Detection: hits against false alarms",
        "Drills: difficulty and discrimination",
        "Time to detect",
        "Distractors that pulled escalations",
    ]
    figures = page.locator("figure svg")
    assert figures.count() == 4
    for i in range(4):
        box = figures.nth(i).bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100  # drawn, not collapsed
    svg_text = " ".join(page.locator("figure svg text").all_text_contents())
    for title in ("Trainees in hit-rate vs false-alarm-rate space", "Time to detect per drill",
                  "Difficulty: share of trials correct (higher is easier)",
                  "Distractors that pulled escalations (drill / event)"):  # fmt: skip
        assert title in svg_text
    page.close()


def test_one_point_per_trainee_where_their_rates_put_it(browser, page_file: Path):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(page_file.as_uri())
    points = page.locator("#detection svg g[id^='trainee-point-']")
    assert points.count() == len(COHORT)
    centres = {}
    for i in range(points.count()):
        g = points.nth(i)
        name = g.locator("title").text_content().split(":")[0]
        box = g.bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0  # a visible marker
        centres[name] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert sorted(centres) == sorted(name for name, _, _ in COHORT)
    # ada (hits 100%, false alarms 0%) is top left; dee (0%, 100%) bottom right; cy (50%, 100%) right, above dee
    (ax, ay), (dx, dy), (cx, cy) = centres["ada"], centres["dee"], centres["cy"]
    assert ax < dx and ay < dy and abs(cx - dx) < 2 and cy < dy
    assert page.locator("#drills svg g[id^='difficulty-bar-']").count() == 3
    assert page.locator("#ttd svg g[id^='ttd-box-']").count() == 2  # drills A and B had detections
    assert page.locator("#distractors svg g[id^='pull-bar-']").count() == 1  # e5 of drill A
    page.close()


def test_the_drill_figure_titles_do_not_run_into_each_other(browser, tmp_path: Path):
    """The difficulty and discrimination titles sit side by side; drawn in the browser's own font (the SVG keeps text
    as text) beside drill ids as long as the bundled ones, one line each ran into each other ("...(higher is
    easieDiscrimination: ..."). Each takes two lines."""
    data = tmp_path / "data"
    with ResultsStore(data) as store:
        for n, drill in enumerate(("duplicate-charge-refunds", "outage-callback-calls")):
            add(store, f"s{n}", "ada", drill, "all_clear_held" if n else "contained", 90, ttd=4.0, all_clear=bool(n))
    out = tmp_path / "report.html"
    assert CliRunner().invoke(main, ["report", "--data-dir", str(data), "--output", str(out)]).exit_code == 0
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(out.as_uri())
    texts = page.locator("#drills svg text")
    boxes = {}
    for i in range(texts.count()):
        content = texts.nth(i).text_content() or ""
        if content.startswith(("Difficulty:", "Discrimination:")):
            boxes[content.split(":")[0]] = texts.nth(i).bounding_box()
    left, right = boxes["Difficulty"], boxes["Discrimination"]
    assert left is not None and right is not None
    assert left["x"] + left["width"] < right["x"]  # a gap between them, not an overlap
    page.close()
