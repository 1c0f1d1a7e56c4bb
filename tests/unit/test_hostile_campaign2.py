"""A second fresh hostile campaign on issue 30's promises (docs/cohorts.md, "What a trainee can and cannot do to their
results"; docs/reliability.md): each case a hostile trainee or a faulty world found, with the right behaviour."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main


@pytest.mark.parametrize("column", ["trainee", "drill_id", "drill_path", "scoring_version", "played_as", "all_clear"])
def test_store_export_leaves_out_a_row_holding_a_blob_and_says_so(tmp_path: Path, column: str):
    """A SQLite row edited to hold binary data (a BLOB) in any column: ``store export`` went down with a traceback
    (``TypeError: Object of type bytes is not JSON serializable``) for the whole store. The row is left out and
    reported, as a number JSON cannot hold is, and every other row is exported."""
    bad = play(tmp_path, "ann", GOOD)
    good = play(tmp_path, "bob", GOOD)
    with sqlite3.connect(tmp_path / "results.sqlite3") as conn:
        conn.execute(f"UPDATE sessions SET {column} = ? WHERE session_id = ?", (b"\x00\xff", bad.session_id))
    out = tmp_path / "x.jsonl"
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path), "-o", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"stored session {bad.session_id} cannot be exported: a value in it is binary data" in result.output
    assert [json.loads(line)["session_id"] for line in out.read_text().splitlines()] == [good.session_id]


@pytest.mark.parametrize("text", ["\x1b[2J\x1b]0;pwn\x07", "x\x07", "a\x1b[31m b", "tab\x0cfeed", "a\x9bb", "a\x85b",
                                  "a\u2028b", "two\nlines \x1b[1m\n"])  # fmt: skip
@pytest.mark.parametrize("field", ["summary", "debrief", "habit"])
def test_annotate_saves_a_text_holding_control_characters_escaped_and_it_reads_back_as_typed(
    tmp_path: Path, field: str, text: str
):
    """A text with an escape sequence or a BEL (pasted, or read from a file that wrote it ``"\\e]0;\\a"``): the save
    went down with ruamel.yaml's ``EmitterError: unexpected fold indicator`` (a traceback out of the author mode), or
    refused to save a text YAML can hold in a double-quoted string (``a\\x1b``, NEL, LS). It is written escaped."""
    from store_support import bundled_drill_path

    from warroom.core.author import open_for_annotation, write_draft
    from warroom.core.load import load_drill

    path = tmp_path / "d.yaml"
    path.write_bytes(bundled_drill_path().read_bytes())
    opened = open_for_annotation(path)
    setattr(opened.draft, field, text)
    write_draft(path, opened.draft, opened.event_order, opened.sha256)
    key = load_drill(path).answer_key
    assert (key.fault.summary if field == "summary" else getattr(key, field)) == text.strip()
    assert "\x1b" not in path.read_text() and "\x07" not in path.read_text()


@pytest.mark.parametrize("broken", [False, True])
@pytest.mark.parametrize("command", [["validate"], ["check"], ["cost"], ["migrate", "--dry-run"]])
def test_a_drill_file_name_never_forges_a_line_or_reorders_one_in_the_authoring_commands(
    tmp_path: Path, command: list[str], broken: bool
):
    """File names holding a newline, a tab or a bidi override: validate, check and cost printed a newline or a tab
    raw in every problem line (``a\\nX: forged.yaml:3:5: ...`` forged a problem line of file ``X: forged.yaml``), and
    ``migrate`` printed names raw, escape sequences and bidi controls included. Each is shown escaped, on its line."""
    from store_support import bundled_drill_path

    text = bundled_drill_path().read_text()
    if broken:
        text = text.replace("\ntitle:", "\ntitle2:", 1)
    for name in ("a\nX: forged.yaml", "t\tb.yaml", "\u202eb.yaml"):
        (tmp_path / name).write_text(text)
        result = CliRunner().invoke(main, [*command, str(tmp_path / name)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert str(tmp_path / name) not in result.output and "\t" not in result.output, result.output
        assert "\u202e" not in result.output
        assert not any(line.startswith("X: forged") for line in result.output.splitlines())
        shown = name.replace("\n", "\\x0a").replace("\t", "\\x09").replace("\u202e", "\\u202e")
        assert shown in result.output, result.output


def test_a_trainee_role_cannot_add_a_made_up_rescore_to_a_session_stored_before(
    tmp_path: Path, postgres_server, store_url: str, monkeypatch
):
    """A ``warroom_trainee`` role could insert ``scorecard_history`` rows on any session of its own at any time: a
    "re-scored by <the facilitator's name>" entry beside a session the facilitator had verified, which ``review``
    and ``store export`` show as the store's own record. History comes only with the session, in the transaction
    that stores it (as ``store import`` stores it); a re-score is the facilitator's."""
    import psycopg
    from pg_support import as_role, secured_roles

    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    ann_url = as_role(store_url, ann)
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    played = play(tmp_path / "ann", ann, GOOD)
    forged = ("INSERT INTO scorecard_history (session_id, seq, replaced_at, replaced_by, reason, scorecard, outcome, "
              "total) VALUES (%s, 1, '2026-01-01T00:00:00+00:00', %s, 'rescore', '{}', 'missed', 0)")  # fmt: skip
    with psycopg.connect(ann_url, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(forged, (played.session_id, fac))
    with psycopg.connect(as_role(store_url, fac), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM scorecard_history").fetchone() == (0,)
    # a trainee's own export, history included, still comes in through the role (history with its session)
    line = {**json.loads(_export_of(tmp_path, played.session_id)), "session_id": "imported-1"}
    line["scorecard_history"] = [{"seq": 1, "replaced_at": "2026-01-01T00:00:00+00:00", "replaced_by": ann,
                                  "rules": None, "reason": "rescore", "scorecard": line["scorecard"],
                                  "scoring_version": "4", "outcome": "contained", "total": 100,
                                  "drill_sha256": None, "drill_version": 1, "drill_path": None}]  # fmt: skip
    source = tmp_path / "mine.jsonl"
    source.write_text(json.dumps(line) + "\n")
    imported = ["store", "import", "--all-trainees", str(source), "--data-dir", str(tmp_path / "ann")]
    result = CliRunner().invoke(main, imported)
    assert result.exit_code == 0, result.output
    with psycopg.connect(as_role(store_url, fac), autocommit=True) as conn:
        assert conn.execute("SELECT session_id, replaced_by FROM scorecard_history").fetchall() == [("imported-1", ann)]


def _export_of(tmp_path: Path, session_id: str) -> str:
    out = tmp_path / f"{session_id}.jsonl"
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path / "ann"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return next(line for line in out.read_text().splitlines() if session_id in line)


def test_the_upgrade_to_schema_18_narrows_the_history_policy_of_a_store_secured_before(
    tmp_path: Path, postgres_server, store_url: str, monkeypatch
):
    import psycopg
    from pg_support import as_role, group_roles, secured_roles

    from warroom.store.results import SCHEMA_VERSION, ResultsStore

    ann, _fac = secured_roles(postgres_server, store_url, tmp_path)
    ann_url, owner_url = as_role(store_url, ann), store_url
    with ResultsStore(tmp_path, url=owner_url) as store:  # as schema version 17 left it
        store.db.conn.execute("UPDATE warroom_schema SET version = 17")
        store.db.conn.execute("DROP POLICY warroom_trainee_own ON scorecard_history")
        store.db.conn.execute(
            f"CREATE POLICY warroom_trainee_own ON scorecard_history TO {group_roles(store_url)[0]} "
            "USING (EXISTS (SELECT 1 FROM "
            "sessions s WHERE s.session_id = scorecard_history.session_id)) WITH CHECK (EXISTS (SELECT 1 FROM sessions "
            "s WHERE s.session_id = scorecard_history.session_id))"
        )
    with ResultsStore(tmp_path, url=owner_url) as store:  # the owner's open upgrades it
        assert store.schema_version == SCHEMA_VERSION
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    played = play(tmp_path / "ann", ann, GOOD)
    with psycopg.connect(ann_url, autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        sql = ("INSERT INTO scorecard_history (session_id, seq, replaced_at, replaced_by, reason, scorecard, outcome, "
               "total) VALUES (%s, 1, 'x', 'y', 'z', '{}', 'missed', 0)")  # fmt: skip
        conn.execute(sql, (played.session_id,))


@pytest.mark.parametrize("odd", [[], ["web_search_call"], {"a": 1}, 5])
def test_a_responses_item_whose_type_is_not_text_is_a_problem_at_its_file_not_a_traceback(tmp_path: Path, odd):
    """``warroom import chat`` on Responses API items, one whose ``type`` is a list or a mapping: ``kind in
    HOSTED_TOOLS`` raised ``TypeError: unhashable type`` (a traceback for the whole import)."""
    from locations import TESTS

    items = json.loads((TESTS / "fixtures" / "thirdparty" / "chat-responses.json").read_text())
    items[2]["type"] = odd
    source = tmp_path / "responses.json"
    source.write_text(json.dumps(items))
    result = CliRunner().invoke(main, ["import", "chat", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith(f"{source}:1:1: [2].type: a Responses API item's type is text such as `message`")
