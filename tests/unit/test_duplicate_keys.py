"""A key given twice in one JSON object of a session's record (a journal line, an exported line) is refused as a
corrupt line, at its ``file:line:col``: JSON leaves such an object undefined (Python keeps the last value, other
readers the first), so two readers could disagree about what the line says (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path, load

from warroom.cli import main
from warroom.core.files import record_json
from warroom.core.model import Action, ActionKind
from warroom.store.journal import SessionRecorder, read_journal, recover_unfinished
from warroom.store.results import ResultsStore, strict_json

pytestmark = pytest.mark.usefixtures("backend_url")


@pytest.mark.parametrize("parse", [record_json, strict_json])
def test_a_key_twice_is_refused_at_its_second_occurrence(parse):
    text = '{"a": {"k": 1}, "b": {"s": "\\"k\\": 3", "k": 1, "k": 2}}'
    with pytest.raises(json.JSONDecodeError) as caught:
        parse(text)
    assert caught.value.msg == 'the key "k" is given twice in one object'
    assert caught.value.colno == text.rindex('"k"') + 1  # not the "k" of another object, nor the one in a string
    # the same key in two objects is no duplicate
    assert parse('{"a": {"k": 1}, "k": 2}') == {"a": {"k": 1}, "k": 2}


def _journal_with(tmp_path: Path, line: str) -> Path:
    rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), load(bundled_drill_path()))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()  # as if the process died
    with open(rec.journal_path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.write('{"type":"action","seq":3,"action":{"t":13.0,"kind":"pause"}}\n')
    return Path(rec.journal_path)


def test_a_journal_line_with_a_key_twice_is_a_corrupt_line_skipped_and_named_with_its_column(tmp_path: Path):
    # the first "kind" escalates, the last quits: a reader keeping either would score another session
    line = '{"type":"action","seq":2,"action":{"t":12.0,"kind":"escalate","step":"s1","kind":"quit"}}'
    path = _journal_with(tmp_path, line)
    contents = read_journal(path)
    assert [a.kind for a in contents.actions] == ["inspect", "pause"]  # the later line still read
    (problem,) = contents.problems
    col = line.rindex('"kind"') + 1
    assert str(problem) == (
        f'{path}:3:{col}: corrupt line, not valid JSON (the key "kind" is given twice in one object); skipped'
    )
    (r,) = recover_unfinished(tmp_path)  # recovery: as any corrupt line, skipped and said in the session's notes
    assert r.stored and [a.kind for a in r.actions] == ["inspect", "pause", "quit"]
    with ResultsStore(tmp_path) as store:
        assert any(f"{path}:3:{col}: corrupt line" in n for n in store.get(r.session_id).notes)


def test_an_exported_line_with_a_key_twice_is_refused_at_file_line_col(tmp_path: Path):
    data = tmp_path / "a"
    _journal_with(data, '{"type":"action","seq":2,"action":{"t":5.0,"kind":"pause"}}')
    recover_unfinished(data)
    runner = CliRunner()
    exported = runner.invoke(main, ["store", "export", "--data-dir", str(data)]).stdout.splitlines()[0]
    forged = exported[:-1] + ', "total": 100}'  # the stored total first, a better one last
    source = tmp_path / "in.jsonl"
    source.write_text(forged + "\n", encoding="utf-8")
    result = runner.invoke(main, ["store", "import", "--all-trainees",
                                  str(source), "--data-dir", str(tmp_path / "new")])
    assert result.exit_code == 1
    col = forged.rindex('"total"') + 1
    assert f'{source}:1:{col}: not a JSON object: the key "total" is given twice in one object\n' in result.output
    assert "0 sessions imported" in result.output and "0 already there, 1 refused" in result.output


def test_a_start_line_naming_two_trainees_is_nobody_s_journal(tmp_path: Path):
    """Every reader of a journal's start line agrees: one whose ``trainee`` is given twice is no trainee's, neither
    for the war room's recovery of its own trainee's journals, nor for the drill set's unfinished sessions."""
    from warroom.store.journal._recovery import journal_trainee
    from warroom.tui.logic._services import unfinished_sessions

    path = _journal_with(tmp_path, '{"type":"action","seq":2,"action":{"t":5.0,"kind":"pause"}}')
    assert journal_trainee(path) == "ann" and len(unfinished_sessions(tmp_path, "ann", None)) == 1
    first, rest = path.read_text(encoding="utf-8").split("\n", 1)
    path.write_text(first[:-1] + ',"trainee":"bob"}\n' + rest, encoding="utf-8")  # "ann" first, "bob" last
    assert journal_trainee(path) is None
    assert unfinished_sessions(tmp_path, "ann", None) == unfinished_sessions(tmp_path, "bob", None) == []
    assert recover_unfinished(tmp_path, trainee="bob") == [] and recover_unfinished(tmp_path, trainee="ann") == []


def test_the_console_s_live_table_skips_a_journal_line_with_a_key_twice_as_recovery_does(tmp_path: Path):
    from warroom.serve import LiveClass

    path = _journal_with(tmp_path, '{"type":"action","seq":2,"action":{"t":9.0,"kind":"pause","kind":"resume"}}')
    first, rest = path.read_text(encoding="utf-8").split("\n", 1)
    path.write_text(first[:-1] + ',"tab":"tab-1"}\n' + rest, encoding="utf-8")  # a served tab's journal
    live = LiveClass("host", tmp_path)
    live.tab_opened("tab-1", "ann", None)
    live.follow_journals()
    row = live.rows["tab-1"]
    assert (row.actions, row.last_action, row.drill_time) == (2, "pause", 13.0)  # the inspect and the last pause
    assert [a.kind for a in read_journal(path).actions] == ["inspect", "pause"]  # recovery reads the same two
