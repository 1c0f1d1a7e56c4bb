"""`warroom scores --summary`: the cohort statistics from the store, which sessions count (--mode), bars, exports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from stats_support import cohort

from warroom.cli import main
from warroom.cli.summary import bar


def run(data_dir: Path, *args: str, columns: str = "200"):
    return CliRunner().invoke(
        main, ["scores", "--data-dir", str(data_dir), "--summary", *args], env={"COLUMNS": columns},
        catch_exceptions=False,
    )  # fmt: skip


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return cohort(tmp_path)


def trainees(r) -> dict[str, dict]:
    return {t["trainee"]: t for t in json.loads(r.stdout)["trainees"]}


def test_assessment_sessions_count_by_default_and_the_output_says_so(data: Path):
    r = run(data)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == (
        "Counted: assessment sessions, 15 session(s) (1 abandoned, counted apart); 1 practice session(s) left out "
        "(--mode all counts them)."
    )
    j = run(data, "--format", "json")
    assert json.loads(j.stdout)["counted"] == {"mode": "assessment", "sessions": 15, "left_out": 1}
    assert trainees(j)["ada"]["hit_rate"] == 1.0  # the practice miss is not counted


def test_mode_all_and_practice(data: Path):
    everything = run(data, "--format", "json", "--mode", "all")
    assert json.loads(everything.stdout)["counted"] == {"mode": "all", "sessions": 16, "left_out": 0}
    assert trainees(everything)["ada"]["hit_rate"] == pytest.approx(2 / 3)
    practice = run(data, "--format", "json", "--mode", "practice")
    assert json.loads(practice.stdout)["counted"] == {"mode": "practice", "sessions": 1, "left_out": 15}
    assert list(trainees(practice)) == ["ada"]
    assert "1 practice session(s) left out" not in run(data, "--mode", "all").stdout
    assert run(data, "--mode", "exam").exit_code == 2


def test_abandoned_sessions_are_counted_apart(data: Path):
    eve = trainees(run(data, "--format", "json"))["eve"]
    # eve missed A, quit B, held the all clear on C: one fault drill played, not two
    assert (eve["sessions"], eve["abandoned"], eve["fault_sessions"], eve["hit_rate"]) == (2, 1, 1, 0.0)
    assert eve["mean_score"] == 50.0  # (0 + 100) / 2: the quit is no zero


def test_distractor_pulls_and_rates(data: Path):
    data_json = json.loads(run(data, "--format", "json").stdout)
    drills = {d["drill_id"]: d for d in data_json["drills"]}
    assert drills["A"]["distractor_pulls"] == {"e5": 2} and drills["B"]["distractor_pulls"] == {}
    cy = {t["trainee"]: t for t in data_json["trainees"]}["cy"]
    assert (cy["distractors_shown"], cy["distractors_escalated"], cy["distractor_escalation_rate"]) == (1, 1, 1.0)
    table = run(data).stdout
    assert "e5 ×2" in next(ln for ln in table.splitlines() if ln.startswith("│ A "))


def test_table_bars_and_narrow_terminal(data: Path):
    wide = run(data).stdout.splitlines()
    ada = next(ln for ln in wide if ln.startswith("ada "))
    assert "█" * 20 + " 100%" in ada and ada.endswith(" 0%")
    dee = next(ln for ln in wide if ln.startswith("dee "))
    assert dee.endswith("█" * 20 + "  100%")  # all false alarms
    assert next(ln for ln in wide if ln.startswith("A ")).endswith("████▌                 0.22")  # discrimination
    narrow = run(data, columns="80").stdout.splitlines()
    assert max(len(ln) for ln in narrow) <= 80 and all(ln == ln.rstrip() for ln in narrow)
    assert sum("│ ada " in ln for ln in narrow) == 2  # the trainee table split in two, each with the name


def test_csv_has_every_scope(data: Path):
    rows = list(csv.DictReader(io.StringIO(run(data, "--format", "csv").stdout)))
    assert [r["scope"] for r in rows] == ["trainee"] * 5 + ["drill"] * 3 + ["cohort"]
    assert rows[0]["name"] == "ada" and rows[0]["hit_rate"] == "1.0" and rows[0]["counted_mode"] == "assessment"
    assert json.loads(rows[5]["distractor_pulls"]) == {"e5": 2}
    assert rows[-1]["split_half_r"] != "" and rows[-1]["trainees"] == "5"


def test_a_row_that_cannot_be_counted_is_named_and_exits_1(data: Path):
    import sqlite3

    conn = sqlite3.connect(data / "results.sqlite3")
    conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")
    conn.commit()
    conn.close()
    r = run(data, "--format", "json")
    assert r.exit_code == 1
    assert "skipped: stored session ada-b cannot be counted in the statistics" in r.stderr
    assert trainees(r)["ada"]["fault_sessions"] == 1


def test_no_store_gives_empty_figures(tmp_path: Path):
    empty = run(tmp_path / "none", "--format", "json")
    data = json.loads(empty.stdout)
    assert data["trainees"] == [] and data["drills"] == [] and data["counted"]["sessions"] == 0
    assert "No sessions recorded yet." in run(tmp_path / "none").stdout


@pytest.mark.parametrize(
    ("fraction", "width", "expected"),
    [(None, 4, "    "), (0.0, 4, "    "), (1.0, 4, "████"), (0.5, 4, "██  "), (1 / 16, 2, "▏ "), (2.0, 2, "██")],
)
def test_bar(fraction, width, expected):
    assert bar(fraction, width) == expected


def test_generated_cohort_through_the_store_recovers_d_prime(tmp_path: Path):
    """The issue's "done when", end to end: the generated cohort of tests/unit/test_stats_cohort.py (200 trainees x
    40 drills with a fault + 20 all-clear drills, fixed seed; why r >= 0.9 and a mean error within +-0.15 follow
    from those sample sizes is explained there) stored as sessions, then `scores --summary --format json`."""
    from unit.test_stats_cohort import COHORT_SEED, generated_cohort

    from warroom.store.results import ResultsStore

    facts, truth = generated_cohort(COHORT_SEED)
    rows = [
        (f"s{i:05d}", f.trainee, f.drill_id, int(not f.is_fault_drill), f.started_at, f.outcome.value, int(f.score),
         f.false_escalations, f.mode)
        for i, f in enumerate(facts)
    ]  # fmt: skip
    with ResultsStore(tmp_path) as store:  # 13,000 rows in one transaction, as stored rows
        conn = store._conn
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO sessions (session_id, trainee, drill_id, all_clear, started_at, outcome, total, "
            "false_escalations, mode, scoring_version, scorecard, actions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '1', "
            "'{}', '[]')",
            rows,
        )
        conn.execute("COMMIT")
    data = json.loads(run(tmp_path, "--format", "json").stdout)
    assert data["counted"]["mode"] == "assessment" and data["counted"]["left_out"] > 0
    rows = data["trainees"]
    assert len(rows) == 200 and {(t["fault_sessions"], t["all_clear_sessions"]) for t in rows} == {(40, 20)}
    est = [t["d_prime"] for t in rows]
    gen = [truth[t["trainee"]] for t in rows]
    import statistics

    assert statistics.correlation(gen, est) >= 0.9
    assert -0.15 <= statistics.fmean(e - g for e, g in zip(est, gen, strict=True)) <= 0.15
