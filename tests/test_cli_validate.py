"""`warroom validate`: problems as path:line:col: message, a summary line, exit codes 0/1/2, JSON Lines output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from test_loader import EXPECTED, MALFORMED
from warroom.cli import main
from warroom.core.library import bundled_drills_dir, find_drill_files

REPO = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(main, ["validate", *args], catch_exceptions=False)


def test_bundled_drills_are_valid():
    result = run(str(bundled_drills_dir()))
    n = len(find_drill_files([bundled_drills_dir()]))
    assert result.exit_code == 0, result.output
    assert result.output == f"{n} drills checked: {n} valid, 0 invalid\n"


def test_one_valid_file_says_drill_in_the_singular():
    result = run(str(bundled_drills_dir() / "duplicate-charge-refunds.yaml"))
    assert (result.exit_code, result.output) == (0, "1 drill checked: 1 valid, 0 invalid\n")


def test_every_malformed_drill_prints_its_position_and_exits_1():
    result = run(str(MALFORMED))
    assert result.exit_code == 1
    out = result.output
    for name, (line, column, fragment) in EXPECTED.items():
        expected = f"{MALFORMED / name}.yaml:{line}:{column}: "
        assert any(l.startswith(expected) and fragment in l for l in out.splitlines()), (name, expected)
    assert "Traceback" not in out
    n = len(EXPECTED)
    n_problems = len([l for l in out.splitlines() if l.startswith(str(MALFORMED))])
    assert out.splitlines()[-1] == f"{n} drills checked: 0 valid, {n} invalid ({n_problems} problems)"


@pytest.mark.parametrize("name", ["tab-indentation", "billion-laughs", "binary-junk", "not-utf8", "top-level-list"])
def test_cli_in_a_subprocess_never_shows_a_traceback(name):
    proc = subprocess.run(
        [sys.executable, "-m", "warroom", "validate", str(MALFORMED / f"{name}.yaml")],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    line, column, _ = EXPECTED[name]
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"{MALFORMED / name}.yaml:{line}:{column}: ")
    assert "Traceback" not in proc.stdout + proc.stderr


def test_mixed_files_and_folders_are_counted_once(tmp_path: Path):
    good = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
    bad = MALFORMED / "unknown-key-typo.yaml"
    result = run(str(good), str(bad), str(good))
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "2 drills checked: 1 valid, 1 invalid (2 problems)"


def test_folders_are_searched_recursively_for_yaml_and_yml(tmp_path: Path):
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (sub / "one.yml").write_text((bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text())
    (tmp_path / "two.yaml").write_text("schema_version: 1\n")
    (tmp_path / "notes.txt").write_text("not a drill")
    result = run(str(tmp_path))
    assert result.exit_code == 1
    assert "2 drills checked: 1 valid, 1 invalid" in result.output
    assert "notes.txt" not in result.output


def test_json_format_is_one_object_per_problem_and_summary_on_stderr():
    bad = MALFORMED / "unknown-key-typo.yaml"
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(bad)], catch_exceptions=False)
    assert result.exit_code == 1
    objects = [json.loads(l) for l in result.stdout.splitlines()]
    assert objects == [
        {"path": str(bad), "line": 57, "column": 1, "message": objects[0]["message"]},
        {"path": str(bad), "line": 62, "column": 3, "message": objects[1]["message"]},
    ]
    assert "did you mean `evidence`?" in objects[1]["message"]
    assert result.stderr == "1 drill checked: 0 valid, 1 invalid (2 problems)\n"


def test_json_format_prints_nothing_on_stdout_for_valid_drills():
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(bundled_drills_dir())])
    assert result.exit_code == 0 and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ([], "Missing argument 'PATH...'"),
        (["does-not-exist.yaml"], "does not exist"),
        (["--format", "xml", "drills"], "Invalid value for '--format'"),
    ],
)
def test_usage_errors_exit_2(args, fragment):
    result = CliRunner().invoke(main, ["validate", *args])
    assert result.exit_code == 2 and fragment in result.output


def test_a_folder_without_drills_is_a_usage_error(tmp_path: Path):
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and "no drill files (*.yaml, *.yml) found" in result.output


def test_help_documents_the_json_lines_format_and_exit_codes():
    result = CliRunner().invoke(main, ["validate", "--help"])
    assert "JSON Lines" in result.output and "Exit status: 0" in result.output


def test_validate_does_not_import_textual():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from warroom.cli import main\n"
        f"r = CliRunner().invoke(main, ['validate', {str(bundled_drills_dir())!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        "assert 'textual' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, timeout=60)


def test_an_internal_error_is_reported_as_a_problem_not_a_traceback(monkeypatch):
    import warroom.core.loader as loader_mod

    def broken(path):
        raise RuntimeError("boom")

    monkeypatch.setattr(loader_mod, "load_drill", broken)
    good = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
    result = CliRunner().invoke(main, ["validate", str(good)])
    assert result.exit_code == 1
    assert f"{good}:1:1: warroom could not check this file (internal error RuntimeError: boom)" in result.output
