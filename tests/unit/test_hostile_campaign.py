"""A fresh hostile campaign on issue 30's promises (docs/cohorts.md, "What a trainee can and cannot do to their
results"; docs/reliability.md): each case a hostile trainee or a faulty world found, with the right behaviour."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import DRILL_ID, bundled_drill_path, copy_drill

from unit import test_forgeries
from unit.test_forgeries import GOOD, forged_row, insert, play, row_of
from warroom.cli import main
from warroom.store.cohort import unverified_sessions
from warroom.store.journal import recover_unfinished
from warroom.store.results import ResultsStore
from warroom.store.review import Verdict, default_drill_resolver, verify_sessions

OTHER_DRILL = "api-dns-cutover"
#: A secured PostgreSQL store with a trainee role and a facilitator role (tests/unit/test_forgeries.py's).
class_store = test_forgeries.class_store


def _export_line(tmp_path: Path, **values) -> Path:
    """An export of one session ``ann`` played (GOOD on the bundled drill), its columns changed to ``values``."""
    src = tmp_path / "trainee"
    play(src, "ann", GOOD)
    out = tmp_path / "x.jsonl"
    export = CliRunner().invoke(main, ["store", "export", "--data-dir", str(src), "-o", str(out)])
    assert export.exit_code == 0, export.output
    line = json.loads(out.read_text().splitlines()[0])
    card = json.loads(line["scorecard"])
    line.update(values)
    line["scorecard"] = json.dumps({**card, **{k: v for k, v in values.items() if k in card}})
    out.write_text(json.dumps(line) + "\n")
    return out


def test_rescore_never_scores_a_submitted_session_on_the_drill_file_its_row_names(tmp_path: Path):
    """An imported row of drill B (abandoned, 0) naming drill A's file as its path, with an action log that wins A:
    re-scoring it must not score it on A (it would store A's "contained, 100" on a session of B)."""
    line = _export_line(tmp_path, session_id="forged-path", drill_id=OTHER_DRILL, outcome="abandoned", total=0)
    dest = tmp_path / "facilitator"
    imported = CliRunner().invoke(main, ["store", "import", "--all-trainees", str(line), "--data-dir", str(dest)])
    assert imported.exit_code == 0, imported.output
    for extra in ([], ["--allow-changed"]):
        result = CliRunner().invoke(main, ["scores", "rescore", "--yes", "--data-dir", str(dest), *extra])
        assert "-> contained" not in result.output and "score 0 -> 100" not in result.output, result.output
        with ResultsStore(dest) as store:
            (row,) = store.query()
            assert (row.drill_id, row.total) == (OTHER_DRILL, 0) or row.outcome != "contained"


def test_rescore_skips_a_row_whose_drill_path_is_a_drill_of_another_id(tmp_path: Path):
    """A row warroom's recorder stored, its drill id edited in SQLite: the file at its path is another drill, so
    re-scoring it there would write that drill's score under this id."""
    play(tmp_path, "ann", GOOD)
    with sqlite3.connect(tmp_path / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET drill_id = ?", (OTHER_DRILL,))
    result = CliRunner().invoke(main, ["scores", "rescore", "--yes", "--data-dir", str(tmp_path)])
    assert f"is drill {DRILL_ID!r}, not {OTHER_DRILL!r}; not re-scored" in result.output, result.output
    assert str(bundled_drill_path()) in result.output


@pytest.mark.parametrize("path", ["/a" + "b" * 300, "/a/" + "b" * 5000, "x\x00y"])
def test_verify_and_rescore_find_the_drill_by_its_id_when_a_row_names_a_path_that_cannot_be_asked(
    tmp_path: Path, path: str
):
    """A row (SQLite is anyone's to edit) whose ``drill_path`` is too long for the file system: verify and rescore
    went down with a traceback (``OSError: File name too long``) for the whole store."""
    play(tmp_path, "ann", GOOD)
    with sqlite3.connect(tmp_path / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET drill_path = ?", (path,))
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(tmp_path)])
    assert verify.exit_code == 0 and "verified 1 of 1 session" in verify.output, verify.output
    rescored = CliRunner().invoke(main, ["scores", "rescore", "--yes", "--data-dir", str(tmp_path)])
    assert rescored.exit_code == 0 and "1 unchanged" in rescored.output, rescored.output


def test_a_journal_hard_linked_to_its_done_copy_is_recovered_once_not_at_every_start(tmp_path: Path):
    """``journals/ID.jsonl`` a hard link of ``journals/done/ID.jsonl`` (a backup tool, a hand's ``ln``): moving it to
    ``done/`` is a rename onto the same file, which does nothing, so it stayed and was "recovered" at every start."""
    rec = play(tmp_path, "ann", GOOD)
    done = tmp_path / "journals" / "done" / f"{rec.session_id}.jsonl"
    before = done.read_bytes()
    os.link(done, tmp_path / "journals" / done.name)
    assert [r.session_id for r in recover_unfinished(tmp_path)] == [rec.session_id]
    assert recover_unfinished(tmp_path) == []
    assert list((tmp_path / "journals").glob("*.jsonl")) == [] and done.read_bytes() == before
    with ResultsStore(tmp_path) as store:
        assert [r.session_id for r in store.query()] == [rec.session_id]


def test_verify_reads_a_trainees_sessions_once_and_names_a_few_copies_of_many(tmp_path: Path, monkeypatch):
    """60 imported copies of one session (a trainee role may insert thousands): verify read all of the trainee's
    sessions again for each (2,000 took over ten minutes) and named every other copy in each (648 MB of output)."""
    line = json.loads(_export_line(tmp_path).read_text())
    many = tmp_path / "many.jsonl"
    many.write_text("".join(json.dumps({**line, "session_id": f"copy-{i:03d}"}) + "\n" for i in range(60)))
    dest = tmp_path / "facilitator"
    assert CliRunner().invoke(main, ["store", "import", "--all-trainees",
                                     str(many), "--data-dir", str(dest)]).exit_code == 0
    reads = []
    original = ResultsStore.iter_sessions
    monkeypatch.setattr(ResultsStore, "iter_sessions", lambda self, **kw: reads.append(kw) or original(self, **kw))
    with ResultsStore(dest) as store:
        results = verify_sessions(store, default_drill_resolver())
    # the store numbers the rows as it stores them (schema version 20): the first stored is the session played, each
    # later one a copy of those stored before it
    by_id = {r.session_id: r for r in results}
    assert len(results) == 60 and len(reads) == 2
    assert by_id["copy-000"].verdict is Verdict.VERIFIED
    for i in range(1, 60):
        r = by_id[f"copy-{i:03d}"]
        assert r.verdict is Verdict.DISAGREES and sum("a copy, whatever" in p for p in r.problems) == min(i, 3)
    assert by_id["copy-059"].problems[-1] == "and so are those of 56 more sessions of the trainee"


@pytest.mark.parametrize("set_id", ["wk\r\nX-Evil: 1", 'q"; x=\x1b[31mred', "=HYPERLINK(1)", "a" * 81])
def test_store_import_refuses_a_set_id_that_is_not_a_drill_set_id(tmp_path: Path, set_id: str):
    """A set id is stored with every session and goes into exports, page links and the gradebook's file name: it
    follows the rule of a drill set's ``set:`` (an id), checked on write as drill ids are."""
    line = _export_line(tmp_path, session_id="odd-set", set_id=set_id)
    dest = tmp_path / "facilitator"
    result = CliRunner().invoke(main, ["store", "import", "--all-trainees", str(line), "--data-dir", str(dest)])
    assert result.exit_code == 1 and "x.jsonl:1: session odd-set was not stored: set_id: " in result.output


def test_store_import_stores_only_the_named_trainees_sessions_of_a_trainees_file(tmp_path: Path):
    """ann's own SQLite export may hold sessions under any name (a store of her own has no roles), each one right
    as far as verify can tell: imported as ann's file (--trainee ann), only hers are stored, every other name
    (bob's, a Cyrillic look-alike of Ada's) is refused by line, so a forged session never enters another trainee's
    figures; without saying whose, nothing is imported; --all-trainees (a file the facilitator trusts) stores the
    lot and says whose sessions it stored, names escaped (issue 30)."""
    line = json.loads(_export_line(tmp_path).read_text())
    mixed = tmp_path / "from-ann.jsonl"
    names = ["ann", "bob", "\u0410da", "bob"]  # a Cyrillic A: looks like "Ada"
    mixed.write_text("".join(json.dumps({**line, "session_id": f"s-{i}", "trainee": n}) + "\n"
                             for i, n in enumerate(names)))  # fmt: skip
    dest = tmp_path / "facilitator"
    unsaid = CliRunner().invoke(main, ["store", "import", str(mixed), "--data-dir", str(dest)])
    assert unsaid.exit_code == 2 and "say whose sessions to import: --trainee NAME" in unsaid.output
    assert not dest.exists() or not ResultsStore(dest).query()
    result = CliRunner().invoke(main, ["store", "import", "--trainee", "ann", str(mixed), "--data-dir", str(dest)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{mixed}:2, 4 (2 lines; S is each line's session id): session S of trainee `bob`, not of `ann` (--trainee): "
        "not stored",
        f"{mixed}:3: session s-2 of trainee `\\u0410da` (Cyrillic \u0410 U+0410), not of `ann` (--trainee): not stored",
        f"1 session imported into {dest / 'results.sqlite3'}, 0 already there, 3 refused",
        "imported by trainee: `ann` 1",
    ]
    with ResultsStore(dest) as store:
        assert [(r.session_id, r.trainee) for r in store.query()] == [("s-0", "ann")]
    trusted = tmp_path / "trusted"
    result = CliRunner().invoke(main, ["store", "import", "--all-trainees", str(mixed), "--data-dir", str(trusted)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "imported by trainee: `ann` 1, `bob` 2, `\\u0410da` (Cyrillic \u0410 U+0410) 1"
    )


def test_a_trainee_roles_temporary_table_never_takes_the_not_verified_record(tmp_path: Path, class_store, monkeypatch):
    """A trainee role's ``CREATE TEMP TABLE session_checks``: the trigger's ``INSERT INTO session_checks`` (no schema
    named) wrote the record there, so a forged "contained, 100" row had none and was counted at once."""
    ann, ann_url, fac_url = class_store
    data = tmp_path / "ann"
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    played = play(data, ann, GOOD)
    with ResultsStore(data) as store:
        conn = store.db.conn
        template = row_of(conn, played.session_id)
        for shadow in ("session_checks (session_id text PRIMARY KEY, state text, reason text, checked_at text, "
                       "checked_by text, submitted_by text)", "pg_roles AS SELECT current_user AS rolname, true AS "
                       "rolsuper, true AS rolbypassrls"):  # fmt: skip
            conn.execute(f"CREATE TEMP TABLE {shadow}")
        insert(conn, forged_row(template, "forged-temp", outcome="contained", total=100, actions="[]"))
    monkeypatch.setenv("WARROOM_STORE", fac_url)
    with ResultsStore(data) as store:
        checks = store.checks()
        assert checks["forged-temp"].state == "unverified" and checks["forged-temp"].submitted_by == ann
        assert "forged-temp" in {c.session_id for c in unverified_sessions(store).checks}


def test_an_upgrade_is_not_frozen_for_ever_by_a_trainee_holding_its_advisory_lock(
    tmp_path: Path, class_store, monkeypatch
):
    """Any login role may take an advisory lock: a trainee's idle connection holding the migration's key froze the
    owner's upgrade with no time limit. It waits a bounded time, then says who holds it."""
    import psycopg

    from warroom.store.backends import _postgres
    from warroom.store.results import SCHEMA_VERSION

    ann, ann_url, fac_url = class_store
    owner_url = test_forgeries.as_role(fac_url, "warroom")  # the tables' owner (pg_support's user)
    with ResultsStore(tmp_path, url=owner_url) as store:
        store.db.conn.execute("UPDATE warroom_schema SET version = ?", (SCHEMA_VERSION - 1,))
    monkeypatch.setattr(_postgres, "MIGRATION_LOCK_WAIT_S", 1.0)
    with psycopg.connect(ann_url, autocommit=True) as trainee:
        trainee.execute("SELECT pg_advisory_lock(%s)", (_postgres.MIGRATION_LOCK,))
        result = CliRunner().invoke(main, ["--store", owner_url, "store", "migrate", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert f"role '{ann}' (process " in result.output and "held warroom's upgrade lock for 1 s" in result.output
    assert "Traceback" not in result.output
    with ResultsStore(tmp_path, url=owner_url) as store:  # once it is let go, the upgrade goes through
        assert store.schema_version == SCHEMA_VERSION


def test_a_drill_file_written_while_rescore_reads_it_is_not_scored_as_the_file_it_was(tmp_path: Path, monkeypatch):
    """The SHA-256 compared with the session's and the drill scored were two reads of the file: a drill written
    between them (another editor saving) was scored as if it were the file the session was played on."""
    from warroom.store.review import _drill

    drills = tmp_path / "drills"
    path = copy_drill(drills, "my-drill")
    play(tmp_path / "data", "ann", GOOD, drill_path=path)
    original = _drill.load_drill_file

    def load_then_edit(p: Path):
        drill = original(p)
        p.write_text(p.read_text().replace("\ntitle:", "\n# edited meanwhile\ntitle:", 1))
        return drill

    monkeypatch.setattr(_drill, "load_drill_file", load_then_edit)
    result = CliRunner().invoke(main, ["scores", "rescore", "--yes", "--data-dir", str(tmp_path / "data")])
    assert f"the drill file {path} changed while it was read; try again; not re-scored" in result.output, result.output


@pytest.mark.parametrize("session_id", ["abc?x", "S%31", "ab\u202ecd", "a#b", "\u0661\u0662"])
def test_store_import_refuses_a_session_id_that_is_not_letters_digits_dashes(tmp_path: Path, session_id: str):
    """The refusal said "a session id is letters, digits, '-' and '_'" yet took ``?``, ``#``, ``%`` and bidi
    controls: a review's address holds the id, so ``S%31``'s link opened session ``S1``'s review."""
    line = _export_line(tmp_path, session_id=session_id)
    result = CliRunner().invoke(main, ["store", "import", "--all-trainees",
                                       str(line), "--data-dir", str(tmp_path / "facilitator")])
    assert result.exit_code == 1 and "was not stored: session_id: String should match pattern" in result.output


def test_an_upgrade_is_not_frozen_for_ever_by_a_trainees_open_transaction(tmp_path: Path, class_store, monkeypatch):
    """A trainee's connection left in a transaction that read ``sessions`` holds a lock every ``ALTER TABLE`` of an
    upgrade waits for: the owner's upgrade (no statement timeout: a large one takes minutes) waited for ever."""
    import psycopg

    from warroom.store.backends import _postgres
    from warroom.store.results import SCHEMA_VERSION

    _ann, ann_url, fac_url = class_store
    owner_url = test_forgeries.as_role(fac_url, "warroom")
    with ResultsStore(tmp_path, url=owner_url) as store:
        # version 13: migration 14 takes a lock on `sessions` that waits for the trainee's open transaction
        store.db.conn.execute("UPDATE warroom_schema SET version = 13")
    monkeypatch.setattr(_postgres, "MIGRATION_LOCK_WAIT_S", 1.0)
    with psycopg.connect(ann_url) as trainee:  # not autocommit: the SELECT leaves a transaction open
        trainee.execute("SELECT count(*) FROM sessions")
        result = CliRunner().invoke(main, ["--store", owner_url, "store", "migrate", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and "lock timeout" in result.output and "Traceback" not in result.output, result.output
    with ResultsStore(tmp_path, url=owner_url) as store:
        assert store.schema_version == SCHEMA_VERSION


def test_a_trainees_file_cannot_bring_a_scorecard_history_naming_a_facilitator(tmp_path: Path):
    """A trainee's own export (``--trainee``) whose line claims a re-score by the facilitator: the session is stored
    (not verified, as every imported one), its history is left out and the command says so; the same line from a
    file the facilitator trusts (``--all-trainees``) keeps its history (issue 30)."""
    line = json.loads(_export_line(tmp_path).read_text())
    change = {"seq": 1, "replaced_at": "2026-12-01T10:00:00+00:00", "replaced_by": "facilitator",
              "rules": "4", "reason": "re-scored after review", "scorecard": line["scorecard"],
              "scoring_version": "4", "outcome": "missed", "total": 0}  # fmt: skip
    claimed = tmp_path / "claimed.jsonl"
    claimed.write_text(json.dumps({**line, "scorecard_history": [change]}) + "\n")
    mine = tmp_path / "ann-file"
    result = CliRunner().invoke(main, ["store", "import", "--trainee", "ann", str(claimed), "--data-dir", str(mine)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "the scorecard history of 1 session left out: a trainee's own file (--trainee) cannot say who re-scored a "
        "session (`warroom scores verify` checks the scores themselves)"
    )
    with ResultsStore(mine) as store:
        assert store.scorecard_history(line["session_id"]) == []
    trusted = tmp_path / "trusted"
    result = CliRunner().invoke(main, ["store", "import", "--all-trainees", str(claimed), "--data-dir", str(trusted)])
    assert result.exit_code == 0 and "left out" not in result.output, result.output
    with ResultsStore(trusted) as store:
        assert [c.replaced_by for c in store.scorecard_history(line["session_id"])] == ["facilitator"]
