"""`warroom scores summary` (old spelling `scores --summary`): the cohort statistics from the store (hit and
false-alarm rates, d′, c, A′, reliability, per-drill difficulty, discrimination, distractor pulls), which sessions
count (--mode, --set), abandoned sessions apart, bars, exports; on each back end (tests/pg_support.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from pg_support import sqlite_only
from scores_support import known_store, run, run_sub
from stats_support import add, cohort

from warroom.cli.scores._statistics import bar
from warroom.core.scoring import SCORING_VERSION
from warroom.store.results import ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


def summary(data_dir: Path, *args: str, columns: str = "200"):
    """``warroom scores summary ARGS`` on a terminal ``columns`` wide."""
    return run_sub(data_dir, "summary", *args, env={"COLUMNS": columns})


@pytest.fixture
def known(tmp_path: Path) -> Path:
    return known_store(tmp_path)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return cohort(tmp_path)


def trainees(r) -> dict[str, dict]:
    return {t["trainee"]: t for t in json.loads(r.stdout)["trainees"]}


def test_summary_json_figures(known: Path):
    r = run(known, "--summary", "--format", "json")
    data = json.loads(r.stdout)
    assert data["counted"] == {"mode": "all", "sessions": 7, "trials": 6, "replays": 1, "abandoned": 0,
                               "abandoned_apart": 0, "chosen": 0, "approximated": 6, "left_out": 0,
                               "tutorial": 0}  # fmt: skip
    ann, bob = data["trainees"]
    assert {k: ann[k] for k in ("trainee", "sessions", "replays", "trials", "signal_trials", "hits", "misses",
                                "noise_trials", "false_alarms", "correct_rejections")} == {
        "trainee": "ann", "sessions": 4, "replays": 1, "trials": 3, "signal_trials": 2, "hits": 1, "misses": 1,
        "noise_trials": 1, "false_alarms": 0, "correct_rejections": 1,
    }  # fmt: skip
    # s1 contained (a hit; s2, a replay of A, is not counted), s3 missed, s4 all clear held
    assert ann["hit_rate"] == 0.5 and ann["false_alarm_rate"] == 0.0
    assert (ann["hit_rate_low"], ann["hit_rate_high"]) == pytest.approx((0.0945, 0.9055), abs=1e-4)  # Wilson, 1 of 2
    # 2 signal and 1 noise trials: too few for d′, c and A′ (10 and 5), and the false-alarm rate is warned about
    assert not ann["enough_trials"] and ann["d_prime"] is None and ann["a_prime"] is None
    assert ann["warnings"] == ["false-alarm rate rests on 1 noise trial (5 needed)",
                               "false-alarm rate rests on 1 distinct control (3 needed)"]  # fmt: skip
    assert (ann["median_time_to_detect"], ann["mean_score"]) == (4.0, pytest.approx(190 / 3))
    assert (bob["hit_rate"], bob["false_alarm_rate"], bob["localisation_errors"]) == (0.5, 1.0, 1)
    assert [(d["drill_id"], d["trials"], d["replays"], d["difficulty"], d["all_clear"]) for d in data["drills"]] == [
        ("A", 2, 1, 0.5, False),
        ("B", 2, 0, 0.5, False),
        ("C", 2, 0, 0.5, True),
    ]
    assert data["d_prime_reliability"]["status"] == "too_few" and data["minimums"]["signal_trials"] == 10
    assert json.loads(summary(known, "--format", "json").stdout) == data  # the subcommand is the same


def test_summary_table_and_csv(known: Path):
    r = run(known, "--summary", env={"COLUMNS": "250"})
    assert r.exit_code == 0
    assert r.stdout.startswith(
        "Counted: every session: 6 trials (each trainee's first attempt at each drill) of 7 sessions; 1 replay "
        "listed apart."
    )
    assert "6 trials of 6 were scored by rules before version 4" in " ".join(r.stdout.split())
    assert f"`warroom scores rescore --rules {SCORING_VERSION}` records it" in " ".join(r.stdout.split())
    assert "Per trainee" in r.stdout and "Per drill" in r.stdout
    ann = next(ln for ln in r.stdout.splitlines() if "│ ann" in ln)
    cells = [c.strip() for c in ann.split("│")[1:-1]]
    assert cells[:7] == ["ann", "3", "1", "0", "1/2 50% [9–91]", "0/1 0% [0–79] !",
                         "too few trials (2 signal, 1 noise)"]  # fmt: skip
    assert cells[9] == "4 s (n=1)"  # the median of 1 trial that detected the fault
    assert "! false-alarm rate resting on fewer than 5 noise trials or 3 distinct controls" in r.stdout
    bars = [ln for ln in r.stdout.splitlines() if ln.startswith("bob ")]
    assert bars and "██████████  " in bars[0] and " 50%" in bars[0] and bars[0].endswith("█" * 20 + "  100%")
    rows = list(csv.DictReader(io.StringIO(run(known, "--summary", "--format", "csv").stdout)))
    assert [(row["scope"], row["name"]) for row in rows] == [
        ("trainee", "ann"),
        ("trainee", "bob"),
        ("drill", "A"),
        ("drill", "B"),
        ("drill", "C"),
        ("cohort", "d_prime_reliability"),
        ("cohort", "score_reliability"),
    ]
    assert rows[1]["false_alarm_rate"] == "1.0" and rows[3]["difficulty"] == "0.5" and rows[4]["all_clear"] == "True"
    assert rows[0]["hit_rate_low"] and rows[0]["warnings"].startswith("false-alarm rate rests on 1 noise trial (")
    assert rows[2]["distractor_pulls"] == "{}" and {row["counted_mode"] for row in rows} == {"all"}


def test_summary_rounds_halves_up_and_has_no_trailing_spaces(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        for i, total in enumerate((0, 0, 0, 25)):
            add_session(store, f"s{i}", trainee="zed", drill_id=f"A{i}", outcome="missed", total=total, ttd=None)
        for i, ttd in enumerate((18.2, 18.3)):
            add_session(store, f"t{i}", trainee="yan", drill_id=f"A{i}", outcome="contained", total=90, ttd=ttd)
    r = run(tmp_path, "--summary", env={"COLUMNS": "80"})
    lines = r.stdout.splitlines()
    assert all(ln == ln.rstrip() for ln in lines) and max(len(ln) for ln in lines) <= 80
    zed = " ".join(ln for ln in lines if "│ zed" in ln)
    assert " 6.3 │" in zed and "6.2" not in zed  # mean of 0, 0, 0, 25 = 6.25
    yan = " ".join(ln for ln in lines if "│ yan" in ln)
    assert "18.3 s" in yan  # median of 18.2 and 18.3 = 18.25
    assert json.loads(run(tmp_path, "--summary", "--format", "json").stdout)["trainees"][1]["mean_score"] == 6.25


def test_set_filter_and_its_title(data: Path):
    with ResultsStore(data) as store:
        add(store, "set-1", "fay", "A", "contained", 90, ttd=3.0, set_id="week-1", day=9)
        add(store, "set-2", "ada", "A", "missed", 0, set_id="week-1", day=9)  # ada played A before: a replay
    r = summary(data, "--set", "week-1", "--format", "json")
    assert list(trainees(r)) == ["ada", "fay"] and json.loads(r.stdout)["counted"]["sessions"] == 2
    assert (trainees(r)["ada"]["replays"], trainees(r)["ada"]["trials"]) == (1, 0)
    assert "Per trainee (drill set week-1)" in summary(data, "--set", "week-1").stdout


def test_assessment_sessions_count_by_default_and_the_output_says_so(data: Path):
    r = summary(data)
    assert r.exit_code == 0, r.output
    assert " ".join(r.stdout.split()).startswith(
        "Counted: assessment sessions: 15 trials (each trainee's first attempt at each drill) of 15 sessions; 0 "
        "replays listed apart; 1 abandoned, counted with their response; 1 practice session left out (--mode all "
        "counts them)."
    )
    j = summary(data, "--format", "json")
    assert json.loads(j.stdout)["counted"] == {"mode": "assessment", "sessions": 15, "trials": 15, "replays": 0,
                                               "abandoned": 1, "abandoned_apart": 0, "chosen": 0, "approximated": 15,
                                               "left_out": 1, "tutorial": 0}  # fmt: skip
    assert trainees(j)["ada"]["hit_rate"] == 1.0  # the practice miss is not counted


def test_mode_all_and_practice(data: Path):
    everything = summary(data, "--format", "json", "--mode", "all")
    assert json.loads(everything.stdout)["counted"]["sessions"] == 16
    ada = trainees(everything)["ada"]
    assert (ada["hit_rate"], ada["replays"]) == (1.0, 1)  # the practice miss of A came after the first attempt
    practice = summary(data, "--format", "json", "--mode", "practice")
    assert json.loads(practice.stdout)["counted"]["sessions"] == 1
    assert json.loads(practice.stdout)["counted"]["left_out"] == 15
    # ada's practice session of A came after her first (assessment) attempt at A: a replay in practice too
    ada = trainees(practice)["ada"]
    assert list(trainees(practice)) == ["ada"] and (ada["trials"], ada["replays"], ada["hit_rate"]) == (0, 1, None)
    assert "1 practice session left out" not in summary(data, "--mode", "all").stdout
    assert summary(data, "--mode", "exam").exit_code == 2


def test_abandoned_assessment_sessions_count_with_their_response(data: Path):
    eve = trainees(summary(data, "--format", "json"))["eve"]
    # eve missed A, quit B, held the all clear on C: in assessment the quit is a trial, a miss
    assert (eve["trials"], eve["abandoned"], eve["signal_trials"], eve["misses"], eve["hit_rate"]) == (3, 1, 2, 2, 0.0)
    assert eve["mean_score"] == pytest.approx(100 / 3)  # (0 + 0 + 100) / 3: the quit scores 0


def test_distractor_pulls_and_rates(data: Path):
    data_json = json.loads(summary(data, "--format", "json").stdout)
    drills = {d["drill_id"]: d for d in data_json["drills"]}
    assert drills["A"]["distractor_pulls"] == {"e5": 2} and drills["B"]["distractor_pulls"] == {}
    cy = {t["trainee"]: t for t in data_json["trainees"]}["cy"]
    assert (cy["distractors_shown"], cy["distractors_escalated"], cy["distractor_escalation_rate"]) == (1, 1, 1.0)
    table = summary(data).stdout
    assert "e5 ×2" in next(ln for ln in table.splitlines() if ln.startswith("│ A "))


def test_table_bars_and_narrow_terminal(data: Path):
    wide = summary(data, columns="250").stdout.splitlines()
    ada = next(ln for ln in wide if ln.startswith("ada "))
    assert "█" * 20 + " 100%" in ada and ada.endswith(" 0%")
    dee = next(ln for ln in wide if ln.startswith("dee "))
    assert dee.endswith("█" * 20 + "  100%")  # all false alarms
    assert next(ln for ln in wide if ln.startswith("A ")).endswith("███████████▉          0.59")  # discrimination
    narrow = summary(data, columns="80").stdout.splitlines()
    assert max(len(ln) for ln in narrow) <= 80 and all(ln == ln.rstrip() for ln in narrow)
    assert sum("│ ada " in ln for ln in narrow) == 2  # the trainee table split in two, each with the name


def test_csv_has_every_scope(data: Path):
    rows = list(csv.DictReader(io.StringIO(summary(data, "--format", "csv").stdout)))
    assert [r["scope"] for r in rows] == ["trainee"] * 5 + ["drill"] * 3 + ["cohort"] * 2
    assert rows[0]["name"] == "ada" and rows[0]["hit_rate"] == "1.0" and rows[0]["counted_mode"] == "assessment"
    assert json.loads(rows[5]["distractor_pulls"]) == {"e5": 2}
    assert rows[-1]["measure"] == "mean_score" and rows[-1]["split_half_r"] != "" and rows[-1]["trainees"] == "5"
    assert rows[-2]["measure"] == "d_prime" and rows[-2]["status"] == "too_few"


def test_a_row_that_cannot_be_counted_is_named_and_exits_1(data: Path):
    with ResultsStore(data) as store:
        store.db.conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")
    r = summary(data, "--format", "json")
    assert r.exit_code == 1
    assert "skipped: stored session ada-b cannot be counted in the statistics" in r.stderr
    assert trainees(r)["ada"]["signal_trials"] == 1


def test_no_store_gives_empty_figures(tmp_path: Path):
    empty = run(tmp_path / "none", "--summary", "--format", "json")
    data = json.loads(empty.stdout)
    assert data["trainees"] == [] and data["drills"] == [] and data["counted"]["sessions"] == 0
    said = run(tmp_path / "none", "--summary").stdout  # PostgreSQL: the schema exists, empty
    assert said.startswith(("No sessions recorded yet", "No sessions to count yet: "))


@pytest.mark.parametrize(
    ("fraction", "width", "expected"),
    [(None, 4, "    "), (0.0, 4, "    "), (1.0, 4, "████"), (0.5, 4, "██  "), (1 / 16, 2, "▏ "), (2.0, 2, "██")],
)
def test_bar(fraction, width, expected):
    assert bar(fraction, width) == expected


@sqlite_only
def test_generated_cohort_through_the_store_recovers_d_prime(tmp_path: Path):
    """The generated cohort of tests/unit/test_stats_cohort.py (200 trainees x 40 drills with a fault + 20 all-clear
    drills, fixed seed; why r >= 0.9 and a mean error within +-0.15 follow from those sample sizes is explained
    there) stored as rows of sessions scored by rules 1, then `scores summary --format json`."""
    from unit.test_stats_cohort import COHORT_SEED, generated_cohort

    facts, truth = generated_cohort(COHORT_SEED)
    rows = [
        (f"s{i:05d}", f.trainee, f.drill_id, int(not f.is_fault_drill), f.started_at, f.outcome.value, int(f.score),
         f.false_escalations, f.mode)
        for i, f in enumerate(facts)
    ]  # fmt: skip
    rows.sort(key=lambda r: (r[4], r[0]))  # stored in the order they were played (the store's order decides)
    with ResultsStore(tmp_path) as store:  # 13,000 rows in one transaction, as stored rows
        conn = store.db.conn
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO sessions (session_id, trainee, drill_id, all_clear, started_at, outcome, total, "
            "false_escalations, mode, scoring_version, scorecard, actions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '1', "
            "'{}', '[]')",
            rows,
        )
        conn.execute("COMMIT")
    data = json.loads(summary(tmp_path, "--format", "json").stdout)
    assert data["counted"]["mode"] == "assessment" and data["counted"]["left_out"] > 0
    rows = data["trainees"]
    assert len(rows) == 200 and {(t["signal_trials"], t["noise_trials"]) for t in rows} == {(40, 20)}
    est = [t["d_prime"] for t in rows]
    gen = [truth[t["trainee"]] for t in rows]
    import statistics

    assert statistics.correlation(gen, est) >= 0.9
    assert -0.15 <= statistics.fmean(e - g for e, g in zip(est, gen, strict=True)) <= 0.15
    assert data["d_prime_reliability"]["status"] == "estimated" and data["d_prime_reliability"]["trials_needed"]


@pytest.mark.parametrize(("needed", "words"), [(1, "1 trial reaches 0.7"), (24, "24 trials reach 0.7")])
def test_the_reliability_sentence_counts_trials_in_good_english(needed: int, words: str):
    """A cohort whose halves agree well needs 1 trial: "1 trial reaches 0.7", not "1 trials reach"."""
    from warroom.cli.scores import reliability_line
    from warroom.cli.scores._statistics import Summary
    from warroom.core.stats import CohortStats, Reliability

    reliability = Reliability("d_prime", "estimated", 5, 0.97, 4.5, 0.98, needed)
    score = Reliability("mean_score", "too_few", 2, None, None, None, None)
    line = reliability_line(Summary(CohortStats([], [], reliability, score), "all", 45, 0))
    head = "Reliability of d′ (split-half, Spearman–Brown)"
    assert line == f"{head}: r = 0.97 across 5 trainees; 0.98 at 9 trials; {words}."


def test_the_legend_says_what_a_trial_and_each_figure_are(known: Path):
    r = summary(known)
    text = " ".join(r.stdout.split())
    assert "A trial is a trainee's first attempt at a drill; replays are listed apart." in text
    assert "median ttd: drill seconds from the earliest evidence" in text
    assert "95% Wilson interval" in text and "shown from 10 signal and 5 noise trials" in text
    assert "Reliability of the mean score (secondary" in text


def test_a_store_of_tutorial_sessions_only_says_why_nothing_is_counted(tmp_path: Path):
    # the new trainee's first `warroom scores summary`, after the tutorial (README, "First steps"): not "No sessions
    # match." (no filter was given, and `warroom scores` lists the session) but why none is counted
    with ResultsStore(tmp_path) as store:
        add(store, "t1", "ana", "tutorial", "contained", 90, ttd=12.0, mode="tutorial")
    said = summary(tmp_path)
    assert said.exit_code == 0
    assert said.stdout == ("No sessions to count yet: the statistics count practice and assessment sessions, never "
                           "the tutorial's (`warroom scores` lists every session).\n")
    # a filter that matches only the tutorial's session: says so (`warroom scores --trainee ana` lists it)
    assert summary(tmp_path, "--trainee", "ana").stdout == (
        "No sessions to count: 1 tutorial session matches, which the statistics never count (`warroom scores list "
        "--mode tutorial` lists it).\n")
    # a trainee with no stored session: said so, with the store (campaign 22: it said only "No sessions match.")
    assert summary(tmp_path, "--trainee", "bob").stdout.startswith(
        "No sessions match --trainee bob: no session of trainee 'bob' is stored in ")


def test_the_legend_defines_the_drill_tables_wall_ttd_and_distractor_pulls(known: Path):
    # a new facilitator's first summary: the per-drill table's "wall ttd" beside "median ttd" (one from the
    # session's start on the wall clock, the other from the evidence on the drill clock) and "distractor pulls"
    # were the two column headers the legend did not define
    text = " ".join(summary(known).stdout.split())
    assert "wall ttd: median real seconds from the session's start to the containing escalation" in text
    assert "distractor pulls: the distractor events that drew escalations, each with its count" in text
