"""What the CLI prints: control and bidi characters escaped on every output, faithful --output files, no CSV
formula injection, trainee names without control characters (issue 11 item 1)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import add_session

from warroom.cli import main
from warroom.cli.common._output import csv_text
from warroom.core.text import control_chars, json_text, spreadsheet_safe
from warroom.store.results import ResultsStore

OSC52 = "ana\x1b]52;c;ZWNobyBwd25lZA==\x07"
UNIT = "USD \u202erefunded\x9b"


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    with ResultsStore(tmp_path) as store:
        add_session(store, "s1", trainee=OSC52, damage_unit=UNIT, damage=10.0)
        add_session(store, "s2", trainee="=HYPERLINK(\"http://x\")", started_at="2026-11-02T10:00:00.000000+00:00")
    return tmp_path


def _raw_controls(text: str) -> list[str]:
    return [c for c in text if c in "\x1b\x07\x9b\u202e"]


@pytest.mark.parametrize(
    "args",
    [
        ("--format", "csv"),
        ("--format", "json"),
        ("--format", "table"),
        ("--summary", "--format", "table"),
        ("--summary", "--format", "csv"),
        ("--summary", "--format", "json"),
    ],
)
def test_no_raw_control_character_reaches_stdout(hostile: Path, args: tuple[str, ...]):
    r = invoke("scores", "--data-dir", str(hostile), *args)
    assert r.exit_code == 0, r.output
    assert _raw_controls(r.stdout) == []


def test_csv_on_stdout_shows_escapes_and_guards_formulas(hostile: Path):
    r = invoke("scores", "--data-dir", str(hostile), "--format", "csv")
    rows = {row["session_id"]: row for row in csv.DictReader(io.StringIO(r.stdout))}
    assert rows["s1"]["trainee"] == "ana\\x1b]52;c;ZWNobyBwd25lZA==\\x07"
    assert rows["s1"]["damage_unit"] == "USD \\u202erefunded\\x9b"
    assert rows["s1"]["damage"] == "10.0"  # a number stays a number (the cell rule for -10 is tested below)
    assert rows["s2"]["trainee"] == "'=HYPERLINK(\"http://x\")"


def test_json_on_stdout_is_safe_and_faithful(hostile: Path):
    r = invoke("scores", "--data-dir", str(hostile), "--format", "json")
    assert "\\u001b]52" in r.stdout and "\\u202e" in r.stdout and "\\u009b" in r.stdout
    data = {d["session_id"]: d for d in json.loads(r.stdout)}
    assert data["s1"]["trainee"] == OSC52 and data["s1"]["damage_unit"] == UNIT


def test_output_file_is_faithful_with_formula_guard(hostile: Path, tmp_path: Path):
    out = tmp_path / "export.csv"
    r = invoke("scores", "--data-dir", str(hostile), "--format", "csv", "--output", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    with open(out, encoding="utf-8", newline="") as f:
        rows = {row["session_id"]: row for row in csv.DictReader(f)}
    assert rows["s1"]["trainee"] == OSC52
    assert rows["s1"]["damage_unit"] == UNIT
    assert rows["s1"]["damage"] == "10.0"
    assert rows["s2"]["trainee"] == "'=HYPERLINK(\"http://x\")"


def test_output_json_file_reads_back_exactly(hostile: Path, tmp_path: Path):
    out = tmp_path / "export.json"
    invoke("scores", "--data-dir", str(hostile), "--format", "json", "-o", str(out))
    assert _raw_controls(out.read_text(encoding="utf-8")) == []
    assert {d["trainee"] for d in json.loads(out.read_text(encoding="utf-8"))} == {OSC52, "=HYPERLINK(\"http://x\")"}


def test_output_needs_an_export_format(hostile: Path, tmp_path: Path):
    r = invoke("scores", "--data-dir", str(hostile), "--output", str(tmp_path / "x.txt"))
    assert r.exit_code == 2 and "--format csv or --format json" in r.output


@pytest.mark.parametrize(
    ("args", "env", "shown"),
    [
        (("--trainee", OSC52), None, "\\x1b, \\x07"),
        (("--trainee", "ann\u202e"), None, "\\u202e"),
        ((), {"WARROOM_TRAINEE": "bob\nby"}, "\\x0a"),
    ],
)
def test_trainee_with_control_characters_is_refused(tmp_path: Path, args, env, shown):
    r = invoke(*args, "scores", "--data-dir", str(tmp_path), env=env)
    assert r.exit_code == 2
    assert f"contains control characters ({shown})" in r.output
    assert _raw_controls(r.output) == []


def test_run_refuses_a_trainee_with_control_characters(tmp_path: Path):
    r = invoke("run", "--trainee", OSC52, "--data-dir", str(tmp_path), "duplicate-charge-refunds")
    assert r.exit_code == 2 and "--trainee contains control characters" in r.output


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("=1+2", "'=1+2"), ("+1", "'+1"), ("-10", "'-10"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
        ("\r=1", "'\r=1"), ("ann", "ann"), ("a=b", "a=b"), ("", ""), (-10, -10), (-0.5, -0.5), (None, None),
        (True, True),
        # issue 30: white space before a formula character (any Unicode white space), and the fullwidth ones
        (" =1", "' =1"), ("\u00a0=1", "'\u00a0=1"), ("\u3000+1", "'\u3000+1"), ("\n\t-1", "'\n\t-1"),
        ("\u2028@x", "'\u2028@x"), ("\uff1d1+1", "'\uff1d1+1"), ("\uff0b1", "'\uff0b1"), ("\uff0d1", "'\uff0d1"),
        ("\uff20SUM(A1)", "'\uff20SUM(A1)"), (" \u00a0\uff1d1", "' \u00a0\uff1d1"), (" ann", " ann"),
        ("\u00a0", "\u00a0"), ("a\uff1db", "a\uff1db"),
    ],
)
def test_spreadsheet_safe(value, expected):
    assert spreadsheet_safe(value) == expected


def test_csv_text_terminal_and_file():
    rows = [{"name": "-x\x1b", "n": -3}]
    assert csv_text(("name", "n"), rows, terminal=True) == "name,n\n'-x\\x1b,-3\n"
    assert csv_text(("name", "n"), rows, terminal=False) == "name,n\n'-x\x1b,-3\n"


def test_json_text_escapes_controls_and_keeps_other_text():
    text = json_text({"a": "é\x7f\x85\u2066\u202a\x1b"})
    assert text == '{"a": "é\\u007f\\u0085\\u2066\\u202a\\u001b"}'
    assert json.loads(text) == {"a": "é\x7f\x85\u2066\u202a\x1b"}


def test_control_chars():
    assert control_chars("a\tb\u202ec\t") == ["\\x09", "\\u202e"]
    assert control_chars("Zoë 李") == []


def test_os_user_name_with_control_characters_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("WARROOM_TRAINEE", raising=False)
    monkeypatch.setattr("getpass.getuser", lambda: "root\x1b[2J")
    r = invoke("scores", "--data-dir", str(tmp_path))
    assert r.exit_code == 2
    assert "the trainee name from the OS user name contains control characters (\\x1b)" in r.output
