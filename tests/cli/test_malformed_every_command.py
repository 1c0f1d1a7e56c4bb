"""Every malformed drill of tests/malformed/, through every command that loads a drill (validate, validate --format
json, check, cost, run): exit status 1, the expected path:line:col: problem, never a traceback or "internal error".

(The picker's side is tested with the terminal UI.)"""

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

COMMANDS = {
    "validate": ["validate"],
    "validate-json": ["validate", "--format", "json"],
    "check": ["check"],
    "cost": ["cost"],
    "run": ["run"],
}


def _invoke(args: list[str], data_dir: Path):
    return CliRunner().invoke(main, ["--data-dir", str(data_dir), *args], catch_exceptions=True)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_command_reports_the_problem_and_exits_1(name: str, command: str, tmp_path: Path):
    line, column, fragment = EXPECTED[name]
    path = MALFORMED / f"{name}.yaml"
    result = _invoke([*COMMANDS[command], str(path)], tmp_path)
    out = result.output  # stdout and stderr together
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, out
    assert "Traceback" not in out and "internal error" not in out
    if command == "validate-json":
        objects = [json.loads(ln) for ln in result.stdout.splitlines()]
        assert any(
            (o["path"], o["line"], o["column"], o["severity"]) == (str(path), line, column, "error")
            and fragment in o["message"]
            for o in objects
        ), objects
    else:
        start = f"{path}:{line}:{column}: "
        assert any(ln.startswith(start) and fragment in ln for ln in out.splitlines()), out


@pytest.mark.parametrize(
    "name", ["overflowing-deadline", "bool-tag-maybe", "huge-whole-number", "raw-escape-character"]
)
@pytest.mark.parametrize("command", ["check", "cost", "run"])
def test_in_a_subprocess_no_traceback_reaches_the_terminal(name: str, command: str, tmp_path: Path):
    path = MALFORMED / f"{name}.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "warroom", "--data-dir", str(tmp_path), command, str(path)],
        capture_output=True, text=True, cwd=REPO, timeout=60, stdin=subprocess.DEVNULL,
    )
    line, column, _ = EXPECTED[name]
    assert proc.returncode == 1
    assert f"{path}:{line}:{column}: " in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr and "\x1b" not in proc.stdout + proc.stderr
