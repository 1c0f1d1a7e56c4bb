"""``--output -`` is standard output for every command that writes a file with ``--output`` (schema, scores, store
export, report: the report in tests/cli/test_report.py), printed as without the option; ``./-`` still names a file
called ``-`` (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import add_session

from warroom.cli import main
from warroom.core.author import drill_json_schema_text
from warroom.store.results import ResultsStore


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    with ResultsStore(tmp_path / "data") as store:
        add_session(store, "s1", trainee="ana\x1b[31m")
    return tmp_path


def test_schema_dash_prints_the_schema(in_tmp: Path):
    r = invoke("schema", "--output", "-")
    assert r.exit_code == 0 and r.stdout == drill_json_schema_text()
    assert not (in_tmp / "-").exists()
    r = invoke("schema", "-o", "./-")  # the escape for a file really named -
    assert r.exit_code == 0 and (in_tmp / "-").read_text(encoding="utf-8") == drill_json_schema_text()


@pytest.mark.parametrize(
    "args",
    [
        ("scores", "--format", "json"),
        ("scores", "list", "--format", "csv"),
        ("scores", "summary", "--format", "json"),
        ("scores", "--summary", "--format", "csv"),
        ("store", "export"),
    ],
)
def test_dash_is_what_is_printed_without_output(in_tmp: Path, args: tuple[str, ...]):
    plain = invoke(*args, "--data-dir", str(in_tmp / "data"))
    dash = invoke(*args, "--data-dir", str(in_tmp / "data"), "--output", "-")
    assert plain.exit_code == dash.exit_code == 0, dash.output
    assert dash.stdout == plain.stdout and "\x1b" not in dash.stdout and dash.stdout.strip()
    assert not (in_tmp / "-").exists()


def test_dash_with_the_table_format_prints_the_table(in_tmp: Path):
    r = invoke("scores", "--data-dir", str(in_tmp / "data"), "--output", "-")
    assert r.exit_code == 0 and r.stdout == invoke("scores", "--data-dir", str(in_tmp / "data")).stdout
    assert "ana\\x1b[31m" in r.stdout


def test_help_says_dash_is_standard_output():
    for command in (["schema"], ["report"], ["scores", "list"], ["scores", "summary"], ["store", "export"]):
        text = " ".join(invoke(*command, "--help").stdout.split())
        assert "- for standard output" in text, command


def test_store_export_dash_reads_back(in_tmp: Path):
    r = invoke("store", "export", "--data-dir", str(in_tmp / "data"), "-o", "-")
    assert [json.loads(line)["session_id"] for line in r.stdout.splitlines()] == ["s1"]
