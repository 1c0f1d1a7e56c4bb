"""A ninth fresh hostile campaign on results and scores (issue 30; docs/reliability.md, "Every value is checked
before it is stored ... a bad row already in a store ... is skipped and reported on read, never fatal";
docs/cohorts.md, "What a trainee can and cannot do to their results"): exported lines whose scorecard holds values
of odd types and sizes, rows written into a SQLite store by SQL with a session id that is not text. Each case it
found, with the right behaviour."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.store.results import ResultsStore


def _cli(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a ``warroom`` command, which never shows a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """One assessment session (contained, 100) played into a SQLite store of its own and exported."""
    own = tmp_path / "own"
    with monkeypatch.context() as m:
        m.delenv("WARROOM_STORE", raising=False)
        play(own, "ann", GOOD, mode="assessment")
        result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(own)])
    (line,) = [json.loads(x) for x in result.stdout.splitlines() if x]
    return line


@pytest.mark.parametrize(
    ("key", "value"),
    [("distractors_shown", 10**30), ("distractors_shown", 2**31), ("response", ["hit"]), ("response", {"a": 1})],
)
def test_an_imported_scorecard_with_an_odd_figure_is_stored_and_left_out_never_a_traceback(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch, key: str, value: object
):
    """A trainee's export whose scorecard claims ``distractors_shown: 10**30`` (or 2**31, past PostgreSQL's
    INTEGER), or a ``response`` that is a list or an object: ``store import`` stopped with a traceback
    (``OverflowError: Python int too large to convert to SQLite INTEGER``; ``TypeError: unhashable type: 'list'``),
    storing nothing of its batch. Such a figure has the wrong shape, as a text one has: the session is stored, the
    statistics leave it out and name it, and ``verify`` finds it disagrees; on both back ends."""
    line = _exported(tmp_path, monkeypatch)
    card = json.loads(line["scorecard"]) | {key: value}
    handed = tmp_path / "ann.jsonl"
    handed.write_text(json.dumps(line | {"scorecard": json.dumps(card)}) + "\n")
    data = tmp_path / "class"
    code, out, err = _cli("store", "import", "--trainee", "ann", str(handed), "--data-dir", str(data))
    assert code == 0 and "1 session imported into" in out, out
    code, out, err = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
    (verdict,) = json.loads(out)
    assert code == 1 and verdict["verdict"] == "disagrees", verdict
    code, out, err = _cli("scores", "summary", "--include-unverified", "--format", "json", "--data-dir", str(data))
    if key == "distractors_shown":  # a figure of the wrong shape: the session cannot be counted, and is named
        assert code == 1 and f"stored session {line['session_id']} cannot be counted" in err, err
    else:  # the response the scorecard records is no response: the column's is the outcome's (contained: a hit)
        (ann,) = json.loads(out)["trainees"]
        assert code == 0 and (ann["trials"], ann["hits"]) == (1, 1), ann


def _blob_id_store(tmp_path: Path) -> Path:
    """A SQLite store holding a session and a copy of its row written by SQL under a BLOB session id."""
    data = tmp_path / "data"
    play(data, "ann", GOOD, mode="assessment")
    conn = sqlite3.connect(data / "results.sqlite3")
    columns = [r[1] for r in conn.execute("PRAGMA table_info(sessions)") if r[1] not in ("stored_seq", "countable")]
    conn.execute(f"INSERT INTO sessions ({', '.join(columns)}) SELECT x'00ff', {', '.join(columns[1:])} FROM sessions")
    assert columns[0] == "session_id"
    conn.commit()
    conn.close()
    return data


def test_a_session_id_written_as_a_blob_is_named_by_verify_summary_and_report_never_a_traceback(tmp_path: Path):
    """A row written into a SQLite store by SQL (another program, a hand) whose session id is a BLOB: ``scores
    verify --format json`` stopped with ``TypeError: Object of type bytes is not JSON serializable`` (after
    recording its verdict), and from then on ``scores summary`` and ``report`` with ``TypeError: '<' not supported
    between instances of 'bytes' and 'str'`` (sorting the ids of the sessions not verified). A bad row already in a
    store is skipped and reported on read, never fatal: the row is named by the SQL literal that finds it
    (``x'00ff'``), unverifiable, and left out of the figures."""
    data = _blob_id_store(tmp_path)
    for _ in range(2):
        code, out, err = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
        verdicts = {v["session_id"]: v["verdict"] for v in json.loads(out)}
        assert code == 1 and verdicts.get("x'00ff'") == "unverifiable", verdicts
    # the copy was stored after the session it copies (the store's order): a replay, never the first attempt
    code, out, err = _cli("scores", "summary", "--format", "json", "--data-dir", str(data))
    counted = json.loads(out)["counted"]
    assert (counted["trials"], counted["replays"]) == (1, 1), counted
    page = tmp_path / "report.html"
    code, out, err = _cli("report", "--output", str(page), "--data-dir", str(data))
    assert "1 trial" in err and page.exists() and "Traceback" not in err, (out, err)


def test_a_verdict_recorded_under_a_blob_session_id_is_named_as_text(tmp_path: Path):
    """The verdict an older verify recorded under the BLOB id (it recorded before it failed to print): the
    summary's list of the sessions not verified sorted text and bytes together and stopped; it names the row by
    its SQL literal."""
    data = _blob_id_store(tmp_path)
    conn = sqlite3.connect(data / "results.sqlite3")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("INSERT INTO session_checks (session_id, state, reason, checked_at, checked_by) "
                 "VALUES (x'00ff', 'unverifiable', 'cannot be read', '2026-12-07T00:00:00+00:00', 'fac')")  # fmt: skip
    conn.commit()
    conn.close()
    summary = json.loads(_cli("scores", "summary", "--format", "json", "--data-dir", str(data))[1])
    assert summary["unverified"]["ids"] == ["x'00ff'"] and summary["counted"]["trials"] == 1, summary


@pytest.mark.parametrize("column", ["session_id", "trainee", "drill_id", "started_at", "outcome", "actions", "mode"])
def test_a_text_value_that_is_not_utf8_is_one_bad_row_not_a_store_no_command_can_read(tmp_path: Path, column: str):
    """A copy of a session's row written into a SQLite store by SQL with one text value that is not UTF-8
    (``CAST(x'41ff42' AS TEXT)``): Python's SQLite driver refused the whole query (``Could not decode to UTF-8 column
    'trainee'``), so ``scores list``, ``summary``, ``verify``, ``report`` and ``store export`` all stopped with
    ``cannot use the results store``: one bad row, and no command could read any. Such a value reads as a BLOB would
    (a value of the wrong type): the row is skipped and named, the good session still listed and counted."""
    data = tmp_path / "data"
    good = play(data, "ann", GOOD, mode="assessment").session_id
    conn = sqlite3.connect(data / "results.sqlite3")
    columns = [r[1] for r in conn.execute("PRAGMA table_info(sessions)") if r[1] not in ("stored_seq", "countable")]
    values = ["CAST(x'41ff42' AS TEXT)" if c == column else "'copy-' || session_id" if c == "session_id" else c
              for c in columns]  # fmt: skip
    conn.execute(f"INSERT INTO sessions ({', '.join(columns)}) SELECT {', '.join(values)} FROM sessions")
    conn.commit()
    conn.close()
    code, out, err = _cli("scores", "list", "--format", "json", "--data-dir", str(data))
    assert code == 1 and [s["session_id"] for s in json.loads(out)] == [good], (out, err)
    assert "1 stored session could not be read" in err, err
    for args in (("scores", "summary", "--format", "json"), ("scores", "summary", "--include-unverified")):
        code, out, err = _cli(*args, "--data-dir", str(data))
        assert "cannot use the results store" not in err and "Could not decode" not in err, err
    code, out, err = _cli("scores", "summary", "--format", "json", "--data-dir", str(data))
    assert json.loads(out)["counted"]["trials"] == 1, out
    code, out, err = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
    verdicts = {v["session_id"]: v["verdict"] for v in json.loads(out)}
    assert verdicts[good] == "verified" and len(verdicts) == 2, verdicts
    page, export = tmp_path / "report.html", tmp_path / "all.jsonl"
    code, out, err = _cli("report", "--output", str(page), "--data-dir", str(data))
    assert "1 trial" in err and page.exists() and "cannot use the results store" not in err, (out, err)
    code, out, err = _cli("store", "export", "--output", str(export), "--data-dir", str(data))
    assert good in export.read_text() and "cannot use the results store" not in err, err


def test_a_session_deleted_while_verify_runs_is_not_recorded_and_the_store_is_not_called_damaged(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """A facilitator runs ``scores delete`` while another runs ``scores verify`` (a faulty world, or two people on
    one store): verify then recorded its verdicts, and the record of the deleted session failed its foreign key, so
    verify stopped with ``the results store ... is damaged (FOREIGN KEY constraint failed) ... Move it aside``
    (advice that starts a new, empty store) and recorded no verdict of its batch. A session deleted meanwhile gets
    no record; every other verdict is recorded; on both back ends."""
    import warroom.store.review._verify as verify_module

    line = _exported(tmp_path, monkeypatch)
    handed = tmp_path / "two.jsonl"
    second = line | {"session_id": line["session_id"] + "-b", "actions": "[]"}  # a miss: not a copy of the first
    handed.write_text(json.dumps(line) + "\n" + json.dumps(second) + "\n")
    data = tmp_path / "class"
    assert _cli("store", "import", "--all-trainees", str(handed), "--data-dir", str(data))[0] == 0
    verify_one, deleted = verify_module.verify_session, []

    def deleting(*args, **kwargs):  # the other facilitator deletes the second session once the first is verified
        result = verify_one(*args, **kwargs)
        if not deleted:
            deleted.append(_cli("scores", "delete", "--yes", second["session_id"], "--data-dir", str(data)))
        return result

    monkeypatch.setattr(verify_module, "verify_session", deleting)
    code, out, err = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
    assert deleted[0][0] == 0 and "damaged" not in err and "FOREIGN KEY" not in err, err
    verdicts = [(v["session_id"], v["verdict"]) for v in json.loads(out)]
    assert code == 1 and verdicts[0] == (line["session_id"], "verified"), verdicts  # (the deleted one disagreed)
    monkeypatch.setattr(verify_module, "verify_session", verify_one)
    summary = json.loads(_cli("scores", "summary", "--format", "json", "--data-dir", str(data))[1])
    assert summary["counted"]["trials"] == 1 and summary["unverified"]["sessions"] == 0, summary


def test_a_session_deleted_while_rescore_runs_is_skipped_saying_so_and_the_others_are_re_scored(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """``scores delete`` while ``scores rescore`` runs: the re-score of the deleted session found no row to update
    and stopped the whole command (``Error: no stored session 'ID'``), the sessions after it not re-scored. It is
    skipped, saying so, as one re-scored meanwhile is; on both back ends."""
    import warroom.store.review._rescore as rescore_module

    data = tmp_path / "data"
    ids = [play(data, "ann", GOOD, mode=mode).session_id for mode in ("assessment", "practice", "assessment")]
    one, deleted = rescore_module._rescore_one, []

    def changed_then_deleting(*args, **kwargs):  # every session's score changes; the second is deleted meanwhile
        result = one(*args, **kwargs)
        if not deleted:
            deleted.append(_cli("scores", "delete", "--yes", ids[1], "--data-dir", str(data)))
        return result

    monkeypatch.setattr(rescore_module, "_rescore_one", changed_then_deleting)
    sql = "UPDATE sessions SET scorecard = replace(scorecard, '\"total\": 100', '\"total\": 50'), total = 50"
    with ResultsStore(data) as store:  # every stored score made wrong, so that re-scoring writes each
        store.db.write(lambda: store.db.conn.execute(sql))
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert code == 1 and deleted[0][0] == 0, deleted
    assert f"skipped: {ids[1]}" in err and "deleted by someone else" in err, (out, err)
    assert "re-scored 2 of 3 sessions: 2 changed" in out and "no stored session" not in err, (out, err)
    totals = {s["session_id"]: s["total"] for s in json.loads(_cli("scores", "list", "--format", "json",
                                                                     "--data-dir", str(data))[1])}  # fmt: skip
    assert totals == {ids[0]: 100, ids[2]: 100}, totals


def test_an_imported_history_giving_one_re_score_twice_is_refused_at_its_line_not_a_damaged_store(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """An export whose line holds the same re-score twice in its ``scorecard_history`` (a line edited, or another
    program's): ``store import --all-trainees`` stopped with ``the results store ... is damaged (UNIQUE constraint
    failed: scorecard_history.session_id, scorecard_history.seq) ... Move it aside``, and the lines of its batch
    before were not stored. The line is refused at its number, saying why; the others are stored; on both back
    ends."""
    line = _exported(tmp_path, monkeypatch)
    card = json.loads(line["scorecard"])
    change = {"seq": 1, "replaced_at": "2026-12-01T10:00:00+00:00", "replaced_by": "fac", "rules": "6",
              "reason": "re-scored", "scorecard": json.dumps(card | {"total": 50}), "scoring_version": "6",
              "outcome": "contained", "total": 50, "drill_sha256": None, "drill_version": 1,
              "drill_path": None}  # fmt: skip
    doubled = line | {"session_id": line["session_id"] + "-b", "scorecard_history": [change, change]}
    handed = tmp_path / "all.jsonl"
    handed.write_text("".join(json.dumps(x) + "\n" for x in (line, doubled)))
    data = tmp_path / "class"
    code, out, err = _cli("store", "import", "--all-trainees", str(handed), "--data-dir", str(data))
    assert code == 1 and f"{handed}:2: scorecard_history: re-score 1 is given twice" in out + err, (out, err)
    assert "damaged" not in out + err and "1 session imported" in out, (out, err)


@pytest.mark.parametrize("column", ["damage_unit", "drill_path", "scoring_version", "history"])
def test_an_imported_text_holding_a_nul_is_refused_at_its_line_on_both_back_ends(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch, column: str
):
    """An exported line whose ``damage_unit``, ``drill_path`` or ``scoring_version`` (or a scorecard history's
    ``reason``) holds a NUL character: SQLite stored it, and PostgreSQL, whose text cannot hold one, failed the
    import's whole batch (``cannot use the results store ...: PostgreSQL text fields cannot contain NUL (0x00)
    bytes``), the good line after it not stored either. The line is refused at its number on both back ends, the
    others stored."""
    line = _exported(tmp_path, monkeypatch)
    if column == "history":
        change = {"seq": 1, "replaced_at": "2026-12-01T10:00:00+00:00", "replaced_by": "fac", "rules": "6",
                  "reason": "re\x00scored", "scorecard": line["scorecard"], "scoring_version": "6",
                  "outcome": "contained", "total": 100, "drill_sha256": None, "drill_version": 1,
                  "drill_path": None}  # fmt: skip
        bad = line | {"scorecard_history": [change]}
    else:
        bad = line | {column: "ab\x00c"}
    handed = tmp_path / "all.jsonl"
    handed.write_text(json.dumps(bad | {"session_id": line["session_id"] + "-n"}) + "\n" + json.dumps(line) + "\n")
    data = tmp_path / "class"
    code, out, err = _cli("store", "import", "--all-trainees", str(handed), "--data-dir", str(data))
    assert code == 1 and f"{handed}:1:" in out + err and "holds a NUL character" in out + err, (out, err)
    assert "1 session imported" in out and "cannot use the results store" not in out + err, (out, err)
    listed = json.loads(_cli("scores", "list", "--format", "json", "--data-dir", str(data))[1])
    assert [s["session_id"] for s in listed] == [line["session_id"]], listed


def test_a_journal_whose_start_line_holds_a_nul_is_quarantined_saying_why(tmp_path: Path):
    """A killed session's journal whose start line's ``drill_path`` holds a NUL character (edited): stored on SQLite,
    while a PostgreSQL store failed it at every start. The store refuses it on both back ends, so recovery
    quarantines it with the reason, once."""
    data = tmp_path / "data"
    played = play(data, "ann", GOOD, mode="assessment")
    done = data / "journals" / "done" / f"{played.session_id}.jsonl"
    lines = done.read_text().splitlines()
    start = json.loads(lines[0])
    start["drill_path"] += "\x00x"
    with sqlite3.connect(data / "results.sqlite3") as conn:  # (the session was not stored: it was killed)
        conn.execute("DELETE FROM sessions")
    done.unlink()
    (data / "journals" / f"{played.session_id}.jsonl").write_text("\n".join([json.dumps(start), *lines[1:-1]]) + "\n")
    _, out, err = _cli("scores", "--data-dir", str(data))
    assert "holds a NUL character" in out + err and "quarantined" in out + err, (out, err)
    why = data / "journals" / "quarantine" / f"{played.session_id}.jsonl.why.txt"
    assert "drill_path holds a NUL character" in why.read_text()


def test_a_handed_in_sessions_drill_path_is_not_opened_by_its_review(tmp_path: Path, monkeypatch):
    """A line handed in (``store import``: stored without a check) naming another file of the host as its drill
    (``drill_path``): ``scores verify`` and ``rescore`` find such a session's drill by its id, but the review (the
    console's session page, ``warroom review``) opened the path the row names, and showed the facilitator that
    file's load error, its text quoted. The review finds it by its drill id too."""
    from warroom.store.review import load_review

    line = _exported(tmp_path, monkeypatch)
    secret = tmp_path / "secret.txt"
    secret.write_text("password: [hunter2\n", encoding="utf-8")
    data = tmp_path / "class"
    handed = tmp_path / "handed-in.jsonl"
    handed.write_text(json.dumps(line | {"drill_path": str(secret)}) + "\n", encoding="utf-8")
    code, _out, err = _cli("store", "import", "--trainee", "ann", str(handed), "--data-dir", str(data))
    assert code == 0, err
    with ResultsStore(data) as store:
        review = load_review(store.get(line["session_id"]), (), store)
    assert review.drill is not None and review.drill_problem is None, review.drill_problem
    assert review.drill_file is not None and review.drill_file != secret


def test_rescore_corrects_a_column_edited_beside_an_unedited_scorecard(tmp_path: Path):
    """A row whose ``total`` and ``outcome`` were edited by SQL, its scorecard JSON left as it was: ``scores rescore``
    compared only the scorecard JSON, said the session was "unchanged" and left the edited values, which the
    summary counted (``scores verify`` flagged it). Re-scoring rewrites the columns from the scorecard, saying so."""
    data = tmp_path / "data"
    sid = play(data, "ann", [], mode="assessment").session_id
    with ResultsStore(data) as store:
        truth = store.get(sid)
    conn = sqlite3.connect(data / "results.sqlite3")
    conn.execute("UPDATE sessions SET total = 100, outcome = 'contained' WHERE session_id = ?", (sid,))
    conn.commit()
    conn.close()
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert code == 0, err
    assert f"stored columns disagreed with the scorecard: outcome 'contained' -> '{truth.outcome}', total 100 -> " \
           f"{truth.total}" in out + err, out + err
    with ResultsStore(data) as store:
        fixed = store.get(sid)
    assert (fixed.outcome, fixed.total) == (truth.outcome, truth.total) != ("contained", 100)
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert "1 unchanged" in out + err, out + err


def test_a_missing_drill_of_a_session_naming_no_path_is_said_without_was_none(tmp_path: Path):
    """A session handed in (found by its drill id alone) whose drill is in no folder: the skipped line of rescore and
    verify ended "is not found (was None): ..."."""
    from dataclasses import replace

    from warroom.store.review import DrillUnavailable, default_drill_resolver, resolve_session_drill

    data = tmp_path / "data"
    sid = play(data, "ann", GOOD).session_id
    with ResultsStore(data) as store:
        info = replace(store.get(sid).info(), drill_id="no-such-drill", drill_path=None)
    with pytest.raises(DrillUnavailable) as caught:
        resolve_session_drill(info, default_drill_resolver(()))
    assert f"the drill 'no-such-drill' of session {sid} is not found: " in str(caught.value)
    assert "None" not in str(caught.value)
