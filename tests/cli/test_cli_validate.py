"""`warroom validate`: problems as path:line:col: message, a summary line, exit codes 0/1/2, JSON Lines output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import REPO
from malformed_cases import EXPECTED, MALFORMED

from warroom.cli import main
from warroom.core.library import bundled_drills_dir, find_drill_files


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
        assert any(ln.startswith(expected) and fragment in ln for ln in out.splitlines()), (name, expected)
    assert "Traceback" not in out
    n = len(EXPECTED)
    n_problems = len(
        [ln for ln in out.splitlines() if ln.startswith(str(MALFORMED)) and ": not checked until " not in ln]
    )
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
    assert result.output.splitlines()[-1] == "2 drills checked: 1 valid, 1 invalid (1 problem)"


def test_folders_are_searched_recursively_for_yaml_and_yml(tmp_path: Path):
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    text = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    (sub / "duplicate-charge-refunds.yml").write_text(text)
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
    objects = [json.loads(ln) for ln in result.stdout.splitlines()]
    assert objects == [
        {"path": str(bad), "line": 62, "column": 3, "severity": "error", "message": objects[0]["message"]},
    ]
    assert "did you mean `evidence`?" in objects[0]["message"]
    # The typo is one problem (not also "missing the required key `evidence`"); the rules that need the evidence
    # are named on stderr, after the problems, and not counted.
    notes, summary = result.stderr.splitlines()[:-1], result.stderr.splitlines()[-1]
    assert summary == "1 drill checked: 0 valid, 1 invalid (1 problem)"
    assert notes and all(n.startswith(f"{bad}: not checked until the problem on line 62 is fixed: ") for n in notes)


def test_json_format_prints_nothing_on_stdout_for_valid_drills():
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(bundled_drills_dir())])
    assert result.exit_code == 0 and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ([], "Missing argument 'PATH_OR_ID...'"),
        (["does-not-exist.yaml"], "Invalid value for PATH_OR_ID: no file, folder or drill id 'does-not-exist.yaml'"),
        (["no-such-drill"], "no file, folder or drill id 'no-such-drill' (drill ids searched in "),
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
    import warroom.core.load as loader_mod

    def broken(path):
        raise RuntimeError("boom")

    monkeypatch.setattr(loader_mod, "load_drill_with_warnings", broken)
    good = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
    result = CliRunner().invoke(main, ["validate", str(good)])
    assert result.exit_code == 1
    assert f"{good}:1:1: warroom could not check this file (internal error RuntimeError: boom)" in result.output


# -- drill ids as arguments -------------------------------------------------------------------------------------------


def test_a_bundled_drill_id_is_accepted_like_a_path():
    result = run("duplicate-charge-refunds")
    assert (result.exit_code, result.output) == (0, "1 drill checked: 1 valid, 0 invalid\n")


def test_a_drill_id_in_a_drills_folder_is_accepted_and_its_problems_name_the_file(tmp_path: Path):
    text = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    (tmp_path / "my-drill.yaml").write_text(text.replace("id: duplicate-charge-refunds", "id: my-drill").replace(
        "difficulty: ", "difficulty: 9 #", 1))
    result = CliRunner().invoke(main, ["--drills", str(tmp_path), "validate", "my-drill"], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.output.startswith(f"{tmp_path / 'my-drill.yaml'}:")
    assert "`difficulty` must be at most 5" in result.output
    # Without --drills the id is unknown: a usage error.
    result = CliRunner().invoke(main, ["validate", "my-drill"])
    assert result.exit_code == 2 and "no file, folder or drill id 'my-drill'" in result.output


# -- rules across files: id = file name, no shared ids ----------------------------------------------------------------


def _bundled_text(drill_id: str = "duplicate-charge-refunds") -> str:
    return (bundled_drills_dir() / f"{drill_id}.yaml").read_text()


def _id_position(text: str) -> tuple[int, int]:
    lines = text.splitlines()
    line = next(i for i, ln in enumerate(lines) if ln.startswith("id: ")) + 1
    return line, 5


def test_a_drill_whose_id_is_not_its_file_name_is_invalid(tmp_path: Path):
    text = _bundled_text()
    f = tmp_path / "refunds.yaml"
    f.write_text(text)
    result = run(str(f))
    line, column = _id_position(text)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{f}:{line}:{column}: drill id `duplicate-charge-refunds` does not match the file name `refunds.yaml`: "
        "rename the file to duplicate-charge-refunds.yaml or change the id to `refunds` (warroom run and the picker "
        "find a drill by its file name)",
        "1 drill checked: 0 valid, 1 invalid (1 problem)",
    ]


def test_a_file_name_that_is_no_valid_id_only_suggests_renaming(tmp_path: Path):
    f = tmp_path / "my refunds.yml"
    f.write_text(_bundled_text())
    result = run(str(f))
    assert "rename the file to duplicate-charge-refunds.yml (warroom run" in result.output
    assert "change the id" not in result.output


def test_two_files_with_one_drill_id_the_second_is_reported_naming_the_first(tmp_path: Path):
    text = _bundled_text()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "duplicate-charge-refunds.yaml", tmp_path / "b" / "duplicate-charge-refunds.yaml"
    first.write_text(text)
    second.write_text("# a copy\n" + text)
    line, column = _id_position(text)
    result = run(str(tmp_path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{second}:{line + 1}:{column}: drill id `duplicate-charge-refunds` is already the id of {first} "
        f"(line {line}): two drills cannot share an id; change one of them",
        "2 drills checked: 1 valid, 1 invalid (1 problem)",
    ]


def test_cross_file_rules_apply_only_to_drills_that_load_and_show_in_json(tmp_path: Path):
    f = tmp_path / "other-name.yaml"
    f.write_text(_bundled_text().replace("difficulty: ", "difficulty: 9 #", 1))
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(f)])
    # The drill does not load (difficulty 9), so its id is unknown: only the load problem, nothing guessed.
    objects = [json.loads(ln) for ln in result.stdout.splitlines()]
    assert result.exit_code == 1 and len(objects) == 1 and "`difficulty` must be at most 5" in objects[0]["message"]
    f.write_text(_bundled_text())
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(f)])
    (obj,) = [json.loads(ln) for ln in result.stdout.splitlines()]
    line, column = _id_position(_bundled_text())
    assert (result.exit_code, obj["path"], obj["line"], obj["column"]) == (1, str(f), line, column)
    assert obj["message"].startswith("drill id `duplicate-charge-refunds` does not match the file name")
    assert result.stderr == "1 drill checked: 0 valid, 1 invalid (1 problem)\n"
