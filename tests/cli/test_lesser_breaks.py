"""The lesser breaks of issue 30 (item 12): what a hostile file name, trace or store file, an interruption or a
killed session meets."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import TESTS
from store_support import add_session, bundled_drill_path, load

from warroom.cli import main
from warroom.store.journal import SessionRecorder, recover_unfinished
from warroom.store.results import ResultsStore

FIXTURES = TESTS / "fixtures"


def test_a_file_name_with_a_newline_or_a_tab_cannot_forge_a_line_of_an_import_summary(tmp_path: Path):
    evil = tmp_path / "in\nforged: 0 drills imported, 0 failed\tx"
    evil.mkdir()
    shutil.copyfile(FIXTURES / "chat" / "refund.json", evil / "refund\n.json")
    (evil / "bad\tname.json").write_text("{not json", encoding="utf-8")
    out = tmp_path / "out\nx"
    result = CliRunner().invoke(main, ["import", "chat", str(evil), "--out", str(out), "-v"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert not any(line.startswith("forged") or line.startswith("x") for line in lines), lines
    assert "in\\x0aforged: 0 drills imported, 0 failed\\x09x" in result.output
    assert "bad\\x09name.json:1:2: not JSON" in result.stderr
    assert "imported into " + str(tmp_path / "out") + "\\x0ax from 2 files, 1 failed" in result.stdout


def test_duplicate_keys_in_an_imported_trace_are_refused_naming_the_key(tmp_path: Path):
    trace = tmp_path / "dup.json"
    messages = json.loads((FIXTURES / "chat" / "refund.json").read_text(encoding="utf-8"))
    text = json.dumps(messages)
    first = text.index('"role"')
    trace.write_text(text[:first] + '"role": "user", ' + text[first:], encoding="utf-8")  # "role" twice
    result = CliRunner().invoke(main, ["import", "chat", str(trace), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())  # nothing written
    assert 'the key "role" is given twice in one JSON object' in result.stderr, result.output


def _damaged_store(data: Path) -> None:
    with ResultsStore(data) as store:
        for i in range(300):
            add_session(store, f"s{i:04d}", trainee="ann")
    db = data / "results.sqlite3"
    raw = bytearray(db.read_bytes())
    raw[len(raw) // 2 : len(raw) // 2 + 4096] = b"A" * 4096  # a page in the middle, one `count` never reads
    db.write_bytes(bytes(raw))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_store_status_exits_1_on_a_store_damaged_in_the_middle(tmp_path: Path, fmt: str):
    _damaged_store(tmp_path)
    result = CliRunner().invoke(main, ["store", "status", "--data-dir", str(tmp_path), "--format", fmt])
    assert result.exit_code == 1 and "is damaged" in result.output and "Traceback" not in result.output


def test_an_interrupted_export_leaves_no_partial_file(tmp_path: Path, monkeypatch):
    from warroom.store.results import _transfer

    with ResultsStore(tmp_path / "data") as store:
        for i in range(5):
            add_session(store, f"s{i}", trainee="ann")
    out = tmp_path / "all.jsonl"
    out.write_text("the export of yesterday\n", encoding="utf-8")
    real = _transfer.export_lines

    def stopped(store):
        for i, line in enumerate(real(store)):
            if i == 3:
                raise KeyboardInterrupt  # Ctrl-C part-way
            yield line

    monkeypatch.setattr(_transfer, "export_lines", stopped)
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path / "data"), "-o", str(out)])
    assert result.exit_code != 0
    assert out.read_text(encoding="utf-8") == "the export of yesterday\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.jsonl", "data"]  # no temporary file left
    monkeypatch.setattr(_transfer, "export_lines", real)
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path / "data"), "-o", str(out)])
    assert result.exit_code == 0 and len(out.read_text(encoding="utf-8").splitlines()) == 5


def test_an_interrupted_csv_or_json_export_leaves_the_old_file(tmp_path: Path, monkeypatch):
    with ResultsStore(tmp_path / "data") as store:
        add_session(store, "s1", trainee="ann")
    out = tmp_path / "ann.csv"
    out.write_text("old\n", encoding="utf-8")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    args = ["scores", "list", "--data-dir", str(tmp_path / "data"), "--format", "csv", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.csv", "data"]


def test_an_export_to_a_symbolic_link_writes_through_the_link(tmp_path: Path):
    with ResultsStore(tmp_path / "data") as store:
        add_session(store, "s1", trainee="ann")
    target, link = tmp_path / "kept.jsonl", tmp_path / "link.jsonl"
    target.write_text("old\n", encoding="utf-8")
    link.symlink_to(target)
    for args in (["store", "export"], ["scores", "list", "--format", "json"]):
        result = CliRunner().invoke(main, [*args, "--data-dir", str(tmp_path / "data"), "-o", str(link)])
        assert result.exit_code == 0, result.output
        assert link.is_symlink() and "s1" in target.read_text(encoding="utf-8")


def test_a_0_byte_store_file_is_not_an_empty_store(tmp_path: Path):
    (tmp_path / "results.sqlite3").write_bytes(b"")
    for args in (["store", "status"], ["scores"], ["scores", "summary"], ["store", "export"]):
        result = CliRunner().invoke(main, [*args, "--data-dir", str(tmp_path)])
        assert result.exit_code == 1, (args, result.output)
        assert "is an empty file (0 bytes)" in result.output and "No sessions" not in result.output
    assert (tmp_path / "results.sqlite3").read_bytes() == b""  # not used, not changed


def test_a_new_store_is_made_whole_and_leaves_no_temporary_file(tmp_path: Path):
    with ResultsStore(tmp_path) as store:
        assert store.count() == 0
    assert (tmp_path / "results.sqlite3").stat().st_size > 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_new_store_is_made_on_a_file_system_without_hard_links(tmp_path: Path, monkeypatch):
    import errno

    def no_links(src, dst):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    with ResultsStore(tmp_path) as store:
        add_session(store, "s1", trainee="ann")
    with ResultsStore(tmp_path) as store:
        assert store.count() == 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_killed_session_without_actions_is_reviewed_with_an_unknown_time_of_interruption(tmp_path: Path):
    from warroom.store.review import load_review

    path = bundled_drill_path()
    rec = SessionRecorder.start(tmp_path, "ann", path, load(path))
    rec.close()  # killed before any action
    (r,) = recover_unfinished(tmp_path)
    assert r.stored and any("the time of interruption is unknown" in p for p in r.problems)
    with ResultsStore(tmp_path) as store:
        session = store.get(rec.session_id)
    data = load_review(session)
    (quit_row,) = [row for row in data.review_rows.rows if row.kind == "action"]
    assert "the time of interruption is unknown" in quit_row.text
    assert any("the time of interruption is unknown" in n for n in session.notes)
