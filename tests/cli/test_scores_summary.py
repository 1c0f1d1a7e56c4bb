"""`warroom scores --summary` (the old spelling of `scores summary`): figures per trainee and per drill."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from scores_support import known_store, run

from warroom.store.results import ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


@pytest.fixture
def known(tmp_path: Path) -> Path:
    return known_store(tmp_path)


def test_summary_json_figures(known: Path):
    r = run(known, "--summary", "--format", "json")
    data = json.loads(r.stdout)
    ann, bob = data["trainees"]
    assert ann == {
        "trainee": "ann",
        "sessions": 4,
        "drills_run": 3,
        "contained_rate": pytest.approx(2 / 3),
        "median_time_to_detect": 7.0,
        "false_escalation_rate": 0.5,
        "mean_score": 62.5,
    }
    assert (bob["contained_rate"], bob["median_time_to_detect"], bob["mean_score"]) == (0.5, 6.0, 45.0)
    assert [(d["drill_id"], d["attempts"], d["median_score"]) for d in data["drills"]] == [
        ("A", 3, 60.0),
        ("B", 2, 42.5),
        ("C", 2, 65.0),
    ]
    assert data["drills"][2]["contained_rate"] is None


def test_summary_table_and_csv(known: Path):
    r = run(known, "--summary")
    assert r.exit_code == 0
    assert "Per trainee" in r.stdout and "Per drill" in r.stdout
    ann = next(ln for ln in r.stdout.splitlines() if "│ ann" in ln)
    assert "67%" in ann and "7 s" in ann and "50%" in ann and "62.5" in ann
    rows = list(csv.DictReader(io.StringIO(run(known, "--summary", "--format", "csv").stdout)))
    assert [(row["scope"], row["name"]) for row in rows] == [
        ("trainee", "ann"),
        ("trainee", "bob"),
        ("drill", "A"),
        ("drill", "B"),
        ("drill", "C"),
    ]
    assert rows[3]["median_score"] == "42.5" and rows[4]["contained_rate"] == ""


def test_summary_rounds_halves_up_and_has_no_trailing_spaces(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        for i, total in enumerate((0, 0, 0, 25)):
            add_session(store, f"s{i}", trainee="zed", drill_id="A", outcome="missed", total=total, ttd=None)
        for i, ttd in enumerate((18.2, 18.3)):
            add_session(store, f"t{i}", trainee="yan", drill_id="A", outcome="contained", total=90, ttd=ttd)
    r = run(tmp_path, "--summary", env={"COLUMNS": "80"})
    lines = r.stdout.splitlines()
    assert all(ln == ln.rstrip() for ln in lines) and max(len(ln) for ln in lines) <= 80
    zed = next(ln for ln in lines if "│ zed" in ln)
    assert "6.3" in zed.split("│")[-2] and "6.2" not in zed  # mean of 0, 0, 0, 25 = 6.25
    yan = next(ln for ln in lines if "│ yan" in ln)
    assert "18.3 s" in yan  # median of 18.2 and 18.3 = 18.25
    assert json.loads(run(tmp_path, "--summary", "--format", "json").stdout)["trainees"][1]["mean_score"] == 6.25
