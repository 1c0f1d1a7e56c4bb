"""The lesser breaks of issue 30 (item 12): what a hostile file name, trace or store file, an interruption or a
killed session meets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import TESTS
from store_support import add_session

from warroom.cli import main
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
    assert "bad\\x09name.json: not JSON" in result.stderr
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
