"""A session whose trial was chosen, not drawn (`warroom run --as` or `--seed`, issue 30 of the hostile campaign):
recorded as such (the journal's start line, the store's ``chosen`` column of schema version 23, export and import),
kept and listed, never counted as a trial by either statistics path, and a first attempt all the same; `scores
verify` and recovery flag a session that claims a drawn trial its seed does not draw (docs/scoring.md, "What counts
as a trial"; docs/cohorts.md, "What a trainee can and cannot do to their results")."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from stats_support import add
from store_support import bundled_drill_path, load

from warroom.cli import main
from warroom.core.model import PlayedAs
from warroom.core.stats import summarize
from warroom.core.variants import draw_played_as
from warroom.store.cohort import FactsQuery, cohort_stats, read_facts
from warroom.store.cohort._count import facts_stats
from warroom.store.journal import Trial
from warroom.store.results import ResultsStore


def _chosen(store: ResultsStore, *ids: str) -> None:
    """Mark stored sessions as chosen (as the recorder stores a `warroom run --as` session)."""
    for sid in ids:
        store.db.conn.execute("UPDATE sessions SET chosen = 1 WHERE session_id = ?", (sid,))


def _attack(store: ResultsStore, trainee: str, *, with_chosen: bool) -> None:
    """The scripted attack in practice: 15 drills played ``--as noise`` never escalating (correct rejections), and
    15 drawn drills guessed (3 hits and 7 wrong steps of 10 signal trials, 5 false alarms of 5 noise trials); without
    ``with_chosen``, only the drawn ones (the same trainee had they never used ``--as``)."""
    if with_chosen:
        for i in range(15):
            add(store, f"{trainee}-n{i:02d}", trainee, f"c{i:02d}", "all_clear_held", 100, all_clear=True,
                mode="practice", day=1 + i)  # fmt: skip
        _chosen(store, *(f"{trainee}-n{i:02d}" for i in range(15)))
    for i in range(10):
        outcome, total = ("contained", 90) if i < 3 else ("wrong_step", 20)
        add(store, f"{trainee}-s{i:02d}", trainee, f"d{i:02d}", outcome, total, ttd=5.0 if i < 3 else None,
            mode="practice", day=1 + i)  # fmt: skip
    for i in range(5):
        add(store, f"{trainee}-f{i:02d}", trainee, f"h{i:02d}", "false_alarm", 0, all_clear=True, mode="practice",
            day=1 + i)  # fmt: skip


def _both_paths(store: ResultsStore, mode: str = "auto"):
    """The statistics of the SQL path (``scores summary``) and of the in-process path (``report``, the console)."""
    sql = cohort_stats(store, FactsQuery(), mode)
    facts = facts_stats(store, FactsQuery(), mode)
    assert sql.stats == facts.stats and sql.counted == facts.counted
    assert summarize(read_facts(store)[0], modes=sql.counted.modes) == sql.stats
    return sql.stats


def test_the_scripted_attack_gains_nothing_in_the_practice_figures(tmp_path: Path, backend_url: str | None):
    """Half the drills played ``--as noise`` never escalating and the rest guessed gained d′ +1.44 in practice
    figures: the chosen sessions were counted as correct rejections. They are no trials now: the gamer's figures are
    those of the same trainee had they never played them, on both statistics paths."""
    with ResultsStore(tmp_path, url=backend_url) as store:
        _attack(store, "gamer", with_chosen=True)
        _attack(store, "plain", with_chosen=False)
        stats = _both_paths(store)
    gamer, plain = stats.trainees
    assert (gamer.trainee, plain.trainee) == ("gamer", "plain")
    assert (gamer.trials, gamer.noise_trials, gamer.correct_rejections, gamer.chosen) == (15, 5, 0, 15)
    assert gamer.sessions == 30 and gamer.replays == 0 and plain.chosen == 0
    assert gamer.d_prime is not None and gamer.d_prime == plain.d_prime
    assert (gamer.false_alarm_rate, gamer.hit_rate, gamer.mean_score) == (1.0, 0.3, plain.mean_score)
    figures = {k: v for k, v in gamer.to_dict().items() if k not in ("trainee", "sessions", "chosen")}
    assert figures == {k: v for k, v in plain.to_dict().items() if k not in ("trainee", "sessions", "chosen")}
    assert stats.chosen == 15 and all(d.trials == 0 and d.chosen == 1 for d in stats.drills if d.drill_id[0] == "c")


def test_a_chosen_session_is_a_first_attempt_that_makes_later_sessions_replays(tmp_path: Path, backend_url: str | None):
    """A chosen session shows the drill (``--as signal``: the fault and, at the debrief, the answer key): it is the
    trainee's first attempt at that drill, no trial, and a drawn session played afterwards is a replay, never the
    trial (else ``--as signal`` first, then a drawn "first attempt" knowing the answer). A chosen session played
    after the first attempt is a replay like any other."""
    with ResultsStore(tmp_path, url=backend_url) as store:
        add(store, "a1", "ann", "A", "missed", 0, mode="practice", day=1)
        add(store, "a2", "ann", "A", "contained", 100, ttd=3.0, mode="practice", day=2)  # drawn, after
        add(store, "b1", "ann", "B", "missed", 0, mode="practice", day=3)  # drawn first attempt
        add(store, "b2", "ann", "B", "contained", 100, ttd=3.0, mode="practice", day=4)  # chosen replay
        _chosen(store, "a1", "b2")
        stats = _both_paths(store)
    (ann,) = stats.trainees
    assert (ann.sessions, ann.trials, ann.replays, ann.chosen, ann.hits, ann.misses) == (4, 1, 2, 1, 0, 1)
    a, b = stats.drills
    assert (a.drill_id, a.trials, a.replays, a.chosen) == ("A", 0, 1, 1)
    assert (b.drill_id, b.trials, b.replays, b.chosen) == ("B", 1, 1, 0)


def _play_chosen(data: Path, **services) -> str:
    """A practice session started as `warroom run --as/--seed` starts it (the TUI's services), held (no action)."""
    from warroom.core.scoring import score
    from warroom.tui.logic import Services

    path = bundled_drill_path()
    svc = Services(trainee="ann", data_dir=data, **services)
    rec = svc.start_session(path, load(path)).inner
    rec.finish(score(rec.drill, rec.actions))
    return str(rec.session_id)


@pytest.mark.parametrize("options", [{"played_as": "noise"}, {"seed": 7}, {"played_as": "signal", "seed": 3}])
def test_run_as_or_seed_is_recorded_as_chosen_listed_and_left_out_with_a_reason(tmp_path: Path, options: dict):
    """`warroom run --as`/`--seed` sessions: the journal's start line and the row say ``chosen``; `scores list`
    marks it (table, JSON); `scores summary` and `report` count no trial and say why."""
    sid = _play_chosen(tmp_path, **options)
    start = json.loads((tmp_path / "journals" / "done" / f"{sid}.jsonl").read_text().splitlines()[0])
    assert start["chosen"] is True
    drawn = _play_chosen(tmp_path)  # the same drill again, drawn: a replay of the chosen first attempt
    with ResultsStore(tmp_path) as store:
        assert store.get(sid).chosen and not store.get(drawn).chosen
    runner = CliRunner()
    base = ["--data-dir", str(tmp_path), "scores"]
    listed = runner.invoke(main, [*base, "--format", "json"])
    assert {r["session_id"]: r["chosen"] for r in json.loads(listed.stdout)} == {sid: True, drawn: False}
    table = runner.invoke(main, [*base, "list"], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "chosen trial" in table.stdout, table.output
    assert "its trial or seed was chosen (`warroom run --as`/`--seed`)" in " ".join(table.stdout.split())
    summary = runner.invoke(main, [*base, "summary", "--format", "json"])
    counted = json.loads(summary.stdout)["counted"]
    assert (counted["sessions"], counted["trials"], counted["replays"], counted["chosen"]) == (2, 0, 1, 1)
    text = runner.invoke(main, [*base, "summary"], env={"COLUMNS": "200"})
    assert "1 first attempt whose trial was chosen (`warroom run --as`/`--seed`), kept apart: no trial" in " ".join(
        text.stdout.split()
    )


def test_the_tutorial_and_a_drawn_session_are_not_chosen(tmp_path: Path):
    """Only the trainee's choice marks a session: a drawn session, and warroom's own forced trial, are not."""
    sid = _play_chosen(tmp_path)
    with ResultsStore(tmp_path) as store:
        assert store.get(sid).chosen is False


def _seed_drawing(played: PlayedAs) -> int:
    drill = load(bundled_drill_path())
    return next(s for s in range(1000) if draw_played_as(drill, s) is played)


def test_a_journal_edited_to_claim_a_drawn_trial_is_not_counted(tmp_path: Path):
    """A `--as noise` session killed mid-drill, its start line edited to say it was drawn (``chosen`` false): its
    seed draws a signal trial, so recovery records it as disagreeing, as `scores verify` finds it, and no figure
    counts it."""
    from unit.test_forgeries import killed_journal, recovered_verdict
    from warroom.store.review import Verdict

    seed = _seed_drawing(PlayedAs.SIGNAL)
    trial = Trial(PlayedAs.NOISE, chosen=True)
    sid = killed_journal(tmp_path, bundled_drill_path(), {"chosen": False}, [], seed=seed, trial=trial)
    state, reason, verdict = recovered_verdict(tmp_path, sid)
    assert (state, verdict) == ("disagrees", Verdict.DISAGREES)
    assert f"played_as 'noise' is stored as drawn, but a practice session of this drill with seed {seed} draws a " \
           "signal trial" in reason
    with ResultsStore(tmp_path) as store:
        assert cohort_stats(store).stats.trials == 0 and facts_stats(store, FactsQuery()).stats.trials == 0


def test_verify_flags_a_row_claiming_a_drawn_trial_its_seed_does_not_draw(tmp_path: Path):
    """A stored `--as noise` row whose ``chosen`` was set to 0 by SQL (or an older row, stored before schema
    version 23, of a session played with ``--as``): `scores verify` recomputes the draw of its seed and says so; the
    same row left chosen, or a drawn row whose seed draws its trial, is verified."""
    from warroom.store.review import Verdict, default_drill_resolver, verify_sessions

    seed = _seed_drawing(PlayedAs.SIGNAL)
    chosen = _play_chosen(tmp_path, played_as="noise", seed=seed)
    edited = _play_chosen(tmp_path / "b", played_as="noise", seed=seed)
    drawn = _play_chosen(tmp_path / "c", seed=seed)
    with ResultsStore(tmp_path / "b") as store:
        store.db.conn.execute("UPDATE sessions SET chosen = 0 WHERE session_id = ?", (edited,))
        (result,) = verify_sessions(store, default_drill_resolver(), record=False)
    assert result.verdict is Verdict.DISAGREES and "is stored as drawn" in result.reason
    for data, sid in ((tmp_path, chosen), (tmp_path / "c", drawn)):
        with ResultsStore(data) as store:
            (result,) = verify_sessions(store, default_drill_resolver(), record=False)
            assert (result.session_id, result.verdict) == (sid, Verdict.VERIFIED), result.reason


def test_export_and_import_keep_the_flag(tmp_path: Path):
    """`store export` writes ``chosen``; `store import` stores it (and a line exported before schema version 23,
    without it, is drawn)."""
    sid = _play_chosen(tmp_path / "a", played_as="noise")
    drawn = _play_chosen(tmp_path / "a")
    runner = CliRunner()
    out = tmp_path / "all.jsonl"
    r = runner.invoke(main, ["--data-dir", str(tmp_path / "a"), "store", "export", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert {x["session_id"]: x["chosen"] for x in lines} == {sid: 1, drawn: 0}
    older = tmp_path / "older.jsonl"
    older.write_text(json.dumps({k: v for k, v in lines[0].items() if k != "chosen"} | {"session_id": "old-1"}) + "\n")
    for data, file in ((tmp_path / "b", out), (tmp_path / "b", older)):
        r = runner.invoke(main, ["--data-dir", str(data), "store", "import", "--all-trainees", str(file)])
        assert r.exit_code == 0, r.output
    with ResultsStore(tmp_path / "b") as store:
        assert (store.get(sid).chosen, store.get(drawn).chosen, store.get("old-1").chosen) == (True, False, False)
    again = tmp_path / "again.jsonl"
    runner.invoke(main, ["--data-dir", str(tmp_path / "b"), "store", "export", "-o", str(again)])
    assert [x for x in again.read_text().splitlines() if sid in x] == [x for x in out.read_text().splitlines()
                                                                         if sid in x]  # fmt: skip


def _as_version_22(store: ResultsStore) -> None:
    """Turn the open store back into schema version 22: no ``chosen`` column, the indexes of version 21."""
    from store_support import make_attempts_index, set_version

    from warroom.store.results._migrations import ATTEMPT_KEY, FACTS_INDEX_21

    conn = store.db.conn
    conn.execute("DROP INDEX ix_sessions_attempts")
    conn.execute("DROP INDEX ix_sessions_facts")
    conn.execute("ALTER TABLE sessions DROP COLUMN chosen")
    conn.execute(FACTS_INDEX_21)
    make_attempts_index(store, ATTEMPT_KEY[store.dialect.name])
    set_version(store, 22)


def test_migration_23_keeps_older_rows_drawn_and_indexes_the_flag(tmp_path: Path, backend_url: str | None):
    """A store of schema version 22 is upgraded: every older row is drawn (``chosen`` 0), the figures are those
    before, and both indexes the statistics read hold the flag (SQLite: the first attempts are still read from the
    covering index alone)."""
    from warroom.store.cohort._count import _FIRST_SQL, ATTEMPTS_INDEX
    from warroom.store.results import SCHEMA_VERSION

    with ResultsStore(tmp_path, url=backend_url) as store:
        _attack(store, "gamer", with_chosen=False)
        before = cohort_stats(store).stats
        _as_version_22(store)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION == 25
        assert {r[0] for r in store.db.conn.execute("SELECT chosen FROM sessions")} == {0}
        assert _both_paths(store) == before
        if store.dialect.name == "sqlite":
            sql = _FIRST_SQL.format(within="1 = 1", counted="1 = 1", hint=f" INDEXED BY {ATTEMPTS_INDEX}", where="")
            plan = store.db.conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
            assert any(f"COVERING INDEX {ATTEMPTS_INDEX}" in r[3] for r in plan), plan
            facts_plan = store.db.conn.execute("EXPLAIN QUERY PLAN SELECT chosen, stored_seq, response FROM sessions "
                                               "INDEXED BY ix_sessions_facts").fetchall()  # fmt: skip
            assert any("COVERING INDEX ix_sessions_facts" in r[3] for r in facts_plan), facts_plan
        _chosen(store, "gamer-s00")
        after = _both_paths(store)
    assert after.trainees[0].chosen == 1 and after.trials == before.trials - 1


def test_a_chosen_session_is_counted_on_postgresql_as_on_sqlite(tmp_path: Path, store_url: str):
    """The PostgreSQL plan (``DISTINCT ON`` on a second connection, tests/pg_support.py's real server) leaves a
    chosen first attempt out as SQLite's does, with the same figures."""
    figures = []
    for data, url in ((tmp_path / "pg", store_url), (tmp_path / "lite", None)):
        with ResultsStore(data, url=url) as store:
            _attack(store, "gamer", with_chosen=True)
            figures.append(_both_paths(store))
    assert figures[0] == figures[1] and figures[0].chosen == 15 and figures[0].trials == 15


def test_a_chosen_row_summary_json_agrees_with_report_facts(tmp_path: Path):
    """`scores summary --format json` and the report's facts count the same chosen sessions (one definition)."""
    with ResultsStore(tmp_path) as store:
        _attack(store, "gamer", with_chosen=True)
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "scores", "summary", "--format", "json"])
    data = json.loads(r.stdout)
    assert (data["counted"]["chosen"], data["chosen"], data["trainees"][0]["chosen"]) == (15, 15, 15)
    with ResultsStore(tmp_path) as store:
        facts = read_facts(store)[0]
    assert sum(f.chosen for f in facts) == 15
    assert dataclasses.asdict(summarize(facts))["trainees"][0]["trials"] == data["counted"]["trials"] == 15


def test_the_gradebook_grades_no_chosen_first_attempt(tmp_path: Path):
    """A date-range gradebook holds practice sessions outside any set: a ``--as noise`` session held (100) was the
    first attempt's grade and raised ``mean_first``. Its cell says it is not graded, and the mean leaves it out."""
    import csv
    import io

    from warroom.console._gradebook import gradebook_csv

    sid = _play_chosen(tmp_path, played_as="noise")
    drawn = _play_chosen(tmp_path)
    with ResultsStore(tmp_path) as store:
        rows = [store.get(sid), store.get(drawn)]
    other = dataclasses.replace(rows[1], session_id="x-1", drill_id="other", total=40, outcome="missed")
    (row,) = csv.DictReader(io.StringIO(gradebook_csv([*rows, other], [rows[0].drill_id, "other"])))
    day = rows[0].started_at[:10]
    assert row[rows[0].drill_id].startswith(f"not graded (first attempt {day} a chosen trial, --as/--seed; 2 "
                                            "attempts here, best ")  # fmt: skip
    assert (row["other"], row["mean_first"]) == ("40", "40.0")


def test_the_completion_grid_scores_no_chosen_first_attempt(tmp_path: Path):
    """A drill first played with ``--as noise`` outside a set, then in it: the grid's cell gave the chosen session's
    outcome and score as the first attempt's; it says the first attempt was a chosen trial and shows no score, as the
    gradebook grades none."""
    from datetime import date

    from warroom.console import completion_grid

    sid = _play_chosen(tmp_path, played_as="noise")
    drawn = _play_chosen(tmp_path)
    with ResultsStore(tmp_path) as store:
        chosen, later = store.get(sid), store.get(drawn)
    in_set = dataclasses.replace(later, set_id="w1")
    grid = completion_grid("w1", "W1", "practice", None, None, [(chosen.drill_id, "")], [chosen.trainee], [in_set],
                           set(), date(2026, 12, 7), [chosen], {sid: 1, drawn: 2})  # fmt: skip
    ((_, (cell,)),) = grid.rows
    assert (cell.outcome, cell.score, cell.session_id) == ("first attempt a chosen trial", None, sid)


def test_the_flag_columns_are_the_rows_fields_typed_bool():
    """Reading (SQLite's 0 and 1), importing and checking a row take the flag columns from the row's fields: adding
    ``chosen`` needed three hand lists changed (queries, transfer, writes); a new flag is declared in the row only."""
    from warroom.store.results._rows import FLAG_FIELDS

    assert FLAG_FIELDS == ("all_clear", "recovered", "chosen")
