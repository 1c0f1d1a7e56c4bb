"""A third fresh hostile campaign on issue 30's promises (docs/cohorts.md, "What a trainee can and cannot do to their
results"; docs/reliability.md), on the code that changed since the second: each case a hostile trainee or a faulty
world found, with the right behaviour."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from warroom.core.files import DuplicateKey, record_json


def test_a_key_given_twice_at_the_end_of_a_large_record_is_found_in_linear_time():
    """An imported trace (up to 8 MiB; chat exports 64 MiB) or an exported line (80 MiB) holding a key twice after a
    million strings: finding where the second key stands sliced the rest of the document once per string, so 0.6 MB
    took 2 s and an 8 MiB trace minutes (quadratic). It is found in one pass."""
    n = 1_000_000
    doc = '{"a": [' + ",".join(['""'] * n) + '], "a": 1}'
    started = time.monotonic()
    with pytest.raises(DuplicateKey) as caught:
        record_json(doc)
    assert time.monotonic() - started < 10  # quadratic: about 50 s on the machine that found it, now about 1 s
    assert caught.value.key == "a" and caught.value.pos == len(doc) - len('"a": 1}')


NESTED = ['{"x": {"a": 1, "b": {"a": 2}}, "y": {"a": 1, "c": [{}], "a" : 3}}', '{"a{": "}", "b": {"a{": 1}, "a{"\n:2}',
          '{"k": "\\"a\\":", "a": 1, "a": 2}']  # fmt: skip


@pytest.mark.parametrize("doc", NESTED)
def test_the_second_key_is_placed_in_its_own_object_with_braces_and_colons_in_strings(doc: str):
    with pytest.raises(DuplicateKey) as caught:
        record_json(doc)
    assert doc[caught.value.pos :].startswith(f'"{caught.value.key}"')
    assert doc.rindex(f'"{caught.value.key}"') == caught.value.pos


def _within(seconds: float, call):
    """``call()``'s result, or a failure when it has not returned within ``seconds`` (a daemon thread: a hang fails
    the test instead of stopping the run)."""
    import threading

    done: list = []
    worker = threading.Thread(target=lambda: done.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert done, f"still waiting after {seconds} s"
    return done[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_put_as_another_trainees_notice_box_blocks_neither_their_start_nor_a_recovery(tmp_path: Path):
    """On a data folder shared by the class, a trainee who makes a FIFO named like another trainee's notice box
    (the box's name is a hash of the trainee's name): that trainee's next start waited for ever reading it, and so
    did whoever recovered a session of theirs, leaving a notice. Neither waits; the FIFO is taken away."""
    from store_support import notice_box

    from warroom.store.journal import take_notices
    from warroom.store.journal._notices import leave_notice
    from warroom.store.results import ResultsStore

    ResultsStore(tmp_path).close()  # the results store the notices are read against, created empty
    box = notice_box(tmp_path, "ann")
    box.parent.mkdir(parents=True)
    os.mkfifo(box)
    assert _within(10, lambda: leave_notice(tmp_path, "ann", "2026-01-01T00:00:00+00:00", session="s1")) is False
    assert _within(10, lambda: take_notices(tmp_path, "ann")) == []
    assert not box.exists()
    assert leave_notice(tmp_path, "ann", "2026-01-01T00:00:00+00:00", session="s1") is True  # a box again


FORGED_AT = '[{"type": "message", "x at line 9 column 9": 1, "x at line 9 column 9": 2}]'


@pytest.mark.parametrize(("text", "at"), [('[\n {"type": "message",\n  "type": 1}]', "3:3"), (FORGED_AT, "1:49")])
def test_a_key_given_twice_in_an_imported_file_is_named_at_its_place(tmp_path: Path, text: str, at: str):
    """An imported file holding a key twice was refused at ``FILE:1:1``, whatever its size: the place of the second
    key is known, and is where the refusal points (a key's own text, which the file's writer chose, never moves
    it)."""
    from click.testing import CliRunner

    from warroom.cli import main

    source = tmp_path / "chat.json"
    source.write_text(text)
    result = CliRunner().invoke(main, ["import", "chat", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    said = f"{source}:{at}: not a chat transcript one can read one way: the key "
    assert result.output.startswith(said), result.output


def _import_with_history(tmp_path: Path, ann_url: str, ann: str, replaced_by: str, monkeypatch):
    """A trainee role storing, with ``warroom store import --all-trainees``, a session of its own whose line carries
    a re-score by ``replaced_by``; the import's result."""
    import json

    from click.testing import CliRunner

    from unit.test_forgeries import GOOD, play
    from unit.test_hostile_campaign2 import _export_of
    from warroom.cli import main

    monkeypatch.setenv("WARROOM_STORE", ann_url)
    played = play(tmp_path / "ann", ann, GOOD)
    line = {**json.loads(_export_of(tmp_path, played.session_id)), "session_id": "imported-1"}
    line["scorecard_history"] = [{"seq": 1, "replaced_at": "2026-01-01T00:00:00+00:00", "replaced_by": replaced_by,
                                  "rules": "5", "reason": "re-scored after review", "scorecard": line["scorecard"],
                                  "scoring_version": "4", "outcome": "contained", "total": 100,
                                  "drill_sha256": None, "drill_version": 1, "drill_path": None}]  # fmt: skip
    source = tmp_path / "mine.jsonl"
    source.write_text(json.dumps(line) + "\n")
    imported = ["store", "import", "--all-trainees", str(source), "--data-dir", str(tmp_path / "ann")]
    return CliRunner().invoke(main, imported)


@pytest.mark.parametrize("upgraded", [False, True])
def test_a_trainee_role_cannot_bring_a_re_score_by_the_facilitator_with_a_session_of_its_own(
    tmp_path: Path, postgres_server, store_url: str, monkeypatch, upgraded: bool
):
    """Schema version 18 let a ``warroom_trainee`` role add history only with the session it stores, but under any
    name: its own ``store import --all-trainees`` (or its SQL) stored "re-score 1 ... by <the facilitator> (re-scored
    after review)" beside its new session, which ``review`` and ``store export`` show as the store's own record. The
    history a trainee role brings names the role itself (schema version 19; a store secured before is narrowed by
    its owner's upgrade); its own still comes in."""
    import psycopg
    from pg_support import as_role, group_roles, secured_roles

    from warroom.store.results import ResultsStore

    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    if upgraded:  # as schema version 18 left it, then opened by the owner
        with ResultsStore(tmp_path, url=store_url) as store:
            store.db.conn.execute("UPDATE warroom_schema SET version = 18")
            store.db.conn.execute("DROP POLICY warroom_trainee_own ON scorecard_history")
            store.db.conn.execute(
                f"CREATE POLICY warroom_trainee_own ON scorecard_history TO {group_roles(store_url)[0]} "
                "USING (EXISTS (SELECT 1 "
                "FROM sessions s WHERE s.session_id = scorecard_history.session_id)) WITH CHECK (EXISTS (SELECT 1 FROM "
                "sessions s WHERE s.session_id = scorecard_history.session_id AND s.xmin = pg_current_xact_id()::xid))"
            )
        with ResultsStore(tmp_path, url=store_url) as store:
            assert store.schema_version == 25
    result = _import_with_history(tmp_path, as_role(store_url, ann), ann, fac, monkeypatch)
    assert result.exit_code == 1 and "violates row-level security policy" in result.output, result.output
    with psycopg.connect(as_role(store_url, fac), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM scorecard_history").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM sessions WHERE session_id = 'imported-1'").fetchone() == (0,)
