"""warroom.store.cohort._count: the cohort statistics counted inside the database give the same figures as
:func:`warroom.core.stats.summarize` over one SessionFacts per session, on both back ends (SQLite and a real
PostgreSQL server, tests/pg_support.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from stats_support import add, cohort

from warroom.core.stats import summarize
from warroom.store.cohort import FactsQuery, cohort_stats, counted_modes, read_facts, window_problems
from warroom.store.cohort._count import STORED_ORDER
from warroom.store.results import ResultsStore

FAULT_OUTCOMES = ["contained", "contained", "contained_late", "wrong_step", "false_alarm", "missed", "abandoned",
                  "right_step_unsupported"]  # fmt: skip
CLEAR_OUTCOMES = ["all_clear_held", "all_clear_held", "false_alarm", "abandoned"]


def _random_store(data_dir: Path, url: str | None, n: int = 240, seed: int = 3) -> None:
    """``n`` sessions of 9 trainees on 6 drills (one all-clear), both modes, two drill sets, distractor figures,
    times to detect in drill and wall seconds; every start time distinct."""
    rng = random.Random(seed)
    with ResultsStore(data_dir, url=url) as store:
        for i in range(n):
            drill = f"d{rng.randrange(6)}"
            clear = drill == "d5"
            outcome = rng.choice(CLEAR_OUTCOMES if clear else FAULT_OUTCOMES)
            detected = outcome.startswith("contained") or outcome == "right_step_unsupported"
            ttd = round(rng.uniform(1, 90), 1) if detected else None
            pulled = tuple(rng.choice(["e1", "e2", "e3"]) for _ in range(rng.choice([0, 0, 0, 1, 2])))
            add(store, f"s{i:04d}", f"t{rng.randrange(9)}", drill, outcome, rng.randint(0, 100), ttd=ttd,
                all_clear=clear, mode=rng.choice(["assessment", "practice", "practice"]),
                wall_ttd=None if ttd is None or rng.random() < 0.2 else ttd * 1.5,
                shown=len(set(pulled)) + rng.randrange(3) if rng.random() < 0.8 else None, pulled=pulled or None,
                day=1 + i // 10, set_id=rng.choice([None, "week-1", "week-2"]))  # fmt: skip
            if i % 10:  # distinct start times: the hour after day's 10:00 by i
                when = f"2026-11-{1 + i // 10:02d}T10:{i % 10:02d}:00.000000+00:00"
                store.db.conn.execute(  # (ended when started: a session never ends before it starts)
                    "UPDATE sessions SET started_at = ?, ended_at = ? WHERE session_id = ?", (when, when, f"s{i:04d}")
                )


def _expected(store: ResultsStore, query: FactsQuery, mode: str):
    """The statistics of every session read one by one: the first attempts among all the matching trainees' and
    drills' sessions, the window filters (--since, --set) keeping theirs."""
    facts, _ = read_facts(store, query.partition(), with_left_out=True)
    problems = window_problems(store, query, facts)
    kept = [f for f in facts if query.within(f)]
    counted = counted_modes(kept, mode)
    return summarize(facts, modes=counted.modes, within=query.within), counted, len(kept), problems


@pytest.mark.parametrize("mode", ["auto", "all", "practice", "assessment"])
def test_the_database_counts_give_the_statistics_of_every_session(tmp_path: Path, backend_url: str | None, mode):
    _random_store(tmp_path, backend_url)
    with ResultsStore(tmp_path, url=backend_url) as store:
        for query in (FactsQuery(), FactsQuery(trainee="t3"), FactsQuery(drill="d2"), FactsQuery(set_id="week-1"),
                      FactsQuery(since="2026-11-12T00:00:00+00:00"), FactsQuery(trainee="nobody")):  # fmt: skip
            stats, counted, matched, problems = _expected(store, query, mode)
            got = cohort_stats(store, query, mode)
            assert got.stats == stats, query
            assert (got.counted, got.matched) == (counted, matched)
            assert sorted(map(str, got.problems)) == sorted(map(str, problems))
    assert stats.trainees == [] and matched == 0  # the last query matches nothing
    assert any("more distractors escalated than shown" in str(p) for p in _expected(
        ResultsStore(tmp_path, url=backend_url), FactsQuery(), mode)[3])  # fmt: skip
    full = _expected(ResultsStore(tmp_path, url=backend_url), FactsQuery(), mode)[0]
    assert full.trainees and full.drills and any(d.distractor_pulls for d in full.drills)
    assert any(t.distractors_escalated for t in full.trainees) and full.score_reliability.split_half_r is not None
    assert any(t.replays for t in full.trainees) and any(not a.counted for a in _window_attempts(tmp_path, backend_url))


def test_rows_that_cannot_be_counted_are_named_and_left_out(tmp_path: Path, backend_url: str | None):
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        conn = store.db.conn
        conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")  # contained in an all-clear drill
        conn.execute("UPDATE sessions SET mode = 'exam' WHERE session_id = 'eve-c'")  # not a mode
        conn.execute("UPDATE sessions SET distractors_shown = -1 WHERE session_id = 'cy-a'")  # figures marked bad
        if store.dialect.name == "sqlite":
            conn.execute("UPDATE sessions SET total = 'lots' WHERE session_id = 'ben-a'")
        got = cohort_stats(store)
        stats, counted, matched, problems = _expected(store, FactsQuery(), "auto")
    assert sorted(p.session_id for p in got.problems) == sorted(p.session_id for p in problems)
    assert {"ada-b", "eve-c"} <= {p.session_id for p in got.problems}
    assert sorted(map(str, got.problems)) == sorted(map(str, problems))
    assert (got.stats, got.counted, got.matched) == (stats, counted, matched)


def test_an_unreadable_escalations_column_is_counted_session_by_session(tmp_path: Path, backend_url: str | None):
    """A ``distractor_escalations`` column changed by hand to something that is not a list of event ids: the SQL
    counts cannot describe it, so the statistics are counted from each session's facts, which name the row."""
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        store.db.conn.execute("UPDATE sessions SET distractor_escalations = '{oops' WHERE session_id = 'cy-a'")
        got = cohort_stats(store)
        stats, counted, matched, _ = _expected(store, FactsQuery(), "auto")
    assert [p.session_id for p in got.problems] == ["cy-a"]
    assert (got.stats, got.counted, got.matched) == (stats, counted, matched)


def test_an_unknown_mode_is_refused(tmp_path: Path):
    with ResultsStore(cohort(tmp_path)) as store, pytest.raises(ValueError, match="unknown mode 'exam'"):
        cohort_stats(store, mode="exam")


def _window_attempts(data_dir: Path, url: str | None):
    """The first attempts of the random store seen through a --since window (some lie before it)."""
    from warroom.core.stats import first_attempts

    query = FactsQuery(since="2026-11-12T00:00:00+00:00")
    with ResultsStore(data_dir, url=url) as store:
        facts, _ = read_facts(store)
    return first_attempts(facts, within=query.within)[0]


def _as_version_11(store: ResultsStore) -> None:
    """Turn the open store back into schema version 11: no response column, no first-attempt index, the split-half
    order index of version 5 (and on PostgreSQL the drills' medians index of version 10)."""
    from warroom.store.cohort._count import ATTEMPTS_INDEX
    from warroom.store.results._countable import FACTS_INDEX_SQL

    conn = store.db.conn
    conn.execute(f"DROP INDEX {ATTEMPTS_INDEX}")
    conn.execute("DROP INDEX ix_sessions_facts")
    conn.execute("ALTER TABLE sessions DROP COLUMN response")
    conn.execute(FACTS_INDEX_SQL)  # (migration 7's)
    conn.execute("CREATE INDEX ix_sessions_trainee_order ON sessions(trainee, started_at, session_id, total, mode, "
                 "outcome, drill_id, set_id, time_to_detect, wall_time_to_detect)")  # fmt: skip
    if store.dialect.name == "sqlite":
        conn.execute("PRAGMA user_version = 11")
    else:
        conn.execute("CREATE INDEX ix_sessions_drill_times ON sessions (mode, drill_id) INCLUDE (outcome)")
        conn.execute("UPDATE warroom_schema SET version = 11")


def test_migration_12_fills_the_response_and_indexes_the_first_attempts(tmp_path: Path, backend_url: str | None):
    """A store of schema version 11 (sessions scored by rules 1 to 3, and one re-scored by rules 4 whose scorecard
    records a response the outcome would not give) is upgraded: each session's response is the recorded one or the
    approximation from its outcome, the first attempts are read from their index (no sort), the indexes no longer
    read are gone, and the counts equal the statistics of every session read one by one."""
    import dataclasses

    from store_support import scorecard

    from warroom.core.model import PlayedAs, Response
    from warroom.store.cohort._count import ATTEMPTS_INDEX
    from warroom.store.results import SCHEMA_VERSION

    _random_store(tmp_path, backend_url, n=120)
    with ResultsStore(tmp_path, url=backend_url) as store:
        # rules 4 read the first escalation: contained after a false escalation is a localisation error, which the
        # approximation gives too; a recorded miss for a contained session shows the column follows the scorecard
        card = dataclasses.replace(scorecard(outcome="contained", total=70), scoring_version="4",
                                   played_as=PlayedAs.SIGNAL, response=Response.MISS)  # fmt: skip
        store.update_scorecard("s0001", card)
        store.db.conn.execute("UPDATE sessions SET all_clear = 0 WHERE session_id = 's0001'")
        _as_version_11(store)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION == 25
        conn = store.db.conn
        rows = {r[0]: tuple(r[1:]) for r in conn.execute(
            "SELECT session_id, response, outcome, all_clear, false_escalations FROM sessions")}  # fmt: skip
        assert rows["s0001"][0] == "miss"
        expected = {"contained": "hit", "contained_late": "miss", "missed": "miss", "wrong_step": "localisation_error",
                    "right_step_unsupported": "localisation_error", "false_alarm": "localisation_error",
                    "all_clear_held": "correct_rejection"}  # fmt: skip
        for sid, (response, outcome, all_clear, false_escalations) in rows.items():
            if sid == "s0001" or outcome == "abandoned" or false_escalations:
                continue
            want = "false_alarm" if all_clear and outcome == "false_alarm" else expected[outcome]
            assert response == want, (sid, outcome, all_clear)
        assert all(r[0] for r in rows.values())  # every stored session has one
        if store.dialect.name == "sqlite":
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
            sql = _FIRST_PLAN.format(index=ATTEMPTS_INDEX)
            plan = conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
            assert any(f"COVERING INDEX {ATTEMPTS_INDEX}" in r[3] for r in plan), plan
            assert not any("TEMP B-TREE" in r[3] for r in plan), plan  # no sort: the index gives the order
        else:
            sql = "SELECT indexname FROM pg_indexes WHERE tablename = 'sessions' AND schemaname = current_schema()"
            names = {r[0] for r in conn.execute(sql)}
        assert ATTEMPTS_INDEX in names and not names & {"ix_sessions_trainee_order", "ix_sessions_drill_times"}
        stats, counted, matched, _ = _expected(store, FactsQuery(), "all")
        got = cohort_stats(store, mode="all")
    assert (got.stats, got.counted, got.matched) == (stats, counted, matched) and stats.trials


#: SQLite's first-attempt query as the summary runs it (warroom.store.cohort._count._FIRST_SQL).
_FIRST_PLAN = (
    "SELECT trainee, drill_id, count(CASE WHEN +mode IN ('practice') THEN 1 END), "
    f"min({STORED_ORDER}), response FROM sessions INDEXED BY {{index}} WHERE countable "
    "GROUP BY trainee, drill_id"
)


@pytest.mark.parametrize("allowed", [0, 1])
def test_without_a_second_connection_the_queries_run_on_the_stores_own(
    tmp_path: Path, store_url: str, monkeypatch: pytest.MonkeyPatch, allowed: int
):
    """On PostgreSQL the split-half query runs on a second connection and the drills' medians on a third, beside
    the others; when the server refuses them (``allowed``: how many more it grants), the same figures are counted
    on the store's own connection."""
    from warroom.store.backends import _postgres as postgres
    from warroom.store.errors import StoreError

    _random_store(tmp_path, store_url, n=120)
    with ResultsStore(tmp_path, url=store_url) as store:
        expected = cohort_stats(store)
        stats, *_ = _expected(store, FactsQuery(), "auto")
        connect, opened = postgres.connect, []

        def refuse(url: str):
            if len(opened) < allowed:
                opened.append(url)
                return connect(url)
            raise StoreError("too many connections")

        monkeypatch.setattr(postgres, "connect", refuse)
        got = cohort_stats(store)
    assert got.stats == expected.stats == stats and got.stats.score_reliability.split_half_r is not None


def test_a_drill_practised_before_its_assessment_is_a_replay_there(tmp_path: Path, backend_url: str | None):
    """Practise each drill (doing nothing, then reading the debrief), then take it in assessment doing what the
    debrief said: the assessment sessions are replays, not trials (issue 31: replaying the debrief raises no one's
    hit rate), on both back ends and session by session alike. A drill first played in assessment still counts
    there, with a later practice session of it a replay in a practice summary."""
    with ResultsStore(tmp_path, url=backend_url) as store:
        for n, drill in enumerate(["d1", "d2", "d3"]):
            add(store, f"p{n}", "pia", drill, "missed", 0, mode="practice", day=1 + n)
            add(store, f"a{n}", "pia", drill, "contained", 100, ttd=2.0, day=10 + n)
        add(store, "a9", "pia", "d4", "missed", 0, day=20)  # first played in assessment: a trial
        add(store, "p9", "pia", "d4", "contained", 100, ttd=2.0, mode="practice", day=21)
        for mode in ("auto", "assessment"):
            result = cohort_stats(store, mode=mode)
            (pia,) = result.stats.trainees
            assert (pia.trials, pia.replays, pia.signal_trials, pia.hits, pia.misses) == (1, 3, 1, 0, 1), mode
            assert pia.hit_rate == 0.0
            assert (result.stats.trials, result.stats.replays) == (1, 3)
            expected = _expected(store, FactsQuery(), mode)[0]
            assert result.stats == expected
        practice = cohort_stats(store, mode="practice").stats.trainees[0]
        assert (practice.trials, practice.replays, practice.misses) == (3, 1, 3)  # d4 was first assessed
        everything = cohort_stats(store, mode="all").stats.trainees[0]
        assert (everything.trials, everything.replays, everything.hits) == (4, 4, 0)
