"""warroom.store.cohort._facts: the cohort statistics' input read from the results store (one SessionFacts per session),
on
both back ends (SQLite and a real PostgreSQL server, tests/pg_support.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from stats_support import add, cohort

from warroom.core.model import Outcome
from warroom.store.cohort import FactsQuery, counted_modes, read_facts
from warroom.store.cohort._count import ATTEMPTS_INDEX
from warroom.store.cohort._facts import FACTS_INDEX
from warroom.store.results import ResultsStore


@pytest.fixture
def store(tmp_path: Path, backend_url: str | None):
    with ResultsStore(cohort(tmp_path), url=backend_url) as s:
        yield s


def by_id(facts, trainee: str, drill: str, mode: str = "assessment"):
    (f,) = [f for f in facts if (f.trainee, f.drill_id, f.mode) == (trainee, drill, mode)]
    return f


def test_every_column_and_the_scorecards_distractor_figures(store: ResultsStore):
    facts, problems = read_facts(store)
    assert problems == [] and len(facts) == 16
    cy = by_id(facts, "cy", "A")
    assert (cy.is_fault_drill, cy.outcome, cy.score, cy.mode) == (True, Outcome.CONTAINED_LATE, 55, "assessment")
    assert (cy.time_to_detect_s, cy.wall_time_to_detect_s) == (13.0, 26.0)
    assert (cy.distractors_shown, cy.distractor_escalations, cy.false_escalations) == (1, ("e5",), 1)
    assert cy.started_at == "2026-11-01T10:00:00.000000+00:00"
    clear = by_id(facts, "cy", "C")
    assert (clear.is_fault_drill, clear.outcome, clear.distractors_shown, clear.distractor_escalations) == (
        False, Outcome.FALSE_ALARM, 0, ()
    )  # fmt: skip
    assert by_id(facts, "ada", "A", "practice").outcome is Outcome.MISSED


def _card(store: ResultsStore, session_id: str, **changes):
    """The stored scorecard of a session as a :class:`Scorecard`, with ``changes``."""
    import dataclasses

    from warroom.core.scoring import Scorecard

    return dataclasses.replace(Scorecard.from_dict(store.get(session_id).scorecard), **changes)


def test_a_rescore_writes_the_figures_and_rules_1_record_none(store: ResultsStore):
    store.update_scorecard("ben-a", _card(store, "ben-a", distractors_shown=3, distractor_escalations=["e7", "e7"]))
    store.update_scorecard("cy-a", _card(store, "cy-a", scoring_version="1"))  # rules 1 never record them
    facts, _ = read_facts(store)
    assert (by_id(facts, "ben", "A").distractors_shown, by_id(facts, "ben", "A").distractor_escalations) == (
        3, ("e7", "e7")
    )  # fmt: skip
    assert (by_id(facts, "cy", "A").distractors_shown, by_id(facts, "cy", "A").distractor_escalations) == (0, ())
    assert by_id(facts, "dee", "A").distractor_escalations == ("e5",)


def _reimport(store: ResultsStore, session_id: str, scorecard_text: str) -> None:
    """Replace a stored session by its exported line with another scorecard text (``warroom store import``)."""
    import json

    from warroom.store.results import export_lines, import_lines

    (line,) = [x for x in export_lines(store) if json.loads(x)["session_id"] == session_id]
    store.delete([session_id])
    result = import_lines(store, [json.dumps(json.loads(line) | {"scorecard": scorecard_text})], "x.jsonl")
    assert result.imported == 1, result.refused


def test_filters(store: ResultsStore, tmp_path: Path):
    assert {f.trainee for f in read_facts(store, FactsQuery(trainee="ben"))[0]} == {"ben"}
    assert {f.drill_id for f in read_facts(store, FactsQuery(drill="C"))[0]} == {"C"}
    since = read_facts(store, FactsQuery(since="2026-11-03T00:00:00.000000+00:00"))[0]
    assert {(f.drill_id, f.mode) for f in since} == {("C", "assessment"), ("A", "practice")}
    two = read_facts(store, FactsQuery(trainees=("ada", "eve")))[0]
    assert {f.trainee for f in two} == {"ada", "eve"} and len(two) == 7
    add(store, "set-1", "fay", "A", "contained", 90, ttd=3.0, set_id="week-1", day=9)
    assert [f.trainee for f in read_facts(store, FactsQuery(set_id="week-1"))[0]] == ["fay"]


def test_rows_that_cannot_be_counted_are_reported_and_left_out(store: ResultsStore):
    conn = store.db.conn
    sqlite = store.dialect.name == "sqlite"
    if sqlite:  # a wrong type (a PostgreSQL column holds only its own type)
        conn.execute("UPDATE sessions SET total = 'lots' WHERE session_id = 'ben-a'")
    conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")  # a containment in an all-clear drill
    conn.execute("UPDATE sessions SET mode = 'exam' WHERE session_id = 'eve-c'")  # not a mode
    text = conn.execute("SELECT scorecard FROM sessions WHERE session_id = 'dee-a'").fetchone()[0]
    _reimport(store, "dee-a", text.replace('"distractors_shown": 1', '"distractors_shown": "one"'))
    text = conn.execute("SELECT scorecard FROM sessions WHERE session_id = 'cy-a'").fetchone()[0]
    _reimport(store, "cy-a", text.replace('"distractors_shown": 1', '"distractors_shown": 0'))
    facts, problems = read_facts(store)
    assert len(facts) == (11 if sqlite else 12)
    assert sorted(p.session_id for p in problems) == [
        "ada-b", *(["ben-a"] if sqlite else []), "cy-a", "dee-a", "eve-c"
    ]  # fmt: skip
    said = {p.session_id: str(p) for p in problems}
    if sqlite:
        assert "total" in said["ben-a"] and "'lots'" in said["ben-a"]
    assert "an all-clear drill has nothing to contain" in said["ada-b"]
    assert "mode" in said["eve-c"]
    assert "counts cannot be negative" in said["dee-a"]  # the malformed figure is refused, not read as 0
    assert "more distractors escalated than shown" in said["cy-a"]


def _indexes(store: ResultsStore) -> set[str]:
    if store.dialect.name == "sqlite":
        return {r[0] for r in store.db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    sql = "SELECT indexname FROM pg_indexes WHERE tablename = 'sessions' AND schemaname = current_schema()"
    return {r[0] for r in store.db.conn.execute(sql)}


def test_the_statistics_read_a_covering_index(store: ResultsStore):
    """At 100,000 sessions reading the rows themselves costs about as much again as the whole summary
    (benchmarks/bench_results.py); the index is made by schema migration 3, and the SQLite query must use it."""
    from warroom.store.cohort import _facts as module

    assert FACTS_INDEX in _indexes(store)
    if store.dialect.name != "sqlite":
        return  # PostgreSQL's planner chooses by its statistics: only the index's presence is checked there
    where, params = FactsQuery(since="2026-01-01").where("1")
    plan = store.db.conn.execute(f"EXPLAIN QUERY PLAN SELECT {module._COLUMNS} FROM sessions{where}", params).fetchall()
    # the statistics' covering index, or the first-attempt index of schema version 12, which holds every column too
    assert any(f"COVERING INDEX {FACTS_INDEX}" in row[3] or "COVERING INDEX ix_sessions_attempts" in row[3]
               for row in plan), plan  # fmt: skip


def test_counted_modes(store: ResultsStore):
    facts, _ = read_facts(store)
    assert counted_modes(facts).modes == frozenset({"assessment"}) and counted_modes(facts).label == "assessment"
    practice_only = [f for f in facts if f.mode == "practice"]
    assert (counted_modes(practice_only).modes, counted_modes(practice_only).label) == (None, "all")
    assert counted_modes(facts, "practice").modes == frozenset({"practice"})
    assert counted_modes(facts, "all").modes is None
    with pytest.raises(ValueError, match="unknown mode 'exam'"):
        counted_modes(facts, "exam")


def test_a_scorecard_that_is_not_json_records_no_distractor_figures(store: ResultsStore):
    """A scorecard refused by nothing that reads the figures: a hand-edited one is back-filled as recording none."""
    store.db.conn.execute("UPDATE sessions SET scorecard = '{not json' WHERE session_id = 'cy-a'")
    _as_version_3(store)
    with ResultsStore(store.data_dir, url=store.target.url) as s:
        facts, problems = read_facts(s)
    assert problems == [] and len(facts) == 16  # the row's columns are fine: it is counted
    assert by_id(facts, "cy", "A").distractors_shown == 0
    assert by_id(facts, "dee", "A").distractor_escalations == ("e5",)  # the others are still read


def _as_version_3(store: ResultsStore) -> None:
    """Turn the open store back into schema version 3: no distractor columns, the version-3 facts index."""
    from warroom.store.results import COLUMN, NOT_COUNTABLE_INDEX
    from warroom.store.results._countable import TRIGGERS
    from warroom.store.results._migrations import MIGRATIONS as _MIGRATIONS

    conn = store.db.conn
    conn.execute(f"DROP INDEX {FACTS_INDEX}")
    conn.execute(f"DROP INDEX {ATTEMPTS_INDEX}")  # (schema version 12's, which dropped version 5's order index)
    conn.execute("ALTER TABLE sessions DROP COLUMN response")
    for trigger in TRIGGERS if store.dialect.name == "sqlite" else ():  # (schema version 7's)
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute(f"DROP INDEX {NOT_COUNTABLE_INDEX}")
    conn.execute(f"ALTER TABLE sessions DROP COLUMN {COLUMN}")
    conn.execute("ALTER TABLE sessions DROP COLUMN distractors_shown")
    conn.execute("ALTER TABLE sessions DROP COLUMN distractor_escalations")
    for statement in store.dialect.ddl(_MIGRATIONS[3]):
        conn.execute(statement)
    if store.dialect.name == "sqlite":
        conn.execute("PRAGMA user_version = 3")
    else:
        conn.execute("UPDATE warroom_schema SET version = 3")


def test_a_version_3_store_is_upgraded_to_4_with_the_figures_filled(tmp_path: Path, backend_url: str | None):
    """Migration 4 adds the distractor columns to a store written by schema version 3 and fills them from the
    stored scorecards: the facts (and so the statistics) are the same before and after."""
    from warroom.store.results import SCHEMA_VERSION

    with ResultsStore(cohort(tmp_path), url=backend_url) as s:
        s.update_scorecard("ben-b", _card(s, "ben-b", distractors_shown=2, distractor_escalations=["e9", "e9", "e8"]))
        before = sorted(read_facts(s)[0], key=repr)
        _as_version_3(s)
        assert s.db.conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 16
    with ResultsStore(tmp_path, url=backend_url) as s:
        assert SCHEMA_VERSION == 25 and s.schema_version == 25
        assert FACTS_INDEX in _indexes(s)
        filled = s.db.conn.execute(
            "SELECT session_id, distractors_shown, distractor_escalations FROM sessions "
            "WHERE distractor_escalations IS NOT NULL ORDER BY session_id"
        ).fetchall()
        assert [tuple(r) for r in filled] == [("ben-b", 2, '["e9", "e9", "e8"]'), ("cy-a", 1, '["e5"]'),
                                              ("dee-a", 1, '["e5"]')]  # fmt: skip
        after = sorted(read_facts(s)[0], key=repr)
    assert after == before and len(after) == 16


def test_a_version_2_store_is_upgraded_to_3_with_the_facts_index(tmp_path: Path, backend_url: str | None):
    """Migrations 3 and 4 add the covering index to a store written by schema version 2, keeping its sessions."""
    from warroom.store.results import SCHEMA_VERSION

    with ResultsStore(cohort(tmp_path), url=backend_url) as s:
        _as_version_3(s)
        s.db.conn.execute(f"DROP INDEX {FACTS_INDEX}")
        if s.dialect.name == "sqlite":
            s.db.conn.execute("PRAGMA user_version = 2")
        else:
            s.db.conn.execute("UPDATE warroom_schema SET version = 2")
        assert FACTS_INDEX not in _indexes(s)
    with ResultsStore(tmp_path, url=backend_url) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert FACTS_INDEX in _indexes(s)
        assert len(read_facts(s)[0]) == 16


def test_the_distractor_figures_as_scoring_rules_2_write_them(tmp_path: Path, backend_url: str | None):
    """The figures come from the stored scorecard exactly as :class:`Scorecard` writes them (``to_dict``: the
    ``distractors_shown`` count, ``distractor_escalations`` one event id per escalation that cited a distractor)."""
    import dataclasses

    from store_support import scorecard

    from warroom.core.scoring import SCORING_VERSION
    from warroom.store.results import SessionInfo

    card = dataclasses.replace(
        scorecard(outcome="contained", total=80, drill_id="A"),
        scoring_version=SCORING_VERSION,
        distractors_shown=2,
        distractor_escalations=["d1", "d1"],
        false_escalations=2,
    )
    info = SessionInfo("s-2", "ana", "A", 1, None, None, started_at="2026-11-01T10:00:00.000000+00:00")
    with ResultsStore(tmp_path, url=backend_url) as s:
        assert s.insert(info, card, [], ended_at=info.started_at)
        (fact,), problems = read_facts(s)
    assert problems == [] and (fact.distractors_shown, fact.distractor_escalations) == (2, ("d1", "d1"))
