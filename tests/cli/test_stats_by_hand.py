"""The facilitator's numbers checked by hand: a small cohort played headless on bundled drills
(tests/handcohort_support.py), every scorecard worked out on paper from docs/scoring.md's formula, every figure of
`warroom scores summary` (JSON, CSV, table), `warroom report` and the per-drill item analysis worked out from the
textbook formulas (tests/paper_stats.py) and, for the key ones, written down as numbers; on each back end
(tests/pg_support.py)."""

from __future__ import annotations

import csv
import io
import json
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from handcohort_support import DRILL, PLAYS, SET_ID, play_cohort, play_cohort_cleanly
from paper_stats import Row, paper
from scores_support import run_sub

from warroom.cli import main

A, B, C, N = (DRILL[k] for k in "ABCN")

#: Per session of PLAYS, in order: (outcome, total, time to detect, damage, false escalations, re-plan USD,
#: distractors shown, distractors escalated), each worked out by hand from docs/scoring.md and the drill files
#: (facts in tests/handcohort_support.py). Speed = 25 x (1 - ttd / (deadline - evidence)), damage avoided =
#: 25 x (1 - damage / full), each rounded half up; a re-plan costs input x price + output x price of the drill's
#: first planner call.
EXPECTED = [
    # ana
    ("contained", 100, 0.0, 0, 0, 0.0, 0, ()),  # A at 12 s: 50 + 25 + 25; stopped before e09 (23 s)
    ("contained", 94, 5.0, 0, 0, 0.0, 1, ()),  # B at 41 s: 25 x (1 - 5/20) = 18.75 -> 19; 50 + 19 + 25
    ("contained", 100, 0.0, 0, 0, 0.0, 1, ()),  # C at 36 s; e03 shown
    ("all_clear_held", 100, None, 0, 0, 0.0, 5, ()),  # N watched to the end: 5 distractors shown
    # ben
    ("missed", 0, None, 14021, 0, 0.0, 1, ()),  # A: the whole cascade, 4,413 + 4,527 + 5,081
    # B: s4 at 41 s is the wrong step: 0 - 10 clamped to 0; clock 41 -> 56 s, then every damage event (11,870);
    # re-plan 3,600 x $3 + 720 x $15 per million = $0.0216
    ("wrong_step", 0, None, 11870, 1, 0.0216, 2, ()),
    # C: s2 at 20 s is before the evidence (e08, 36 s): false alarm; re-plan 4,200 x $5 + 690 x $25 = $0.03825
    ("false_alarm", 0, None, 450, 1, 0.03825, 2, ("e03",)),
    ("false_alarm", 40, None, 0, 1, 0.0103, 5, ("e17",)),  # N: 50 - 10; 2,400 x $2.5 + 430 x $10 = $0.0103
    # cy
    ("contained_late", 37, 33.0, 4413, 0, 0.0, 1, ()),  # A at 45 s: 20 + 0 + 25 x (1 - 4,413/14,021) = 17.13 -> 17
    ("right_step_unsupported", 10, None, 0, 0, 0.0, 2, ("e14",)),  # B: s3 citing distractor e14 only
    ("contained", 94, 10.0, 0, 0, 0.0, 1, ()),  # C at 46 s: 25 x (1 - 10/44) = 19.32 -> 19
    ("all_clear_held", 100, None, 0, 0, 0.0, 5, ()),
    ("contained", 100, 0.0, 0, 0, 0.0, 0, ()),  # A, practice
    # dee
    ("contained", 72, 18.0, 0, 1, 0.035, 1, ()),  # A: docs/scoring.md's worked example, 50 + 7 + 25 - 10
    ("abandoned", 0, None, 0, 0, 0.0, 1, ()),  # B quit at 30 s (e06 shown)
    ("contained", 88, 22.0, 0, 0, 0.0, 2, ()),  # C at 58 s: 25 x (1 - 22/44) = 12.5 -> 13 (half up)
    ("false_alarm", 30, None, 0, 2, 0.0206, 5, ("e06", "e23")),  # N: 50 - 2 x 10
    # eve
    ("right_step_unsupported", 10, None, 0, 0, 0.0, 1, ("e09",)),  # A: s1 at 24 s citing distractor e09 only
    ("contained", 100, 0.0, 0, 0, 0.0, 1, ()),  # B at 36 s
    ("missed", 0, None, 450, 0, 0.0, 2, ()),  # C
]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def _cohort(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], str]:
    """The cohort played once per module and back end (the tests that share it only read it): in a data directory
    of its own, or in a new schema of the PostgreSQL test server; returns the data directory, the session ids and
    the store URL ("" for the data directory's SQLite file)."""
    url = ""
    if request.param == "postgresql":
        server = request.getfixturevalue("postgres_server")
        schema = f"t_{uuid.uuid4().hex[:16]}"
        server.sql(f"CREATE SCHEMA {schema}")
        url = server.url(schema=schema)
    data = tmp_path_factory.mktemp("cohort") / "data"
    with pytest.MonkeyPatch.context() as mp:
        ids = play_cohort_cleanly(mp, data, url, tmp_path_factory.mktemp("cache"))
    return data, ids, url


@pytest.fixture
def played(_cohort: tuple[Path, list[str], str], monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    """The shared cohort, read-only; ``$WARROOM_STORE`` names its PostgreSQL schema for the commands the test runs."""
    data, ids, url = _cohort
    if url:
        monkeypatch.setenv("WARROOM_STORE", url)
    return data, ids


@pytest.fixture
def own_played(backend_url: str | None, tmp_path: Path) -> tuple[Path, list[str]]:
    """A cohort of the test's own, on each back end, for a test that writes to the store."""
    data = tmp_path / "data"
    return data, play_cohort(data)


def _sessions(data: Path) -> dict[str, dict]:
    r = run_sub(data, "list", "--format", "json", "--limit", "0")
    assert r.exit_code == 0, r.output
    return {s["session_id"]: s for s in json.loads(r.stdout)}


def _rows(modes: tuple[str, ...] = ("assessment",), letters: str = "ABCN") -> list[Row]:
    """The paper rows of the sessions of ``modes`` on the drills ``letters``, in the order played."""
    return [
        Row(p.trainee, DRILL[p.letter], p.letter == "N", e[0], e[1], e[2], e[6], e[7], e[4], p.mode)
        for p, e in zip(PLAYS, EXPECTED, strict=True)
        if p.mode in modes and p.letter in letters
    ]


def _summary(data: Path, *args: str) -> dict:
    r = run_sub(data, "summary", "--format", "json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _assert_matches_paper(got: dict, want: dict) -> None:
    trainees = {t["trainee"]: t for t in got["trainees"]}
    drills = {d["drill_id"]: d for d in got["drills"]}
    assert sorted(trainees) == sorted(want["trainees"]) and sorted(drills) == sorted(want["drills"])
    for name, figures in want["trainees"].items():
        for key, value in figures.items():
            assert trainees[name][key] == pytest.approx(value, abs=1e-9), (name, key)
    for name, figures in want["drills"].items():
        for key, value in figures.items():
            assert drills[name][key] == pytest.approx(value, abs=1e-9), (name, key)
    for key, value in want["score_reliability"].items():
        assert got["score_reliability"][key] == pytest.approx(value, abs=1e-9), key


def test_every_scorecard_is_the_docs_formula(played: tuple[Path, list[str]]):
    data, ids = played
    stored = _sessions(data)
    for p, sid, (outcome, total, ttd, damage, false, replan, shown, pulled) in zip(PLAYS, ids, EXPECTED, strict=True):
        s = stored[sid]
        got = (s["outcome"], s["total"], s["time_to_detect"], s["damage"], s["false_escalations"])
        assert got == (outcome, total, ttd, damage, false), (p, got)
        assert s["mode"] == p.mode and s["set_id"] == (SET_ID if p.letter in "AN" else None)
        card = s["scorecard"]
        assert card["distractors_shown"] == shown and tuple(card["distractor_escalations"]) == pulled, p
        if outcome != "abandoned":
            assert card["replan_usd"] == pytest.approx(replan, abs=1e-12), p
            assert card["full_damage"] == {"A": 14021, "B": 11870, "C": 450, "N": 0}[p.letter]
    # five scorecards component by component (docs/scoring.md, "The points")
    points = {sid: [(c["name"], c["points"]) for c in stored[sid]["scorecard"]["components"] or []] for sid in ids}
    assert points[ids[1]] == [("Outcome", 50), ("Speed", 19), ("Damage avoided", 25), ("False escalations", 0)]
    assert points[ids[5]] == [("Outcome", 0), ("Speed", 0), ("Damage avoided", 0), ("False escalations", -10)]
    assert points[ids[8]] == [("Outcome", 20), ("Speed", 0), ("Damage avoided", 17), ("False escalations", 0)]
    assert points[ids[13]] == [("Outcome", 50), ("Speed", 7), ("Damage avoided", 25), ("False escalations", -10)]
    assert points[ids[15]] == [("Outcome", 50), ("Speed", 13), ("Damage avoided", 25), ("False escalations", 0)]
    assert points[ids[16]] == [("Outcome", 50), ("False escalations", -20)]
    # a false escalation moves the drill clock on 15 s: dee's second escalation of A is recorded at 30 s, after the
    # jump from 14 s to 29 s, and contained at 30 s (time to detect 30 - 12 = 18 s, above)
    assert [a["t"] for a in stored[ids[13]]["actions"] if a["kind"] == "escalate"] == [14.0, 30.0]
    assert stored[ids[13]]["scorecard"]["contained_at"] == 30.0
    # the cost of the calls released (docs/scoring.md, "Cost math"), A's prices $5/$25 planner, $1/$5 executor:
    # to 12 s e01 (3,000/800) $0.035, e02 (1,150/90) $0.0016, the count query e03 (1,180/70) $0.00153, e05
    # (1,220/160) $0.00202, plus the re-plan after the containment (3,400/620) $0.0325; to 30 s also e07 $0.0026, e08
    # $0.00184, e10 $0.00166 and one false escalation's re-plan $0.035; to 45 s (late) e01-e10 and e12 $0.00215, e14
    # $0.00217, plus $0.0325 (the ids as sessions show them, by position)
    costs = [stored[ids[i]]["cost_usd"] for i in (0, 13, 8)]
    assert costs == pytest.approx([0.07265, 0.11375, 0.08307], abs=1e-12)


def test_summary_json_is_the_paper_figures(played: tuple[Path, list[str]]):
    data, _ = played
    got = _summary(data)
    assert got["counted"] == {"mode": "assessment", "sessions": 19, "trials": 19, "replays": 0, "abandoned": 1,
                              "abandoned_apart": 0, "chosen": 0, "approximated": 0, "left_out": 1,
                              "tutorial": 0}  # fmt: skip
    _assert_matches_paper(got, paper(_rows()))
    t = {x["trainee"]: x for x in got["trainees"]}
    # the responses, recorded by rules 4 (none approximated): ana hit A, B, C and held N; ben missed A,
    # escalated the wrong step on B and too early on C (localisation errors), escalated N (a false alarm); dee's
    # containment of A came after a false escalation (a localisation error) and dee quit B (in assessment: a miss)
    assert [(t[n]["hits"], t[n]["signal_trials"]) for n in sorted(t)] == [(3, 3), (0, 3), (1, 3), (1, 3), (1, 3)]
    assert [t[n]["localisation_errors"] for n in sorted(t)] == [0, 2, 1, 1, 1]
    assert (t["dee"]["misses"], t["dee"]["abandoned"], t["dee"]["trials"]) == (1, 1, 4)
    # Wilson 95% of 3 of 3: (0.4385, 1), of 1 of 3: (0.0615, 0.7923)
    assert (t["ana"]["hit_rate_low"], t["ana"]["hit_rate_high"]) == (pytest.approx(0.438503, abs=1e-6), 1.0)
    assert (t["cy"]["hit_rate_low"], t["cy"]["hit_rate_high"]) == pytest.approx((0.061492, 0.792340), abs=1e-6)
    # 3 signal and 1 noise trials: too few for d′, c and A′ (10 and 5)
    assert all(x["d_prime"] is None and not x["enough_trials"] for x in t.values())
    assert (t["dee"]["mean_score"], t["dee"]["false_escalations_per_noise_trial"]) == (47.5, 2.0)  # the quit is 0
    assert (t["eve"]["false_alarm_rate"], t["eve"]["noise_trials"]) == (None, 0)  # no all-clear drill played
    assert [t[n]["median_time_to_detect"] for n in sorted(t)] == [0.0, None, 21.5, 20.0, 0.0]
    assert [t[n]["distractor_escalation_rate"] for n in sorted(t)] == pytest.approx([0, 2 / 10, 1 / 9, 2 / 9, 1 / 4])
    d = {x["drill_id"]: x for x in got["drills"]}
    # correct = hits and correct rejections: A ana; B ana, eve; C ana, cy, dee; N ana, cy
    assert [d[k]["difficulty"] for k in (A, B, C, N)] == pytest.approx([1 / 5, 2 / 5, 3 / 5, 2 / 4])
    assert (d[A]["median_time_to_detect"], d[B]["median_time_to_detect"], d[C]["median_time_to_detect"]) == (
        18.0, 2.5, 10.0
    )  # fmt: skip
    assert d[B]["abandoned"] == 1 and d[B]["trials"] == 5
    assert d[N]["distractor_pulls"] == {"e06": 1, "e17": 1, "e23": 1}
    rel = got["score_reliability"]
    # halves of the mean score: ana 100/97, ben 0/20, cy 65.5/55, dee 80/15, eve 5/100; sizes 2 x 9 and 1: 20/11
    assert (rel["trainees"], rel["half_trials"]) == (5, pytest.approx(20 / 11))
    assert got["d_prime_reliability"]["status"] == "too_few"


@pytest.mark.parametrize(
    ("args", "trainees", "letters"),
    [(("--trainee", "dee"), {"dee"}, "ABCN"), (("--drill", A), None, "A"), (("--drill", N), None, "N")],
)
def test_summary_with_a_filter(played: tuple[Path, list[str]], args: tuple[str, ...], trainees, letters: str):
    """``--trainee`` and ``--drill`` count only their sessions (on both back ends)."""
    data, _ = played
    rows = [r for r in _rows(letters=letters) if trainees is None or r.trainee in trainees]
    _assert_matches_paper(_summary(data, *args), paper(rows))


def test_csv_and_table_show_the_same_figures(played: tuple[Path, list[str]]):
    data, _ = played
    js = _summary(data)
    r = run_sub(data, "summary", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    by = {(row["scope"], row["name"]): row for row in rows}
    for t in js["trainees"]:
        for key in ("hit_rate", "hit_rate_low", "hit_rate_high", "false_alarm_rate", "d_prime", "mean_score",
                    "score_reliability"):  # fmt: skip
            cell = by["trainee", t["trainee"]][key]
            assert (float(cell) if cell else None) == t[key], (t["trainee"], key)
    for d in js["drills"]:
        for key in ("difficulty", "difficulty_low", "discrimination", "median_time_to_detect"):
            cell = by["drill", d["drill_id"]][key]
            assert (float(cell) if cell else None) == d[key], (d["drill_id"], key)
    assert by["cohort", "score_reliability"]["status"] == js["score_reliability"]["status"]
    table = run_sub(data, "summary", env={"COLUMNS": "250"}).stdout
    lines = {line.split()[1]: line for line in table.splitlines() if line.startswith("│")}
    assert "3/3 100% [44–100]" in lines["ana"] and "98.5" in lines["ana"]
    assert "too few trials (3 signal, 1 noise)" in lines["ana"]
    assert "21.5 s" in lines["cy"] and "60.3" in lines["cy"]  # 60.25, half up
    assert "1/3 33% [6–79]" in lines["dee"] and "47.5" in lines["dee"]
    assert "Reliability of the mean score (secondary; split-half, Spearman–Brown): r = " in " ".join(table.split())


def test_report_shows_the_paper_figures(played: tuple[Path, list[str]], tmp_path: Path):
    data, _ = played
    out = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["report", "--data-dir", str(data), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "Counted: assessment sessions: 19 trials (each trainee&#x27;s first attempt at each drill)" in page
    cells = "".join(page.split("<td>"))
    for row in (
        "ana</td>4</td>0</td>0</td>3/3 100% [44–100]</td>0/1 0% [0–79]</td>too few trials (3 signal, 1 noise)</td>",
        "dee</td>4</td>0</td>1</td>1/3 33% [6–79]</td>1/1 100% [21–100]</td>",
        f"{A}</td>5</td>0</td>5</td>0</td>1/5 20% [4–62]</td>",
        f"{B}</td>5</td>0</td>5</td>1</td>2/5 40% [12–77]</td>",
    ):
        assert row in cells, row
    assert "Not placed (no signal trial or no noise trial): eve." in page
    assert "ana: hit rate 3/3 100% [44%–100%], false-alarm rate 0/1 0% [0%–79%]" in page
    assert "No trainee has enough trials for d′ yet (10 signal and 5 noise trials)." in page
    assert "ana: too few trials (3 signal, 1 noise)" in page


def test_rescore_gives_the_same_figures(own_played: tuple[Path, list[str]]):
    data, _ = own_played
    before = _summary(data)
    r = run_sub(data, "rescore")
    assert r.exit_code == 0, r.output
    after = _summary(data)
    assert after == before


@pytest.mark.usefixtures("backend_url")
def test_report_and_summary_break_ties_in_start_time_alike(tmp_path: Path):
    """The first attempt is the session the store stored first, whatever the starts say (docs/sessions.md), in
    `scores summary` (counted in SQL) and in `warroom report` (counted from each session's facts) alike: t1's two
    sessions of drill A share a start time and were stored t1-2 first; t1-2 is the first attempt (before the store
    numbered its rows, the tie went to the session id: t1-1)."""
    from statistics import correlation

    from stats_support import add

    from warroom.core.stats import summarize
    from warroom.store.cohort import cohort_stats, read_facts
    from warroom.store.results import ResultsStore

    data = tmp_path / "data"
    with ResultsStore(data) as store:
        add(store, "t1-2", "t1", "A", "missed", 10, day=1)
        add(store, "t1-1", "t1", "A", "missed", 90, day=1)
        add(store, "t1-3", "t1", "B", "missed", 30, day=2)
        for name, (first, second) in {"t2": (20, 80), "t3": (60, 70), "t4": (40, 50), "t5": (35, 45)}.items():
            add(store, f"{name}-1", name, "A", "missed", first, day=1)
            add(store, f"{name}-2", name, "B", "missed", second, day=2)
        r = correlation([10, 20, 60, 40, 35], [30, 80, 70, 50, 45])  # t1: A = t1-2 (10), then B (30)
        assert cohort_stats(store).stats.score_reliability.split_half_r == pytest.approx(r, abs=1e-12)
        assert summarize(read_facts(store)[0]).score_reliability.split_half_r == pytest.approx(r, abs=1e-12)
    out = tmp_path / "report.html"
    done = CliRunner().invoke(main, ["report", "--data-dir", str(data), "-o", str(out)], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    sentence = f"r = {r:.2f} across 5 trainees"
    assert sentence in out.read_text(encoding="utf-8") and sentence in " ".join(run_sub(data, "summary").stdout.split())
